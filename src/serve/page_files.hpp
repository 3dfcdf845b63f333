// The explorer page's files (web/), built into the binary.
#pragma once

#include <string_view>
#include <vector>

namespace layoutx::serve {

struct PageFile {
  std::string_view name;  // "index.html", "app.js", ...
  std::string_view bytes;
};

const std::vector<PageFile>& page_files();

}  // namespace layoutx::serve
