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
  for (std::size_t i = 0; i < kPropertyCount; ++i) {
    switch (kAllProperties[i]) {
      case Property::grant_exclusive: out.verdicts[i] = check_grant_exclusive(h, table, detail); break;
      case Property::belief_exclusive: out.verdicts[i] = check_belief_exclusive(h, table, detail); break;
      case Property::resource_exclusive: out.verdicts[i] = resource_exclusive.take(); break;
      case Property::resource_current: out.verdicts[i] = resource_current.take(); break;
      // Two passes of its own: it needs the lowest stock of the whole run first.
      case Property::invariant: out.verdicts[i] = check_invariant(h, detail); break;
    }
  }
  out.liveness = liveness.take();
  out.faults = faults.take();
  out.clients = clients.take();
  return out;
}

}  // namespace locksim
