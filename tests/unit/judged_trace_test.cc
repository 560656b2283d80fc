// The judged lines (sim/run/judged_trace.h): on hand-written histories,
// each kind of line says what the checkers computed — belief intervals and
// why they stopped, promised-window pieces as P1 reads them, the service
// holder on a quorum, role intervals, verdicts with the --json witness.
//
// Then the hand-written traces the analysis tests draw (tests/python/data):
// their facts are read back into a History and judged here, and their judged
// lines must be exactly what the checkers say. After editing such a trace by
// hand, rewrite its judged lines with
//   LOCKSIM_REWRITE_JUDGED=1 build/tests/locksim_tests --gtest_filter='JudgedFixtures.*'
#include "sim/run/judged_trace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/check/checkers.h"
#include "sim/core/trace.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;

constexpr ProcessId c1 = 0, c2 = 1, r1 = 2, r2 = 3, r3 = 4;

History three_nodes() {
  History h;
  for (const char* name : {"c1", "c2"}) h.processes.push_back({name, ProcessKind::client});
  for (const char* name : {"r1", "r2", "r3"}) h.processes.push_back({name, ProcessKind::redis_node});
  h.processes.push_back({"resource", ProcessKind::resource});
  h.key_names = {"lock"};
  h.service.nodes = {r1, r2, r3};
  h.service.quorum = 2;
  return h;
}

void add(History& h, Duration at, FactBody body) { h.facts.push_back(Fact{TrueTime{at}, std::move(body)}); }

LockGranted granted(SessionId s, ProcessId client, std::uint64_t value, Duration promised_end) {
  return LockGranted{s, client, value, 7, 10s, ClockKind::monotonic, LocalTime{promised_end}, TrueTime{promised_end}};
}

std::vector<std::string> of_type(const std::vector<std::string>& lines, const std::string& type) {
  std::vector<std::string> out;
  for (const std::string& l : lines)
    if (l.find("\"type\":\"" + type + "\"") != std::string::npos) out.push_back(l);
  return out;
}

// c1 holds r1 and r2 (quorum 2 of 3) from 1 s; its lease lapses at 5 s and an
// extension at 6 s reopens it until 12 s; it releases at 8 s. r2 drops the key
// and takes it again within one instant at 3 s: one holder stretch. c2 is
// granted at 9 s and crashes at 10 s; the run ends at 11 s.
History story() {
  History h = three_nodes();
  add(h, 1s, KeyHeld{r1, 0, 0xa1});
  add(h, 1s, KeyHeld{r2, 0, 0xa1});
  add(h, 1s, granted(1, c1, 0xa1, 5s));
  add(h, 3s, KeyDropped{r2, 0, 0xa1, KeyGone::overwritten});
  add(h, 3s, KeyHeld{r2, 0, 0xa1});
  add(h, 6s, LockExtended{1, c1, ClockKind::monotonic, LocalTime{12s}, TrueTime{12s}});
  add(h, 8s, KeyDropped{r1, 0, 0xa1, KeyGone::deleted});
  add(h, 8s, LockReleased{1, c1});
  add(h, 8s, BeliefEnded{1, c1, BeliefEnd::released});
  add(h, 8500ms, KeyHeld{r2, 0, 0xb2});
  add(h, 8500ms, KeyHeld{r3, 0, 0xb2});
  add(h, 9s, granted(2, c2, 0xb2, 19s));
  add(h, 10s, FaultApplied{.kind = FaultKind::crash, .target = c2, .down_for = Duration{-1}});
  add(h, 10500ms, RoleChanged{r3, r2, 1});
  add(h, 11s, RunEnded{});
  return h;
}

TEST(JudgedTrace, BeliefsAndWindowsAsTheCheckersSeeThem) {
  const History h = story();
  const auto lines = judged_lines(h, check_all(h));
  EXPECT_EQ(lines.front(), R"({"t":11000000000,"type":"judged","sessions":2,"promised_windows":3,"holders":2,)"
                           R"("role_intervals":4,"verdicts":5})");
  EXPECT_EQ(of_type(lines, "belief"),
            (std::vector<std::string>{
                R"({"t":11000000000,"type":"belief","session":1,"client":"c1","value":"00000000000000a1","token":7,)"
                R"("start":1000000000,"end":8000000000,"stop":"released","promised_end":5000000000,)"
                R"("released":8000000000,"extensions":1})",
                R"({"t":11000000000,"type":"belief","session":2,"client":"c2","value":"00000000000000b2","token":7,)"
                R"("start":9000000000,"end":10000000000,"stop":"client-crash","promised_end":19000000000,)"
                R"("released":null,"extensions":0})"}));
  // The grant's promise until it lapsed at 5 s; nothing until the extension at 6 s; then the extension's, cut by
  // the release at 8 s. c2's window goes on past its crash, to its promise.
  EXPECT_EQ(of_type(lines, "promised-window"),
            (std::vector<std::string>{
                R"({"t":11000000000,"type":"promised-window","session":1,"client":"c1","start":1000000000,)"
                R"("end":5000000000,"by":"grant","promised_end":5000000000,"until":"lapsed"})",
                R"({"t":11000000000,"type":"promised-window","session":1,"client":"c1","start":6000000000,)"
                R"("end":8000000000,"by":"extension","extended_at":6000000000,"promised_end":12000000000,)"
                R"("until":"released"})",
                R"({"t":11000000000,"type":"promised-window","session":2,"client":"c2","start":9000000000,)"
                R"("end":19000000000,"by":"grant","promised_end":19000000000,"until":"lapsed"})"}));
}

TEST(JudgedTrace, HolderOnAQuorumAndRoleIntervals) {
  const History h = story();
  History replicated = h;
  replicated.service.initial_masters = {kNoProcess, kNoProcess, r1};  // r3 starts as r1's replica
  const auto lines = judged_lines(replicated, check_all(replicated));
  // r2's drop and retake at 3 s do not split c1's stretch; r1's delete at 8 s ends it (one node is not a quorum);
  // c2's value is on r2 and r3 from 8.5 s to the end.
  EXPECT_EQ(of_type(lines, "holder"),
            (std::vector<std::string>{
                R"({"t":11000000000,"type":"holder","start":1000000000,"end":8000000000,"value":"00000000000000a1",)"
                R"("session":1,"client":"c1"})",
                R"({"t":11000000000,"type":"holder","start":8500000000,"end":11000000000,)"
                R"("value":"00000000000000b2","session":2,"client":"c2"})"}));
  EXPECT_EQ(of_type(lines, "role-interval"),
            (std::vector<std::string>{
                R"({"t":11000000000,"type":"role-interval","node":"r1","role":"master","epoch":0,"start":0,)"
                R"("end":11000000000,"changed":false})",
                R"({"t":11000000000,"type":"role-interval","node":"r2","role":"master","epoch":0,"start":0,)"
                R"("end":11000000000,"changed":false})",
                R"({"t":11000000000,"type":"role-interval","node":"r3","role":"replica","master":"r1","epoch":0,)"
                R"("start":0,"end":10500000000,"changed":false})",
                R"({"t":11000000000,"type":"role-interval","node":"r3","role":"replica","master":"r2","epoch":1,)"
                R"("start":10500000000,"end":11000000000,"changed":true})"}));
}

TEST(JudgedTrace, VerdictLinesCarryTheWitness) {
  History h = story();
  // A write of c1's at 8.2 s, after its release, when one node is not a quorum: P4.
  h.facts.insert(h.facts.begin() + 9, Fact{TrueTime{8200ms}, ResourceOp{1, c1, resource::Op::write, true,
                                                                        resource::Reject::none, 7}});
  const Verdicts verdicts = check_all(h);
  const auto lines = of_type(judged_lines(h, verdicts), "verdict");
  ASSERT_EQ(lines.size(), kPropertyCount);
  EXPECT_EQ(lines[0], R"({"t":11000000000,"type":"verdict","property":"grant-exclusive","id":"P1","status":"holds",)"
                      R"("count":0,"witness":null})");
  const auto& p4 = verdicts[static_cast<std::size_t>(Property::resource_current)];
  ASSERT_TRUE(p4.violated);
  EXPECT_EQ(lines[3], R"({"t":11000000000,"type":"verdict","property":"resource-current","id":"P4",)"
                      R"("status":"violated","count":1,"witness":)" + witness_json(h, p4.witness) + "}");
  EXPECT_NE(lines[3].find(R"("kind":"op-not-from-holder","who":"c1","session":1,"other":null,"other_session":null)"),
            std::string::npos);
}

// A sink that reports itself disabled (as a sweep's does) but counts what it
// is given anyway: nothing may reach it.
class DisabledButCounting final : public TraceSink {
 public:
  void line(std::string_view) override { ++lines; }
  bool enabled() const override { return false; }
  int lines = 0;
};

TEST(JudgedTrace, NothingWhenTracingIsOff) {
  const History h = story();
  DisabledButCounting off;
  write_judged_lines(off, h, check_all(h));
  EXPECT_EQ(off.lines, 0);
  StringTrace on;
  write_judged_lines(on, h, check_all(h));
  EXPECT_EQ(std::count(on.text().begin(), on.text().end(), '\n'), 1 + 2 + 3 + 2 + 4 + 5);
}

// --- the analysis fixtures --------------------------------------------------

using nlohmann::json;

template <typename Enum, std::size_t N>
Enum named(const std::string& name, const char* (*name_of)(Enum), const std::array<Enum, N>& all) {
  for (Enum e : all)
    if (name == name_of(e)) return e;
  throw std::runtime_error("unknown name " + name);
}

const char* clock_name(ClockKind k) { return clock_kind_name(k); }

// A History from a trace's header and fact lines, the promises filled in from its promise lines.
History history_of(const std::vector<json>& lines) {
  History h;
  const json& header = lines.front();
  std::map<std::string, ProcessId> id;
  for (const json& p : header["processes"]) {
    const std::string kind = p["kind"];
    const ProcessKind k = kind == "client"     ? ProcessKind::client
                          : kind == "redis"    ? ProcessKind::redis_node
                          : kind == "resource" ? ProcessKind::resource
                          : kind == "sentinel" ? ProcessKind::sentinel
                          : kind == "service"  ? ProcessKind::service
                                               : ProcessKind::other;
    id[p["name"]] = static_cast<ProcessId>(h.processes.size());
    h.processes.push_back({p["name"], k});
  }
  const auto pid = [&](const json& name) { return name.is_null() ? kNoProcess : id.at(name.get<std::string>()); };
  for (const json& k : header["keys"]) h.key_names.push_back(k);
  const auto key = [&](const json& name) {
    for (redis::KeyId k = 0; k < h.key_names.size(); ++k)
      if (h.key_names[k] == name) return k;
    throw std::runtime_error("unknown key");
  };
  for (const json& n : header["service_nodes"]) h.service.nodes.push_back(pid(n));
  h.service.quorum = header["quorum"];
  if (header.contains("service_masters"))
    for (const json& m : header["service_masters"]) h.service.initial_masters.push_back(m.is_null() ? kNoProcess : pid(m));
  h.service.lock_key = key("lock");
  h.app = named<AppKind>(header["app"], app_kind_name,
                         std::array{AppKind::none, AppKind::counter, AppKind::register_value, AppKind::collection,
                                    AppKind::stock});
  const auto value = [](const json& v) { return std::stoull(v.get<std::string>(), nullptr, 16); };
  const auto end_of = [](const json& l) { return l["promised_end"] < 0 ? kTrueNever : TrueTime{Duration{l["promised_end"]}}; };
  std::map<SessionId, TrueTime> grant_promise;
  std::map<SessionId, std::vector<TrueTime>> extension_promises;
  for (const json& l : lines) {
    if (l["type"] != "promise") continue;
    if (l.value("from", "grant") == "grant") grant_promise[l["session"]] = end_of(l);
    else extension_promises[l["session"]].push_back(end_of(l));
  }
  std::map<SessionId, std::size_t> extensions_seen;
  const std::array requests{RequestKind::acquire, RequestKind::release, RequestKind::extend, RequestKind::fencing_token};
  const std::array outcomes{Outcome::ok, Outcome::fail, Outcome::info};
  const std::array ops{resource::Op::read, resource::Op::write, resource::Op::mark, resource::Op::add,
                       resource::Op::increment_size, resource::Op::decrement, resource::Op::check_and_decrement};
  const std::array rejects{resource::Reject::none, resource::Reject::stale_token, resource::Reject::mark_mismatch,
                           resource::Reject::out_of_stock, resource::Reject::missing_token};
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const json& l = lines[i];
    const std::string type = l["type"];
    const TrueTime at{Duration{l["t"].get<std::int64_t>()}};
    FactBody body;
    if (type == "invoke") {
      body = RequestInvoked{pid(l["client"]), l["op"], named<RequestKind>(l["kind"], request_kind_name, requests)};
    } else if (type == "complete") {
      body = RequestCompleted{pid(l["client"]), l["op"], named<RequestKind>(l["kind"], request_kind_name, requests),
                              named<Outcome>(l["outcome"], outcome_name, outcomes)};
    } else if (type == "want") {
      body = LockWanted{pid(l["client"])};
    } else if (type == "give-up") {
      body = LockGaveUp{pid(l["client"])};
    } else if (type == "grant") {
      const SessionId s = l["session"];
      const ClockKind clock = named<ClockKind>(l["clock"], clock_name, std::array{ClockKind::wall, ClockKind::monotonic});
      body = LockGranted{s, pid(l["client"]), value(l["value"]), l["token"], Duration{l["validity_ns"]}, clock,
                         LocalTime{}, grant_promise.contains(s) ? grant_promise[s] : kTrueNever};
    } else if (type == "extend") {
      const SessionId s = l["session"];
      const auto& promises = extension_promises[s];
      const std::size_t n = extensions_seen[s]++;
      body = LockExtended{s, pid(l["client"]),
                          named<ClockKind>(l["clock"], clock_name, std::array{ClockKind::wall, ClockKind::monotonic}),
                          LocalTime{}, n < promises.size() ? promises[n] : kTrueNever};
    } else if (type == "belief-end") {
      body = BeliefEnded{l["session"], pid(l["client"]),
                         named<BeliefEnd>(l["reason"], belief_end_name,
                                          std::array{BeliefEnd::released, BeliefEnd::validity_check,
                                                     BeliefEnd::crashed, BeliefEnd::abandoned})};
    } else if (type == "release") {
      body = LockReleased{l["session"], pid(l["client"])};
    } else if (type == "key-held") {
      body = KeyHeld{pid(l["node"]), key(l["key"]), value(l["value"])};
    } else if (type == "key-dropped") {
      body = KeyDropped{pid(l["node"]), key(l["key"]), value(l["value"]),
                        named<KeyGone>(l["reason"], key_gone_name,
                                       std::array{KeyGone::deleted, KeyGone::expired, KeyGone::overwritten,
                                                  KeyGone::lost_in_crash, KeyGone::demoted})};
    } else if (type == "replicated") {
      body = Replicated{pid(l["node"]), key(l["key"]), value(l["value"]), l["present"], l["offset"]};
    } else if (type == "role") {
      body = RoleChanged{pid(l["node"]), l["role"] == "master" ? kNoProcess : pid(l["master"]), l["epoch"]};
    } else if (type == "op") {
      body = ResourceOp{l["session"], pid(l["client"]), named<resource::Op>(l["op"], resource::op_name, ops),
                        l["accepted"], named<resource::Reject>(l["reject"], resource::reject_name, rejects),
                        l["token"]};
    } else if (type == "app") {
      body = AppState{named<AppKind>(l["app"], app_kind_name,
                                     std::array{AppKind::none, AppKind::counter, AppKind::register_value,
                                                AppKind::collection, AppKind::stock}),
                      l["counter"], l["increments"], l["elements"], l["size"], l["stock"], l["quiescent"]};
    } else if (type == "fault") {
      const FaultKind kind = named<FaultKind>(
          l["fault"], fault_kind_name,
          std::array{FaultKind::pause, FaultKind::resume, FaultKind::crash, FaultKind::restart, FaultKind::clock_jump,
                     FaultKind::clock_drift, FaultKind::partition, FaultKind::heal, FaultKind::clock_slew});
      const auto ns = [&](const char* key) { return Duration{l.value(key, std::int64_t{0})}; };
      body = FaultApplied{.kind = kind,
                          .target = l.contains("target") ? pid(l["target"]) : kNoProcess,
                          .length = ns("length_ns"),
                          .down_for = ns("down_for_ns"),
                          .by = ns("by_ns"),
                          .drift_ppm = l.value("ppm", std::int64_t{0}),
                          .partition = l.value("partition", 0u),
                          .hold = l.value("mode", "drop") == "hold",
                          .until = l.contains("until") && !l["until"].is_null() ? TrueTime{Duration{l["until"].get<std::int64_t>()}}
                                                                          : kTrueNever};
    } else if (type == "end") {
      body = RunEnded{};
    } else {
      continue;  // messages, phases, promises, judged lines: not what the checkers read
    }
    h.facts.push_back(Fact{at, std::move(body)});
  }
  return h;
}

bool is_judged(const std::string& type) {
  for (const char* t : {"judged", "belief", "promised-window", "holder", "role-interval", "verdict"})
    if (type == t) return true;
  return false;
}

struct Fixture {
  const char* name;
};

void PrintTo(const Fixture& f, std::ostream* os) { *os << f.name; }

class JudgedFixtures : public testing::TestWithParam<Fixture> {};

TEST_P(JudgedFixtures, JudgedLinesAreTheCheckersOwn) {
  const std::string path = std::string(LOCKSIM_SOURCE_DIR) + "/tests/python/data/" + GetParam().name + ".jsonl";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::vector<std::string> facts, written;
  std::vector<json> parsed;
  for (std::string text; std::getline(in, text);) {
    if (text.empty()) continue;
    json line = json::parse(text);
    if (is_judged(line["type"])) {
      written.push_back(text);
    } else {
      facts.push_back(text);
      parsed.push_back(std::move(line));
    }
  }
  const History h = history_of(parsed);
  const std::vector<std::string> judged = judged_lines(h, check_all(h));
  if (std::getenv("LOCKSIM_REWRITE_JUDGED") != nullptr) {
    std::ofstream out(path);
    for (const std::string& l : facts) out << l << '\n';
    for (const std::string& l : judged) out << l << '\n';
    GTEST_SKIP() << "rewrote the judged lines of " << path;
  }
  EXPECT_EQ(written, judged) << path << ": its judged lines are not what the checkers say about its facts; "
                                       "LOCKSIM_REWRITE_JUDGED=1 rewrites them";
}

INSTANTIATE_TEST_SUITE_P(
    HandWritten, JudgedFixtures,
    testing::Values(Fixture{"single_node_gc_pause"}, Fixture{"redlock_clock_jump"}, Fixture{"redlock_extend_slew"},
                    Fixture{"every_line_type"}, Fixture{"oversell_incident"}, Fixture{"master_replica_failover"},
                    Fixture{"master_replica_replicated"}, Fixture{"sentinel_split_brain"}),
    [](const testing::TestParamInfo<Fixture>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace locksim
