// SPDX-License-Identifier: Apache-2.0
// Self-check of totex_min_top (one model, tb_min_wrap, 36 instances): wiring {omega, baseline,
// butterfly} x d {2,3,4} x N {d^2, d^3} x mode {table, computed}. For each instance it loads the
// configurations M^x (M^0 = 0; for d = 2 also a random M^0, Corollary 4) through the load port,
// runs phase 0 (labels) and builds every send queue from the labels that arrived, as the paper's
// phase 1 does, then runs phase 1 (messages). Every delivery's cycle, src, dst, seq and payload is
// compared with the reference model in rtl_test_support.hpp, the label matrix is checked to be a Latin
// square, and busy_o/done_o/step_o/recv_count_o/error_o are checked against the timing contract.
// Fault tests flip one configuration entry and require the failure to be detected.
#include <catch2/catch.hpp>

#include <functional>
#include <random>
#include <set>
#include <sstream>
#include <string>

#include "Vtb_min_wrap.h"
#include "rtl_test_support.hpp"
#include "totex/rtl_constants.hpp"

using rtltest::get_bits;
using rtltest::idx_width;
using rtltest::ipow;
using rtltest::set_bits;

namespace {

constexpr unsigned kPW = 16;
// The RTL package's codes, generated from rtl/totex_pkg.sv (one definition).
namespace pkg = totex::rtl::totex_pkg;
constexpr unsigned kRegionTable = pkg::REGION_SWITCH_TABLE, kRegionM0 = pkg::REGION_M0, kRegionQueue = pkg::REGION_SEND_QUEUE;
constexpr unsigned kModeTable = pkg::MODE_TABLE, kModeComputed = pkg::MODE_COMPUTED;

/// Parameters of wrapper instance k (must match tb_min_wrap.sv).
struct Inst {
  unsigned k, mode, D, N, n, wiring, IW, SW, XW, CW;
  rtltest::Min min;
  explicit Inst(unsigned kk)
      : k(kk),
        mode(kk % 2),
        D(2 + (kk / 4) % 3),
        N(ipow(D, 2 + (kk / 2) % 2)),
        n(2 + (kk / 2) % 2),
        wiring(kk / 12),
        IW(idx_width(N)),
        SW(idx_width(D)),
        XW(idx_width(std::max(n * (N / D), N))),
        CW(idx_width(N + 1)),
        min{N, D, n, wiring} {}
  std::string name() const {
    static const char* const w[] = {"omega", "baseline", "butterfly"};
    std::ostringstream os;
    os << w[wiring] << " d=" << D << " N=" << N << (mode == kModeTable ? " table" : " computed");
    return os.str();
  }
};

struct Msg {
  unsigned src, dst, seq, payload;
  bool operator==(const Msg& o) const {
    return src == o.src && dst == o.dst && seq == o.seq && payload == o.payload;
  }
};

struct RunReport {
  std::vector<std::string> problems;         // mismatches against the expectation / contract
  std::vector<std::vector<unsigned>> label;  // label[t][x] = src received by t in step x
  bool error_at_done = false;
  std::vector<unsigned> count_at_done;
};

class Driver {
 public:
  Driver(rtltest::ClockedModel<Vtb_min_wrap>& h, const Inst& in) : h_(h), in_(in) {
    auto& top = h_.top();
    top.sel_i = in_.k;
    top.cfg_we_i = 0;
    top.start_i = 0;
    top.phase_i = 0;
    top.eval();
  }

  void write(unsigned region, unsigned index, unsigned entry, uint32_t data) {
    auto& top = h_.top();
    top.cfg_we_i = 1;
    top.cfg_addr_i = (region << (in_.XW + in_.IW)) | (index << in_.IW) | entry;
    top.cfg_data_i = data;
    h_.tick();
    top.cfg_we_i = 0;
    top.eval();
  }

  /// Load M^x for all x (table mode: region 0) or M^0 (computed mode: region 1).
  void load_config(const std::vector<unsigned>& m0) {
    if (in_.mode == kModeTable) {
      for (unsigned x = 0; x < in_.N; ++x) {
        const auto mx = in_.min.config(m0, x);
        for (unsigned g = 0; g < in_.min.num_switches(); ++g) write(kRegionTable, g, x, mx[g]);
      }
    } else {
      for (unsigned g = 0; g < in_.min.num_switches(); ++g) write(kRegionM0, g, 0, m0[g]);
    }
  }

  /// One run; expect(x, t) is the message output t must receive in step x. hook(k) runs in
  /// cycle k before the checks (to poke inputs).
  RunReport run(unsigned phase, const std::function<Msg(unsigned, unsigned)>& expect,
                const std::function<void(unsigned)>& hook = nullptr) {
    auto& top = h_.top();
    const unsigned N = in_.N, n = in_.n, IW = in_.IW;
    RunReport r;
    r.label.assign(N, std::vector<unsigned>(N, ~0u));
    auto bad = [&](unsigned k, const std::string& what) {
      if (r.problems.size() < 20) {
        std::ostringstream os;
        os << in_.name() << " phase " << phase << " cycle " << k << ": " << what;
        r.problems.push_back(os.str());
      } else if (r.problems.size() == 20) {
        r.problems.emplace_back("...");
      }
    };
    REQUIRE(top.busy_o == 0);
    top.start_i = 1;
    top.phase_i = phase;
    h_.tick();  // edge 0: start sampled
    top.start_i = 0;
    top.eval();
    for (unsigned k = 0; k <= N + n + 1; ++k) {
      if (hook) {
        hook(k);
        top.eval();
      }
      // Contract: busy in cycles 0..N+n-2, done in cycle N+n-1, step x injected in cycle x.
      const bool busy_exp = k <= N + n - 2, done_exp = k == N + n - 1;
      if (top.busy_o != busy_exp) bad(k, "busy_o=" + std::to_string(top.busy_o));
      if (top.done_o != done_exp) bad(k, "done_o=" + std::to_string(top.done_o));
      if (k < N && top.step_o != k) bad(k, "step_o=" + std::to_string(top.step_o));
      // Step x is on the eject bus in cycle x + n.
      const bool ej_exp = k >= n && k <= N - 1 + n;
      const unsigned x = k - n;
      for (unsigned t = 0; t < 64; ++t) {
        const bool v = (top.eject_valid_o >> t) & 1u;
        if (v != (ej_exp && t < N)) {
          bad(k, "eject_valid_o[" + std::to_string(t) + "]=" + std::to_string(v));
          continue;
        }
        if (!v) continue;
        const unsigned mw = 3 * IW + kPW;
        const uint64_t m = get_bits(top.eject_data_o.data(), t * mw, mw);
        const Msg got{static_cast<unsigned>(get_bits(m, kPW + 2 * IW, IW)),
                      static_cast<unsigned>(get_bits(m, kPW + IW, IW)),
                      static_cast<unsigned>(get_bits(m, kPW, IW)),
                      static_cast<unsigned>(get_bits(m, 0, kPW))};
        const Msg exp = expect(x, t);
        r.label[t][x] = got.src;
        if (!(got == exp)) {
          std::ostringstream os;
          os << "output " << t << " step " << x << ": got {src " << got.src << ", dst " << got.dst
             << ", seq " << got.seq << ", payload " << got.payload << "} expected {src "
             << exp.src << ", dst " << exp.dst << ", seq " << exp.seq << ", payload "
             << exp.payload << "}";
          bad(k, os.str());
        }
      }
      if (done_exp) {
        r.error_at_done = top.error_o;
        for (unsigned t = 0; t < N; ++t)
          r.count_at_done.push_back(
              static_cast<unsigned>(get_bits(top.recv_count_o.data(), t * in_.CW, in_.CW)));
      }
      h_.tick();
    }
    return r;
  }

 private:
  rtltest::ClockedModel<Vtb_min_wrap>& h_;
  const Inst& in_;
};

/// Every row and every column of label[t][x] is a permutation of 0..N-1.
bool is_latin_square(const std::vector<std::vector<unsigned>>& a) {
  const size_t N = a.size();
  for (size_t i = 0; i < N; ++i) {
    std::set<unsigned> row, col;
    for (size_t j = 0; j < N; ++j) {
      if (a[i][j] >= N || a[j][i] >= N) return false;
      row.insert(a[i][j]);
      col.insert(a[j][i]);
    }
    if (row.size() != N || col.size() != N) return false;
  }
  return true;
}

struct Expected {
  std::vector<std::vector<unsigned>> perm;     // perm[x][t] = source received by t in step x
  std::vector<std::vector<unsigned>> payload;  // payload[s][x] of the phase-1 message
};

Expected reference(const Inst& in, const std::vector<unsigned>& m0) {
  Expected e;
  for (unsigned x = 0; x < in.N; ++x) e.perm.push_back(in.min.permutation(in.min.config(m0, x)));
  return e;
}

/// Full two-phase exchange on one instance with one M^0; returns nothing, REQUIREs everything.
void exchange(rtltest::ClockedModel<Vtb_min_wrap>& h, const Inst& in, const std::vector<unsigned>& m0,
              std::mt19937& rng) {
  INFO(in.name());
  Driver drv(h, in);
  drv.load_config(m0);
  Expected e = reference(in, m0);

  // Phase 0: labels.
  const RunReport r0 = drv.run(0, [&](unsigned x, unsigned t) {
    const unsigned s = e.perm[x][t];
    return Msg{s, 0, x, s};
  });
  for (const auto& p : r0.problems) UNSCOPED_INFO(p);
  REQUIRE(r0.problems.empty());
  REQUIRE(is_latin_square(r0.label));
  REQUIRE_FALSE(r0.error_at_done);
  for (unsigned c : r0.count_at_done) REQUIRE(c == in.N);

  // Build the send queues from the labels that arrived: label s at output t in step x means
  // slot x of s's queue holds s's message for t.
  e.payload.assign(in.N, std::vector<unsigned>(in.N));
  for (unsigned t = 0; t < in.N; ++t) {
    for (unsigned x = 0; x < in.N; ++x) {
      const unsigned s = r0.label[t][x];
      e.payload[s][x] = rng() & 0xffffu;
      drv.write(kRegionQueue, s, x, (t << kPW) | e.payload[s][x]);
    }
  }

  // Phase 1: messages.
  const RunReport r1 = drv.run(1, [&](unsigned x, unsigned t) {
    const unsigned s = e.perm[x][t];
    return Msg{s, t, x, e.payload[s][x]};
  });
  for (const auto& p : r1.problems) UNSCOPED_INFO(p);
  REQUIRE(r1.problems.empty());
  REQUIRE(is_latin_square(r1.label));
  REQUIRE_FALSE(r1.error_at_done);
  for (unsigned c : r1.count_at_done) REQUIRE(c == in.N);
  REQUIRE(h.assertion_failures() == 0);
}

void exchange_all_of_wiring(unsigned wiring) {
  rtltest::ClockedModel<Vtb_min_wrap> h;
  std::mt19937 rng(100 + wiring);
  unsigned runs = 0;
  for (unsigned k = 0; k < 36; ++k) {
    const Inst in(k);
    if (in.wiring != wiring) continue;
    exchange(h, in, std::vector<unsigned>(in.min.num_switches(), 0), rng);  // M^0 = 0
    ++runs;
    if (in.D == 2) {  // Corollary 4: any initial configuration of a 2-MIN works
      std::vector<unsigned> m0(in.min.num_switches());
      for (auto& v : m0) v = rng() & 1u;
      exchange(h, in, m0, rng);
      ++runs;
    }
  }
  REQUIRE(runs == 16);  // 12 instances, 4 of them with d = 2 twice
}

}  // namespace

TEST_CASE("MIN omega: all-to-all exchange, d=2,3,4, N=d^2,d^3, table and computed", "[min]") {
  exchange_all_of_wiring(rtltest::kOmega);
}
TEST_CASE("MIN baseline: all-to-all exchange, d=2,3,4, N=d^2,d^3, table and computed", "[min]") {
  exchange_all_of_wiring(rtltest::kBaseline);
}
TEST_CASE("MIN butterfly: all-to-all exchange, d=2,3,4, N=d^2,d^3, table and computed", "[min]") {
  exchange_all_of_wiring(rtltest::kButterfly);
}

TEST_CASE("MIN fault: one flipped switch-table entry is detected", "[min][fault]") {
  rtltest::ClockedModel<Vtb_min_wrap> h;
  std::mt19937 rng(7);
  // Table-mode instances of every wiring and radix (N = d^2).
  for (unsigned k = 0; k < 36; k += 4) {
    const Inst in(k);
    INFO(in.name());
    REQUIRE(in.mode == kModeTable);
    Driver drv(h, in);
    const std::vector<unsigned> m0(in.min.num_switches(), 0);
    drv.load_config(m0);
    const Expected e = reference(in, m0);
    const unsigned g = rng() % in.min.num_switches(), x = rng() % in.N;
    const unsigned good = in.min.config(m0, x)[g];
    drv.write(kRegionTable, g, x, (good + 1) % in.D);  // the fault
    const int errors_before = h.assertion_failures();
    const RunReport r = drv.run(0, [&](unsigned xx, unsigned t) {
      const unsigned s = e.perm[xx][t];
      return Msg{s, 0, xx, s};
    });
    CHECK_FALSE(r.problems.empty());             // the checker sees it
    CHECK_FALSE(is_latin_square(r.label));       // some output gets a source twice
    CHECK(r.error_at_done);                      // the NICs flag it (error_o)
    CHECK(h.assertion_failures() > errors_before);           // and the RTL assertion fires
  }
}

TEST_CASE("MIN fault: one flipped M^0 entry (computed mode) is detected in phase 1",
          "[min][fault]") {
  rtltest::ClockedModel<Vtb_min_wrap> h;
  std::mt19937 rng(8);
  for (unsigned k = 1; k < 36; k += 4) {  // computed-mode instances, N = d^2
    const Inst in(k);
    INFO(in.name());
    REQUIRE(in.mode == kModeComputed);
    Driver drv(h, in);
    std::vector<unsigned> m0(in.min.num_switches(), 0);
    drv.load_config(m0);
    const Expected e = reference(in, m0);
    // Queues prepared for the correct configuration.
    std::vector<std::vector<unsigned>> pay(in.N, std::vector<unsigned>(in.N));
    for (unsigned x = 0; x < in.N; ++x)
      for (unsigned t = 0; t < in.N; ++t) {
        const unsigned s = e.perm[x][t];
        pay[s][x] = rng() & 0xffffu;
        drv.write(kRegionQueue, s, x, (t << kPW) | pay[s][x]);
      }
    const unsigned g = rng() % in.min.num_switches();
    drv.write(kRegionM0, g, 0, (m0[g] + 1) % in.D);  // the fault
    const int errors_before = h.assertion_failures();
    const RunReport r = drv.run(1, [&](unsigned x, unsigned t) {
      const unsigned s = e.perm[x][t];
      return Msg{s, t, x, pay[s][x]};
    });
    CHECK_FALSE(r.problems.empty());
    CHECK(r.error_at_done);
    CHECK(h.assertion_failures() > errors_before);
  }
}

TEST_CASE("MIN overlapping use: start and cfg_we_i while busy are asserted and ignored",
          "[min][fault]") {
  rtltest::ClockedModel<Vtb_min_wrap> h;
  const Inst in(8);  // omega d=4 N=16 table
  INFO(in.name());
  Driver drv(h, in);
  const std::vector<unsigned> m0(in.min.num_switches(), 0);
  drv.load_config(m0);
  const Expected e = reference(in, m0);
  auto label = [&](unsigned x, unsigned t) {
    const unsigned s = e.perm[x][t];
    return Msg{s, 0, x, s};
  };
  auto& top = h.top();
  const RunReport r = drv.run(0, label, [&](unsigned k) {
    top.start_i = (k == 3);
    top.cfg_we_i = (k == 5);
    top.cfg_addr_i = (kRegionTable << (in.XW + in.IW)) | (0u << in.IW) | 10u;  // switch 0, step 10
    top.cfg_data_i = (in.min.config(m0, 10)[0] + 1) % in.D;                   // a wrong state
  });
  top.start_i = 0;
  top.cfg_we_i = 0;
  top.eval();
  for (const auto& p : r.problems) UNSCOPED_INFO(p);
  REQUIRE(r.problems.empty());     // the run was not disturbed
  REQUIRE(h.assertion_failures() == 2);        // both misuses asserted
  const RunReport again = drv.run(0, label);  // and the write really was ignored
  REQUIRE(again.problems.empty());
}
