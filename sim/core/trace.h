// Trace sinks: where a run's line-by-line account goes. The world writes one
// JSON object per line (true time first); a sink stores, streams or hashes the
// bytes. The determinism test compares hashes of whole traces, so everything
// written here must be a pure function of the scenario and the seed.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace locksim {

class TraceSink {
 public:
  virtual ~TraceSink() = default;
  virtual void line(std::string_view json) = 0;
  // False lets the world skip formatting lines nobody reads (sweeps).
  virtual bool enabled() const { return true; }
};

class NullTrace final : public TraceSink {
 public:
  void line(std::string_view) override {}
  bool enabled() const override { return false; }
};

class StreamTrace final : public TraceSink {
 public:
  explicit StreamTrace(std::ostream& out) : out_(out) {}
  void line(std::string_view json) override { out_ << json << '\n'; }

 private:
  std::ostream& out_;
};

// FNV-1a over every byte and newline: two runs are byte-identical iff (with
// overwhelming probability) their hashes and line counts agree.
class HashingTrace final : public TraceSink {
 public:
  void line(std::string_view json) override;
  std::uint64_t hash() const { return hash_; }
  std::uint64_t lines() const { return lines_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
  std::uint64_t lines_ = 0;
};

class StringTrace final : public TraceSink {
 public:
  void line(std::string_view json) override {
    text_.append(json);
    text_.push_back('\n');
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// JSON string escaping for trace and report output.
std::string json_quote(std::string_view text);

}  // namespace locksim
