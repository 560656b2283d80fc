// Scenario files: TOML in, validated ScenarioSpec out, errors that name the
// file, the line and the key.
//
// A file holds one story (the base document) and any number of
// `[variant.NAME]` tables. A variant is a partial document: everything in it
// except `description`, `extends` and `unset` deep-merges into what it
// inherits (tables merge key by key; strings, numbers and arrays replace), so
// it says only what differs and inherits the rest, [expect] included. It
// inherits the base, or with `extends = "other"` another variant as that one
// resolves, less the keys and tables its `unset` names (variant_table.h).
// `--set a.b.c=value` overrides apply after the variant by the same rule; the
// value is read as a TOML value and, when that fails, as a plain string
// (`--set lock.ttl=10s`).
//
// `[lock] preset = "redlock-rb"` (presets.h) applies to the merged document
// and only sets defaults: a key written in the base, the variant or a --set
// wins over it, whichever of them holds the preset.
//
// Some values are resolved here so that later stages need no defaults of their
// own: redlock.quorum (0 -> N/2 + 1), redlock.fencing_node ("" -> the first
// node) and, with the watchdog on, lock.watchdog.renew_every (0 -> ttl / 3).
// Client attempts and retry_delay stay unset when not written: they inherit
// the lock's. With sentinels and no quorum written, sentinel.quorum (2) drops
// to the number of sentinels when there are fewer. A "call NAME" step whose
// NAME is a [service.NAME] becomes Step{call, service = NAME}; any other
// argument must be a latency.
//
// Process names — clients, redis nodes, replicas, sentinels, services and the
// resource — share one namespace, and any of them may be a clock, a link end,
// a fault target or a partition member; phase triggers name clients only.
//
// load() validates the base and every variant, so a typo anywhere in a file is
// reported when it is loaded, not when a sweep first reaches that variant.
// The keys, their defaults and the unit rules are in scenarios/FORMAT.md.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scenario/source.h"
#include "sim/scenario/spec.h"

namespace locksim {

class ScenarioFile {
 public:
  // Reads |path| (at most kMaxScenarioBytes), parses it and validates every
  // variant. On failure |errors| lists every error found, each once (a base
  // key's error is not repeated per variant), in file order per pass; the
  // ScenarioError overloads give the first.
  static std::optional<ScenarioFile> load(const std::string& path, ScenarioErrors& errors);
  static std::optional<ScenarioFile> load(const std::string& path, ScenarioError& error);
  // The same for text already in memory; |path| is used in error messages.
  static std::optional<ScenarioFile> from_string(std::string_view text, const std::string& path,
                                                 ScenarioErrors& errors);
  static std::optional<ScenarioFile> from_string(std::string_view text, const std::string& path, ScenarioError& error);

  const std::string& path() const;
  // FNV-1a of the file's bytes, as 16 hex digits: a sweep's manifest records
  // it, so --resume can tell that the scenario changed under it.
  std::string content_hash() const;
  std::string name() const;
  std::string title() const;
  std::string story() const;
  // "base" first, then the [variant.*] tables in the order they appear in the file.
  std::vector<std::string> variants() const;
  // The variant's `description`; "" for "base" and for unknown names.
  std::string variant_description(const std::string& variant) const;

  // One variant with the `--set key=value` |overrides| applied, in order, and validated.
  std::optional<ScenarioSpec> resolve(const std::string& variant, const std::vector<std::string>& overrides,
                                      ScenarioErrors& errors) const;
  std::optional<ScenarioSpec> resolve(const std::string& variant, const std::vector<std::string>& overrides,
                                      ScenarioError& error) const;
  // The same variant as one TOML document — the base with the variant and
  // |overrides| merged in, without [variant.*] tables — so that a search can
  // write a standalone scenario (a finding) that reads back as this spec.
  std::optional<std::string> merged_toml(const std::string& variant, const std::vector<std::string>& overrides,
                                         ScenarioErrors& errors) const;

 private:
  struct Merged;  // a document tree and the --set values it points into (file.cc)
  // The base with |variant| (and the variants it extends) and |overrides|
  // merged in; false with |errors|.
  bool merge(const std::string& variant, const std::vector<std::string>& overrides, Merged& out,
             ScenarioErrors& errors) const;
  struct Impl;
  explicit ScenarioFile(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;  // immutable once loaded, so copies share it
};

}  // namespace locksim
