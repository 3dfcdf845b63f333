#include "driver.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <new>

#include "io/input_lines.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/triton_cute.hpp"
#include "layoutx/triton_encoding.hpp"
#include "layoutx/parallel.hpp"
#include "io/output.hpp"
#include "io/transcript.hpp"
#include "io/worker_threads.hpp"

namespace layoutx::cli {

bool use_color(const Settings& s) {
  if (s.color == "always") return true;
  if (s.color == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return isatty(STDOUT_FILENO) != 0;
}

Notation notation(const Settings& s) { return Notation{.static_marks = s.dynamic}; }

Diagnostics diagnostics(const Settings& s) { return Diagnostics(s.strict, notation(s)); }

std::vector<std::string> read_expressions(const Settings& s, const std::vector<std::string>& args, std::size_t at_most,
                                          std::string& problem) {
  std::vector<std::string> out;
  ExpressionSource source(args, s.language.max_length);
  while (auto e = source.next()) {
    if (!e->problem.empty()) {
      problem = e->problem;
      return out;
    }
    out.push_back(std::move(e->text));
    if (out.size() > at_most) break;
  }
  return out;
}

namespace {

// Put before a message about a line of standard input, so that the line can be found in a long file.
std::string line_named(std::size_t line) { return line ? fmt::format("standard input, line {}: ", line) : ""; }

}  // namespace

int run_reporting_errors(Output& to, const ErrorContext& shown, Notation notation, const std::function<int()>& step) {
  try {
    return step();
  } catch (const SourceError& e) {
    to.flush();
    const bool located = !shown.text.empty();
    to.error(fmt::format("{}{}{}", line_named(shown.line), located ? shown.located_prefix : "", e.message(notation)),
             shown.text, shown.from + e.offset(), located);
  } catch (const Error& e) {
    to.flush();
    to.error(fmt::format("{}{}", line_named(shown.line), e.message(notation)), shown.text, 0, false);
  } catch (const std::bad_alloc&) {
    to.flush();
    to.error(fmt::format("{}out of memory", line_named(shown.line)), shown.text, 0, false);
  }
  return kRejected;
}

int run_reporting_errors(const ErrorContext& shown, Notation notation, const std::function<int()>& step) {
  return run_reporting_errors(standard_streams(), shown, notation, step);
}

bool report_warnings(Diagnostics& diag, Output& to) {
  const bool any = !diag.warnings().empty();
  for (const auto& w : diag.warnings()) to.warning(w.message);
  diag.clear();
  return any;
}

bool report_warnings(Diagnostics& diag) { return report_warnings(diag, standard_streams()); }

triton::LinearLayout read_triton(const Settings& s, std::string_view text) {
  try {
    return triton::linear_layout_of(text, s.shape);
  } catch (const triton::TextError& e) {
    throw SourceError(e.what(), e.offset());
  }
}

Value evaluate_input(const Settings& s, std::string_view expr, Diagnostics& diag) {
  if (!triton::is_triton_text(expr)) return evaluate_expression(expr, s.language, diag);
  return Value::of(triton::to_cute(read_triton(s, expr)));
}

Value evaluate_reporting_warnings(const Settings& s, std::string_view expr) {
  Diagnostics diag = diagnostics(s);
  Value v = evaluate_input(s, expr, diag);
  report_warnings(diag);
  return v;
}

std::optional<Value> evaluate_option(const Settings& s, std::string_view text, const ErrorContext& shown,
                                     Diagnostics& diag) {
  std::optional<Value> v;
  run_reporting_errors(shown, notation(s), [&] {
    v = evaluate_input(s, text, diag);
    return kOk;
  });
  return v;
}

int for_each_expression(const Settings& s, const std::vector<std::string>& expressions,
                        const std::function<void(const Value&)>& command) {
  return for_each_expression(s, expressions, [&](const Value& v, std::string_view) { command(v); });
}

int for_each_expression(const Settings& s, const std::vector<std::string>& expressions,
                        const std::function<void(const Value&, std::string_view)>& command) {
  return for_each_expression(s, expressions,
                             [&](const Value& v, std::string_view expr, Diagnostics&) { command(v, expr); });
}

int for_each_expression(const Settings& s, const std::vector<std::string>& expressions,
                        const std::function<void(const Value&, std::string_view, Diagnostics&)>& command) {
  return for_each_expression_text(s, expressions, [&](std::string_view expr) {
    Diagnostics diag = diagnostics(s);
    const Value v = evaluate_input(s, expr, diag);
    report_warnings(diag);
    command(v, expr, diag);
    report_warnings(diag);
    return kOk;
  });
}

namespace {

// One expression through `command` inside `run_reporting_errors`, its messages going to `to`.
template <class Command>
int run_input_reporting_errors(const Settings& s, const InputExpression& input, Output& to, const Command& command) {
  if (!input.problem.empty()) {
    to.error(line_named(input.line) + input.problem, "", 0, false);
    return kRejected;
  }
  ErrorContext shown{input.text};
  shown.line = input.line;
  return run_reporting_errors(to, shown, notation(s), [&] { return command(input.text); });
}

// Expressions at hand of fewer bytes than this are evaluated one by one on
// the main thread (a person typing, a producer writing a line at a time);
// more are shared among threads, none given fewer bytes than this: a thread
// costs tens of microseconds, about as much as 64 small expressions, and an
// expression's cost grows with its text (a chain of 20 compositions is 600
// bytes and costs 20 times a small one).
constexpr std::size_t kBytesPerThread = 2048;
// A batch is cut into this many parts per thread, which the threads take
// one at a time: two threads given half each would wait for the slower.
constexpr int kPartsPerThread = 4;
// At most this many expressions, and bytes of them, at a time, whose answers
// are kept until all are written.
constexpr std::size_t kBatch = 8192;
constexpr std::size_t kBatchBytes = std::size_t{1} << 20;
// A slot's string keeps its room for the next batch up to this size: one
// long line must not hold its memory for the rest of the input.
constexpr std::size_t kKeptTextRoom = 1024;

// Threads for `count` expressions of `bytes` bytes: as many as --jobs asks
// (0: one per core), none idle for want of work.
int threads_for(std::size_t count, std::size_t bytes, int jobs) {
  const std::size_t worth = std::min(bytes / kBytesPerThread, count);
  if (jobs == 0) return parts_for(worth, 1);
  return static_cast<int>(std::clamp<std::size_t>(worth, 1, static_cast<std::size_t>(jobs)));
}

// Expressions taken together, and what their threads wrote. The slots are
// kept from batch to batch, so that a line is read into the string of one
// read before (thousands of allocations per batch otherwise).
struct Batch {
  std::vector<InputExpression> slots;
  std::size_t size = 0;                 // slots in use
  std::size_t bytes = 0;                // of their texts, a newline each
  std::vector<Transcript> transcripts;  // one per thread, each of a run of consecutive lines
  std::vector<int> statuses;            // of each thread's lines

  const InputExpression& operator[](std::size_t i) const { return slots[i]; }

  // The next expressions: the first waited for where `may_wait`, then those
  // at hand, up to kBatch and kBatchBytes (one alone where `one`). False
  // when there is none.
  bool read(ExpressionSource& source, bool may_wait, bool one) {
    size = bytes = 0;
    if (!take(source, may_wait)) return false;
    while (!one && size < kBatch && bytes < kBatchBytes && take(source, false)) {
    }
    return true;
  }

  // The transcripts on stdout and stderr in order: kRejected where a line was.
  int write() {
    int status = kOk;
    for (std::size_t p = 0; p < transcripts.size(); ++p) {
      transcripts[p].write();
      if (statuses[p] != kOk) status = kRejected;
    }
    return status;
  }

 private:
  bool take(ExpressionSource& source, bool may_wait) {
    if (size == slots.size()) slots.emplace_back();
    InputExpression& e = slots[size];
    if (e.text.capacity() > kKeptTextRoom) e.text = std::string();
    if (!(may_wait ? source.next_into(e) : source.next_at_hand_into(e))) return false;
    bytes += e.text.size() + 1;
    ++size;
    return true;
  }
};

}  // namespace

int for_each_expression_text(const Settings& s, const std::vector<std::string>& expressions,
                             const std::function<int(std::string_view)>& command) {
  int status = kOk;
  ExpressionSource source(expressions, s.language.max_length);
  while (const auto input = source.next())
    if (run_input_reporting_errors(s, *input, standard_streams(), command) != kOk) status = kRejected;
  flush_out();
  return status;
}

int for_each_answer(const Settings& s, const std::vector<std::string>& expressions, int jobs,
                    const std::function<void(const Value&, std::string& line)>& answer) {
  // One expression: its warnings and answer (or its error) go to `to`; the
  // answer is written into `line`, kept from one expression to the next.
  const auto answered = [&s, &answer](const InputExpression& input, Output& to, std::string& line) {
    return run_input_reporting_errors(s, input, to, [&](std::string_view expr) {
      Diagnostics diag = diagnostics(s);
      const Value v = evaluate_input(s, expr, diag);
      report_warnings(diag, to);
      line.clear();
      answer(v, line);
      to.out(line);
      return kOk;
    });
  };
  int status = kOk;
  ExpressionSource source(expressions, s.language.max_length);
  // Two batches: the threads evaluate one while this thread writes the
  // answers of the one before and reads the next, so that reading and
  // writing, which only this thread can do, cost the threads no time.
  Batch batches[2];
  Batch* pending = nullptr;  // on the threads, its answers not written yet
  std::string line;          // this thread's answer line
  WorkerThreads workers;     // after the batches: stopped before they go
  const auto write_pending = [&] {
    workers.finish();
    if (pending->write() != kOk) status = kRejected;
    pending = nullptr;
  };
  for (;;) {
    Batch& batch = pending == &batches[0] ? batches[1] : batches[0];
    // While a batch is on the threads only what is at hand is read: waiting
    // for more input would hold back its answers.
    if (!batch.read(source, pending == nullptr, jobs == 1)) {
      if (pending == nullptr) break;
      write_pending();
      continue;
    }
    const int threads = threads_for(batch.size, batch.bytes, jobs);
    if (threads == 1) {
      if (pending != nullptr) write_pending();
      for (std::size_t i = 0; i < batch.size; ++i)
        if (answered(batch[i], standard_streams(), line) != kOk) status = kRejected;
      continue;
    }
    workers.finish();
    const int parts = static_cast<int>(std::min<std::size_t>(batch.size, std::size_t{kPartsPerThread} * threads));
    batch.transcripts.resize(static_cast<std::size_t>(parts));
    batch.statuses.assign(static_cast<std::size_t>(parts), kOk);
    workers.start(parts, threads, [&batch, &answered, parts](int p) {
      const std::size_t n = batch.size;
      // Written into a transcript of the thread's own, not one beside the
      // others' in the vector: that would share their cache lines.
      Transcript written;
      std::string part_line;
      int part_status = kOk;
      const std::size_t end = part_begin(n, parts, p + 1);
      for (std::size_t i = part_begin(n, parts, p); i < end; ++i)
        if (answered(batch[i], written, part_line) != kOk) part_status = kRejected;
      batch.transcripts[static_cast<std::size_t>(p)] = std::move(written);
      batch.statuses[static_cast<std::size_t>(p)] = part_status;
    });
    if (pending != nullptr && pending->write() != kOk) status = kRejected;
    pending = &batch;
  }
  flush_out();
  return status;
}

AnyLayout require_offset_layout(const Value& v, const char* command, Notation n) {
  AnyLayout l = require_layout(v, command, n);
  if (is_coordinate_layout(inner_layout(l)))
    throw Error(
        fmt::format("{} works on offsets; {} maps each index to a coordinate (scaled-basis strides), not an "
                    "offset (print, offsets and eq show its coordinates)",
                    command, to_text(l, n)));
  return l;
}

CLI::Validator integer_range(std::int64_t lo, std::int64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        std::int64_t v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (text.empty() || end != text.data() + text.size() || ec == std::errc::invalid_argument)
          return fmt::format("Value {} is not an integer", text);
        if (ec != std::errc() || v < lo || v > hi) return fmt::format("Value {} not in range {} to {}", text, lo, hi);
        return "";
      },
      fmt::format("INT in [{} - {}]", lo, hi));
}

CLI::Option* add_shape_option(CLI::App* app, std::vector<std::int64_t>& shape, const std::string& description) {
  static constexpr std::int64_t kMax = std::int64_t{1} << 24;
  const auto extents = [](const std::string& text, std::string& why) {
    std::vector<std::int64_t> out;
    std::size_t start = 0;
    for (;;) {
      const std::size_t comma = text.find(',', start);
      const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      std::int64_t v = 0;
      const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
      if (part.empty() || ec != std::errc() || end != part.data() + part.size() || v < 1 || v > kMax) {
        why = fmt::format("--shape takes extents from 1 to {} separated by commas, as in 16,32; '{}' in '{}' is none",
                          kMax, part, text);
        return out;
      }
      out.push_back(v);
      if (comma == std::string::npos) return out;
      start = comma + 1;
    }
  };
  return app
      ->add_option_function<std::string>(
          "--shape",
          [&shape, extents](const std::string& text) {
            std::string why;
            shape = extents(text, why);
          },
          description)
      ->type_name("INT,...")
      ->check(CLI::Validator(
          [extents](std::string& text) {
            std::string why;
            (void)extents(text, why);
            return why;
          },
          ""));
}

void add_expressions(CLI::App* sub, std::vector<std::string>& expressions) {
  sub->add_option("EXPR", expressions, "Expressions to evaluate; '-' reads one per line from standard input")
      ->required();
}

}  // namespace layoutx::cli
