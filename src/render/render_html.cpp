// One self-contained HTML page: the picture as inline SVG, and a line that
// shows the index, coordinate and offset of the cell under the pointer.
#include <fmt/format.h>

#include "svg_writer.hpp"

namespace layoutx {

std::string render_html(const Picture& picture, std::string_view title) {
  const std::string t = xml_escape(title);
  std::string out = fmt::format(R"(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>layoutx: {0}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1.5em; }}
h1 {{ font-family: monospace; font-size: 1.1em; font-weight: normal; }}
#info {{ font-family: monospace; position: sticky; top: 0; padding: .3em .6em; min-height: 1.4em;
         background: #f4f4f4; border: 1px solid #ccc; margin-bottom: 1em; }}
.cell:hover rect {{ stroke: #d00000; stroke-width: 3; }}
</style>
</head>
<body>
<h1>{0}</h1>
<div id="info">Point at a cell to see its index, coordinate and offset.</div>
)",
                                t);
  out += svg_element(picture);
  out += R"(<script>
const info = document.getElementById('info');
document.querySelector('svg').addEventListener('mouseover', (event) => {
  const cell = event.target.closest('.cell');
  if (cell) info.textContent = cell.querySelector('title').textContent;
});
</script>
</body>
</html>
)";
  return out;
}

}  // namespace layoutx
