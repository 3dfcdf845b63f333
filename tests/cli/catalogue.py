"""What the bad-input and edge-case runners share: reading a tab-separated
catalogue, and telling a sanitizer's report in a call's stderr."""
import sys

SANITIZER_MARKS = ('Sanitizer', 'runtime error', 'LeakSanitizer')


def rows_of(path, columns):
    """-> [(line number, columns)] of the catalogue: '#' lines, blank lines and
    the header (first column 'id') skipped; a row with another column count or
    an id seen before ends the run with the file and line."""
    rows, ids = [], set()
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            cols = line.split('\t')
            if cols[0] == 'id':
                continue
            if len(cols) != columns:
                sys.exit('%s:%d: expected %d tab-separated columns, got %d' % (path, n, columns, len(cols)))
            if cols[0] in ids:
                sys.exit('%s:%d: duplicate id %s' % (path, n, cols[0]))
            ids.add(cols[0])
            rows.append((n, cols))
    return rows


def sanitizer_report(err):
    """The first sanitizer mark in stderr, or None."""
    for mark in SANITIZER_MARKS:
        if mark in err:
            return 'sanitizer report (%s)' % mark
    return None
