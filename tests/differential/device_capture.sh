#!/bin/sh
# Runs the kernel programs of program_runner.py emit-device on a GPU and keeps
# what each prints: OUT/devNN/K.out (stdout) and OUT/devNN/K.rc (exit status).
#
#   device_capture.sh DIR OUT [CUTLASS_INCLUDE_TARBALL]
#
# DIR holds devNN.cu, devNN.ids and, where they were built beforehand (nvcc
# -std=c++17 -arch=sm_90a --expt-relaxed-constexpr -I$CUTLASS_DIR/include),
# devNN.bin.  A unit whose binary is missing or does not start on this machine
# is built here from its .cu with the CUTLASS headers of the tarball (its
# include/ folder), all units side by side.
set -u
dir=$1
out=$2
tarball=${3:-}
inc=""
if [ -n "$tarball" ]; then
  inc=$(mktemp -d)
  tar -xzf "$tarball" -C "$inc"
fi
for cu in "$dir"/dev*.cu; do
  base=${cu%.cu}
  starts=0
  if [ -x "$base.bin" ]; then
    "$base.bin" -1 >/dev/null 2>&1
    [ $? -eq 2 ] && starts=1  # no program -1: it started and said so
  fi
  if [ $starts -eq 0 ] && [ -n "$inc" ]; then
    echo "building $(basename "$base") here"
    nvcc -std=c++17 -arch=sm_90a --expt-relaxed-constexpr -w -I"$inc/include" "$cu" -o "$base.bin" \
      > "$base.nvcc.log" 2>&1 &
  fi
done
wait
for cu in "$dir"/dev*.cu; do
  base=${cu%.cu}
  name=$(basename "$base")
  mkdir -p "$out/$name"
  [ -f "$base.nvcc.log" ] && cp "$base.nvcc.log" "$out/$name/nvcc.log"
  k=0
  while read -r id; do
    timeout 60 "$base.bin" "$k" > "$out/$name/$k.out" 2> "$out/$name/$k.err"
    echo $? > "$out/$name/$k.rc"
    k=$((k + 1))
  done < "$base.ids"
done
