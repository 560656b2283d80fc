#include "sim/wire/refusal.h"

namespace locksim {

std::optional<Payload> refusal_for(const Payload& request) {
  if (const auto* q = std::get_if<consensus::Request>(&request)) {
    consensus::Reply r;
    r.request_id = q->request_id;
    r.status = consensus::Status::refused;
    r.key = q->key;
    r.session = q->session;
    return Payload{r};
  }
  if (const auto* r = std::get_if<redis::Request>(&request))
    return Payload{redis::Reply::error_reply(r->request_id, redis::Error::connection_refused)};
  return std::nullopt;
}

}  // namespace locksim
