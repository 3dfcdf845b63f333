#!/usr/bin/env python3
"""Extend atoms.jsonl with atoms whose layouts follow from CuTe's trait headers.

The first lines of atoms.jsonl were printed by CuTe itself. This script appends
the atoms CuTe defines by inheritance (same layouts under another name: the
saturating, mixed-sign, complex and POPC variants) and the SM90 GMMA families
whose layouts are written with CuTe's GMMA::ABLayout / ALayout_64xK /
CLayout_64xN templates. Each added line carries `derived_from`, saying which
header and which definition it comes from. Re-running it is idempotent.

Usage: python3 data/derive_atoms.py   (rewrites data/atoms.jsonl in place)
"""
import json
import pathlib

PATH = pathlib.Path(__file__).with_name("atoms.jsonl")


def gmma_ab(mn, k):
    # GMMA::ABLayout<MN,K>: every thread of the warpgroup sees the whole smem tile.
    return f"(_128,(_{mn},_{k})):(_0,(_1,_{mn}))"


def gmma_c(n):
    # GMMA::CLayout_64xN<N>
    return f"((_4,_8,_4),(_2,_2,_{n // 8})):((_128,_1,_16),(_64,_8,_512))"


# Register-sourced A (RS atoms), by the K of the atom.
GMMA_A_RS = {
    8: "((_4,_8,_4),(_2,_2)):((_64,_1,_16),(_8,_256))",            # ALayout_64x8
    16: "((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))",   # ALayout_64x16
    32: "((_4,_8,_4),(_4,_2,_2)):((_256,_1,_16),(_64,_8,_1024))",  # ALayout_64x32
}


def gmma(name, n, k, rs, header):
    return {
        "kind": "mma", "name": name, "Shape_MNK": f"(_64,_{n},_{k})", "ThrID": "_128:_1",
        "ALayout": GMMA_A_RS[k] if rs else gmma_ab(64, k), "BLayout": gmma_ab(n, k), "CLayout": gmma_c(n),
        "derived_from": f"{header}: GMMA::{'ALayout_64x%d' % k if rs else 'ABLayout<64,%d>' % k}, "
                        f"ABLayout<{n},{k}>, CLayout_64xN<{n}>",
    }


def aliases(base):
    """Atoms whose MMA_Traits inherit another atom's layouts: (new name, parent, header)."""
    out = []
    sm80 = "mma_traits_sm80.hpp"
    for shape in ("8x8x16", "16x8x16", "16x8x32"):
        parent = f"SM80_{shape}_S32S8S8S32_TN"
        out.append((parent + "_SATURATE", parent, sm80))
        for ab in ("S8U8", "U8S8", "U8U8"):
            out.append((f"SM80_{shape}_S32{ab}S32_TN", parent, sm80))
            out.append((f"SM80_{shape}_S32{ab}S32_TN_SATURATE", parent, sm80))
    for shape in ("8x8x32", "16x8x32", "16x8x64"):
        parent = f"SM80_{shape}_S32S4S4S32_TN"
        out.append((parent + "_SATURATE", parent, sm80))
        for ab in ("S4U4", "U4S4", "U4U4"):
            out.append((f"SM80_{shape}_S32{ab}S32_TN", parent, sm80))
            out.append((f"SM80_{shape}_S32{ab}S32_TN_SATURATE", parent, sm80))
    for name in ("SM80_8x8x4_C64C64C64C64_TN", "SM80_8x8x4_GC64C64C64GC64_TN"):
        out.append((name, "SM80_8x8x4_F64F64F64F64_TN", sm80))
    out.append(("SM80_16x8x256_S32U1U1S32_TN_ANDPOPC", "SM80_16x8x256_S32U1U1S32_TN_XORPOPC", sm80))
    for acc in ("F32", "F16"):
        for ab in ("E4M3E4M3", "E4M3E5M2", "E5M2E4M3", "E5M2E5M2"):
            out.append((f"SM89_16x8x32_{acc}{ab}{acc}_TN", "SM89_16x8x32_F32E4M3E4M3F32_TN", "mma_traits_sm89.hpp"))
    for k in (4, 8, 16):
        out.append((f"SM90_16x8x{k}_C64C64C64C64_TN", f"SM90_16x8x{k}_F64F64F64F64_TN", "mma_traits_sm90.hpp"))
    return [(n, p, h) for n, p, h in out if n not in base]


def derived(base):
    added = []
    for name, parent, header in aliases(base):
        entry = {k: v for k, v in base[parent].items() if k != "derived_from"}
        entry["name"] = name
        entry["derived_from"] = f"{header}: MMA_Traits<{name}> inherits MMA_Traits<{parent}>"
        added.append(entry)
    # SM80_8x8x128 POPC: its own traits (ALayout = BLayout = ((4,8),32):((256,1),8), C = SM80_8x8_Row).
    for op in ("XORPOPC", "ANDPOPC"):
        added.append({
            "kind": "mma", "name": f"SM80_8x8x128_S32U1U1S32_TN_{op}", "Shape_MNK": "(_8,_8,_128)",
            "ThrID": "_32:_1", "ALayout": "((_4,_8),_32):((_256,_1),_8)", "BLayout": "((_4,_8),_32):((_256,_1),_8)",
            "CLayout": "((_4,_8),_2):((_16,_1),_8)",
            "derived_from": "mma_traits_sm80.hpp: MMA_Traits<SM80_8x8x128_S32U1U1S32_TN_XORPOPC> (SM80_8x8_Row for C)"})
    every_n = range(8, 257, 8)  # mma_traits_sm90_gmma.hpp and mma_traits_sm90_gmma_ext.hpp
    main_n = (8, 16, 32, 64, 96, 128, 192, 256)  # mma_traits_sm90_gmma.hpp
    for types in ("F16F16F16", "F32F16F16", "F32BF16BF16"):
        for n in every_n:
            header = "mma_traits_sm90_gmma.hpp" if n in main_n else "mma_traits_sm90_gmma_ext.hpp"
            for rs in (False, True):
                added.append(gmma(f"SM90_64x{n}x16_{types}_{'RS' if rs else 'SS'}", n, 16, rs, header))
    for types, k in (("F32TF32TF32", 8), ("S32S8S8", 32), ("F32E4M3E4M3", 32)):
        for n in main_n:
            for rs in (False, True):
                added.append(gmma(f"SM90_64x{n}x{k}_{types}_{'RS' if rs else 'SS'}_TN", n, k, rs,
                                  "mma_traits_sm90_gmma.hpp"))
    return added


def main():
    lines = [json.loads(l) for l in PATH.read_text().splitlines() if l.strip()]
    printed = [e for e in lines if "derived_from" not in e]
    base = {e["name"]: e for e in printed}
    out = list(printed)
    for entry in derived(base):
        if entry["name"] in base:
            # CuTe printed this one: the derivation must agree with it.
            mine = {k: v for k, v in entry.items() if k != "derived_from"}
            if mine != base[entry["name"]]:
                raise SystemExit(f"derivation disagrees with CuTe's print for {entry['name']}")
            continue
        base[entry["name"]] = entry
        out.append(entry)
    PATH.write_text("".join(json.dumps(e) + "\n" for e in out))
    print(f"{len(printed)} printed by CuTe, {len(out) - len(printed)} derived, {len(out)} in all")


if __name__ == "__main__":
    main()
