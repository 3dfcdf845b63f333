#!/usr/bin/env python3
"""The command line's pictures parse as XML: `draw`, `tv` and `atom` output in
SVG, and the <svg> element of the HTML pages. Usage: check_svg.py LAYOUTX"""
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"

PICTURES = [
    ["draw", "(4,3):(3,1)"],
    ["draw", "8:1"],
    ["draw", "((2,2),(2,4)):((1,8),(2,4))"],
    ["draw", "(2,3,4)", "--color-by", "bank", "--bits", "16"],
    ["draw", "Sw<3,4,3> o (8,64):(64,1)"],
    ["tv", "((4,8),(2,2)):((32,1),(16,8))", "(16,8)", "--format", "svg"],
    ["atom", "SM80_16x8x16_F16F16F16F16_TN", "--format", "svg"],
    ["atom", "SM70_8x8x4_F32F16F16F32_NT", "--tile", "(2,2,1)", "--format", "svg"],
    ["atom", "SM90_64x64x16_F16F16F16_RS", "--format", "svg"],
    ["atom", "SM75_U16x8_LDSM_T", "--format", "svg"],
]


def run(layoutx, args):
    result = subprocess.run([layoutx] + args, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"layoutx {' '.join(args)} failed: {result.stderr}")
    return result.stdout


def check(name, text):
    root = ET.fromstring(text)
    if root.tag != SVG + "svg":
        raise SystemExit(f"{name}: the root is {root.tag}, not svg")
    cells = root.findall(f".//{SVG}g[@class='cell']")
    if not cells or any(c.find(SVG + "title") is None for c in cells):
        raise SystemExit(f"{name}: no cells, or a cell without its hover text")
    return len(cells)


def main():
    layoutx = sys.argv[1]
    for args in PICTURES:
        n = check(" ".join(args), run(layoutx, args))
        html = run(layoutx, [a if a != "svg" else "html" for a in args] + ([] if "--format" in args else ["--format", "html"]))
        begin, end = html.index("<svg"), html.index("</svg>") + len("</svg>")
        if check(" ".join(args) + " (html)", html[begin:end]) != n:
            raise SystemExit(f"{' '.join(args)}: the HTML page and the SVG differ in cells")
    print(f"{len(PICTURES)} pictures parse as SVG and as HTML")


if __name__ == "__main__":
    main()
