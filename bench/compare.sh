#!/usr/bin/env bash
# The same figures for several layoutx binaries, measured side by side in one
# run: rounds alternate the binaries, so a change in the machine's load lands
# on all of them. For each figure: the median wall time and the median CPU
# time (user + system, of every thread) of each binary, and each one's
# speed-up over the first (the first's time over its own). Wall time is what
# a user waits for (eval - uses every core); CPU time is what a loaded
# machine disturbs less. A figure a binary cannot run (an option it lacks)
# is "-".
#   bench/compare.sh NAME=LAYOUTX NAME=LAYOUTX ...   (ROUNDS=5 by default)
set -uo pipefail
ROUNDS=${ROUNDS:-5}
names=() bins=()
for a in "$@"; do names+=("${a%%=*}"); bins+=("${a#*=}"); done
((${#bins[@]} >= 1)) || { echo "usage: bench/compare.sh NAME=LAYOUTX ..." >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

exprs=('(4,3):(3,1)' 'logical_divide((8,8):(8,1), (2,4))' 'composition((4,6):(1,4), (3,2):(2,1))'
  'complement(4:2, 32)' 'right_inverse((4,8):(8,1))' 'Sw<3,4,3> o (8,64):(64,1)'
  'coalesce(((2,4),(3,5)):((1,2),(8,24)))' 'blocked_product((2,2):(1,2), (3,4))')
for ((i = 0; i < 100000; i++)); do echo "${exprs[i % ${#exprs[@]}]}"; done >"$WORK/small.txt"
for ((i = 0; i < 2000; i++)); do echo 'composition((1024,1024):(1024,1), (1024,1024):(1024,1))'; done >"$WORK/big.txt"
: >"$WORK/empty.txt"

L24='((32,128),(32,128)):((1,1024),(32,131072))'
SW='Sw<3,4,3> o (4096,4096):(4096,1)'
# name | stdin file | arguments (one string, split on '|')
figures=(
  "offsets 2^24|empty|offsets|$L24"
  "offsets 2^24 swizzled|empty|offsets|Sw<3,4,3> o $L24"
  "offsets 2^24 --format csv|empty|offsets|-f|csv|$L24"
  "print 1024x1024 grid|empty|--max-cells|1048576|print|(1024,1024):(1024,1)"
  "start-up: print (4,3):(3,1)|empty|print|(4,3):(3,1)"
  "eval - 10^5 small expressions|small|eval|-"
  "eval --jobs 1 - 10^5 small expressions|small|eval|--jobs|1|-"
  "eval - 2000 compositions (1024,1024):(1024,1)|big|eval|-"
  "info swizzled 2^24|empty|info|$SW"
  "eq swizzled 2^24, equal|empty|eq|$SW|Sw<3,4,3> o (4096,(2,2048)):(4096,(1,2))"
  "eq -q swizzled 2^24, differing|empty|eq|-q|$SW|Sw<3,4,3> o (4096,(2,2048)):(4096,(1,3))"
  "check composition 2^22|empty|check|composition((2048,2048):(2048,1), (2048,2048):(1,2048))"
)

# One run: "wall cpu" seconds, or "- -" when the binary refuses the
# arguments (exit status 2 or more; eq's 1 means "not equal"). The wall time
# is read to the millisecond (GNU time's own is in hundredths).
measure() {
  local bin=$1 stdin=$2
  shift 2
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -q -f '%U %S' -o "$WORK/t" "$bin" "$@" <"$WORK/$stdin.txt" >/dev/null 2>/dev/null
  local rc=$?
  t1=$(date +%s.%N)
  if ((rc >= 2)); then echo "- -"; return; fi
  read -r user sys <"$WORK/t"
  awk -v a="$t0" -v b="$t1" -v u="$user" -v s="$sys" 'BEGIN {printf "%.3f %.3f\n", b - a, u + s}'
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0 || a[1] == "-") print "-"; else print a[int((NR+1)/2)]}'; }

header="| figure |"
rule="| --- |"
for n in "${names[@]}"; do header+=" $n wall, CPU |"; rule+=" --- |"; done
for n in "${names[@]:1}"; do header+=" ${names[0]} / $n (wall, CPU) |"; rule+=" --- |"; done
echo "$header"
echo "$rule"
for f in "${figures[@]}"; do
  IFS='|' read -r -a parts <<<"$f"
  name=${parts[0]} stdin=${parts[1]}
  args=("${parts[@]:2}")
  for ((k = 0; k < ${#bins[@]}; k++)); do : >"$WORK/w$k"; : >"$WORK/c$k"; done
  for ((r = 0; r < ROUNDS; r++)); do
    for ((k = 0; k < ${#bins[@]}; k++)); do
      read -r w c <<<"$(measure "${bins[k]}" "$stdin" "${args[@]}")"
      echo "$w" >>"$WORK/w$k"
      echo "$c" >>"$WORK/c$k"
    done
  done
  row="| $name |"
  walls=() cpus=()
  for ((k = 0; k < ${#bins[@]}; k++)); do
    walls+=("$(median <"$WORK/w$k")")
    cpus+=("$(median <"$WORK/c$k")")
    row+=" ${walls[k]} s, ${cpus[k]} s |"
  done
  for ((k = 1; k < ${#bins[@]}; k++)); do
    row+=" $(awk -v a="${walls[0]}" -v b="${walls[k]}" -v c="${cpus[0]}" -v d="${cpus[k]}" \
      'BEGIN {if (a == "-" || b == "-" || b == 0 || d == 0) print "-"; else printf "%.2f, %.2f", a / b, c / d}') |"
  done
  echo "$row"
done
