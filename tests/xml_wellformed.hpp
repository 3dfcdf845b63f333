// A small XML well-formedness check for the pictures: one root element,
// balanced and properly nested tags, quoted and unique attributes, only the
// predefined or numeric entities, no markup characters loose in text.
#pragma once

#include <cctype>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace layoutx::test {

class XmlCheck {
 public:
  explicit XmlCheck(std::string_view doc) : doc_(doc) {}

  // Empty when the document is well-formed, else what is wrong and where.
  std::string problem() {
    skip_space();
    if (doc_.substr(pos_, 5) == "<?xml") {
      const auto end = doc_.find("?>", pos_);
      if (end == std::string_view::npos) return at("unterminated XML declaration");
      pos_ = end + 2;
    }
    while (pos_ < doc_.size()) {
      if (doc_[pos_] == '<') {
        if (std::string e = markup(); !e.empty()) return e;
      } else if (std::string e = text(); !e.empty()) {
        return e;
      }
    }
    if (!open_.empty()) return at("<" + open_.back() + "> is never closed");
    if (!root_seen_) return at("no root element");
    return {};
  }

 private:
  std::string_view doc_;
  std::size_t pos_ = 0;
  std::vector<std::string> open_;
  bool root_seen_ = false;

  std::string at(const std::string& what) const { return what + " at byte " + std::to_string(pos_); }

  void skip_space() {
    while (pos_ < doc_.size() && std::isspace(static_cast<unsigned char>(doc_[pos_]))) ++pos_;
  }

  static bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':'; }
  static bool name_char(char c) {
    return name_start(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.';
  }

  std::string name() {
    const std::size_t begin = pos_;
    if (pos_ >= doc_.size() || !name_start(doc_[pos_])) return {};
    while (pos_ < doc_.size() && name_char(doc_[pos_])) ++pos_;
    return std::string(doc_.substr(begin, pos_ - begin));
  }

  // At '&': one of &amp; &lt; &gt; &quot; &apos; &#NN; &#xHH;
  bool entity() {
    const auto end = doc_.find(';', pos_);
    if (end == std::string_view::npos || end - pos_ > 10) return false;
    const std::string_view e = doc_.substr(pos_ + 1, end - pos_ - 1);
    static const std::set<std::string_view> named = {"amp", "lt", "gt", "quot", "apos"};
    bool ok = named.count(e) > 0;
    if (!ok && e.size() > 1 && e[0] == '#') {
      const bool hex = e[1] == 'x';
      const std::string_view digits = e.substr(hex ? 2 : 1);
      ok = !digits.empty();
      for (char c : digits)
        ok = ok && (hex ? std::isxdigit(static_cast<unsigned char>(c)) : std::isdigit(static_cast<unsigned char>(c)));
    }
    pos_ = end + 1;
    return ok;
  }

  std::string text() {
    while (pos_ < doc_.size() && doc_[pos_] != '<') {
      const char c = doc_[pos_];
      if (open_.empty() && !std::isspace(static_cast<unsigned char>(c))) return at("text outside the root element");
      if (c == '&') {
        if (!entity()) return at("bad entity");
      } else {
        ++pos_;
      }
    }
    return {};
  }

  std::string markup() {
    if (doc_.substr(pos_, 4) == "<!--") {
      const auto end = doc_.find("-->", pos_ + 4);
      if (end == std::string_view::npos) return at("unterminated comment");
      pos_ = end + 3;
      return {};
    }
    if (doc_.substr(pos_, 2) == "</") {
      pos_ += 2;
      const std::string n = name();
      if (open_.empty() || n != open_.back())
        return at("</" + n + "> closes " + (open_.empty() ? "nothing" : "<" + open_.back() + ">"));
      open_.pop_back();
      skip_space();
      if (pos_ >= doc_.size() || doc_[pos_] != '>') return at("unterminated end tag");
      ++pos_;
      return {};
    }
    ++pos_;
    const std::string n = name();
    if (n.empty()) return at("a tag without a name");
    if (open_.empty() && root_seen_) return at("a second root element <" + n + ">");
    std::set<std::string> attributes;
    while (true) {
      const std::size_t before = pos_;
      skip_space();
      if (pos_ >= doc_.size()) return at("unterminated tag <" + n + ">");
      if (doc_.substr(pos_, 2) == "/>") {
        pos_ += 2;
        root_seen_ = true;
        return {};
      }
      if (doc_[pos_] == '>') {
        ++pos_;
        open_.push_back(n);
        root_seen_ = true;
        return {};
      }
      if (pos_ == before) return at("attributes need white space between them");
      const std::string a = name();
      if (a.empty()) return at("a bad attribute name in <" + n + ">");
      if (!attributes.insert(a).second) return at("attribute " + a + " twice in <" + n + ">");
      if (pos_ >= doc_.size() || doc_[pos_] != '=') return at("attribute " + a + " has no value");
      ++pos_;
      if (pos_ >= doc_.size() || (doc_[pos_] != '"' && doc_[pos_] != '\'')) return at("unquoted attribute " + a);
      const char quote = doc_[pos_++];
      while (pos_ < doc_.size() && doc_[pos_] != quote) {
        if (doc_[pos_] == '<') return at("'<' inside attribute " + a);
        if (doc_[pos_] == '&') {
          if (!entity()) return at("bad entity in attribute " + a);
        } else {
          ++pos_;
        }
      }
      if (pos_ >= doc_.size()) return at("unterminated attribute " + a);
      ++pos_;
    }
  }
};

inline std::string xml_problem(std::string_view doc) { return XmlCheck(doc).problem(); }

}  // namespace layoutx::test
