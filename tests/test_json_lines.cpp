// The test-only JSON reader that the golden runner stands on.
#include <doctest/doctest.h>

#include <stdexcept>

#include "json_lines.hpp"

namespace layoutx::test {

TEST_CASE("json: values of every kind") {
  const Json j = parse_json(R"( {"s": "a\"b\\c\/d\n\t\u00e9\ud83d\ude00", "n": -42, "min": -9223372036854775808,)"
                            R"( "a": [1, [2, []], {}], "z": null, "t": true, "f": false} )");
  CHECK(j["s"].string == "a\"b\\c/d\n\t\xc3\xa9\xf0\x9f\x98\x80");
  CHECK(j["n"].integer == -42);
  CHECK(j["min"].integer == INT64_MIN);
  REQUIRE(j["a"].array.size() == 3);
  CHECK(j["a"].array[1].array[0].integer == 2);
  CHECK(j["a"].array[1].array[1].kind == Json::Kind::Array);
  CHECK(j["a"].array[2].kind == Json::Kind::Object);
  CHECK(j["z"].is_null());
  CHECK(j["missing"].is_null());
  CHECK(j["t"].kind == Json::Kind::Bool);
  CHECK(j["t"].boolean);
  CHECK_FALSE(j["f"].boolean);
}

TEST_CASE("json: malformed input is refused") {
  const char* bad[] = {
      "",      "{",       "[1,]", "{\"a\" 1}",           "\"open",     "1.5", "1e3", "tru",
      "[1] 2", "\"\\x\"", "-",    "9223372036854775808", "{\"a\":1,}",
  };
  for (const char* text : bad) {
    CAPTURE(text);
    CHECK_THROWS_AS(parse_json(text), std::runtime_error);
  }
}

}  // namespace layoutx::test
