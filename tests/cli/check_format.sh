#!/usr/bin/env bash
# The C++ sources against .clang-format (clang-format --dry-run --Werror):
# src/, tests/*.cpp and *.hpp, bench/ and fuzz/; the data under tests/ and the
# examples are not C++ of the project. Exits 77 (skipped) without clang-format.
set -euo pipefail
cd "${1:-$(dirname "$0")/../..}"
formatter=${CLANG_FORMAT:-clang-format}
if ! command -v "$formatter" >/dev/null; then
  echo "clang-format not found: the format check is skipped"
  exit 77
fi
files=()
while IFS= read -r -d '' f; do files+=("$f"); done < <(
  { find src bench fuzz -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) -print0
    find tests -maxdepth 1 -type f \( -name '*.cpp' -o -name '*.hpp' \) -print0; } | sort -z)
"$formatter" --dry-run --Werror "${files[@]}"
echo "clang-format: ${#files[@]} files as .clang-format has them"
