// Words and strings as bytes, for what crosses a pipe from a forked worker
// (forked_batches.h): a fixed-width word, and a string as its length and
// bytes. Both ends are the same binary on the same machine, so no byte
// order or versioning is needed.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace locksim::search::bytes {

inline void put(std::string& out, std::uint64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }

inline void put(std::string& out, const std::string& s) {
  put(out, static_cast<std::uint64_t>(s.size()));
  out += s;
}

// Each reads at |at| and moves it on; false when |in| ends first.
inline bool get(std::string_view in, std::size_t& at, std::uint64_t& v) {
  if (in.size() - at < sizeof v) return false;
  std::memcpy(&v, in.data() + at, sizeof v);
  at += sizeof v;
  return true;
}

inline bool get(std::string_view in, std::size_t& at, std::string& s) {
  std::uint64_t n = 0;
  if (!get(in, at, n) || in.size() - at < n) return false;
  s.assign(in.data() + at, n);
  at += n;
  return true;
}

}  // namespace locksim::search::bytes
