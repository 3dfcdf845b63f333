// What the evaluation of some expressions wrote on stdout and stderr, kept in
// order: worker threads evaluate lines into transcripts of their own, and the
// main thread writes the transcripts in input order, call by call as the
// lines would have written them (so that stdout, stderr and their
// interleaving are those of one line at a time).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "io/output.hpp"

namespace layoutx::cli {

class Transcript final : public Output {
 public:
  void out(std::string_view text) override;
  void flush() override;
  void error(std::string_view message, std::string_view expression, std::size_t offset, bool with_caret) override;
  void warning(std::string_view message) override;

  // Everything kept, written on stdout and stderr in order; the transcript is empty after.
  void write();

 private:
  enum class To : char { Stdout, Flush, Stderr };
  struct Piece {
    To to;
    std::size_t size;  // bytes of text_
  };
  std::string text_;  // the pieces' texts, one after the other
  std::vector<Piece> pieces_;
};

}  // namespace layoutx::cli
