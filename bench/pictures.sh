#!/usr/bin/env bash
# The pictures' cost, run by hand, each as a ratio against a baseline in the
# same run so the numbers compare across machines:
#   draw (SVG, TikZ, HTML) of a 256x256 layout vs print (its text grid);
#   print with colours vs without; tv and atom pictures vs their text;
#   the embedded atom catalogue (parsed on first use) vs one eval.
#   bench/pictures.sh [path/to/layoutx]
set -euo pipefail
layoutx=${1:-build/layoutx}
runs=5

median_ms() {  # median wall time of a command, in ms
  local times=()
  for _ in $(seq $runs); do
    local t0 t1
    t0=$(date +%s%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p" | awk '{printf "%.1f", $1 / 1000}'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2fx", a / b}'; }

row() { printf '%-44s %9s ms  %s\n' "$1" "$2" "${3:-}"; }

big="((16,16),(16,16)):((1,256),(16,4096))"
print_ms=$(median_ms "$layoutx" print "$big")
row "print 256x256 (baseline)" "$print_ms"
row "print 256x256, coloured" "$(median_ms "$layoutx" --color=always print "$big")" \
    "$(ratio "$(median_ms "$layoutx" --color=always print "$big")" "$print_ms") of print"
for f in svg tikz html; do
  ms=$(median_ms "$layoutx" draw "$big" --format $f)
  row "draw 256x256 --format $f" "$ms" "$(ratio "$ms" "$print_ms") of print"
done

tv="((4,8,4),(2,2,32)):((128,1,16),(64,8,512))"
tv_text=$(median_ms "$layoutx" tv "$tv" "(64,256)")
row "tv 64x256 (text, baseline)" "$tv_text"
tv_svg=$(median_ms "$layoutx" tv "$tv" "(64,256)" --format svg)
row "tv 64x256 --format svg" "$tv_svg" "$(ratio "$tv_svg" "$tv_text") of text"

eval_ms=$(median_ms "$layoutx" eval "(4,3):(3,1)")
row "eval one layout (baseline)" "$eval_ms"
list_ms=$(median_ms "$layoutx" atom --list)
row "atom --list (parses the catalogue)" "$list_ms" "$(ratio "$list_ms" "$eval_ms") of eval"
gmma=SM90_64x256x16_F32F16F16_SS
atom_ms=$(median_ms "$layoutx" atom $gmma)
row "atom $gmma" "$atom_ms" "$(ratio "$atom_ms" "$eval_ms") of eval"
atom_svg=$(median_ms "$layoutx" atom $gmma --format svg)
row "atom $gmma --format svg" "$atom_svg" "$(ratio "$atom_svg" "$atom_ms") of its text"
