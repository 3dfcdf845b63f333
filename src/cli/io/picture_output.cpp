#include "io/picture_output.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "driver.hpp"
#include "io/output.hpp"

namespace layoutx::cli {

void add_picture_options(CLI::App* sub, PictureTarget& target, bool with_text) {
  std::vector<std::string> formats = {"svg", "tikz", "html"};
  if (with_text) formats.insert(formats.begin(), "text");
  sub->add_option("--format", target.format,
                  with_text
                      ? "Output: text, svg, tikz (a LaTeX document) or html (default: from -o's extension, else text)"
                      : "Output: svg, tikz (a LaTeX document) or html (default: from -o's extension, else svg)")
      ->check(CLI::IsMember(formats));
  target.file_option =
      sub->add_option("-o,--output", target.file, "Write to FILE (.svg, .tex, .html) instead of standard output");
  sub->add_option("--max-picture-cells", target.max_cells, "Largest picture drawn, in cells (default 65536)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 32));
}

bool resolve_format(const PictureTarget& target, PictureFormat fallback, bool with_text, PictureFormat& format) {
  if (target.file.empty() && target.file_option && target.file_option->count() > 0) {
    report_error("-o: an empty file name (leave -o out to write to standard output)", "", 0, false);
    return false;
  }
  std::string f = target.format;
  if (f.empty() && !target.file.empty()) {
    const auto dot = target.file.rfind('.');
    const std::string ext = dot == std::string::npos ? "" : target.file.substr(dot + 1);
    if (ext == "svg")
      f = "svg";
    else if (ext == "tex")
      f = "tikz";
    else if (ext == "html" || ext == "htm")
      f = "html";
    else if (ext == "txt" && with_text)
      f = "text";
    else {
      report_error(fmt::format("cannot tell the format of '{}' from its name: give --format, or name the file "
                               ".svg, .tex or .html{}",
                               target.file, with_text ? " (or .txt)" : ""),
                   "", 0, false);
      return false;
    }
  }
  format = f == "svg"    ? PictureFormat::Svg
           : f == "tikz" ? PictureFormat::Tikz
           : f == "html" ? PictureFormat::Html
           : f == "text" ? PictureFormat::Text
                         : fallback;
  return true;
}

std::string write_picture(const Picture& picture, PictureFormat format, const std::string& title) {
  switch (format) {
    case PictureFormat::Svg: return render_svg(picture);
    case PictureFormat::Tikz: return render_tikz(picture);
    case PictureFormat::Html: return render_html(picture, title);
    case PictureFormat::Text: break;
  }
  throw Error("a picture has no text form");
}

bool deliver(const PictureTarget& target, const std::string& document) {
  if (target.file.empty()) {
    out(document);
    flush_out();
    return true;
  }
  std::ofstream file(target.file, std::ios::binary | std::ios::trunc);
  if (file) file.write(document.data(), static_cast<std::streamsize>(document.size()));
  if (file) file.close();
  if (!file) {
    report_error(fmt::format("cannot write {}: {}", target.file, std::strerror(errno)), "", 0, false);
    return false;
  }
  return true;
}

void add_color_options(CLI::App* sub, std::string& color_by, int& bits) {
  sub->add_option(
         "--color-by", color_by,
         "Colour cells by offset (default), thread (the row), value (the column) or bank (32 banks of 4 bytes)")
      ->check(CLI::IsMember({"offset", "thread", "value", "bank"}));
  sub->add_option("--elem-bits,--bits", bits, "Element width in bits, for --color-by bank (default 32)")
      ->check(integer_range(1, 1024));
}

ColorBy color_by_named(const std::string& name) {
  if (name == "thread") return ColorBy::Thread;
  if (name == "value") return ColorBy::Value;
  if (name == "bank") return ColorBy::Bank;
  return ColorBy::Offset;
}

}  // namespace layoutx::cli
