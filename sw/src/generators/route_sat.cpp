// SPDX-License-Identifier: Apache-2.0
#include "route_sat.hpp"

#include <algorithm>
#include <numeric>
#include <string>

namespace totex {
namespace {
std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }
/// A call whose model could not afford this many conflicts is not made.
constexpr std::int64_t kMinConflicts = 1000;
/// The tails tail_sat_improve frees: measured on the 8x8 mesh (nic and all-port, orbits of the
/// quarter turns), a tail that has a shorter packing gives it within a few thousand conflicts,
/// and the larger tails are larger models.
constexpr std::int64_t kTails[] = {16, 24, 32};

/// One variable of the model: an item on a candidate route from a start.
struct Choice {
  int var = 0;
  std::size_t route = 0;
  std::int64_t start = 0;
};
}  // namespace

std::vector<Word> candidate_words(const RouteItem& item) {
  std::vector<Word> words{item.word};
  std::vector<std::size_t> order(item.needs.size());
  std::iota(order.begin(), order.end(), 0);
  do {
    Word w;
    for (std::size_t k : order) {
      const DimNeed& d = item.needs[k];
      // An antipodal ring need keeps the sign the item's own word chose.
      int delta = d.delta[0];
      for (const auto& [dim, dl] : item.word.moves)
        if (dim == d.dim) delta = dl;
      w.moves.insert(w.moves.end(), at(d.count), {d.dim, delta});
    }
    if (std::none_of(words.begin(), words.end(), [&](const Word& x) { return x.moves == w.moves; })) words.push_back(std::move(w));
  } while (std::next_permutation(order.begin(), order.end()));
  return words;
}

SatOutcome sat_repack(const RoutePacking& packing, std::vector<RouteItem>& items, std::int64_t steps,
                      std::int64_t free_from, std::int64_t max_conflicts, std::int64_t& work,
                      std::chrono::steady_clock::time_point end, bool* capped) {
  CaDiCaL::Solver solver;
  Cnf cnf(solver);
  const MoveTable& moves = packing.moves();
  const int keys = packing.nic_slots();
  const bool nic = packing.model() == Model::Nic;
  const auto cell = [&](std::int64_t step, int resource) { return at(step) * at(packing.resources()) + at(resource); };
  const auto key = [&](std::int64_t step, int k) { return at(step) * at(keys) + at(k); };
  // What the items that stay take; nothing free may use it.
  std::vector<std::uint8_t> taken(at(steps) * at(packing.resources())), injecting(at(steps) * at(keys)), ejecting(at(steps) * at(keys));
  for (const RouteItem& it : items) {
    if (it.start >= free_from) continue;
    if (it.start + it.hops > steps) return SatOutcome::Unsat;
    NodeId v = it.src;
    for (std::size_t j = 0; j < it.word.moves.size(); ++j) {
      const int cls = moves.move_class(it.word.moves[j].first, it.word.moves[j].second);
      taken[cell(it.start + static_cast<std::int64_t>(j), packing.resource(v, cls))] = 1;
      v = moves.next(v, cls);
    }
    injecting[key(it.start, it.inject)] = 1;
    ejecting[key(it.start + it.hops - 1, it.eject)] = 1;
  }
  std::vector<std::vector<int>> on_resource(at(steps) * at(packing.resources()));
  std::vector<std::vector<int>> injects(at(steps) * at(keys)), ejects(at(steps) * at(keys));
  std::vector<std::vector<Word>> words(items.size());
  std::vector<std::vector<Choice>> choices(items.size());
  std::vector<std::size_t> cells;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const RouteItem& it = items[i];
    if (it.start < free_from) continue;
    const std::int64_t last = steps - it.hops;
    const std::int64_t from = free_from, to = last;
    words[i] = candidate_words(it);
    std::vector<int> lits;
    for (std::size_t r = 0; r < words[i].size(); ++r)
      for (std::int64_t s = from; s <= to; ++s) {
        if (nic && (injecting[key(s, it.inject)] || ejecting[key(s + it.hops - 1, it.eject)])) continue;
        cells.clear();
        NodeId v = it.src;
        for (std::size_t j = 0; j < words[i][r].moves.size(); ++j) {
          const int cls = moves.move_class(words[i][r].moves[j].first, words[i][r].moves[j].second);
          cells.push_back(cell(s + static_cast<std::int64_t>(j), packing.resource(v, cls)));
          v = moves.next(v, cls);
        }
        if (std::any_of(cells.begin(), cells.end(), [&](std::size_t c) { return taken[c] != 0; })) continue;
        const int x = cnf.var();
        choices[i].push_back({x, r, s});
        lits.push_back(x);
        for (std::size_t c : cells) on_resource[c].push_back(x);
        injects[key(s, it.inject)].push_back(x);
        ejects[key(s + it.hops - 1, it.eject)].push_back(x);
      }
    if (lits.empty()) return SatOutcome::Unsat;
    cnf.exactly_one(lits);
    // Start from the incumbent: its own route at its start, clipped into the tail.
    const std::int64_t s0 = std::clamp(it.start, from, to);
    for (const Choice& c : choices[i]) solver.phase(c.route == 0 && c.start == s0 ? c.var : -c.var);
  }
  for (const auto& lits : on_resource) cnf.at_most(lits, 1);
  if (nic)
    for (std::size_t k = 0; k < injects.size(); ++k) {
      cnf.at_most(injects[k], 1);
      cnf.at_most(ejects[k], 1);
    }
  const std::int64_t conflicts = std::min(max_conflicts, work / std::max<std::int64_t>(1, cnf.clauses()));
  if (conflicts < kMinConflicts) return SatOutcome::Unknown;
  std::int64_t used = 0;
  bool stopped_by_clock = false;
  const SatOutcome result = solve_limited(solver, conflicts, end, used, &stopped_by_clock);
  if (capped != nullptr) *capped = stopped_by_clock;
  work -= used * cnf.clauses();
  if (result != SatOutcome::Sat) return result;
  for (std::size_t i = 0; i < items.size(); ++i)
    for (const Choice& c : choices[i])
      if (solver.val(c.var) > 0) {
        items[i].start = c.start;
        items[i].word = words[i][c.route];
      }
  return SatOutcome::Sat;
}

std::vector<std::string> tail_sat_improve(const RoutePacking& packing, std::vector<RouteItem>& best, std::int64_t bound,
                                          std::int64_t max_conflicts, std::int64_t& work,
                                          std::chrono::steady_clock::time_point end) {
  std::vector<std::string> log;
  for (std::int64_t target = packed_makespan(best) - 1; target >= bound; --target) {
    bool shorter = false;
    for (const std::int64_t longest : kTails) {
      const std::int64_t tail = std::min(longest, target);  // a short schedule: every item free
      if (work <= 0) break;
      std::vector<RouteItem> candidate = best;
      const std::int64_t before = work;
      bool capped = false;
      const SatOutcome out = sat_repack(packing, candidate, target, target - tail, max_conflicts, work, end, &capped);
      log.push_back(std::to_string(target) + " steps, last " + std::to_string(tail) + " free: " +
                    (out == SatOutcome::Sat ? "found" : out == SatOutcome::Unsat ? "none" : "unknown") + " (" +
                    std::to_string(before - work) + " work" + (capped ? std::string(", ") + kCappedNote : std::string()) +
                    ")");
      if (out == SatOutcome::Sat) {
        best = std::move(candidate);
        shorter = true;
      }
      if (shorter || tail == target) break;
    }
    if (!shorter) break;
  }
  return log;
}

}  // namespace totex
