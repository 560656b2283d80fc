#include "sim/cli/compare_notes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "sim/check/property.h"
#include "sim/sweep/story_gap.h"

namespace locksim::cli {

namespace {

// One service whose numbers the fault's missing runs could change.
struct Gap {
  std::string service;
  std::uint64_t fired = 0;
  std::uint64_t runs = 0;
  std::string held;         // "P1 P3": at 0 %, which the missing runs might have broken
  std::string understated;  // "P2": a rate the missing runs hold down
};

// "81%": never "100%" for a share short of every run, nor "0%" for some.
std::string share_text(std::uint64_t part, std::uint64_t whole) {
  double shown = std::round(100.0 * static_cast<double>(part) / static_cast<double>(whole));
  if (part < whole) shown = std::min(shown, 99.0);
  if (part > 0) shown = std::max(shown, 1.0);
  char text[16];
  std::snprintf(text, sizeof text, "%.0f%%", shown);
  return text;
}

void append(std::string& list, const std::string& word, const char* separator) {
  list += (list.empty() ? "" : separator) + word;
}

// "a 0% (zookeeper P1, chubby P1 P3) may only mean it did not happen and a rate (zookeeper P2) may read low"
std::string consequences(const std::vector<Gap>& gaps) {
  std::string held, understated;
  for (const Gap& g : gaps) {
    if (!g.held.empty()) append(held, g.service + " " + g.held, ", ");
    if (!g.understated.empty()) append(understated, g.service + " " + g.understated, ", ");
  }
  std::string out;
  if (!held.empty()) append(out, "a 0% (" + held + ") may only mean it did not happen", " and ");
  if (!understated.empty()) append(out, "a rate (" + understated + ") may read low", " and ");
  return out;
}

std::string note(const std::string& fault, std::vector<Gap> gaps) {
  std::stable_sort(gaps.begin(), gaps.end(), [](const Gap& a, const Gap& b) {
    return a.fired * b.runs < b.fired * a.runs;  // exact: runs are at most 10^8
  });
  std::string shares;
  for (const Gap& g : gaps)
    append(shares, share_text(g.fired, g.runs) + " of " + g.service + (shares.empty() ? "'s runs" : "'s"), ", ");
  return "note: " + fault + " fired with an effect in only " + shares +
         ": the runs without it did not test the story, so there " + consequences(gaps);
}

}  // namespace

std::vector<std::string> fault_notes(const std::vector<sweep::CompareCell>& cells) {
  std::vector<std::string> faults;  // in first-seen order
  std::map<std::string, std::vector<Gap>> gaps;
  for (const sweep::CompareCell& c : cells) {
    for (std::size_t f = 0; f < c.faults.size(); ++f) {
      if (!c.fault_expected[f]) continue;
      Gap g{c.variant, c.fault_effective[f], c.runs, "", ""};
      for (std::size_t p = 0; p < kPropertyCount; ++p) {
        if (!sweep::gap_matters(c.runs, c.violations[p], g.fired)) continue;
        append(c.violations[p] == 0 ? g.held : g.understated, property_id(kAllProperties[p]), " ");
      }
      if (g.held.empty() && g.understated.empty()) continue;
      if (!gaps.count(c.faults[f])) faults.push_back(c.faults[f]);
      gaps[c.faults[f]].push_back(std::move(g));
    }
  }
  std::vector<std::string> lines;
  for (const std::string& fault : faults) lines.push_back(note(fault, gaps[fault]));
  return lines;
}

}  // namespace locksim::cli
