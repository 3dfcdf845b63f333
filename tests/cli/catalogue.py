"""What the catalogue runners share: reading a tab-separated catalogue, judging
a call's exit status, stdout and stderr (a sanitizer's report included), and
reporting the rows that failed."""
import json
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


def verdict(returncode, stdout, stderr, code, out_has, err_has, max_stderr=None):
    """None when a call did what its row expects, else what is wrong (with its output).

    stdout and stderr are the call's bytes (stdout None when it went elsewhere);
    out_has and err_has: '' means the stream must be empty, else it must contain
    the text; max_stderr bounds the size of stderr in bytes."""
    out = (stdout or b'').decode('utf-8', 'replace')
    err = stderr.decode('utf-8', 'replace')
    problems = []
    if returncode != code:
        problems.append('exit status %d, expected %d' % (returncode, code))
    if out_has == '' and out:
        problems.append('stdout not empty: %r' % out[:200])
    elif out_has not in out:
        problems.append('stdout lacks %r' % out_has)
    if err_has == '' and err:
        problems.append('stderr not empty')
    elif err_has not in err:
        problems.append('stderr lacks %r' % err_has)
    if max_stderr is not None and len(stderr) > max_stderr:
        problems.append('stderr has %d bytes, more than %d' % (len(stderr), max_stderr))
    if sanitizer_report(err):
        problems.append(sanitizer_report(err))
    if not problems:
        return None
    shown = '\n    stdout: ' + out[:300] if out else ''
    return '; '.join(problems) + shown + '\n    stderr: ' + err.strip().replace('\n', '\n            ')[:1200]


def report(rows, problem_of):
    """Runs problem_of(row) for every row (None: it passed), prints each
    failure and the totals; -> the runner's exit status."""
    failed = 0
    for row in rows:
        problem = problem_of(row)
        if problem:
            failed += 1
            print('FAIL %s %s: %s' % (row[0], json.dumps(row[1]), problem))
    print('%d passed, %d failed' % (len(rows) - failed, failed))
    return 1 if failed else 0
