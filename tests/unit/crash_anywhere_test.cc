// Proves every model survives every fault at any instant: for each process
// kind of each deployment (a single Redis node, Redlock's nodes, a master
// with its replica and sentinels, the consensus store under each store
// protocol and release preset, the no-lock baseline; the clients of each,
// the resource, a service) and each fault kind the scenario format has
// (crash with each `what`, partition with each mode), the fault fires
// before the target's start event (at 0s), right after it (inside the first
// client's start), at every client phase the deployment can reach
// (phase_reach) and every server event it can produce (the reader decides),
// and at random instants from a fixed seed; and the sequences that matter —
// crash then restart (at once and later), a crash and a restart during a
// pause, a second crash while down, a restart of a process never crashed,
// pause then crash. Each case is a scenario file (the base deployment plus
// its [fault.NAME] tables), read by the reader like any file and run twice
// with one seed: it must not crash, trip a LOCKSIM_CHECK or a sanitizer,
// stop with a RunError, or run two ways.
//
// Why: a store member crashed before its start event and restarted later
// used to segfault in StoreMember::on_timer (its Raft vectors were sized in
// on_start only); a search found it after ~30,000 runs. Here the first case
// to hit it is "crash, restart at once on s1 at 0s" of every store
// deployment (UBSan: a null load in stand_for_election; Release: SIGSEGV).
//
// Size: about 32,000 cases over 13 deployments, 1,200 to 2,900 each (a
// store deployment: 11 single faults x 5 targets x ~39 instants, and 15
// sequences x 6 anchors per server, 5 per client). With kRandomInstants
// random instants per (fault, target) and kRandomAnchors random anchors per
// sequence, each TEST (one per deployment, so `ctest -j` runs them side by
// side) takes under 3 s in the Release build (20 s in all) and under 70 s
// under the sanitizers (7.5 CPU-minutes in all: 4.6 minutes on two cores).
// A case that kills the process prints its scenario and the command that
// replays it.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "sim/core/rng.h"
#include "sim/core/run_error.h"
#include "sim/core/trace.h"
#include "sim/history/server_event.h"
#include "sim/run/run.h"
#include "sim/scenario/file.h"
#include "sim/scenario/phase_reach.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define LOCKSIM_CRASH_ANYWHERE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/common_interface_defs.h>
#define LOCKSIM_CRASH_ANYWHERE_ASAN 1
#endif
#endif

namespace locksim {
namespace {

using namespace std::chrono_literals;

constexpr int kRandomInstants = 2;  // per (fault shape, target)
constexpr int kRandomAnchors = 2;   // per (sequence, target)
constexpr std::uint64_t kCaseSeed = 20240611;
// Every case runs twice and the two runs must agree. Under the sanitizers,
// where a run costs some thirty times as much, only every kRepeatEvery-th
// case runs its second time: the repeat executes the same code on the same
// input, so it finds no memory error the first run missed, and the Release
// pass checks every case's determinism.
#ifdef LOCKSIM_CRASH_ANYWHERE_ASAN
constexpr int kRepeatEvery = 4;
#else
constexpr int kRepeatEvery = 1;
#endif

// ---- The case on the way: printed if the process dies in it ----------------

std::string g_current_case;  // the scenario text of the case running now
std::string g_current_note;  // its label and the command that replays it
volatile std::sig_atomic_t g_reported = 0;

void write_all(const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(2, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// Called as the process dies (a signal, a sanitizer's report): not
// async-signal-safe, which no longer matters then.
void report_current_case() {
  if (g_reported || g_current_case.empty()) return;
  g_reported = 1;
  write_all("\ncrash-anywhere: the process died in case " + g_current_note +
            "\n----- case.toml -----\n" + g_current_case + "----- end -----\n");
}

extern "C" void on_fatal_signal(int sig) {
  report_current_case();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void install_reporters() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  // GCC links UBSan as a runtime of its own, beside ASan's: each calls its
  // own death callback after its report (and ends the process with _exit,
  // which no signal handler sees, unless told to abort).
  if (void* ubsan = ::dlopen("libubsan.so.1", RTLD_NOW | RTLD_NOLOAD))
    if (void* set = ::dlsym(ubsan, "__sanitizer_set_death_callback"))
      reinterpret_cast<void (*)(void (*)())>(set)(report_current_case);
#ifdef LOCKSIM_CRASH_ANYWHERE_ASAN
  __sanitizer_set_death_callback(report_current_case);
  std::signal(SIGABRT, on_fatal_signal);  // LOCKSIM_CHECK; ASan keeps its own SIGSEGV handler
#else
  for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, on_fatal_signal);
#endif
}

// ---- Deployments ------------------------------------------------------------

// Long enough for leases to expire and be taken over after a fault (the
// deployments' TTLs are 2-6 s), short enough for thousands of cases.
constexpr Duration kRunFor = 10s;

// A duration as a scenario file writes it: "10s", "250ms" or "1234ns".
std::string ns(Duration d) {
  if (d % 1s == 0ns) return std::to_string(d / 1s) + "s";
  if (d % 1ms == 0ns) return std::to_string(d / 1ms) + "ms";
  return std::to_string(d.count()) + "ns";
}

// The parts every deployment shares: two clients (c2 starts after c1, so a
// fault at 0s comes before its start), a service c1 calls, latencies drawn
// from a range so that seeds differ.
std::string common(std::string_view name, std::string_view c1_steps, std::string_view c2_steps) {
  std::ostringstream out;
  out << "[scenario]\nname = \"crash-anywhere-" << name << "\"\nrun_for = \"" << ns(kRunFor) << "\"\n\n"
      << "[network]\nlatency = \"uniform(1ms, 3ms)\"\n\n"
      << "[service.identity]\nlatency = \"uniform(20ms, 80ms)\"\n\n"
      << "[client.c1]\nsteps = " << c1_steps << "\niterations = 2\nthink = \"200ms\"\n\n"
      << "[client.c2]\nstart = \"1s\"\nsteps = " << c2_steps << "\niterations = 2\n\n";
  return out.str();
}

struct Deployment {
  std::string name;
  std::string toml;
};

Deployment single_node() {
  return {"single-node",
          common("single-node", R"x(["read", "call identity", "work 500ms", "check", "write"])x",
                 R"x(["read", "work 100ms", "write"])x") +
              R"x([lock]
ttl = "4s"
acquire = "setnx-then-expire"
fencing = "incr"
watchdog = true
request_timeout = "500ms"
retry_delay = "uniform(100ms, 300ms)"
reconnect_delay = "50ms"
scripts = "evalsha"

[redis]
nodes = ["r1"]
persistence = "aof-everysec"

[resource]
app = "counter"
policy = "fencing"
)x"};
}

Deployment redlock() {
  return {"redlock",
          common("redlock", R"x(["read", "call identity", "work 500ms", "check", "write"])x",
                 R"x(["read", "work 100ms", "write"])x") +
              R"x([lock]
protocol = "redlock"
preset = "node-redlock-4.2.0"
ttl = "4s"
fencing = "incr"
request_timeout = "500ms"

[redlock]
node_timeout = "50ms"

[redis]
nodes = ["A", "B", "C"]
delayed_restart = "1s"
persistence = "aof-always"

[resource]
app = "counter"
policy = "fencing"
)x"};
}

Deployment sentinel() {
  return {"sentinel",
          common("sentinel", R"x(["read", "call identity", "work 500ms", "check", "write"])x",
                 R"x(["read", "work 100ms", "write"])x") +
              R"x([lock]
ttl = "4s"
wait_replicas = 1
wait_timeout = "100ms"
request_timeout = "500ms"
retry_delay = "uniform(100ms, 300ms)"

[redis]
nodes = ["M"]
replicas = ["R"]
replication_delay = "20ms"
active_expiry = "cron"
ack_every = "500ms"

[sentinel]
names = ["x1", "x2", "x3"]
down_after = "1s"
ping_every = "250ms"
failover_timeout = "10s"
client_follow_delay = "100ms"

[resource]
app = "counter"
)x"};
}

// A store protocol with three members, under the release |preset| ("" =
// the protocol's default); |store_keys| go into [store] (a lower min_ttl, so
// that sessions expire within the run), |lock_keys| into [store_lock].
Deployment store(std::string_view protocol, std::string_view preset, std::string_view ttl,
                 std::string_view store_keys = "", std::string_view lock_keys = "") {
  const std::string name = preset.empty() ? std::string(protocol) : std::string(preset);
  return {name, common(name, R"x(["read", "call identity", "work 300ms", "check", "write"])x",
                       R"x(["read", "work 100ms", "write"])x") +
                    "[lock]\nprotocol = \"" + std::string(protocol) + "\"\n" +
                    (preset.empty() ? "" : "preset = \"" + std::string(preset) + "\"\n") + "ttl = \"" +
                    std::string(ttl) + "\"\nretry_delay = \"uniform(50ms, 150ms)\"\nrequest_timeout = \"500ms\"\n\n"
                    "[store]\nmembers = [\"s1\", \"s2\", \"s3\"]\n" + std::string(store_keys) +
                    "\n[resource]\napp = \"counter\"\n" +
                    (lock_keys.empty() ? "" : "\n[store_lock]\n" + std::string(lock_keys))};
}

// etcd with the stock kept in the store (its txn compares the holder's revision).
Deployment etcd_stock() {
  return {"etcd-stock",
          common("etcd-stock", R"x(["read", "call identity", "work 300ms", "check", "decrement"])x",
                 R"x(["read", "check-and-decrement"])x") +
              R"x([lock]
protocol = "etcd"
ttl = "3s"
retry_delay = "uniform(50ms, 150ms)"

[store]
members = ["s1", "s2", "s3"]
stock = true

[resource]
app = "stock"
initial_stock = 3
)x"};
}

Deployment no_lock() {
  return {"none", common("none", R"x(["read", "call identity", "write", "commit"])x",
                         R"x(["read", "work 100ms", "write", "commit"])x") +
                      R"x([lock]
protocol = "none"

[resource]
app = "counter"
policy = "transactional"
)x"};
}

// ---- Cases --------------------------------------------------------------------

struct Target {
  std::string name;
  std::string kind;  // for the tally: "store member (leader)", "client", ...
  bool client = false;
};

struct Case {
  std::string label;  // "pause on s1 at c1 acquired"
  std::string fault;  // the fault kind or sequence, for the tally
  std::string target_kind;
  std::string tables;  // its [fault.NAME] tables
};

// When a fault fires: its `at` and `after`.
struct When {
  std::string at;
  std::optional<Duration> after;
  std::string text() const { return after ? at + " + " + ns(*after) : at; }
};

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

std::string fault_table(const std::string& name, const std::string& body, const When& when) {
  std::string out = "\n[fault." + name + "]\n" + body + "at = " + quoted(when.at) + "\n";
  if (when.after) out += "after = " + quoted(ns(*when.after)) + "\n";
  return out;
}

// |d| after |anchor|.
When later(const When& anchor, Duration d) { return {anchor.at, anchor.after.value_or(0ns) + d}; }

// One fault shape: what it does to |t| (its kind's keys).
struct Shape {
  std::string name;
  std::string body;
};

std::vector<Shape> shapes(const Target& t, const std::vector<std::string>& others) {
  const std::string target = "target = " + quoted(t.name) + "\n";
  std::string rest;
  for (const std::string& o : others) rest += (rest.empty() ? "" : ", ") + quoted(o);
  const std::string groups = "groups = [[" + quoted(t.name) + "], [" + rest + "]]\n";
  std::vector<Shape> out = {
      {"pause", "kind = \"pause\"\n" + target + "length = \"2s\"\n"},
      {"crash (machine)", "kind = \"crash\"\n" + target + "what = \"machine\"\n"},
      {"crash (process)", "kind = \"crash\"\n" + target + "what = \"process\"\n"},
  };
  if (!t.client) {  // a crashed client stays down
    out.push_back({"crash (machine) + restart_after", "kind = \"crash\"\n" + target + "restart_after = \"1s\"\n"});
    out.push_back({"crash (process) + restart_after",
                   "kind = \"crash\"\n" + target + "what = \"process\"\nrestart_after = \"1s\"\n"});
  }
  out.push_back({"clock-jump forward", "kind = \"clock-jump\"\n" + target + "by = \"30s\"\n"});
  out.push_back({"clock-jump backward", "kind = \"clock-jump\"\n" + target + "by = \"-30s\"\n"});
  out.push_back({"clock-drift", "kind = \"clock-drift\"\n" + target + "drift = \"5%\"\n"});
  out.push_back({"clock-slew", "kind = \"clock-slew\"\n" + target + "drift = \"-10%\"\nlength = \"5s\"\n"});
  out.push_back({"partition (drop)", "kind = \"partition\"\n" + groups + "mode = \"drop\"\nheal_after = \"3s\"\n"});
  out.push_back({"partition (hold)", "kind = \"partition\"\n" + groups + "mode = \"hold\"\nheal_after = \"3s\"\n"});
  return out;
}

// The sequences, anchored at |a|: each a list of fault tables.
struct Sequence {
  std::string name;
  std::string tables;
};

std::vector<Sequence> sequences(const Target& t, const When& a, const std::string& first_client) {
  const std::string target = "target = " + quoted(t.name) + "\n";
  const std::string crash = "kind = \"crash\"\n" + target;
  const std::string crash_process = crash + "what = \"process\"\n";
  const std::string restart = "kind = \"restart\"\n" + target;
  const std::string pause = "kind = \"pause\"\n" + target + "length = \"4s\"\n";
  const std::string jump_back = "kind = \"clock-jump\"\n" + target + "by = \"-30s\"\n";
  std::vector<Sequence> out = {
      {"pause then crash", fault_table("p", pause, a) + fault_table("c", crash, a)},
      {"crash during a pause", fault_table("p", pause, a) + fault_table("c", crash, later(a, 1s))},
      {"second crash while down", fault_table("c", crash, a) + fault_table("c2", crash_process, later(a, 500ms))},
      {"pause of a crashed process", fault_table("c", crash, a) + fault_table("p", pause, later(a, 500ms))},
      {"clock jump while down", fault_table("c", crash, a) + fault_table("j", jump_back, later(a, 1s))},
  };
  if (t.client) return out;
  // A crash 1 ms before the run ends, after every restart below.
  const When never{first_client + " started", kRunFor - 1ms};
  const std::vector<Sequence> restarts = {
      {"crash, restart at once", fault_table("c", crash + "restart_after = \"0s\"\n", a)},
      {"crash (process), restart at once", fault_table("c", crash_process + "restart_after = \"0s\"\n", a)},
      {"crash, then a restart fault", fault_table("c", crash, a) + fault_table("r", restart, later(a, 1s))},
      {"crash and restart during a pause", fault_table("p", pause, a) + fault_table("c", crash, later(a, 1s)) +
                                               fault_table("r", restart, later(a, 2s))},
      {"pause then crash, restart after the pause",
       fault_table("p", pause, a) + fault_table("c", crash + "restart_after = \"5s\"\n", a)},
      {"second crash while down, then restart", fault_table("c", crash, a) +
                                                    fault_table("c2", crash_process, later(a, 500ms)) +
                                                    fault_table("r", restart, later(a, 1s))},
      {"crash at the restart instant", fault_table("c", crash + "restart_after = \"1s\"\n", a) +
                                           fault_table("c2", crash + "restart_after = \"1s\"\n", later(a, 1s))},
      {"restart of a process never crashed", fault_table("r", restart, a) + fault_table("c", crash, never)},
      {"restart while paused after a restart",
       fault_table("c", crash + "restart_after = \"0s\"\n", a) + fault_table("p", pause, later(a, 1ns)) +
           fault_table("r", restart, later(a, 2s))},
      {"clock jump while down, then restart", fault_table("c", crash + "restart_after = \"2s\"\n", a) +
                                                  fault_table("j", jump_back, later(a, 1s))},
  };
  out.insert(out.end(), restarts.begin(), restarts.end());
  return out;
}

// ---- Running ------------------------------------------------------------------

struct Tally {
  std::map<std::string, int> by_fault, by_target;
  std::map<std::pair<std::string, std::string>, int> effective;  // (fault, target kind) -> cases it took effect
  int cases = 0;
  int runs = 0;
};

std::optional<ScenarioSpec> read(const std::string& text, ScenarioErrors& errors) {
  const auto file = ScenarioFile::from_string(text, "case.toml", errors);
  if (!file) return std::nullopt;
  return file->resolve("base", {}, errors);
}

std::string first_error(const ScenarioErrors& errors) { return errors.empty() ? "(no message)" : errors[0].to_string(); }

// A digest of what a run did, without a trace (tracing costs six times the
// run): when each fact came and of what kind, the events, and the judgement.
std::uint64_t digest_of(const RunResult& r) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  const auto mix = [&h](std::int64_t v) { h = (h ^ static_cast<std::uint64_t>(v)) * 0x100000001b3ULL; };
  mix(static_cast<std::int64_t>(r.events));
  mix(static_cast<std::int64_t>(r.history.facts.size()));
  for (const Fact& f : r.history.facts) {
    mix(f.at.time_since_epoch().count());
    mix(static_cast<std::int64_t>(f.body.index()));
  }
  for (const Verdict& v : r.verdicts) mix(v.count);
  for (const FaultOutcome& f : r.faults) {
    mix(f.fired);
    mix(f.effective);
    mix(f.first_at.time_since_epoch().count());
  }
  for (const ClientOutcome& c : r.clients) {
    mix(c.sessions);
    mix(c.ops_accepted);
    mix(c.ops_rejected);
    mix(c.releases_ok + 3 * c.releases_failed + 7 * c.releases_unknown);
    mix(c.longest_wait.count());
  }
  return h;
}

// Every kTracedEvery-th case is also compared byte for byte, its whole trace hashed.
constexpr int kTracedEvery = 64;

// Runs |c| on |d| twice with one seed; a failure names the case and its file.
void run_case(const Deployment& d, const Case& c, std::uint64_t seed, Tally& tally) {
  const std::string text = d.toml + c.tables;
  const std::string note = d.name + ": " + c.label + " (seed " + std::to_string(seed) + ")";
  ScenarioErrors errors;
  const std::optional<ScenarioSpec> spec = read(text, errors);
  if (!spec) {
    ADD_FAILURE() << note << ": the reader refused the case: " << first_error(errors) << "\n" << text;
    return;
  }
  g_current_case = text;
  g_current_note = note + "; save the scenario below as case.toml and replay it: locksim run case.toml --seed " +
                   std::to_string(seed);
  const bool traced = tally.cases % kTracedEvery == 0;
  const int runs = tally.cases % kRepeatEvery == 0 ? 2 : 1;
  std::uint64_t digest[2] = {0, 0};
  std::string error[2];
  bool took_effect = false;
  for (int i = 0; i < runs; ++i) {
    HashingTrace hashed;
    NullTrace untraced;
    try {
      const RunResult result = run_scenario(*spec, seed, traced ? static_cast<TraceSink&>(hashed) : untraced);
      digest[i] = digest_of(result) ^ hashed.hash();
      for (const FaultOutcome& f : result.faults) took_effect = took_effect || f.effective > 0;
    } catch (const RunError& e) {
      error[i] = e.what();
    }
    ++tally.runs;
  }
  g_current_case.clear();
  EXPECT_TRUE(error[0].empty()) << note << ": the run stopped: " << error[0] << "\n" << text;
  if (runs == 2) {
    EXPECT_EQ(digest[0], digest[1]) << note << ": one seed ran two ways\n" << text;
    EXPECT_EQ(error[0], error[1]) << note << ": one seed ran two ways\n" << text;
  }
  ++tally.cases;
  ++tally.by_fault[c.fault];
  ++tally.by_target[c.target_kind];
  if (took_effect) ++tally.effective[{c.fault, c.target_kind}];
}

// Every process of |spec| with the kind the tally counts it under.
std::vector<Target> processes_of(const ScenarioSpec& spec) {
  std::vector<Target> out;
  for (const std::string& m : spec.store.members)
    out.push_back({m, m == spec.store.initial_leader ? "store member (leader)" : "store member (follower)"});
  for (const std::string& n : spec.redis.nodes) out.push_back({n, "redis node"});
  for (const std::string& r : spec.redis.replicas) out.push_back({r, "replica"});
  for (const std::string& s : spec.sentinel.names) out.push_back({s, "sentinel"});
  for (const ServiceSpec& s : spec.services) out.push_back({s.name, "service"});
  out.push_back({spec.resource.name, "resource"});
  for (const ClientSpec& c : spec.clients) out.push_back({c.name, "client", true});
  return out;
}

// The processes the faults hit: each process but those that stand exactly
// where another of their kind does (the third store member, Redlock's third
// node, the second and third sentinel: partitions and events still name them).
std::vector<Target> targets_of(const ScenarioSpec& spec) {
  std::vector<Target> out;
  std::map<std::string, int> seen;
  for (const Target& t : processes_of(spec)) {
    const int most = t.kind == "sentinel" || t.kind == "store member (follower)" ? 1 : 2;
    if (seen[t.kind]++ < most) out.push_back(t);
  }
  return out;
}

// Each (phase, client) the deployment can reach at least once (phase_reach),
// and each (event, server) the reader accepts as a trigger here: those it
// refuses must be refused because the event cannot happen on that process.
std::vector<When> reachable_triggers(const Deployment& d, const ScenarioSpec& spec) {
  std::vector<When> out;
  for (const ClientSpec& c : spec.clients) {
    const auto reach = scenario::phase_reach(spec, c);
    for (std::size_t p = 0; p < reach.size(); ++p)
      if (reach[p] > 0) out.push_back({c.name + " " + phase_name(static_cast<Phase>(p))});
  }
  for (const Target& t : processes_of(spec)) {
    if (t.client) continue;
    for (const std::string& event : server_event_names()) {
      const When when{t.name + " " + event};
      ScenarioErrors errors;
      const std::string probe =
          d.toml + fault_table("probe", "kind = \"pause\"\ntarget = " + quoted(t.name) + "\nlength = \"1s\"\n", when);
      if (read(probe, errors)) {
        out.push_back(when);
        continue;
      }
      const std::string why = first_error(errors);
      EXPECT_TRUE(why.find("never happens") != std::string::npos || why.find(" is a ") != std::string::npos)
          << d.name << ": \"" << when.at << "\" refused for another reason than reach: " << why;
    }
  }
  return out;
}

// All the cases of one deployment, run; the tally printed.
void run_deployment(const Deployment& d) {
  install_reporters();
  ScenarioErrors errors;
  const std::optional<ScenarioSpec> base = read(d.toml, errors);
  ASSERT_TRUE(base) << d.name << ": " << first_error(errors) << "\n" << d.toml;
  const std::vector<Target> targets = targets_of(*base);
  const std::vector<When> reachable = reachable_triggers(d, *base);
  const std::string first_client = base->clients.front().name;
  // Before every start event (0s: the plan's faults are queued before the
  // starts), at c2's (1s) and just after the first ones (1ns). Right at the
  // start is the phase "c1 started" among the reachable triggers: the
  // servers have started by then, c2 not yet.
  const std::vector<When> fixed = {{"0s"}, {"1ns"}, {"1s"}};
  Rng rng = Rng::derive(kCaseSeed, d.name, "instants");
  const Duration window = kRunFor - 1s;  // a fault must come before the run ends
  Tally tally;
  std::uint64_t seed = 1;
  for (const Target& t : targets) {
    std::vector<std::string> others;
    for (const Target& o : processes_of(*base))
      if (o.name != t.name) others.push_back(o.name);
    for (const Shape& shape : shapes(t, others)) {
      std::vector<When> whens = fixed;
      whens.insert(whens.end(), reachable.begin(), reachable.end());
      for (int i = 0; i < kRandomInstants; ++i) whens.push_back({ns(rng.between(0ns, window))});
      for (const When& w : whens)
        run_case(d,
                 {shape.name + " on " + t.name + " at " + w.text(), shape.name, t.kind,
                  fault_table("f", shape.body, w)},
                 seed++ % 5 + 1, tally);
    }
    // The sequences, anchored before and after the start, when c1 holds the
    // lock and inside its critical section, and at random instants.
    std::vector<When> anchors = {{"0s"}, {"1ns"}, {first_client + " acquired"}, {first_client + " called"}};
    for (int i = 0; i < kRandomAnchors; ++i) anchors.push_back({ns(rng.between(0ns, kRunFor / 2))});
    for (const When& a : anchors)
      for (const Sequence& s : sequences(t, a, first_client))
        run_case(d, {s.name + " on " + t.name + " at " + a.text(), "sequence: " + s.name, t.kind, s.tables},
                 seed++ % 5 + 1, tally);
  }
  std::ostringstream out;
  const auto is_event = [](const When& w) {
    const std::string word = w.at.substr(w.at.find(' ') + 1);
    ServerEvent e{};
    return parse_server_event(word, e);
  };
  const auto events = std::count_if(reachable.begin(), reachable.end(), is_event);
  out << d.name << ": " << tally.cases << " cases, " << tally.runs << " runs; each single fault at " << fixed.size()
      << " fixed instants, " << reachable.size() - events << " client phases, " << events << " server events and "
      << kRandomInstants << " random instants; each sequence at " << 4 + kRandomAnchors << " anchors\n  by fault:";
  for (const auto& [k, n] : tally.by_fault) out << "\n    " << k << ": " << n;
  out << "\n  by process kind:";
  for (const auto& [k, n] : tally.by_target) out << "\n    " << k << ": " << n;
  std::cout << out.str() << "\n";
  ::testing::Test::RecordProperty("cases", tally.cases);
  // The harness itself: every single fault (not the sequences, some of
  // which are meant to do nothing) took effect on every process kind in
  // some case, so no shape silently missed its target.
  for (const Target& t : targets)
    for (const Shape& shape : shapes(t, {"x"}))
      EXPECT_GT((tally.effective[{shape.name, t.kind}]), 0)
          << d.name << ": " << shape.name << " never took effect on a " << t.kind;
}

TEST(CrashAnywhere, SingleNode) { run_deployment(single_node()); }
TEST(CrashAnywhere, Redlock) { run_deployment(redlock()); }
TEST(CrashAnywhere, MasterReplicaSentinel) { run_deployment(sentinel()); }
TEST(CrashAnywhere, Etcd) { run_deployment(store("etcd", "", "3s")); }
TEST(CrashAnywhere, Etcd35WithLeaseCheckpoints) {
  run_deployment(store("etcd", "etcd-3.5.33", "3s", "lease_checkpoint_interval = \"1s\"\n"));
}
TEST(CrashAnywhere, EtcdStockInTheStore) { run_deployment(etcd_stock()); }
TEST(CrashAnywhere, Zookeeper) { run_deployment(store("zookeeper", "", "4s", "", "policy = \"obey-lost\"\n")); }
TEST(CrashAnywhere, Zookeeper39) { run_deployment(store("zookeeper", "zookeeper-3.9.3", "4s")); }
TEST(CrashAnywhere, Chubby) {
  run_deployment(store("chubby", "", "3s", "min_ttl = \"3s\"\n", "lock_delay = \"2s\"\n"));
}
TEST(CrashAnywhere, Consul) {
  run_deployment(store("consul", "", "2s", "min_ttl = \"2s\"\n", "lock_delay = \"2s\"\n"));
}
TEST(CrashAnywhere, Kubernetes) {
  run_deployment(store("kubernetes", "", "6s", "", "renew_deadline = \"4s\"\n"));
}
TEST(CrashAnywhere, Dynamodb) { run_deployment(store("dynamodb", "", "4s", "", "keepalive_every = \"1s\"\n")); }
TEST(CrashAnywhere, NoLock) { run_deployment(no_lock()); }

}  // namespace
}  // namespace locksim
