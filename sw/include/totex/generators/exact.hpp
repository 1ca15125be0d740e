// SPDX-License-Identifier: Apache-2.0
/// Exact mode: provably optimal total-exchange schedules for direct networks under the `nic` and
/// `all-port` models, by SAT (CaDiCaL).
///
/// exact_schedule() asks "is there a schedule of at most T steps?" for T = the lower bound, then
/// T+1, ... The first T that is satisfiable is the optimum: either T equals the lower bound of
/// bounds.hpp (proof "meets the lower bound"), or T-1 was shown unsatisfiable on the full model
/// (proof "T-1 infeasible"). For each T it first solves the shortest-path sub-model (every
/// crossing on a shortest src -> dst route: few variables, finds tight schedules fast); a schedule
/// found there is a schedule, but its UNSAT proves nothing, so then the full model is solved.
/// The schedule decoded from a satisfying assignment is checked with verify() before it is
/// returned (algorithm name "exact").
///
/// The encoding (one instance per T; steps 0..T-1; one message per ordered pair of distinct
/// processors, so partially populated tori work, empty nodes only relay; with a traffic
/// (ExactOptions::traffic) one message per flit, see "Any traffic" below):
///
///   x[m][c][l]  message m crosses directed link l in step c.
///
///   (1) at most one x[m][c][*] per message and step;
///   (2) forward chain: x[m][c][u->v] with v != dst(m) implies x[m][c+1][v->w] for some w
///       (no relay buffering; at c = T-1 the clause forbids the crossing);
///   (3) backward chain: x[m][c][u->v] with u != src(m) implies x[m][c-1][w->u] for some w;
///   (4) exactly one arrival: exactly one x[m][c][v->dst(m)] over all c and v;
///   (5) no link out of dst(m) is ever used by m (it would have been delivered);
///   (6) capacity: at most one message per directed link and step;
///   (7) nic only: inj[m][c] <-> a crossing out of src(m) in step c that does not continue a
///       crossing into src(m) in step c-1 (the first hop: a walk may pass its source again); at
///       most one inj per source node and step; at most one arrival per destination node and
///       step (ejection);
///   (8) implied constraints (ExactOptions::implied), consequences of (1)-(7) by counting, which
///       CDCL cannot find on its own (they are pigeonhole arguments), see below.
///   At-most-one constraints over more than 6 literals use the sequential counter (Sinz 2005).
///
/// Why every satisfying assignment is a valid schedule: by (1) m crosses at most one link per
/// step. Cut m's crossings, in step order, into maximal chains where each crossing is in the step
/// after the previous one and leaves the node the previous one entered. A chain cannot start
/// with a crossing out of u != src (by (3) and (1) the previous step's crossing entered u, so
/// the chain would extend backwards), and cannot end with a crossing into v != dst (by (2) and
/// (1) it would extend forwards; at step T-1 (2) forbids it); inside a chain nothing follows an
/// arrival at dst (it would leave dst, (5)). So every chain is one walk src -> dst on
/// consecutive steps with one arrival, and (4) leaves exactly one chain. (6) and (7) are the
/// model's per-step limits. The decoded schedule is verified anyway.
///
/// Why (1)-(7) exclude no valid schedule: take any schedule of at most T steps that verify()
/// accepts under nic or all-port. Without relay buffering each message's crossings form one walk
/// src -> dst on consecutive steps, of any length, visiting any node (its source included) any
/// number of times, but dst only at the end; so (1)-(5) hold, and (6)-(7) are exactly the
/// verifier's limits (inj set to the real first hops and the counter variables to their prefix
/// sums satisfy the auxiliary clauses). The reachability pruning is sound: m can cross u->v in
/// step c only if c >= dist(src, u) (it left src at step >= 0 and needed dist(src, u) earlier
/// crossings to reach u) and c + dist(v, dst) <= T - 1. No shortest-path restriction, no
/// symmetry assumption, no bound on path length.
///
/// (8) The implied constraints. Let S = sum of dist(src, dst) over the M messages, p the number of
/// processors, and W = sum over messages of (walk length - dist(src, dst)) >= 0, the detour. A
/// crossing of u->v by m forces a detour of at least w0 = dist(src, u) + 1 + dist(v, dst) -
/// dist(src, dst) on m, so W >= w0.
///   Link slack. In step c at most cap_c messages cross a link: cap_c = the number of links that
///   some message may cross in step c (after pruning) and, under nic, also at most p(c+1) (the
///   messages in flight were injected in steps 0..c, one per processor and step) and p(T-c)
///   (they are delivered in steps c..T-1). All crossings are S + W <= sum cap_c, so
///   W <= K_link = sum cap_c - S.
///   Pipeline slack (nic). Each processor injects its p-1 messages in distinct steps (their sum
///   exceeds 0+1+..+(p-2) by E_u >= 0) and ejects p-1 in distinct steps <= T-1 (their sum falls
///   short of (T-1)+..+(T-p+1) by D_v >= 0); a message injected in step i arrives in step i +
///   length - 1. Summing over messages gives W + E + D = K_pipe = M(T-p+2) - S. A message injected
///   in step i forces E_src >= i-(p-2), one delivered in step e forces D_dst >= (T-p+1)-e.
/// The encoding uses them only in ways every valid schedule of <= T steps satisfies:
///   - a negative slack makes T infeasible outright (an empty clause);
///   - a crossing with w0 > min(K_link, K_pipe) is removed; under nic a crossing of u->v in step
///     c is removed when w0 + max(0, c-dist(src,u)-(p-2)) + max(0, (T-p+1)-c-dist(v,dst)) >
///     K_pipe (the cheapest injection and delivery steps such a walk can have); K_link is then
///     recomputed on the pruned ranges, to a fixpoint (each round's bound holds for every valid
///     schedule, so the next round's pruning does too);
///   - K_link = 0 makes every inequality tight: every link that may be crossed in a step whose
///     cap_c is its link count is crossed (a clause per link and step), every processor injects
///     in every step c' <= c of a step whose cap_c is p(c+1), and ejects in every step c' >= c
///     of a step whose cap_c is p(T-c); K_pipe = 0 makes every processor inject in steps
///     0..p-2 and eject in steps T-p+1..T-1.
/// Hence UNSAT at T on the full model, (8) included, proves that no schedule of <= T steps
/// exists, under the model as the verifier defines it.
///
/// Any traffic. The messages are the traffic's flits (src, dst, flit k of the w src sends dst);
/// `all` (null, or a traffic equal to it) builds the same clauses as before. Processor u sends
/// s_u and receives r_v messages (p-1 each for `all`). (1)-(7) are per message and unchanged.
/// (8) generalises by the same counting with the real totals: under nic at most
/// sum_u min(s_u, c+1) messages are in flight in step c (each source injects at most one a step
/// and s_u in all) and at most sum_v min(r_v, T-c); the pipeline slack is K_pipe = sum_v
/// (r_v T - r_v(r_v+1)/2) - sum_u s_u(s_u-1)/2 + M - S (the injections of u are s_u distinct steps,
/// the ejections of v r_v distinct steps <= T-1; M(T-p+2) - S for `all`); a message injected in
/// step i forces E_src >= i-(s_src-1), one delivered in step e forces D_dst >= (T-r_dst)-e. At
/// zero link slack a tight in-flight step binds only the processors whose totals reach it (s_u >=
/// c+1 must inject in every step <= c, r_v >= T-c must eject in every step >= c); at zero
/// pipeline slack u injects in steps 0..s_u-1 and v ejects in T-r_v..T-1.
/// (9) Symmetry breaking: the flits of one pair are interchangeable (relabelling them maps a
/// valid schedule to a valid one), so flit k+1 arrives no earlier than flit k: an arrival of
/// flit k+1 in step c implies "flit k arrived by step c" (one auxiliary variable per flit and
/// step, implying an arrival in that step or the previous auxiliary). Every schedule relabelled
/// in arrival order satisfies it, so UNSAT stays a proof; a `fixed` schedule must number each
/// pair's flits in arrival order (ties allowed) to be admitted. Tests check that fixed verified schedules
/// (detours and cycles included) satisfy the encoding, and that answers agree with (8) off.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "totex/model.hpp"
#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"
#include "totex/traffic/traffic.hpp"

namespace totex {

struct ExactOptions {
  /// Budget for the whole call (encoding and solving, all T), in seconds of counted work: this
  /// many times kConflictClausesPerSecond (cnf.hpp) conflicts times clauses, an encoding costing
  /// a fixed amount per clause, so the answer is the same on every machine. Each T gives the
  /// shortest-path sub-model a third of what is left and the full model the rest; the sub-model
  /// keeps it all when it is the full model anyway, when the full model exceeds max_clauses, or
  /// when building the full model would leave less than twice that work for solving it. The wall
  /// clock is a safety cap only (10 x this + 10 s); a result it cuts short is marked `capped`.
  double time_budget_seconds = 60;
  /// Largest encoding built for one T. Checked on an estimate before any clause is built and
  /// again while building (the search stops cleanly, never half-built).
  std::int64_t max_clauses = 20'000'000;
  /// First T tried; 0 = lower_bound(t, m).steps. A value below the bound is allowed (it makes the
  /// solver re-prove the bound). Above the bound, a satisfiable first T is only FeasibleUnproven,
  /// because T-1 was not examined.
  std::int64_t lower = 0;
  /// A T known to be feasible (e.g. a heuristic's steps); 0 = none. The search stops there: when
  /// every T below it is UNSAT, the result is Optimal at `upper` (solved once more at `upper`
  /// for a schedule, unless `incumbent` has that many steps).
  std::int64_t upper = 0;
  /// A schedule already known (e.g. the default algorithm's). It must pass verify() (else
  /// UsageError). Its steps act as `upper`; it is returned (unchanged, its own algorithm name)
  /// when it is proven optimal or when the budget runs out; its crossings seed the solver's
  /// decision phases.
  std::optional<Schedule> incumbent;
  /// Add the implied (counting) constraints (8) of the encoding; off = the plain encoding (1)-(7),
  /// much slower on tight instances, for cross-checking.
  bool implied = true;
  /// What to deliver (null, or a traffic equal to `all`: one message per ordered pair of
  /// processors, today's encoding clause for clause). Otherwise one message per flit, the
  /// lower bound is traffic_lower_bound's, and schedules carry the traffic's tag. Must outlive
  /// the call.
  const Traffic* traffic = nullptr;
};

enum class ExactStatus {
  Optimal,           // `schedule` has `steps` steps and no schedule has fewer (see `proof`)
  FeasibleUnproven,  // `steps` is feasible (our schedule, the incumbent, or `upper`), optimality not shown
  NoResult,          // nothing feasible known; `stopped_because` says why
};
[[nodiscard]] std::string to_string(ExactStatus s);

struct ExactResult {
  ExactStatus status = ExactStatus::NoResult;
  std::optional<Schedule> schedule;  // verified; absent for NoResult and for an `upper` never solved
  std::int64_t steps = -1;           // steps of the best feasible solution known, -1 for none
  std::int64_t lower_bound = 0;      // lower_bound(t, m).steps
  std::int64_t proven_infeasible = -1;  // largest T shown UNSAT on the full model (-1: none)
  /// One line: "meets the lower bound 8 (link_traversals 8: ...)" or
  /// "T=15 infeasible: UNSAT on the full model (V vars, C clauses, x.x s)". Empty unless Optimal.
  std::string proof;
  /// "time budget ..." or "size limit ..." (or, FeasibleUnproven after `lower` above the bound:
  /// "T=.. was not examined"); empty when the search finished.
  std::string stopped_because;
  /// One line per solver call: "T=9: SAT, 3648 vars, 9672 clauses, 0.10 s [sub-model: detour
  /// <= 0], link slack 0, pipeline slack 40" (sub-model lines say whether it was the full model).
  std::vector<std::string> log;
  double seconds = 0;            // wall time of the call
  /// The wall-clock safety cap cut an encoding or a solve short (`stopped_because` or the log
  /// says so): the result may differ on a faster machine. Otherwise the budget is counted work.
  bool capped = false;
};

/// The exact search described above. Throws UsageError for single-port (accepted: nic,
/// all-port) and for an incumbent that does not verify. Returns when the budget runs out (plus
/// what it takes to stop the solver and free an encoding: well under a second up to a million
/// clauses, a few seconds at 10 million) with the best it knows. Throws std::logic_error if a
/// decoded schedule fails verify() or beats lower_bound() (neither can happen unless the
/// encoding or bounds.cpp has a bug).
///
/// Example (the CLI's `--algo exact`):
///   totex::ExactOptions o;
///   o.time_budget_seconds = 60;
///   o.incumbent = best_heuristic_schedule;  // optional: returned if nothing better is proven
///   const totex::ExactResult r = totex::exact_schedule(topology, model, o);
///   // r.status, r.steps, r.schedule (verified), r.proof or r.stopped_because, r.log
[[nodiscard]] ExactResult exact_schedule(const Topology& t, Model m, const ExactOptions& o = {});

/// One decision: is there a schedule of at most `steps` steps?
enum class SatAnswer { Sat, Unsat, Unknown };
[[nodiscard]] std::string to_string(SatAnswer a);

struct ExactAttempt {
  std::int64_t steps = 0;  // the T asked about
  SatAnswer answer = SatAnswer::Unknown;
  std::int64_t vars = 0;     // variables of the encoding (auxiliaries included)
  std::int64_t clauses = 0;  // clauses of the encoding
  double seconds = 0;        // encoding + solving
  double encode_seconds = 0; // building the encoding and loading it into the solver
  std::optional<std::int64_t> link_slack;      // K_link of (8) (implied constraints on); < 0: UNSAT by counting
  std::optional<std::int64_t> pipeline_slack;  // K_pipe of (8), nic only
  int max_detour = -1;               // as asked (DecideOptions::max_detour)
  bool full_model = true;            // the encoding was the full model (see DecideOptions::max_detour)
  std::optional<Schedule> schedule;  // Sat: the decoded, verified schedule (algorithm "exact")
  std::string why;           // Unknown: budget or size; Unsat with `fixed`: the crossing the encoding lacks
  std::int64_t conflicts = 0;  // conflicts the solve spent (counted work, the same on every machine)
  [[nodiscard]] std::string log_line() const;
};

struct DecideOptions {
  double time_budget_seconds = 60;
  std::int64_t max_clauses = 20'000'000;
  /// Fix every x variable to `fixed`'s crossings (true) or their absence (false): Sat iff the
  /// encoding admits exactly that schedule. For tests of the encoding's completeness.
  const Schedule* fixed = nullptr;
  /// Decision phases from this schedule's crossings (a hint; does not constrain).
  const Schedule* phases = nullptr;
  bool implied = true;  // as ExactOptions::implied
  /// >= 0: solve the sub-model where every walk is at most this many hops longer than the
  /// distance (0 = shortest paths only). Sat still gives a valid schedule; Unsat proves nothing
  /// unless `full_model` comes back true (the slack prunes had removed those walks anyway).
  int max_detour = -1;
  const Traffic* traffic = nullptr;  // as ExactOptions::traffic
};

/// Builds the encoding for T = `steps` and solves it. Throws UsageError for single-port.
[[nodiscard]] ExactAttempt exact_decide(const Topology& t, Model m, std::int64_t steps,
                                        const DecideOptions& o = {});

}  // namespace totex
