#include "sim/cli/search_coverage.h"

#include <sstream>

#include "sim/core/trace.h"

namespace locksim::cli {

namespace {

std::string tally_text(const search::Tally& t) {
  return "placed " + std::to_string(t.placed) + ", fired " + std::to_string(t.fired) + ", with an effect " +
         std::to_string(t.effective);
}

std::string tally_json(const search::Tally& t) {
  return "\"placed\":" + std::to_string(t.placed) + ",\"fired\":" + std::to_string(t.fired) +
         ",\"effective\":" + std::to_string(t.effective);
}

std::string site_name(const search::PhaseSite& s) { return s.client + " " + phase_name(s.phase); }

// From the start of tenth |first| to the end of tenth |last|: "27s..30s".
std::string tenths_text(const search::MagnitudeDim& dim, std::size_t first, std::size_t last) {
  const std::string low = search::magnitude_bin_text(dim, first), high = search::magnitude_bin_text(dim, last);
  return low.substr(0, low.find("..")) + high.substr(high.find(".."));
}

// The tenths of |dim| in which no fault fired, runs of them joined: "27s..30s".
std::vector<std::string> never_fired(const search::MagnitudeDim& dim, const search::MagnitudeCoverage& m) {
  std::vector<std::string> out;
  for (std::size_t b = 0; b < m.fired.size(); ++b) {
    if (m.fired[b] > 0) continue;
    std::size_t e = b;
    while (e + 1 < m.fired.size() && m.fired[e + 1] == 0) ++e;
    out.push_back(tenths_text(dim, b, e));
    b = e;
  }
  return out;
}

std::string joined(const std::vector<std::string>& parts, const char* separator = ", ") {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : separator) + p;
  return out;
}

}  // namespace

void print_coverage(std::ostream& out, const search::SearchBase& base, const search::Coverage& cov) {
  const SearchSpec& space = base.spec.search;
  out << "coverage (what was tried; nothing else was):\n";
  for (std::size_t k = 0; k < space.kinds.size(); ++k) {
    const SearchKindSpec& spec = space.kinds[k];
    const search::Coverage::Kind& c = cov.kinds[k];
    out << "  " << spec.kind->name << ": " << tally_text(c) << "\n";
    std::vector<std::string> targets, idle;
    for (std::size_t t = 0; t < c.targets.size(); ++t) {
      targets.push_back(spec.targets[t] + " " + std::to_string(c.targets[t].fired));
      if (c.targets[t].fired == 0) idle.push_back(spec.targets[t]);
    }
    if (!targets.empty())
      out << "    fired per target: " << joined(targets) << (idle.empty() ? "" : "; never fired on: " + joined(idle))
          << "\n";
    const std::vector<search::MagnitudeDim> dims = search::magnitude_dims(spec);
    for (std::size_t d = 0; d < dims.size() && d < c.magnitudes.size(); ++d) {
      const std::vector<std::string> never = never_fired(dims[d], c.magnitudes[d]);
      std::size_t tried = 0;
      for (std::uint64_t n : c.magnitudes[d].fired) tried += n > 0;
      out << "    " << dims[d].key << " " << tenths_text(dims[d], 0, search::kMagnitudeBins - 1) << ": fired in " << tried << " of " << search::kMagnitudeBins
          << " tenths" << (never.empty() ? "" : "; never: " + joined(never)) << "\n";
    }
  }
  std::vector<std::string> sites, idle;
  for (std::size_t s = 0; s < base.sites.size() && s < cov.sites.size(); ++s) {
    if (cov.sites[s].fired == 0) idle.push_back(site_name(base.sites[s]));
    else sites.push_back(site_name(base.sites[s]) + " " + std::to_string(cov.sites[s].fired));
  }
  out << "  triggers fired: at a time " << cov.at_time.fired << (sites.empty() ? "" : ", " + joined(sites)) << "\n";
  if (!idle.empty()) out << "    phase sites never fired at: " << joined(idle) << "\n";
  std::vector<std::string> counts;
  for (std::size_t n = 0; n < cov.runs_by_faults_fired.size(); ++n)
    counts.push_back(std::to_string(n) + ": " + std::to_string(cov.runs_by_faults_fired[n]));
  out << "  runs by searched faults fired: " << joined(counts) << "\n";
  for (std::size_t i = 0; i < space.hunt.size(); ++i)
    out << "  " << property_id(space.hunt[i]) << " " << property_name(space.hunt[i]) << ": " << cov.violations[i]
        << " violating runs, closest margin " << (cov.closest[i] ? format_duration_rounded(*cov.closest[i]) : "-")
        << (cov.closest[i] ? "" : " (never at stake)") << "\n";
  if (cov.failures > 0) out << "  " << cov.failures << " runs did not finish (crashes and run errors, above)\n";
}

std::string coverage_json(const search::SearchBase& base, const search::Coverage& cov) {
  const SearchSpec& space = base.spec.search;
  std::ostringstream j;
  j << "{\"kinds\":[";
  for (std::size_t k = 0; k < space.kinds.size(); ++k) {
    const SearchKindSpec& spec = space.kinds[k];
    const search::Coverage::Kind& c = cov.kinds[k];
    j << (k ? "," : "") << "{\"kind\":\"" << spec.kind->name << "\"," << tally_json(c) << ",\"targets\":[";
    for (std::size_t t = 0; t < c.targets.size(); ++t)
      j << (t ? "," : "") << "{\"target\":" << json_quote(spec.targets[t]) << "," << tally_json(c.targets[t]) << "}";
    j << "],\"magnitudes\":[";
    const std::vector<search::MagnitudeDim> dims = search::magnitude_dims(spec);
    for (std::size_t d = 0; d < dims.size() && d < c.magnitudes.size(); ++d) {
      j << (d ? "," : "") << "{\"key\":\"" << dims[d].key << "\",\"low\":" << dims[d].low << ",\"high\":"
        << dims[d].high << ",\"unit\":\"" << (dims[d].duration ? "ns" : "ppm") << "\",\"fired_per_tenth\":[";
      for (std::size_t b = 0; b < c.magnitudes[d].fired.size(); ++b) j << (b ? "," : "") << c.magnitudes[d].fired[b];
      j << "]}";
    }
    j << "]}";
  }
  j << "],\"triggers\":{\"at_time\":{" << tally_json(cov.at_time) << "},\"phases\":[";
  for (std::size_t s = 0; s < base.sites.size() && s < cov.sites.size(); ++s)
    j << (s ? "," : "") << "{\"client\":" << json_quote(base.sites[s].client) << ",\"phase\":\""
      << phase_name(base.sites[s].phase) << "\"," << tally_json(cov.sites[s]) << "}";
  j << "]},\"runs_by_faults_fired\":[";
  for (std::size_t n = 0; n < cov.runs_by_faults_fired.size(); ++n) j << (n ? "," : "") << cov.runs_by_faults_fired[n];
  j << "],\"properties\":[";
  for (std::size_t i = 0; i < space.hunt.size(); ++i)
    j << (i ? "," : "") << "{\"property\":\"" << property_name(space.hunt[i]) << "\",\"id\":\""
      << property_id(space.hunt[i]) << "\",\"violated\":" << cov.violations[i]
      << ",\"closest_margin_ns\":" << (cov.closest[i] ? std::to_string(cov.closest[i]->count()) : "null") << "}";
  j << "],\"runs_by_strategy\":{";
  for (std::size_t s = 0; s < cov.runs_by_strategy.size(); ++s)
    j << (s ? "," : "") << "\"" << search::strategy_name(static_cast<search::Strategy>(s))
      << "\":" << cov.runs_by_strategy[s];
  j << "},\"failures\":" << cov.failures << "}";
  return j.str();
}

}  // namespace locksim::cli
