#!/usr/bin/env python3
"""Renders layoutx's SVG pictures in headless Chromium and checks the PNGs show
the grid: dark grid lines and the cells' fill colours. Exits 77 (skipped)
where Chromium is not installed. Usage: render_png.py LAYOUTX OUTDIR"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

SKIP = 77

# (name, layoutx arguments, a fill colour the picture must show)
PICTURES = [
    ("layout", ["draw", "(4,3):(3,1)"], (153, 153, 153)),               # black!40: offset 1
    ("hierarchical", ["draw", "((2,2),(2,4)):((1,8),(2,4))"], (204, 204, 204)),
    ("tv", ["tv", "((4,8),(2,2)):((32,1),(16,8))", "(16,8)", "--format", "svg"], (175, 175, 255)),  # thread 0
    ("mma", ["atom", "SM80_16x8x16_F16F16F16F16_TN", "--format", "svg"], (175, 255, 175)),         # thread 1
    ("ldmatrix", ["atom", "SM75_U32x4_LDSM_N", "--format", "svg"], (255, 255, 175)),               # thread 2
]


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def decode_png(data):
    """Width, height and rows of (r, g, b) pixels of an 8-bit RGB/RGBA PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or color not in (2, 6) or interlace:
                raise ValueError(f"unsupported PNG (depth {depth}, colour type {color}, interlace {interlace})")
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, rows, previous = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def render(chromium, svg, png, width, height):
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        f"--user-data-dir={profile}", "--hide-scrollbars", f"--window-size={width},{height}",
                        f"--screenshot={png}", "file://" + os.path.abspath(svg)],
                       capture_output=True, timeout=180, check=False)


def main():
    layoutx, outdir = sys.argv[1], sys.argv[2]
    chromium = find_chromium()
    if not chromium:
        print("chromium is not installed: skipped")
        return SKIP
    os.makedirs(outdir, exist_ok=True)
    for name, args, fill in PICTURES:
        svg, png = os.path.join(outdir, name + ".svg"), os.path.join(outdir, name + ".png")
        text = subprocess.run([layoutx] + args, capture_output=True, text=True, check=True).stdout
        with open(svg, "w") as f:
            f.write(text)
        width, height = (int(float(v)) for v in re.search(r'width="([\d.]+)" height="([\d.]+)"', text).groups())
        if os.path.exists(png):
            os.remove(png)
        render(chromium, svg, png, width, height)
        if not os.path.exists(png):
            raise SystemExit(f"{name}: chromium wrote no PNG")
        w, h, rows = decode_png(open(png, "rb").read())
        pixels = [p for row in rows for p in row]
        dark = sum(1 for p in pixels if max(p) < 60)
        filled = sum(1 for p in pixels if all(abs(a - b) <= 3 for a, b in zip(p, fill)))
        print(f"{name}: {w}x{h} PNG, {dark} dark pixels, {filled} pixels of fill {fill}")
        if (w, h) != (width, height) or dark < w + h or filled < 200:
            raise SystemExit(f"{name}: the PNG does not show the grid ({png})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
