#!/bin/sh
# The Debian package: `cpack -G DEB` from the build folder, unpacked into a
# temporary root with dpkg -x; the files must lie where Debian looks for them
# and the binary must run from there.
#   package_deb.sh BUILD_DIR
# Exit 77 (skipped) without dpkg-deb.
set -eu
build=$1
command -v dpkg-deb >/dev/null 2>&1 || { echo "dpkg-deb not found: skipping"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/out/*.deb)
dpkg-deb -I "$deb" | grep -q "Package: layoutx" || { echo "no 'Package: layoutx' in $deb"; exit 1; }
dpkg -x "$deb" "$work/root"
status=0
for f in usr/bin/layoutx usr/share/man/man1/layoutx.1.gz usr/share/bash-completion/completions/layoutx \
         usr/share/zsh/vendor-completions/_layoutx usr/share/fish/vendor_completions.d/layoutx.fish; do
  [ -f "$work/root/$f" ] || { echo "missing from the package: /$f"; status=1; }
done
[ "$status" = 0 ] || { (cd "$work/root" && find . -type f); exit 1; }
got=$("$work/root/usr/bin/layoutx" eval "logical_divide((8,8):(8,1), (2,4))")
[ "$got" = "((2,4),(4,2)):((8,16),(1,4))" ] || { echo "the packaged layoutx printed: $got"; exit 1; }
# Built with CUDA: the GPU evaluator's module is packaged where the packaged
# layoutx opens it (without a GPU it then says so, not that the module is missing).
if [ -f "$build/layoutx-gpu.so" ]; then
  module=$(cd "$work/root" && find usr/lib -name layoutx-gpu.so)
  [ -n "$module" ] || { echo "missing from the package: the GPU module layoutx-gpu.so"; exit 1; }
  if ! "$work/root/usr/bin/layoutx" check --device "(4,3):(3,1)" >/dev/null 2>"$work/device.err"; then
    grep -q "no CUDA GPU found" "$work/device.err" || { echo "the packaged layoutx did not open /$module:"; cat "$work/device.err"; exit 1; }
  fi
fi
gzip -dc "$work/root/usr/share/man/man1/layoutx.1.gz" | grep -q '^\.TH LAYOUTX' || { echo "the man page is not a layoutx(1) page"; exit 1; }
echo "$(basename "$deb"): $(dpkg-deb -f "$deb" Depends)"
