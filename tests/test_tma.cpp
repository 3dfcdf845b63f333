// make_tma_copy against CuTe's answers (tests/data/atoms/tma.jsonl, printed by
// scripts/atoms/generate_tma.py): the box, the descriptor's fields, the
// swizzle mode, the atom and the TiledCopy, or CuTe's reason for refusing.
#include <algorithm>
#include <array>
#include <string>

#include "json_lines.hpp"
#include "layoutx/tma_copy.hpp"
#include "test_support.hpp"

namespace layoutx {

namespace {

// CUtensorMapDataType and CUtensorMapSwizzle in cuda.h's order: the golden
// data holds the numbers the driver received.
constexpr std::array<std::string_view, 16> kDataTypes{
    "CU_TENSOR_MAP_DATA_TYPE_UINT8",         "CU_TENSOR_MAP_DATA_TYPE_UINT16",
    "CU_TENSOR_MAP_DATA_TYPE_UINT32",        "CU_TENSOR_MAP_DATA_TYPE_INT32",
    "CU_TENSOR_MAP_DATA_TYPE_UINT64",        "CU_TENSOR_MAP_DATA_TYPE_INT64",
    "CU_TENSOR_MAP_DATA_TYPE_FLOAT16",       "CU_TENSOR_MAP_DATA_TYPE_FLOAT32",
    "CU_TENSOR_MAP_DATA_TYPE_FLOAT64",       "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16",
    "CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ",   "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32",
    "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ",  "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B",
    "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B", "CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B"};
constexpr std::array<std::string_view, 7> kSwizzles{
    "CU_TENSOR_MAP_SWIZZLE_NONE",          "CU_TENSOR_MAP_SWIZZLE_32B",
    "CU_TENSOR_MAP_SWIZZLE_64B",           "CU_TENSOR_MAP_SWIZZLE_128B",
    "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B", "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B",
    "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B"};

template <std::size_t N>
std::string number_of(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::to_string(std::find(names.begin(), names.end(), name) - names.begin());
}

std::string joined_numbers(const std::vector<std::uint64_t>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(v[i]);
  }
  return s;
}

const char* const kFields[] = {
    "tma_gbasis",  "g_stride",  "swizzle",   "swizzle_bits", "swizzle_base", "traits_src",
    "thr_id",      "val_src",   "val_dst",   "val_ref",      "tiler",        "tv",
    "desc_format", "desc_rank", "desc_dims", "desc_strides", "desc_box",     "desc_element_strides",
    "desc_swizzle"};

std::string expected_fields(const test::Json& j) {
  std::string s;
  for (const char* f : kFields) s += std::string(f) + "=" + j[f].string + "\n";
  return s;
}

std::string computed_fields(const TmaCopy& t) {
  const Notation n{true};
  const std::pair<const char*, std::string> values[] = {
      {"tma_gbasis", to_text(t.tma_gbasis, n)},
      {"g_stride", to_text(t.g_stride, n)},
      {"swizzle", "Sw<" + std::to_string(t.swizzle.bits) + "," + std::to_string(t.swizzle.base) + "," +
                      std::to_string(t.swizzle.shift) + ">"},
      {"swizzle_bits", std::to_string(t.swizzle_bits)},
      {"swizzle_base", std::to_string(t.swizzle_base)},
      {"traits_src", to_text(t.traits.src, n)},
      {"thr_id", to_text(t.traits.thr_id, n)},
      {"val_src", to_text(t.val_src, n)},
      {"val_dst", to_text(t.val_dst, n)},
      {"val_ref", to_text(t.val_ref, n)},
      {"tiler", to_text(t.tiler, n)},
      {"tv", to_text(t.tv, n)},
      {"desc_format", number_of(kDataTypes, t.desc.data_type)},
      {"desc_rank", std::to_string(t.desc.rank)},
      {"desc_dims", joined_numbers(t.desc.dims)},
      {"desc_strides", joined_numbers(t.desc.strides)},
      {"desc_box", joined_numbers(t.desc.box)},
      {"desc_element_strides", joined_numbers(t.desc.element_strides)},
      {"desc_swizzle", number_of(kSwizzles, t.desc.swizzle)},
  };
  std::string s;
  for (const auto& [k, v] : values) s += std::string(k) + "=" + v + "\n";
  return s;
}

// make_tma_copy for one case: the fields, or the refusal's message.
std::string tma_answer(const test::Json& j, bool& refused) {
  refused = false;
  try {
    const TmaValueType* type = find_tma_value_type(j["type"].string);
    if (!type) throw Error("Unknown TMA Format!");
    LanguageOptions dynamic, fixed;
    dynamic.dynamic = true;
    const Value gmem = evaluated(j["gmem"].string, dynamic);
    const Value smem = evaluated(j["smem"].string, fixed);
    const auto portions = smem_portions(smem);
    REQUIRE_MESSAGE(portions, j["id"].string << ": no shared-memory layout");
    const TmaCopyInput in{j["op"].string,  *gmem.as_plain_layout(), type,
                          portions->first, portions->second,        static_int(j["multicast"].integer),
                          std::nullopt};
    Diagnostics diag;
    return computed_fields(make_tma_copy(in, diag));
  } catch (const Error& e) {
    refused = true;
    return e.what();
  }
}

}  // namespace

TEST_CASE("make_tma_copy: CuTe's box, descriptor, atom and TiledCopy, or its reason to refuse") {
  const auto cases = test::read_json_lines(std::string(LAYOUTX_TEST_DATA) + "/atoms/tma.jsonl");
  REQUIRE(cases.size() >= 150);
  test::Mismatches mismatches;
  int accepted = 0, refused_cases = 0;
  for (const test::Json& j : cases) {
    bool refused = false;
    const std::string got = tma_answer(j, refused);
    const std::string& error = j["error"].string;
    bool ok = false;
    std::string want;
    if (error.empty()) {
      want = expected_fields(j);
      ok = !refused && got == want;
      ++accepted;
    } else {
      // A C++ error that is no static_assert (an ill-formed instantiation) has no message to match.
      want = "a refusal: " + j["reason"].string;
      ok = refused && (error == "compile" || got.find(j["reason"].string) != std::string::npos);
      ++refused_cases;
    }
    if (!ok && mismatches.report())
      FAIL_CHECK(j["id"].string << " " << j["op"].string << " gmem " << j["gmem"].string << " smem " << j["smem"].string
                                << " multicast " << j["multicast"].integer << "\nCuTe:\n"
                                << want << "\nlayoutx:\n"
                                << got);
  }
  CHECK(accepted >= 100);
  CHECK(refused_cases >= 10);
  CHECK(mismatches.count() == 0);
}

}  // namespace layoutx
