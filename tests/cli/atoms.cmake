# The atom catalogue through the command line (ctest cli_atoms): atom --list and its
# filters, and tv, draw, bank and swizzle-search given an atom instead of layouts.
#   cmake -DLAYOUTX=path/to/layoutx -P atoms.cmake
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)

# atom --list filters: architecture, kind, value type, words of the name.
layoutx(atom --list --arch sm100 --kind mma)
expect(0 "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256> +mma +\\(128,256,16\\)" "^$" "--arch sm100 --kind mma")
if(out MATCHES "copy|SM90")
  fail("--arch sm100 --kind mma lists other atoms")
endif()
layoutx(atom --list --kind copy --type uint128_t)
expect(0 "UniversalCopy<uint128_t> +copy\nSM80_CP_ASYNC_CACHEALWAYS<uint128_t> +copy" "^$" "--kind copy --type uint128_t")
layoutx(atom --list --arch 90 --type float_e4m3_t 64x256)
expect(0 "SM90_64x256x32_F32E4M3E4M3_SS_TN" "^$" "--arch 90 --type float_e4m3_t 64x256")
if(out MATCHES "F16F16|SM100")
  fail("--type float_e4m3_t lists other types")
endif()
layoutx(atom --list --arch hopper)
expect(2 "" "--arch takes an architecture such as SM90" "--arch hopper")
layoutx(atom --list --type halfx)
expect(2 "" "--type takes a value type" "--type halfx")
layoutx(atom --list --arch sm61 --kind copy)
expect(1 "" "no atom of SM61 and of kind copy" "nothing matches")
layoutx(atom SM80_16x8x16_F16F16F16F16_TN --arch sm80)
expect(2 "" "--arch, --kind and --type filter --list" "a filter without --list")

# Templated atoms by their C++ spelling.
layoutx(atom "cute::UniversalCopy<cute::uint128_t, cute::uint128_t>")
expect(0 "^UniversalCopy<uint128_t> \\(copy atom, printed by CuTe\\)" "^$" "UniversalCopy by its C++ spelling")
layoutx(atom "SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>")
expect(0 "Shape_MNK:  \\(128,256,16\\)\n  LayoutA_TV: \\(1,\\(128,16\\)\\):\\(0,\\(1,128\\)\\)" "^$" "a UMMA atom")

# tv --atom: one operand of an atom.
layoutx(tv --atom SM80_16x8x8_F16F16F16F16_TN --operand A)
expect(0 "T0V0" "^$" "tv --atom, operand A")
layoutx(tv --atom SM75_U32x4_LDSM_N --operand dst --bits 16 --by-thread)
expect(0 "T0" "^$" "tv --atom of a copy atom")
layoutx(tv --atom SM75_U32x4_LDSM_N --operand C)
expect(1 "" "is a copy atom: --operand is src or dst" "tv --atom, a copy atom's operand C")
layoutx(tv --atom SM75_U32x4_LDSM_N "(4,4)" "(4,4)")
expect(2 "" "tv takes TV_LAYOUT and TILE, or --atom NAME" "tv --atom with layouts")
layoutx(tv --atom NOT_AN_ATOM)
expect(1 "" "no atom is called 'NOT_AN_ATOM'" "tv --atom unknown")

# draw --atom: the atom's picture.
layoutx(draw --atom "SM90_64x8x16_F16F16F16_SS" --format svg)
expect(0 "^<\\?xml.*</svg>\n$" "^$" "draw --atom of a GMMA atom")
layoutx(draw --atom "UniversalCopy<uint32_t>" --format tikz)
expect(0 "tikzpicture" "^$" "draw --atom of UniversalCopy")
layoutx(draw)
expect(2 "" "draw takes EXPR, or --atom NAME" "draw without EXPR")

# bank --atom and swizzle-search KIND: the instruction behind a copy atom.
layoutx(bank --atom SM75_U32x4_LDSM_N --elem-bytes 2 "32:8")
expect(0 "wavefronts" "^$" "bank --atom ldmatrix")
layoutx(bank --access ldsm4 --elem-bytes 2 "32:8")
set(ldsm4 "${out}")
layoutx(bank --atom SM75_U32x4_LDSM_N --elem-bytes 2 "32:8")
if(NOT out STREQUAL ldsm4)
  fail("bank --atom SM75_U32x4_LDSM_N differs from --access ldsm4")
endif()
layoutx(bank --atom SM100_TMEM_LOAD_32dp32b1x --elem-bytes 2 "32:8")
expect(1 "" "tensor memory" "bank --atom of a TMEM copy")
layoutx(bank --elem-bytes 2 "32:8")
expect(2 "" "bank needs --access or --atom" "bank without an access")
layoutx(swizzle-search "(16,64):(64,1)" --elem-bytes 2 --write "UniversalCopy<uint128_t>:(8,4,4):(128,1,4)"
        --read "SM75_U32x4_LDSM_N:(16,2,4):(1,128,256)")
set(by_atom "${out}")
expect(0 "Sw<" "^$" "swizzle-search with atoms")
layoutx(swizzle-search "(16,64):(64,1)" --elem-bytes 2 --write "st128:(8,4,4):(128,1,4)" --read "ldsm4:(16,2,4):(1,128,256)")
if(NOT out STREQUAL by_atom)
  fail("swizzle-search with atoms differs from st128 / ldsm4")
endif()
layoutx(swizzle-search "(16,64):(64,1)" --elem-bytes 2 --read "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>:(8,4,4):(128,1,4)")
expect(1 "" "cp.async writes shared memory" "swizzle-search reading with cp.async")

# One atom of each kind and family through tv, draw and atom --grid (8-bit values
# fit every copy atom, UniversalCopy<uint8_t> included).
foreach(name SM61_DP4A SM70_8x8x4_F16F16F16F16_TN SM80_16x8x16_F32BF16BF16F32_TN SM90_64x96x16_F32F16F16_RS
             "SM90::GMMA::SPARSE::GMMA_64x64x32_F16F16F16_SS" "SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,128>"
             "SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,64,32>"
             "SM120_16x8x32_TN<float_e4m3_t,float_e4m3_t,float>" SM100_2x1x1_F32F32F32F32 SM100_TMEM_LOAD_16dp256b1x
             SM100_UTCCP_4dp256bit_1cta "UniversalCopy<uint8_t>" "SM80_CP_ASYNC_CACHEALWAYS<uint32_t>"
             SM50_Shuffle_U32_2x2Trans_XOR4 SM100_SU4_DU8x16_x4_LDSM_N SM100_U8x16_STSM_T SM75_U32x1_MOVM_T)
  layoutx(tv --atom "${name}" --bits 8)
  expect(0 "T0V0" "^$" "tv --atom ${name}")
  layoutx(draw --atom "${name}" --bits 8 --format svg)
  expect(0 "</svg>" "^$" "draw --atom ${name}")
  layoutx(atom "${name}" --grid --bits 8)
  expect(0 "printed by CuTe" "^$" "atom ${name} --grid")
endforeach()
layoutx(tv --atom "UniversalCopy<uint8_t>")
expect(1 "" "moves rows of 8 bits; an element of 16 bits does not divide them \\(try 8\\)" "16-bit values of an 8-bit copy")
