// printf through the C library itself, one conversion at a time: each
// conversion's flags, width and precision are kept as written and its
// argument is passed as the type the conversion reads, so the text is glibc's.
#include "printf_format.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "layoutx/error.hpp"

namespace layoutx::lang {

namespace {

template <class T>
void append_formatted(std::string& out, const std::string& spec, T value) {
  char small[128];
  const int n = std::snprintf(small, sizeof small, spec.c_str(), value);
  if (n < 0) throw Error(fmt::format("printf: cannot format '{}'", spec));
  if (static_cast<std::size_t>(n) < sizeof small) {
    out.append(small, static_cast<std::size_t>(n));
    return;
  }
  std::string big(static_cast<std::size_t>(n) + 1, '\0');
  std::snprintf(big.data(), big.size(), spec.c_str(), value);
  out.append(big.data(), static_cast<std::size_t>(n));
}

bool is_flag(char c) { return c == '-' || c == '+' || c == ' ' || c == '#' || c == '0'; }
bool is_decimal_digit(char c) { return c >= '0' && c <= '9'; }

class Formatter {
 public:
  Formatter(std::string_view format, const std::vector<FormatArgument>& args) : format_(format), args_(args) {}

  std::string run() {
    std::string out;
    for (std::size_t i = 0; i < format_.size();) {
      const std::size_t percent = format_.find('%', i);
      if (percent == std::string_view::npos) {
        out.append(format_.substr(i));
        break;
      }
      out.append(format_.substr(i, percent - i));
      i = conversion(out, percent);
    }
    return out;
  }

 private:
  const FormatArgument& next(std::string_view spec) {
    if (used_ >= args_.size())
      throw Error(fmt::format("printf: the conversion {} has no argument (the program would print garbage)", spec));
    return args_[used_++];
  }

  std::int64_t next_integer(std::string_view spec) {
    const FormatArgument& a = next(spec);
    switch (a.kind) {
      case FormatArgument::Kind::Integer: return a.integer;
      case FormatArgument::Kind::Real: return static_cast<std::int64_t>(a.real);
      default:
        throw Error(fmt::format("printf: {} reads an integer, the argument is a {}", spec,
                                a.kind == FormatArgument::Kind::String ? "string" : "pointer"));
    }
  }

  // A width or precision that would make one conversion megabytes long is refused, not written.
  static void check_size(const std::string& digits, const char* what, std::string_view spec) {
    if (digits.size() > 7 || (!digits.empty() && std::stoll(digits) > kMaxField))
      throw Error(fmt::format("printf: the {} of {} is over {}, more than layoutx writes for one conversion", what,
                              spec, kMaxField));
  }
  static constexpr std::int64_t kMaxField = 1 << 20;

  // The conversion at `at` ('%'): appended to out; the index after it.
  std::size_t conversion(std::string& out, std::size_t at) {
    std::size_t i = at + 1;
    std::string flags;
    while (i < format_.size() && is_flag(format_[i])) flags += format_[i++];
    std::string width, precision;
    bool has_precision = false;
    const auto number = [&](std::string& into, bool is_width) {
      if (i < format_.size() && format_[i] == '*') {
        ++i;
        std::int64_t v = next_integer("*");
        if (is_width && v < 0) {
          flags += '-';
          v = -v;
        }
        if (v < 0) {
          has_precision = false;  // a negative precision is taken as if omitted
          return;
        }
        into = std::to_string(v);
        return;
      }
      while (i < format_.size() && is_decimal_digit(format_[i])) into += format_[i++];
    };
    number(width, true);
    check_size(width, "width", format_.substr(at, i - at));
    if (i < format_.size() && format_[i] == '.') {
      ++i;
      has_precision = true;
      number(precision, false);
      if (precision.empty()) precision = "0";
      check_size(precision, "precision", format_.substr(at, i - at));
    }
    std::string length;
    while (i < format_.size() && std::string_view("hlLqjzt").find(format_[i]) != std::string_view::npos)
      length += format_[i++];
    if (i >= format_.size()) throw Error("printf: the format ends inside a conversion");
    const char conv = format_[i++];
    const std::string written(format_.substr(at, i - at));
    std::string spec = "%" + flags + width + (has_precision ? "." + precision : "");
    switch (conv) {
      case '%': out += '%'; break;
      case 'd':
      case 'i': {
        const std::int64_t v = next_integer(written);
        if (length == "hh")
          append_formatted(out, spec + "hh" + conv, static_cast<signed char>(v));
        else if (length == "h")
          append_formatted(out, spec + "h" + conv, static_cast<short>(v));
        else if (length.empty())
          append_formatted(out, spec + conv, static_cast<int>(v));
        else
          append_formatted(out, spec + "ll" + conv, static_cast<long long>(v));
        break;
      }
      case 'u':
      case 'o':
      case 'x':
      case 'X': {
        const std::int64_t v = next_integer(written);
        if (length == "hh")
          append_formatted(out, spec + "hh" + conv, static_cast<unsigned char>(v));
        else if (length == "h")
          append_formatted(out, spec + "h" + conv, static_cast<unsigned short>(v));
        else if (length.empty())
          append_formatted(out, spec + conv, static_cast<unsigned int>(v));
        else
          append_formatted(out, spec + "ll" + conv, static_cast<unsigned long long>(v));
        break;
      }
      case 'c': append_formatted(out, spec + conv, static_cast<int>(next_integer(written))); break;
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
      case 'a':
      case 'A': {
        const FormatArgument& a = next(written);
        double v = 0;
        if (a.kind == FormatArgument::Kind::Real)
          v = a.real;
        else if (a.kind == FormatArgument::Kind::Integer)
          v = static_cast<double>(a.integer);
        else
          throw Error(fmt::format("printf: {} reads a floating-point number", written));
        append_formatted(out, spec + conv, v);
        break;
      }
      case 's': {
        const FormatArgument& a = next(written);
        if (a.kind == FormatArgument::Kind::Pointer)
          append_formatted(out, spec + conv, "(null)");
        else if (a.kind != FormatArgument::Kind::String)
          throw Error(fmt::format("printf: {} reads a string", written));
        else
          append_formatted(out, spec + conv, a.text.c_str());
        break;
      }
      case 'p': {
        const FormatArgument& a = next(written);
        if (a.kind == FormatArgument::Kind::Integer && a.integer != 0)
          append_formatted(out, spec + conv, reinterpret_cast<void*>(static_cast<std::uintptr_t>(a.integer)));
        else
          append_formatted(out, spec + "s", "(nil)");
        break;
      }
      default: throw Error(fmt::format("printf: the conversion {} is not one layoutx writes", written));
    }
    return i;
  }

  std::string_view format_;
  const std::vector<FormatArgument>& args_;
  std::size_t used_ = 0;
};

}  // namespace

std::string c_format(std::string_view format, const std::vector<FormatArgument>& args) {
  return Formatter(format, args).run();
}

}  // namespace layoutx::lang
