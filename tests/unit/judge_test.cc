// judge: the one pass that judges a run gives what the checkers, liveness,
// fault and client outcomes give one by one — on every catalogue variant,
// with witnesses in words and as instants only. The one-by-one functions are
// the reference the rest of the tests hold to docs/properties.md; this holds
// the fused pass to them (the order of consumers, the shared holder track,
// the liveness pass that stops at the run's end while the others go on).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/check/judge.h"
#include "sim/run/run.h"
#include "tests/unit/catalogue_variants.h"

namespace locksim {
namespace {

std::string describe(const Verdicts& verdicts) {
  std::string out;
  for (const Verdict& v : verdicts) {
    out += std::string(property_name(v.property)) + " " + std::to_string(v.violated) + " " + std::to_string(v.count);
    if (v.witness) {
      const Witness& w = *v.witness;
      out += " @" + std::to_string(w.at.time_since_epoch().count()) + " " + w.kind + " " + std::to_string(w.client) +
             "/" + std::to_string(w.session) + " " + std::to_string(w.other_client) + "/" +
             std::to_string(w.other_session) + " " + w.text;
    }
    out += "\n";
  }
  return out;
}

std::string describe(const Liveness& l) {
  const auto ns = [](Duration d) { return std::to_string(d.count()); };
  return std::to_string(l.acquire_attempts) + " " + std::to_string(l.acquire_ok) + " " +
         std::to_string(l.acquire_failed) + " " + std::to_string(l.acquire_info) + " " + std::to_string(l.sessions) +
         " " + std::to_string(l.gave_up) + " " + std::to_string(l.expired_grants) + " " +
         ns(l.mean_acquire_latency) + " " + ns(l.max_acquire_latency) + " " + ns(l.longest_stuck) + " " +
         ns(l.unheld_time) + " " + ns(l.run_length) + " " + std::to_string(l.commits) + " " +
         std::to_string(l.rollbacks) + " " + ns(l.wasted_work);
}

std::string describe(const std::vector<FaultOutcome>& faults) {
  std::string out;
  for (const FaultOutcome& f : faults)
    out += f.name + " " + std::to_string(f.fired) + " " + std::to_string(f.effective) + " " +
           std::to_string(f.first_at.time_since_epoch().count()) + " " +
           std::to_string(f.first_effective_at.time_since_epoch().count()) + "\n";
  return out;
}

std::string describe(const std::vector<ClientOutcome>& clients) {
  std::string out;
  for (const ClientOutcome& c : clients) {
    out += std::to_string(c.client) + " " + std::to_string(c.sessions) + " " + std::to_string(c.ops_accepted) + " " +
           std::to_string(c.ops_rejected) + " " + std::to_string(c.releases_ok) + " " +
           std::to_string(c.releases_failed) + " " + std::to_string(c.releases_unknown) + " " +
           std::to_string(c.longest_wait.count()) + " " + std::to_string(c.waiting_at_end);
    for (const std::int64_t n : c.rejected_by) out += " " + std::to_string(n);
    out += "\n";
  }
  return out;
}

TEST(Judge, OnePassGivesWhatEachCheckGivesAlone) {
  const std::vector<CatalogueVariant> catalogue = catalogue_variants();
  EXPECT_GE(catalogue.size(), 80u);
  std::size_t violated = 0;
  for (const CatalogueVariant& c : catalogue) {
    for (const std::uint64_t seed : {c.spec.seed, std::uint64_t{2024}}) {
      NullTrace trace;
      const History h = run_scenario(c.spec, seed, trace).history;
      const SessionTable table(h);
      for (const WitnessDetail detail : {WitnessDetail::text, WitnessDetail::time_only}) {
        const Judgement j = judge(h, table, detail);
        const std::string where = c.scenario + " · " + c.variant + " · seed " + std::to_string(seed);
        ASSERT_EQ(describe(j.verdicts), describe(check_all(h, table, detail))) << where;
        ASSERT_EQ(describe(j.liveness), describe(measure_liveness(h, table))) << where;
        ASSERT_EQ(describe(j.faults), describe(fault_outcomes(h))) << where;
        ASSERT_EQ(describe(j.clients), describe(client_outcomes(h))) << where;
        for (const Verdict& v : j.verdicts) violated += v.violated ? 1 : 0;
      }
    }
  }
  EXPECT_GT(violated, 0u);  // the catalogue's witnesses were compared, not only its "holds"
}

// Liveness asks live_until once a holder value where it asked value_live at
// every instant: the two agree at every fact's instant and either side of it.
TEST(Judge, LiveUntilIsWhereValueLiveTurns) {
  std::size_t checked = 0;
  for (const CatalogueVariant& c : catalogue_variants()) {
    NullTrace trace;
    const History h = run_scenario(c.spec, c.spec.seed, trace).history;
    const SessionTable table(h);
    std::vector<std::uint64_t> values{0x1234};  // and one no session has
    for (const SessionInfo& s : table.sessions()) values.push_back(s.value);
    for (const std::uint64_t value : values) {
      const TrueTime until = table.live_until(value);
      for (const Fact& f : h.facts)
        for (const TrueTime t : {f.at - Duration{1}, f.at, f.at + Duration{1}}) {
          ASSERT_EQ(table.value_live(value, t), t < until) << c.scenario << " · " << c.variant << " · value " << value;
          ++checked;
        }
    }
  }
  EXPECT_GT(checked, 10000u);
}

std::string describe(const SessionTable& table) {
  const auto ns = [](TrueTime t) { return std::to_string(t.time_since_epoch().count()); };
  std::string out = "run end " + ns(table.run_end()) + "\n";
  for (const SessionInfo& s : table.sessions()) {
    out += std::to_string(s.session) + " " + std::to_string(s.client) + " " + std::to_string(s.value) + " " +
           std::to_string(s.fencing_token) + " " + ns(s.granted) + " " + ns(s.promised_end) + " " + ns(s.released) +
           " " + ns(s.belief_end) + " " + std::to_string(static_cast<int>(s.belief_stop)) + " ext";
    for (const Extension& x : s.extensions) out += " " + ns(x.at) + ">" + ns(x.promised_end);
    const SessionInfo* found = table.find(s.session);
    const SessionInfo* owner = table.owner_of(s.value, s.granted);
    out += " found " + (found ? std::to_string(found->session) : "-") + " owner " +
           (owner ? std::to_string(owner->session) : "-") + " live until " + ns(table.live_until(s.value)) + "\n";
  }
  return out;
}

// A sweep's worker builds one table in place for run after run: each build
// reuses the rows (and their extensions' memory) of the one before, which
// must leave nothing of it behind. Catalogue order and then the reverse, so
// tables grow and shrink between builds.
TEST(Judge, ATableBuiltInPlaceIsOneBuiltAnew) {
  std::vector<History> histories;
  for (const CatalogueVariant& c : catalogue_variants()) {
    NullTrace trace;
    histories.push_back(run_scenario(c.spec, c.spec.seed, trace).history);
  }
  SessionTable reused;
  std::size_t sessions = 0;
  for (const bool reverse : {false, true}) {
    for (std::size_t i = 0; i < histories.size(); ++i) {
      const History& h = histories[reverse ? histories.size() - 1 - i : i];
      reused.build(h);
      const SessionTable fresh(h);
      ASSERT_EQ(describe(reused), describe(fresh)) << "history " << i << (reverse ? " (reversed)" : "");
      sessions += fresh.sessions().size();
    }
  }
  EXPECT_GT(sessions, 500u);
}

}  // namespace
}  // namespace locksim
