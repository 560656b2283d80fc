#include "sim/sweep/progress.h"

#include <algorithm>
#include <cmath>

namespace locksim::sweep {

namespace {

constexpr double kRedrawEvery = 0.1;  // seconds
constexpr int kBarWidth = 24;

std::string format_eta(double seconds) {
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

}  // namespace

ProgressBar::ProgressBar(std::FILE* out, const Stopwatch& clock, std::size_t total_cells, std::uint64_t total_runs)
    : out_(out), clock_(clock), total_cells_(total_cells), total_runs_(total_runs) {}

std::string ProgressBar::render(std::size_t cells_done, std::size_t total_cells, std::uint64_t runs_done,
                                std::uint64_t total_runs, double elapsed_seconds) {
  const double fraction =
      total_cells == 0 ? 1.0 : static_cast<double>(cells_done) / static_cast<double>(total_cells);
  const int filled = static_cast<int>(fraction * kBarWidth);
  std::string bar(static_cast<std::size_t>(kBarWidth), ' ');
  for (int i = 0; i < filled && i < kBarWidth; ++i) bar[static_cast<std::size_t>(i)] = '=';
  if (filled < kBarWidth) bar[static_cast<std::size_t>(filled)] = '>';
  const double rate = elapsed_seconds > 0 ? static_cast<double>(runs_done) / elapsed_seconds : 0.0;
  const double eta = rate > 0 ? static_cast<double>(total_runs - std::min(runs_done, total_runs)) / rate : NAN;
  char buffer[160];
  std::snprintf(buffer, sizeof buffer, "[%s] %zu/%zu cells  %.0f runs/s  ETA %s", bar.c_str(), cells_done,
                total_cells, rate, runs_done >= total_runs ? "0s" : format_eta(eta).c_str());
  return buffer;
}

void ProgressBar::draw(std::size_t cells_done, std::uint64_t runs_done, double now) {
  last_draw_ = now;
  // \r returns to the start of the line and ESC[K clears what a longer line left.
  std::fprintf(out_, "\r%s\x1b[K", render(cells_done, total_cells_, runs_done, total_runs_, now).c_str());
  std::fflush(out_);
}

void ProgressBar::update(std::size_t cells_done, std::uint64_t runs_done) {
  const double now = clock_.elapsed_seconds();
  if (last_draw_ >= 0 && now - last_draw_ < kRedrawEvery) return;
  draw(cells_done, runs_done, now);
}

void ProgressBar::finish(std::size_t cells_done, std::uint64_t runs_done) {
  draw(cells_done, runs_done, clock_.elapsed_seconds());
  std::fputc('\n', out_);
  std::fflush(out_);
}

}  // namespace locksim::sweep
