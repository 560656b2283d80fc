#include "sim/cli/report.h"

#include <cstdio>

#include "sim/core/trace.h"
#include "sim/run/judged_trace.h"
#include "sim/sweep/results_schema.h"

namespace locksim::cli {

namespace {

// Committed sessions per second, with six decimals (a JSON number).
std::string per_second(const Liveness& l) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6f", committed_per_second(l));
  return text;
}

std::string expected_text(const Expectation& e, Property p) {
  const auto& want = e.violated[static_cast<std::size_t>(p)];
  if (!want) return "-";
  return *want ? "violated" : "holds";
}

std::string percent(std::int64_t part, std::int64_t whole) {
  if (whole == 0) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
  return buf;
}

std::string ns(Duration d) { return std::to_string(d.count()); }

std::string plural(std::int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// "c2: 1 session; ops 1 accepted, 1 rejected (1 stale-token); releases 1 ok; longest wait 9.02s"
std::string client_line(const ClientOutcome& c, const History& h) {
  std::string line = h.name_of(c.client) + ": " + plural(c.sessions, "session", "sessions");
  if (c.ops_accepted + c.ops_rejected > 0) {
    line += "; ops " + std::to_string(c.ops_accepted) + " accepted, " + std::to_string(c.ops_rejected) + " rejected";
    std::string reasons;
    for (std::size_t i = 1; i < kRejectCount; ++i)
      if (c.rejected_by[i] > 0)
        reasons += (reasons.empty() ? "" : ", ") + std::to_string(c.rejected_by[i]) + " " +
                   resource::reject_name(static_cast<resource::Reject>(i));
    if (!reasons.empty()) line += " (" + reasons + ")";
  }
  if (c.releases_ok + c.releases_failed + c.releases_unknown > 0)
    line += "; releases " + std::to_string(c.releases_ok) + " ok, " + std::to_string(c.releases_failed) +
            " failed, " + std::to_string(c.releases_unknown) + " unknown";
  line += "; longest wait " + format_duration_rounded(c.longest_wait);
  if (c.waiting_at_end) line += " (still waiting at the end)";
  return line;
}

// Per-client lines are for stories of a few clients; a crowd is in --json.
constexpr std::size_t kClientLines = 16;

}  // namespace

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

void print_figures(std::ostream& out, const Judgement& j, const History& h, bool holder_known) {
  const Liveness& l = j.liveness;
  out << "  liveness: " << l.sessions << " sessions";
  // Only when it happened: a grant already over on the client's clock is a bug worth a glance.
  if (l.expired_grants > 0) out << " (" << l.expired_grants << " expired at grant)";
  out << " from " << l.acquire_attempts << " acquire attempts ("
      << percent(l.acquire_ok, l.acquire_attempts) << " ok, " << l.acquire_info << " unknown), acquire latency mean "
      << format_duration_rounded(l.mean_acquire_latency) << " max " << format_duration_rounded(l.max_acquire_latency)
      << ", longest stuck " << (holder_known ? format_duration_rounded(l.longest_stuck) : "unknown") << ", unheld "
      << (holder_known ? format_duration_rounded(l.unheld_time) : "unknown") << " of "
      << format_duration_rounded(l.run_length) << "\n";
  // Only under a transactional resource: what the optimism cost.
  if (l.commits + l.rollbacks > 0) {
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.3g", committed_per_second(l));
    out << "  efficiency: " << l.commits << " commits (" << rate << "/s), " << l.rollbacks
        << " rolled back, wasted work " << format_duration_rounded(l.wasted_work) << "\n";
  }
  if (j.clients.size() <= kClientLines)
    for (const ClientOutcome& c : j.clients) out << "    " << client_line(c, h) << "\n";
  if (!j.faults.empty()) {
    out << "  faults:";
    for (std::size_t i = 0; i < j.faults.size(); ++i)
      out << (i ? ";" : "") << " " << j.faults[i].name << " " << describe_firing(j.faults[i]);
    out << "\n";
    // A verdict may rest on a fault that did nothing: say so where it is seen.
    for (const FaultOutcome& f : j.faults)
      if (f.effective == 0) out << "  fault " << f.name << " " << describe_firing(f) << "\n";
  }
}

void print_table(std::ostream& out, const VariantOutcome& v) {
  const RunResult& r = v.result;
  out << "variant " << v.spec.variant;
  if (!v.spec.variant_description.empty()) out << ": " << v.spec.variant_description;
  out << "\n";
  out << "  " << pad("property", 24) << pad("verdict", 10) << pad("expected", 10) << pad("count", 7) << "first witness\n";
  for (Property p : kAllProperties) {
    const Verdict& verdict = r.verdicts[static_cast<std::size_t>(p)];
    const std::string expected = expected_text(v.spec.expect, p);
    const std::string status = verdict.violated ? "VIOLATED" : "holds";
    const bool disagrees = expected != "-" && (expected == "violated") != verdict.violated;
    std::string line = "  " + pad(std::string(property_id(p)) + " " + property_name(p), 24) + pad(status, 10) +
                       pad(expected, 10) + pad(std::to_string(verdict.count), 7);
    if (verdict.witness) line += "at " + format_time_rounded(verdict.witness->at) + ": " + verdict.witness->text;
    if (disagrees) line += "   <-- expected " + expected;
    out << line << "\n";
  }
  print_figures(out, r, r.history);
  for (const Mismatch& m : r.mismatches)
    out << "  MISMATCH " << m.what << ": expected " << m.expected << ", got " << m.actual << "\n";
  out << (r.matches() ? "  matches [expect]\n" : "  DOES NOT MATCH [expect]\n");
}

void print_figures_json(std::ostream& out, const Judgement& j, const History& h, bool holder_known) {
  const Liveness& l = j.liveness;
  out << ",\"liveness\":{\"acquire_attempts\":" << l.acquire_attempts << ",\"acquire_ok\":" << l.acquire_ok
      << ",\"acquire_failed\":" << l.acquire_failed << ",\"acquire_info\":" << l.acquire_info
      << ",\"sessions\":" << l.sessions << ",\"expired_grants\":" << l.expired_grants
      << ",\"gave_up\":" << l.gave_up
      << ",\"mean_acquire_latency_ns\":" << ns(l.mean_acquire_latency)
      << ",\"max_acquire_latency_ns\":" << ns(l.max_acquire_latency)
      << ",\"longest_stuck_ns\":" << (holder_known ? ns(l.longest_stuck) : "null")
      << ",\"unheld_ns\":" << (holder_known ? ns(l.unheld_time) : "null") << ",\"run_length_ns\":" << ns(l.run_length)
      << ",\"commits\":" << l.commits << ",\"rollbacks\":" << l.rollbacks
      << ",\"wasted_work_ns\":" << ns(l.wasted_work) << ",\"committed_per_s\":" << per_second(l)
      << "},\"faults\":[";
  for (std::size_t f = 0; f < j.faults.size(); ++f) {
    const FaultOutcome& fault = j.faults[f];
    const auto at = [](TrueTime t) {
      return t == kTrueNever ? std::string("null") : std::to_string(t.time_since_epoch().count());
    };
    out << (f ? "," : "") << "{\"name\":" << json_quote(fault.name) << ",\"fired\":" << fault.fired
        << ",\"effective\":" << fault.effective << ",\"first_at_ns\":" << at(fault.first_at)
        << ",\"first_effective_at_ns\":" << at(fault.first_effective_at)
        << ",\"text\":" << json_quote(describe_firing(fault)) << "}";
  }
  out << "],\"clients\":[";
  for (std::size_t c = 0; c < j.clients.size(); ++c) {
    const ClientOutcome& o = j.clients[c];
    out << (c ? "," : "") << "{\"name\":" << json_quote(h.name_of(o.client)) << ",\"sessions\":" << o.sessions
        << ",\"ops_accepted\":" << o.ops_accepted << ",\"ops_rejected\":" << o.ops_rejected << ",\"rejected\":{";
    for (std::size_t reason = 1; reason < kRejectCount; ++reason)
      out << (reason > 1 ? "," : "") << json_quote(resource::reject_name(static_cast<resource::Reject>(reason)))
          << ":" << o.rejected_by[reason];
    out << "},\"releases\":{\"ok\":" << o.releases_ok << ",\"failed\":" << o.releases_failed
        << ",\"unknown\":" << o.releases_unknown << "},\"longest_wait_ns\":" << ns(o.longest_wait)
        << ",\"waiting_at_end\":" << (o.waiting_at_end ? "true" : "false") << "}";
  }
  out << "]";
}

void print_json(std::ostream& out, const std::string& scenario, const std::string& file, std::uint64_t seed,
                const std::vector<VariantOutcome>& variants) {
  out << "{\"schema\":\"" << sweep::kResultsSchema << "\",\"scenario\":" << json_quote(scenario)
      << ",\"file\":" << json_quote(file) << ",\"seed\":" << sweep::seed_json(seed) << ",\"variants\":[";
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const VariantOutcome& v = variants[i];
    const RunResult& r = v.result;
    if (i) out << ",";
    out << "{\"name\":" << json_quote(v.spec.variant) << ",\"description\":" << json_quote(v.spec.variant_description)
        << ",\"seed\":" << sweep::seed_json(r.seed) << ",\"verdicts\":{";
    for (Property p : kAllProperties) {
      const Verdict& verdict = r.verdicts[static_cast<std::size_t>(p)];
      if (p != Property::grant_exclusive) out << ",";
      out << json_quote(property_name(p)) << ":{\"id\":\"" << property_id(p) << "\",\"status\":\""
          << (verdict.violated ? "violated" : "holds") << "\",\"count\":" << verdict.count << ",\"witness\":";
      out << witness_json(r.history, verdict.witness);
      out << "}";
    }
    out << "},\"expected\":{";
    bool first = true;
    for (Property p : kAllProperties) {
      const std::string e = expected_text(v.spec.expect, p);
      if (e == "-") continue;
      out << (first ? "" : ",") << json_quote(property_name(p)) << ":\"" << e << "\"";
      first = false;
    }
    out << "},\"matches\":" << (r.matches() ? "true" : "false") << ",\"mismatches\":[";
    for (std::size_t m = 0; m < r.mismatches.size(); ++m) {
      out << (m ? "," : "") << "{\"what\":" << json_quote(r.mismatches[m].what)
          << ",\"expected\":" << json_quote(r.mismatches[m].expected) << ",\"actual\":" << json_quote(r.mismatches[m].actual)
          << "}";
    }
    out << "]";
    print_figures_json(out, r, r.history);
    out << ",\"events\":" << r.events << "}";
  }
  out << "]}\n";
}

}  // namespace locksim::cli
