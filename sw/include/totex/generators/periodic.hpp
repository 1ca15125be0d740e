// SPDX-License-Identifier: Apache-2.0
/// Periodic (TDM) all-to-all schedules (docs/periodic.md): the exchange repeats every P steps and a
/// message injected late in a period may arrive in the next. Schedule::period is set to P.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "totex/bounds/bounds.hpp"
#include "totex/model.hpp"
#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"

namespace totex {

struct PeriodicRequest {
  /// auto: the rotation construction on KxK tori where it applies (K >= 11 other than 12), else
  /// translation-invariant packing on products of rings (tori, rings, hypercubes), a per-message
  /// packing elsewhere (meshes); rotation: that construction only; greedy: the
  /// first-fit packing only; exact: a SAT
  /// search over every minimal route and slot of every message, period by period from the bound,
  /// and where minimal routes do not make a period, auto's detour and symmetric searches (at the
  /// bound) and the every-route model (any walk per message; nic; small networks only).
  std::string algorithm = "auto";
  double budget_seconds = 0;  // counted work (SAT conflicts, local-search look-ups), about seconds (0: 4 s)
  /// Keep the schedule translation-invariant where the generator is (tori, hypercubes): no
  /// per-message detour search (a .shd file gives one route list for every node).
  bool translation_invariant_only = false;
};

struct PeriodicOutcome {
  Schedule schedule;                 // period > 0
  std::string algorithm;             // "periodic-ti", "periodic-node", "periodic-exact"
  LowerBound bound;                  // the periodic bound and its terms
  bool translation_invariant = false;
  /// Proven: the period equals the bound ("proven optimal"), or the SAT search found period - 1
  /// infeasible for the model it searched (`proof` says which model; `proof_scope` "model").
  bool proven_optimal = false;
  std::string proof;                 // empty when not proven
  /// true: optimal for every periodic schedule (equals the bound, or the every-route model refuted
  /// every period below)
  bool proof_general = false;
  /// Where the proof holds: "general" (as proof_general), "minimal routes" (slot sums refute every
  /// period below for any schedule whose routes are minimal), "model searched" (SAT UNSAT for the
  /// routes the generator offers); "" when not proven.
  std::string proof_scope;
  std::vector<std::string> log;      // greedy and SAT calls, with periods and outcomes
  /// A SAT call was stopped by its wall-clock safety cap before its conflicts ran out: the result
  /// may then differ on a faster or idle machine (its log line and a stderr line say which call).
  /// Every search stops at counted work otherwise, so the result is the same on every machine.
  bool capped = false;
};

/// Whether the translation-invariant generator applies: a product of rings (rings of size 2 are
/// single links: hypercubes), every node a processor, model nic or all-port.
[[nodiscard]] bool periodic_translation_invariant_applies(const Topology& t, Model m);

/// Builds a periodic schedule; throws UsageError when the request does not apply (single-port,
/// a topology too large for exact, a placed torus) and ResourceError above 1024 nodes
/// (translation-invariant) or 256 (per message).
[[nodiscard]] PeriodicOutcome periodic_schedule(const Topology& t, Model m, const PeriodicRequest& r);

}  // namespace totex
