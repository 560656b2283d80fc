// Reading triggers on server events and client starts on a trigger
// (scenario/read/trigger.cc, client_section.cc): what a good file becomes in
// the spec, and that every bad one is refused once, at its file, line and key.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/file.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;

// Lines 1-12: two clients, a master r1 with a replica R and a sentinel s1.
// What a test appends starts on line 13.
const std::string kFailover =
    "[scenario]\n"
    "name = \"t\"\n"
    "[redis]\n"
    "nodes = [\"r1\"]\n"
    "replicas = [\"R\"]\n"
    "[sentinel]\n"
    "names = [\"s1\"]\n"
    "[client.c1]\n"
    "steps = [\"read\", \"write\"]\n"
    "[client.c2]\n"
    "steps = [\"read\", \"write\"]\n"
    "start = \"1s\"\n";

// Lines 1-8: an etcd store (s1, s2, s3) and two clients; appended text starts on line 9.
const std::string kStore =
    "[scenario]\n"
    "name = \"t\"\n"
    "[lock]\n"
    "protocol = \"etcd\"\n"
    "[client.c1]\n"
    "steps = [\"work 1s\"]\n"
    "[client.c2]\n"
    "steps = [\"work 1s\"]\n";

std::optional<ScenarioSpec> read(const std::string& text, ScenarioError& error,
                                 const std::vector<std::string>& sets = {}) {
  const std::optional<ScenarioFile> file = ScenarioFile::from_string(text, "inline.toml", error);
  if (!file) return std::nullopt;
  return file->resolve("base", sets, error);
}

ScenarioSpec read_ok(const std::string& text, const std::vector<std::string>& sets = {}) {
  ScenarioError error;
  std::optional<ScenarioSpec> spec = read(text, error, sets);
  if (!spec) ADD_FAILURE() << error.to_string() << "\nin:\n" << text;
  return spec.value_or(ScenarioSpec{});
}

// Proves |text| is refused with exactly one error, at |line| and |key|, whose message holds every fragment.
void refused(const std::string& text, int line, const std::string& key, const std::vector<std::string>& fragments) {
  ScenarioError error;
  if (read(text, error)) return ADD_FAILURE() << "read without error:\n" << text;
  EXPECT_EQ(error.line, line) << error.to_string();
  EXPECT_EQ(error.key, key) << error.to_string();
  for (const std::string& f : fragments)
    EXPECT_NE(error.message.find(f), std::string::npos) << "no \"" << f << "\" in: " << error.to_string();
}

std::string pause_at(const std::string& at, const std::string& more = "") {
  return "[fault.gc]\nkind = \"pause\"\ntarget = \"c1\"\nlength = \"1s\"\nat = \"" + at + "\"\n" + more;
}

TEST(ParseEventTrigger, FaultsAtServerEventsReadTheProcessTheEventAfterAndOccurrence) {
  // Proves at = "PROCESS EVENT" reads as an event trigger for every event and every kind of server it belongs to.
  const ScenarioSpec s = read_ok(kFailover + pause_at("r1 key-expired", "after = \"250ms\"\noccurrence = 2\n") +
                                 "[fault.b]\nkind = \"pause\"\ntarget = \"c2\"\nlength = \"1s\"\nat = \"R promoted\"\n" +
                                 "[fault.c]\nkind = \"pause\"\ntarget = \"c2\"\nlength = \"1s\"\nat = \"R key-dropped\"\n");
  ASSERT_EQ(s.faults.size(), 3u);
  const TriggerSpec& expired = s.faults[0].trigger;
  EXPECT_EQ(expired.kind, TriggerSpec::Kind::event);
  EXPECT_EQ(expired.process, "r1");
  EXPECT_EQ(expired.event, ServerEvent::key_expired);
  EXPECT_EQ(expired.delay, 250ms);
  EXPECT_EQ(expired.occurrence, 2);
  EXPECT_EQ(s.faults[1].trigger.event, ServerEvent::promoted);
  EXPECT_EQ(s.faults[1].trigger.process, "R");
  EXPECT_EQ(s.faults[2].trigger.event, ServerEvent::key_dropped);
  const TriggerSpec elected = read_ok(kStore + pause_at("s2 elected")).faults.at(0).trigger;
  EXPECT_EQ(elected.kind, TriggerSpec::Kind::event);
  EXPECT_EQ(elected.event, ServerEvent::elected);
  EXPECT_EQ(read_ok(kStore + pause_at("s3 key-expired")).faults.at(0).trigger.event, ServerEvent::key_expired);
}

TEST(ParseEventTrigger, AClientStartsAtATimeAPhaseOrAnEvent) {
  // Proves start takes a time as before (no trigger), another client's phase or a server event, start_after
  // goes into the trigger's delay, and --set can turn a time into an event.
  const ScenarioSpec s = read_ok(kFailover + "[client.c3]\nstart = \"c1 acquired\"\n" +
                                 "[client.c4]\nstart = \"r1 key-expired\"\nstart_after = \"100ms\"\n");
  ASSERT_EQ(s.clients.size(), 4u);
  EXPECT_EQ(s.clients[1].start, 1s);
  EXPECT_FALSE(s.clients[1].start_on.has_value());
  ASSERT_TRUE(s.clients[2].start_on.has_value());
  EXPECT_EQ(s.clients[2].start_on->kind, TriggerSpec::Kind::phase);
  EXPECT_EQ(s.clients[2].start_on->process, "c1");
  EXPECT_EQ(s.clients[2].start_on->phase, Phase::acquired);
  EXPECT_EQ(s.clients[2].start_on->delay, 0s);
  ASSERT_TRUE(s.clients[3].start_on.has_value());
  EXPECT_EQ(s.clients[3].start_on->kind, TriggerSpec::Kind::event);
  EXPECT_EQ(s.clients[3].start_on->event, ServerEvent::key_expired);
  EXPECT_EQ(s.clients[3].start_on->delay, 100ms);
  // A client may wait for one written further down the file.
  const ScenarioSpec forward = read_ok(kFailover + "[client.c3]\nstart = \"c4 done\"\n[client.c4]\nsteps = []\n");
  EXPECT_EQ(forward.clients[2].start_on->process, "c4");
  const ScenarioSpec set = read_ok(kFailover, {"client.c2.start=\"R promoted\"", "client.c2.start_after=2s"});
  ASSERT_TRUE(set.clients[1].start_on.has_value());
  EXPECT_EQ(set.clients[1].start_on->event, ServerEvent::promoted);
  EXPECT_EQ(set.clients[1].start_on->delay, 2s);
}

TEST(ParseEventTrigger, AnEventOnTheWrongProcessIsRefusedWithTheProcessesItHappensOn) {
  // Proves an event named on a client, on a server of another kind, or on an unknown process names the file, line
  // and key, the kinds it happens on, a did-you-mean and the processes of this scenario that have it.
  refused(kFailover + pause_at("c1 key-expired"), 17, "fault.gc.at",
          {"\"c1\" is a client", "\"key-expired\" happens on a redis node, a replica or a store member",
           "(did you mean \"r1\"?)", "(here: r1, R)"});
  refused(kFailover + pause_at("s1 promoted"), 17, "fault.gc.at", {"\"s1\" is a sentinel", "(here: r1, R)"});
  refused(kFailover + pause_at("r1 elected"), 17, "fault.gc.at",
          {"\"elected\" happens on a store member", "(here: none in this scenario)"});
  refused(kFailover + pause_at("r2 key-dropped"), 17, "fault.gc.at",
          {"unknown process \"r2\" (did you mean \"r1\"?)"});
  refused(kStore + pause_at("s2 promoted"), 13, "fault.gc.at", {"\"s2\" is a store member"});
}

TEST(ParseEventTrigger, UnknownEventsAndPhasesOnServersAreRefused) {
  // Proves a misspelt event gets a did-you-mean and the server's events, and a client phase named on a server
  // says phases name a client and lists the server's events instead.
  refused(kFailover + pause_at("r1 key-expird"), 17, "fault.gc.at",
          {"unknown event \"key-expird\" (did you mean \"key-expired\"?)",
           "events of a redis node: key-dropped, key-expired, promoted"});
  refused(kFailover + pause_at("R acquired"), 17, "fault.gc.at",
          {"\"R\" is a replica; phase triggers name a client", "events of a replica: key-dropped, key-expired"});
  refused(kFailover + pause_at("s1 sdown"), 17, "fault.gc.at", {"\"s1\" is a sentinel, which has no events"});
  refused(kFailover + pause_at("c1 key-expird"), 17, "fault.gc.at", {"unknown phase \"key-expird\""});
}

TEST(ParseEventTrigger, EventsTheDeploymentCannotProduceAreRefused) {
  // Proves a replica's events and any promotion need a sentinel: without one they could never happen.
  const std::string no_sentinel =
      "[scenario]\nname = \"t\"\n[redis]\nreplicas = [\"R\"]\n[client.c1]\nsteps = [\"read\"]\n";  // 6 lines
  refused(no_sentinel + pause_at("R key-expired"), 11, "fault.gc.at",
          {"\"R\" is a replica and the scenario has no [sentinel]", "never happens on it", "waits for its master's DEL"});
  refused(no_sentinel + pause_at("r1 promoted"), 11, "fault.gc.at", {"no [sentinel]", "\"promoted\" never happens"});
  EXPECT_EQ(read_ok(no_sentinel + pause_at("r1 key-expired")).faults.at(0).trigger.event, ServerEvent::key_expired);
}

TEST(ParseEventTrigger, OccurrenceAndAfterFollowTheRulesOfPhases) {
  // Proves occurrence with a time is still refused (the message now names events too), and an `after` that puts
  // an event's fault past the end of the run is refused like a phase's.
  refused(kFailover + pause_at("5s", "occurrence = 2\n"), 18, "fault.gc.occurrence",
          {"occurrence counts phases and events", "at = \"r1 key-expired\""});
  refused("[scenario]\nname = \"t\"\nrun_for = \"20s\"\n[client.c1]\nsteps = [\"read\"]\n" +
              pause_at("r1 key-expired", "after = \"20s\"\n"),
          11, "fault.gc.after", {"fires 20s after its event, which is after the run ends"});
}

TEST(ParseEventTrigger, BadClientStartsAreRefusedAtTheirKey) {
  // Proves a start that is drawn, that waits for the client itself, that waits in a circle, that waits for a phase
  // the other client never reaches, or whose start_after is meaningless or too late, is refused at its key.
  refused(kFailover + "[client.c3]\nstart = \"uniform(1s, 2s)\"\n", 14, "client.c3.start",
          {"a client's start is not drawn per run"});
  refused(kFailover + "[client.c3]\nstart = \"c3 acquired\"\n", 14, "client.c3.start",
          {"c3 cannot wait for its own phase"});
  refused(kFailover + "[client.c3]\nstart = \"c1 key-expired\"\n", 14, "client.c3.start",
          {"\"c1\" is a client", "(did you mean \"r1\"?)"});
  refused(kFailover + "[client.c3]\nstart = \"c4 acquired\"\n[client.c4]\nstart = \"c3 read\"\n", 14,
          "client.c3.start", {"c3 starts on a phase of c4, c4 on one of c3: none of them would ever start"});
  refused(kFailover + "[client.c3]\nstart = \"c1 decremented\"\n", 14, "client.c3.start",
          {"c1 never reaches \"decremented\"", "so c3 would never start"});
  refused(kFailover + "[client.c3]\nstart = \"2s\"\nstart_after = \"1s\"\n", 15, "client.c3.start_after",
          {"start_after counts from a phase or an event", "start = \"3s\""});
  refused(kFailover + "[client.c3]\nstart = \"r1 key-expired\"\nstart_after = \"60s\"\n", 15,
          "client.c3.start_after", {"the client starts 60s after its event, which is after the run ends"});
  refused(kFailover + "[client.c3]\nstart = 5\n", 14, "client.c3.start", {"expected a time such as \"5s\""});
  // "started" is reached when the run starts, waiting or not: it breaks a circle.
  EXPECT_EQ(read_ok(kFailover + "[client.c3]\nstart = \"c4 started\"\n[client.c4]\nstart = \"c3 acquired\"\n")
                .clients.size(),
            4u);
}

}  // namespace
}  // namespace locksim
