#include "sim/check/judge.h"

#include "sim/check/fact_pass.h"
#include "sim/check/holder.h"

namespace locksim {

Judgement judge(const History& h, const SessionTable& table, WitnessDetail detail) {
  HolderTrack track(h.service);
  ResourceExclusiveCheck resource_exclusive(h, detail);
  ResourceCurrentCheck resource_current(h, table, track, detail);
  LivenessTally liveness(h, table, track);
  FaultTally faults(h);
  ClientTally clients(h);
  // The track last: the others read the holder as of the facts before each one.
  for_each_fact(h, resource_exclusive, resource_current, liveness, faults, clients, track);

  Judgement out;
  out.verdicts = verdicts_with(h, table, detail, resource_exclusive.take(), resource_current.take());
  out.liveness = liveness.take();
  out.faults = faults.take();
  out.clients = clients.take();
  return out;
}

}  // namespace locksim
