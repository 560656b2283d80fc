#include "sim/sweep/progress.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace locksim::sweep {

namespace {

constexpr double kRedrawEvery = 0.1;    // seconds between two drawings of the bar
constexpr double kEstimateAfter = 1.0;  // seconds of runs timed before the estimate is worth stating
constexpr double kLogEvery = 10.0;      // the closest two log lines come
constexpr double kLogSilence = 60.0;    // the longest a log goes without a line
constexpr int kBarWidth = 24;

double runs_per_second(const ProgressState& s) {
  return s.elapsed_seconds > 0 ? static_cast<double>(s.runs_done) / s.elapsed_seconds : 0.0;
}

// The parts every rendering shows, in order.
std::vector<std::string> parts(const ProgressState& s) {
  std::vector<std::string> out;
  if (s.total_cells > 0) out.push_back(std::to_string(s.cells_done) + "/" + std::to_string(s.total_cells) + " cells");
  out.push_back(std::to_string(s.runs_done) + "/" + std::to_string(s.total_runs) + " runs");
  char rate[48];
  std::snprintf(rate, sizeof rate, "%.0f runs/s", runs_per_second(s));
  out.emplace_back(rate);
  out.push_back("ETA " + format_seconds(s.eta_seconds()));
  return out;
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : separator) + part;
  return out;
}

}  // namespace

std::string format_seconds(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0 || seconds > 1e8) return "--";
  const auto total = static_cast<long long>(std::llround(seconds));
  char buffer[32];
  if (total >= 3600)
    std::snprintf(buffer, sizeof buffer, "%lldh%02lldm", total / 3600, total / 60 % 60);
  else if (total >= 60)
    std::snprintf(buffer, sizeof buffer, "%lldm%02llds", total / 60, total % 60);
  else
    std::snprintf(buffer, sizeof buffer, "%llds", total);
  return buffer;
}

double ProgressState::eta_seconds() const {
  if (runs_done >= total_runs) return 0.0;
  const double rate = runs_per_second(*this);
  double eta = rate > 0 ? static_cast<double>(total_runs - runs_done) / rate : NAN;
  if (std::isfinite(stop_by_seconds)) {
    const double left = std::max(0.0, stop_by_seconds - elapsed_seconds);
    eta = std::isnan(eta) ? left : std::min(eta, left);
  }
  return eta;
}

std::string ProgressState::status() const { return join(parts(*this), "  "); }

std::string ProgressState::bar() const {
  const double fraction =
      total_runs == 0 ? 1.0 : std::min(1.0, static_cast<double>(runs_done) / static_cast<double>(total_runs));
  const int filled = static_cast<int>(fraction * kBarWidth);
  std::string bar(static_cast<std::size_t>(kBarWidth), ' ');
  for (int i = 0; i < filled && i < kBarWidth; ++i) bar[static_cast<std::size_t>(i)] = '=';
  if (filled < kBarWidth) bar[static_cast<std::size_t>(filled)] = '>';
  return "[" + bar + "] " + status();
}

std::string ProgressState::log_line() const {
  const std::uint64_t percent = total_runs == 0 ? 100 : std::min(runs_done, total_runs) * 100 / total_runs;
  return std::to_string(percent) + "%: " + join(parts(*this), ", ");
}

Progress::Progress(std::FILE* out, const Stopwatch& clock, ProgressStyle style, std::string command,
                   std::uint64_t total_runs, std::size_t total_cells)
    : out_(out),
      clock_(clock),
      style_(style),
      command_(std::move(command)),
      total_runs_(total_runs),
      total_cells_(total_cells) {}

void Progress::announce(const std::string& size) {
  const std::lock_guard lock(mutex_);
  line(command_ + ": " + size);
}

void Progress::log_every(double seconds) {
  log_every_ = seconds;
  every_call_ = true;
}

void Progress::stop_by(double seconds) { stop_by_ = seconds; }

ProgressState Progress::state(std::size_t cells_done, std::uint64_t runs_done, double now) const {
  return {.cells_done = cells_done,
          .total_cells = total_cells_,
          .runs_done = runs_done,
          .total_runs = total_runs_,
          .elapsed_seconds = now,
          .stop_by_seconds = stop_by_};
}

void Progress::update(std::size_t cells_done, std::uint64_t runs_done, const std::string& detail) {
  const std::unique_lock lock(mutex_, std::try_to_lock);
  if (lock.owns_lock()) write(cells_done, runs_done, detail, clock_.elapsed_seconds());
}

void Progress::write(std::size_t cells_done, std::uint64_t runs_done, const std::string& detail, double now) {
  const ProgressState s = state(cells_done, runs_done, now);
  if (!estimated_ && now >= kEstimateAfter && runs_done > 0 && runs_done < total_runs_) {
    estimated_ = true;
    last_line_ = now;
    const double eta = s.eta_seconds();
    line(command_ + ": the first " + std::to_string(runs_done) + " runs took " + format_seconds(now) + ": about " +
         format_seconds(now + eta) + " in all, ETA " + format_seconds(eta));
  }
  if (style_ == ProgressStyle::bar) {
    if (last_draw_ >= 0 && now - last_draw_ < kRedrawEvery) return;
    last_draw_ = now;
    bar_shown_ = true;
    // \r returns to the start of the line and ESC[K clears what a longer line left.
    std::fprintf(out_, "\r%s%s\x1b[K", s.bar().c_str(), detail.empty() ? "" : ("  " + detail).c_str());
    std::fflush(out_);
    return;
  }
  if (now - last_line_ < (every_call_ ? log_every_ : kLogEvery)) return;
  const std::uint64_t tenths = total_runs_ == 0 ? 10 : std::min(runs_done, total_runs_) * 10 / total_runs_;
  if (!every_call_ && tenths <= tenths_logged_ && now - last_line_ < kLogSilence) return;
  tenths_logged_ = std::max(tenths_logged_, tenths);
  last_line_ = now;
  line(command_ + ": " + s.log_line() + (detail.empty() ? "" : ", " + detail));
}

void Progress::finish(std::size_t cells_done, std::uint64_t runs_done, const std::string& detail) {
  const std::lock_guard lock(mutex_);
  const double now = clock_.elapsed_seconds();
  const ProgressState s = state(cells_done, runs_done, now);
  if (style_ == ProgressStyle::bar) {
    std::fprintf(out_, "\r%s%s\x1b[K\n", s.bar().c_str(), detail.empty() ? "" : ("  " + detail).c_str());
    std::fflush(out_);
    return;
  }
  if (!estimated_ && !every_call_) return;
  char rate[48];
  std::snprintf(rate, sizeof rate, "%.0f runs/s", runs_per_second(s));
  line(command_ + ": done: " + std::to_string(runs_done) + " runs in " + format_seconds(now) + " (" + rate + ")" +
       (detail.empty() ? "" : ", " + detail));
}

void Progress::line(const std::string& text) {
  std::fprintf(out_, "%s%s\n", bar_shown_ ? "\r\x1b[K" : "", text.c_str());
  std::fflush(out_);
}

}  // namespace locksim::sweep
