// The <svg> element of a picture, shared by the SVG file and the HTML page.
#pragma once

#include <string>
#include <string_view>

#include "layoutx/render_picture.hpp"

namespace layoutx {

// Text and attribute values with & < > " ' escaped.
std::string xml_escape(std::string_view text);
void append_escaped(std::string& out, std::string_view text);

// The <svg> element (no XML declaration). Each cell is a <g class="cell">
// whose <title> is the cell's hover text.
std::string svg_element(const Picture& picture);

}  // namespace layoutx
