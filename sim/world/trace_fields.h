// A trace line's fields declared beside the code that writes them: the
// pieces the fact lines (trace_fact_lines.cc) and the message payloads
// (trace_payload_lines.cc) are declared with. A declaration lists, per
// field, its schema entry (name, JSON type, doc: trace_schema.h) and a
// writer of its value; the generic writer walks the list and names each
// value by its entry, so what a line holds and what the schema says it
// holds cannot part.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "sim/history/history.h"
#include "sim/world/trace_format.h"
#include "sim/world/trace_schema.h"

namespace locksim::trace_fields {

// Writes one field of T, named |name|, into the line — or nothing when the
// field does not apply to this one (its entry says "?").
template <typename T>
using Writer = void (*)(TraceLine& line, const char* name, const T& item, const History& h);

template <typename T>
struct Field {
  TraceField decl;
  Writer<T> write;
};

// A line type (a fact's) or a payload kind (a message's), with its fields
// in the order they are written.
// A payload in words close to Redis's, for people (a message line's "msg").
template <typename T>
using Words = std::string (*)(const T& item, const History& h);

template <typename T>
struct LineDecl {
  std::string_view name;
  std::string_view doc;
  std::vector<Field<T>> fields;
  Words<T> words = nullptr;  // payloads only

  // Writes every field that applies to |item|.
  void write(TraceLine& line, const T& item, const History& h) const {
    for (const Field<T>& f : fields) f.write(line, f.decl.name.data(), item, h);
  }
  // As the schema lists it.
  TraceLineDecl erased(TraceSection section) const {
    TraceLineDecl out{name, section, doc, {}};
    for (const Field<T>& f : fields) out.fields.push_back(f.decl);
    return out;
  }
};

// The declaration of every alternative of |Variant|, as the schema lists it,
// in the variant's order; |decl_of| maps a pointer to an alternative to its
// LineDecl.
template <typename Variant, typename DeclOf>
std::vector<TraceLineDecl> declarations_of(TraceSection section, DeclOf decl_of) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::vector<TraceLineDecl>{
        decl_of(static_cast<const std::variant_alternative_t<I, Variant>*>(nullptr)).erased(section)...};
  }(std::make_index_sequence<std::variant_size_v<Variant>>{});
}

// The struct a member pointer points into.
template <typename M>
struct ClassOf;
template <typename C, typename T>
struct ClassOf<T C::*> {
  using type = C;
};
template <auto M>
using Of = typename ClassOf<decltype(M)>::type;

// Writers of the common shapes, each of one member |M|.
template <auto M>
void process(TraceLine& l, const char* n, const Of<M>& x, const History& h) {
  l.str(n, h.name_of(x.*M));
}
// A process, or null for none.
template <auto M>
void process_or_null(TraceLine& l, const char* n, const Of<M>& x, const History& h) {
  l.process(n, x.*M, h);
}
template <auto M>
void integer(TraceLine& l, const char* n, const Of<M>& x, const History&) {
  l.num(n, static_cast<std::int64_t>(x.*M));
}
template <auto M>
void nanoseconds(TraceLine& l, const char* n, const Of<M>& x, const History&) {
  l.num(n, (x.*M).count());
}
template <auto M>
void boolean(TraceLine& l, const char* n, const Of<M>& x, const History&) {
  l.boolean(n, x.*M);
}
// A lock value as GET prints it.
template <auto M>
void lock_value(TraceLine& l, const char* n, const Of<M>& x, const History&) {
  l.str(n, lock_value_text(x.*M));
}
// An enum member by its name function |Name|.
template <auto M, auto Name>
void word(TraceLine& l, const char* n, const Of<M>& x, const History&) {
  l.str(n, Name(x.*M));
}

}  // namespace locksim::trace_fields
