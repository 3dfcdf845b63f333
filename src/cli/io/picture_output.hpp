// What draw, tv and atom share: --format / -o FILE (the format follows the
// file's extension), --max-picture-cells, and writing a finished document.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

#include "layoutx/atoms.hpp"
#include "layoutx/render_picture.hpp"

namespace layoutx::cli {

enum class PictureFormat { Text, Svg, Tikz, Html };

struct PictureTarget {
  std::string format;                        // empty: from the file's extension, else the command's default
  std::string file;                          // empty: standard output
  const CLI::Option* file_option = nullptr;  // -o, to tell an empty name given from none
  std::int64_t max_cells = PictureOptions{}.max_cells;
};

// Adds --format (text among the choices when `with_text`), -o/--output and --max-picture-cells.
void add_picture_options(CLI::App* sub, PictureTarget& target, bool with_text);

// The chosen format into `format`; false (after reporting a usage error) for a
// file extension it cannot place (.svg, .tex, .html/.htm, and .txt where text is offered).
bool resolve_format(const PictureTarget& target, PictureFormat fallback, bool with_text, PictureFormat& format);

// The picture in `format` (not Text); `title` heads the HTML page.
std::string write_picture(const Picture& picture, PictureFormat format, const std::string& title);

// Writes the whole document to the file or to standard output; false (after
// reporting) when the file cannot be written.
bool deliver(const PictureTarget& target, const std::string& document);

// The picture `layoutx atom NAME --format F` draws (F not Text): an MMA atom's
// C with A and B around it, a copy atom's source and destination in elements
// `bits` wide.
std::string atom_picture(const Atom& atom, PictureFormat format, int bits, const PictureOptions& options);

// --color-by offset|thread|value|bank and --bits (the element width for banks).
void add_color_options(CLI::App* sub, std::string& color_by, int& bits);
ColorBy color_by_named(const std::string& name);

}  // namespace layoutx::cli
