#include "sim/check/judge.h"

#include "sim/check/fact_pass.h"
#include "sim/check/holder.h"

namespace locksim {

void judge(const History& h, const SessionTable& table, WitnessDetail detail, Judgement& out) {
  constexpr auto index = [](Property p) { return static_cast<std::size_t>(p); };
  HolderTrack track(h.service);
  ResourceExclusiveCheck resource_exclusive(h, detail, out.verdicts[index(Property::resource_exclusive)]);
  ResourceCurrentCheck resource_current(h, table, track, detail, out.verdicts[index(Property::resource_current)]);
  LivenessTally liveness(h, table, track);
  FaultTally faults(h, out.faults);
  ClientTally clients(h, out.clients);
  // The track last: the others read the holder as of the facts before each one.
  for_each_fact(h, resource_exclusive, resource_current, liveness, faults, clients, track);

  complete_verdicts(h, table, detail, out.verdicts);
  out.liveness = liveness.take();
  clients.finish();
}

Judgement judge(const History& h, const SessionTable& table, WitnessDetail detail) {
  Judgement out;
  judge(h, table, detail, out);
  return out;
}

}  // namespace locksim
