// The progress bar: cells, runs/s and ETA from a stopwatch the test controls,
// redrawn at most ten times a second, and a final line when the sweep ends.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "sim/sweep/progress.h"

namespace locksim::sweep {
namespace {

class FakeStopwatch final : public Stopwatch {
 public:
  double elapsed_seconds() const override { return now; }
  double now = 0.0;
};

std::string read_all(std::FILE* f) {
  std::rewind(f);
  std::string out;
  for (int c; (c = std::fgetc(f)) != EOF;) out.push_back(static_cast<char>(c));
  return out;
}

// The text shows cells done of total, the run rate and the time left at that rate.
TEST(SweepProgress, RenderShowsCellsRateAndEta) {
  EXPECT_EQ(ProgressBar::render(10, 40, 1000, 4000, 2.0),
            "[======>                 ] 10/40 cells  500 runs/s  ETA 6s");
  EXPECT_EQ(ProgressBar::render(0, 400, 0, 400000, 0.0).find("ETA --") != std::string::npos, true);
  EXPECT_NE(ProgressBar::render(1, 400, 1000, 400000, 1.0).find("ETA 6m39s"), std::string::npos);
  EXPECT_NE(ProgressBar::render(400, 400, 400000, 400000, 40.0).find("[========================] 400/400"),
            std::string::npos);
}

// Updates closer than 0.1 s apart are not drawn; finish always draws and ends the line.
TEST(SweepProgress, RedrawsAtMostTenTimesASecond) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  FakeStopwatch clock;
  ProgressBar bar(out, clock, 4, 400);
  clock.now = 0.01;
  bar.update(0, 10);  // first draw
  clock.now = 0.05;
  bar.update(1, 100);  // too soon
  clock.now = 0.2;
  bar.update(2, 200);  // drawn
  clock.now = 0.25;
  bar.finish(4, 400);
  const std::string text = read_all(out);
  std::fclose(out);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\r'), 3);
  EXPECT_EQ(text.find("1/4 cells"), std::string::npos);
  EXPECT_NE(text.find("2/4 cells"), std::string::npos);
  EXPECT_EQ(text.substr(text.size() - 1), "\n");
  EXPECT_NE(text.find("4/4 cells  1600 runs/s  ETA 0s"), std::string::npos);
}

}  // namespace
}  // namespace locksim::sweep
