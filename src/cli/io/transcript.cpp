#include "io/transcript.hpp"

namespace layoutx::cli {

void Transcript::out(std::string_view text) {
  if (text.empty()) return;
  text_ += text;
  // Answers in a row are one piece: one write for all of them.
  if (!pieces_.empty() && pieces_.back().to == To::Stdout)
    pieces_.back().size += text.size();
  else
    pieces_.push_back({To::Stdout, text.size()});
}

void Transcript::flush() { pieces_.push_back({To::Flush, 0}); }

void Transcript::error(std::string_view message, std::string_view expression, std::size_t offset, bool with_caret) {
  const std::string text = error_text(message, expression, offset, with_caret);
  text_ += text;
  pieces_.push_back({To::Stderr, text.size()});
}

void Transcript::warning(std::string_view message) {
  const std::string text = warning_text(message);
  text_ += text;
  pieces_.push_back({To::Stderr, text.size()});
}

void Transcript::write() {
  std::size_t at = 0;
  for (const Piece& p : pieces_) {
    const std::string_view text = std::string_view(text_).substr(at, p.size);
    at += p.size;
    switch (p.to) {
      case To::Stdout: cli::out(text); break;
      case To::Flush: flush_out(); break;
      case To::Stderr: write_stderr(std::string(text)); break;
    }
  }
  text_.clear();
  pieces_.clear();
}

}  // namespace layoutx::cli
