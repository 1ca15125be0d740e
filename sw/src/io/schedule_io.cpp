// SPDX-License-Identifier: Apache-2.0
#include "totex/io/schedule_io.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string_view>
#include <vector>


#include "totex/generators/a2.hpp"
#include "totex/error.hpp"
#include "totex/generators/generators.hpp"
#include "totex/progress.hpp"
#include "totex/traffic/traffic.hpp"
#include "line_reader.hpp"
#include "totex/network/spec.hpp"

namespace totex {
namespace {

using io_detail::ByteSource;
using io_detail::LineReader;

constexpr const char* kScheduleMagic = "totex-schedule";
constexpr const char* kConfigMagic = "totex-config-matrix";
constexpr int kFormatVersion = 1;
constexpr std::int64_t kMaxSteps = 50'000'000;
constexpr const char* kDigits = "0123456789abcdefghijklmnopqrstuvwxyz";
// Every step is held in memory, empty or not: a step index this far past the transfers read so
// far (a schedule idle for a million steps) is refused, so a short file cannot claim gigabytes.
constexpr std::int64_t kMaxIdleSteps = 1'000'000;

std::string idle_steps_text(std::int64_t index, std::int64_t transfers) {
  return "step " + std::to_string(index) + " is more than " + std::to_string(kMaxIdleSteps) + " steps past the " +
         std::to_string(transfers) + " transfers before it; totex refuses a schedule idle that long";
}

std::string states_text(const std::vector<std::uint8_t>& states, const MinNetwork& net) {
  std::string out;
  for (std::size_t i = 0; i < states.size(); ++i) {
    if (i > 0 && i % static_cast<std::size_t>(net.switches_per_stage()) == 0) out += ' ';
    out += kDigits[states[i]];
  }
  return out;
}

/// Value of a base-36 state digit (as kDigits writes them), -1 for any other byte.
int digit_value(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'z') return ch - 'a' + 10;
  return -1;
}

/// Terminals listed as "3,5,7" (strictly increasing).
std::vector<int> parse_idle(const LineReader& r, std::string_view list, const MinNetwork& net) {
  std::vector<int> idle;
  std::size_t start = 0;
  while (start < list.size()) {
    std::size_t end = list.find(',', start);
    if (end == std::string_view::npos) end = list.size();
    const std::string_view item = list.substr(start, end - start);
    int v = -1;
    const auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || p != item.data() + item.size() || v < 0 || v >= net.terminals())
      r.fail("idle terminal '" + printable(item) + "' is not in 0.." + std::to_string(net.terminals() - 1));
    if (!idle.empty() && v <= idle.back()) r.fail("idle terminals must be listed in increasing order");
    idle.push_back(v);
    start = end + 1;
  }
  return idle;
}

std::vector<std::uint8_t> parse_states(const LineReader& r, std::size_t first, std::size_t last, const MinNetwork& net) {
  const auto& f = r.fields();
  if (last - first != static_cast<std::size_t>(net.stages()))
    r.fail("expected " + std::to_string(net.stages()) + " groups of states, one per stage");
  std::vector<std::uint8_t> states(static_cast<std::size_t>(net.switches()));
  std::uint8_t* out = states.data();
  for (std::size_t g = first; g < last; ++g) {
    if (f[g].size() != static_cast<std::size_t>(net.switches_per_stage()))
      r.fail("stage " + std::to_string(g - first) + " has " + std::to_string(f[g].size()) + " states, expected " +
             std::to_string(net.switches_per_stage()));
    for (char ch : f[g]) {
      const int v = digit_value(ch);
      if (v >= 0 && v < net.radix()) {
        *out++ = static_cast<std::uint8_t>(v);
        continue;
      }
      r.fail("state '" + printable(std::string_view(&ch, 1)) + "' in stage " + std::to_string(g - first) +
             " is not a shift state < " + std::to_string(net.radix()));
    }
  }
  return states;
}

LoadedSchedule read_min(LineReader& r, Model model) {
  const std::string spec = r.header("topology");
  MinNetwork net = [&] {
    try {
      Network n = parse_spec(spec);
      if (auto* m = std::get_if<MinNetwork>(&n)) return *m;
    } catch (const UsageError& e) {
      r.fail(e.what());
    }
    r.fail("a configuration matrix needs a min:N:D:WIRING topology");
  }();
  if (model != Model::Nic) r.fail("a MIN runs under the nic model");
  MinSchedule s{net.spec(), r.header("algorithm"), {}, {}, {}, {}};
  if (r.header_int("nodes", 1, 1 << 16) != net.terminals()) r.fail("nodes does not match the topology");
  if (r.header_int("radix", 2, 36) != net.radix()) r.fail("radix does not match the topology");
  if (r.header_int("stages", 1, 64) != net.stages()) r.fail("stages does not match the topology");
  if (r.header_int("switches-per-stage", 1, 1 << 16) != net.switches_per_stage())
    r.fail("switches-per-stage does not match the topology");
  const std::int64_t n = net.terminals();
  const std::int64_t configs = r.header_int("configurations", 1, kMaxSteps);
  const int configs_line = r.line();
  LoadedSchedule out;
  out.claimed_steps = r.header_int("steps", 1, kMaxSteps);
  const std::string form = r.header("form");
  // Optional (docs/formats.md): `traffic <flits> <sha256> <spec>`, the traffic of the terminals
  // the configurations carry; without it they carry all, the self slot included.
  bool line_read = r.next();
  if (line_read && r.fields()[0] == "traffic") {
    if (r.fields().size() < 4) r.fail("expected 'traffic <flits> <sha256> <spec>'");
    if (form != "table") r.fail("a traffic schedule has form table");
    s.traffic.flits = r.integer(1, 1, kMaxTrafficFlits, "traffic flits");
    s.traffic.sha256 = std::string(r.fields()[2]);
    if (s.traffic.sha256.size() != 64 || s.traffic.sha256.find_first_not_of("0123456789abcdef") != std::string::npos)
      r.fail("traffic digest '" + printable(r.fields()[2]) + "' is not 64 lower-case hex digits (a SHA-256)");
    s.traffic.spec = std::string(r.fields()[3]);
    for (std::size_t i = 4; i < r.fields().size(); ++i) s.traffic.spec += " " + std::string(r.fields()[i]);
    line_read = r.next();
  }
  // Each configuration must deliver something new: at most N*N of them (self slot included), or
  // the traffic's flits. Checked before anything is allocated for them.
  const std::int64_t most = s.traffic.is_all() ? std::min<std::int64_t>(n * n, kMaxSteps) : s.traffic.flits;
  if (configs > most)
    r.fail_at(configs_line, "configurations " + std::to_string(configs) + " is more than " + std::to_string(most) +
                                (s.traffic.is_all() ? " (N*N)" : " (the traffic's flits)"));
  check_memory(static_cast<std::uint64_t>(configs) * static_cast<std::uint64_t>(net.switches()), 1,
               "the " + std::to_string(configs) + " configurations of " + net.spec());
  if (form == "computed" && configs != n)  // paper 002's rule derives exactly N configurations from M^0
    r.fail_at(configs_line, "configurations " + std::to_string(configs) + ": form computed derives exactly N = " +
                                std::to_string(n) + " configurations from M^0");
  if (form == "computed") {
    if (!line_read || r.fields()[0] != "m0") r.fail("expected 'm0 <states per stage>'");
    s.m0 = parse_states(r, 1, r.fields().size(), net);  // read_schedule derives M^x unless lazy_ok
  } else if (form == "table") {
    for (std::int64_t x = 0; x < configs; ++x) {
      if (!(x == 0 ? line_read : r.next()))
        r.fail("file ends after " + std::to_string(x) + " of " + std::to_string(configs) + " configurations");
      if (r.fields()[0] != "config") r.fail("expected 'config <x> <states per stage>'");
      if (r.integer(1, 0, kMaxSteps, "configuration index") != x) r.fail("expected configuration " + std::to_string(x));
      std::size_t groups = r.fields().size() - 2;
      std::vector<int> idle;
      if (groups > 0 && r.fields().back().rfind("idle=", 0) == 0) {
        --groups;
        idle = parse_idle(r, r.fields().back().substr(5), net);
      }
      s.configurations.push_back(parse_states(r, 2, 2 + groups, net));
      s.idle.push_back(std::move(idle));
    }
  } else {
    r.fail("form must be computed | table");
  }
  if (r.next()) r.fail("unexpected line after the last configuration");
  out.schedule = std::move(s);
  return out;
}

/// A lazy schedule's steps checked against a generated-form file's checksum while they stream
/// (FNV-1a exactly as transfer_checksum): the first full pass, verify's replay or an expansion,
/// throws the file's error at its end on a mismatch. No compact verification, so verify streams.
class ChecksummedSource : public StepSource {
 public:
  ChecksummedSource(std::shared_ptr<const StepSource> inner, std::uint64_t sum, FileError mismatch)
      : inner_(std::move(inner)), sum_(sum), mismatch_(std::move(mismatch)) {}
  [[nodiscard]] std::size_t step_count() const override { return inner_->step_count(); }
  [[nodiscard]] std::int64_t transfer_count() const override { return inner_->transfer_count(); }
  [[nodiscard]] std::size_t busy_step_count() const override { return inner_->busy_step_count(); }
  [[nodiscard]] std::string generator() const override { return inner_->generator(); }
  [[nodiscard]] std::unique_ptr<StepCursor> cursor() const override {
    return std::make_unique<Cursor>(inner_->cursor(), sum_, mismatch_);
  }

 private:
  class Cursor : public StepCursor {
   public:
    Cursor(std::unique_ptr<StepCursor> inner, std::uint64_t sum, const FileError& mismatch)
        : inner_(std::move(inner)), sum_(sum), mismatch_(mismatch) {}
    bool next(std::vector<Transfer>& out) override {
      if (!inner_->next(out)) {
        if (h_ != sum_) throw mismatch_;
        return false;
      }
      mix(step_++);
      mix(static_cast<std::int64_t>(out.size()));
      for (const Transfer& tr : out) {
        mix(tr.msg.src);
        mix(tr.msg.dst);
        mix(tr.from);
        mix(tr.port);
      }
      return true;
    }

   private:
    void mix(std::int64_t v) {
      h_ ^= static_cast<std::uint64_t>(static_cast<std::uint32_t>(v));
      h_ *= 0x100000001b3ULL;
    }
    std::unique_ptr<StepCursor> inner_;
    std::uint64_t sum_;
    FileError mismatch_;
    std::uint64_t h_ = 0xcbf29ce484222325ULL;
    std::int64_t step_ = 0;
  };
  std::shared_ptr<const StepSource> inner_;
  std::uint64_t sum_;
  FileError mismatch_;
};

/// "generated <algorithm> <transfers> <checksum>": rebuilds the schedule and checks it is the one
/// written (same transfer count at once; the checksum over the steps as they are first streamed,
/// so loading costs no pass of its own).
void read_generated(LineReader& r, const Topology& t, Schedule& s) {
  r.expect_fields(4, "generated <algorithm> <transfers> <checksum>");
  const auto& f = r.fields();
  if (f[1] != "a2") r.fail("generated algorithm '" + printable(f[1]) + "' is not one totex regenerates; accepted: a2");
  if (s.model != Model::SinglePort) r.fail("generated a2 is a single-port schedule, the header says " + to_string(s.model));
  if (!t.is_product() || t.is_partial()) r.fail("generated a2 needs a cartesian product with a processor at every node");
  const std::int64_t transfers = r.integer(2, 0, std::numeric_limits<std::int64_t>::max(), "transfers");
  std::uint64_t sum = 0;
  const std::string hex(f[3]);
  const auto [end, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), sum, 16);
  if (hex.size() != 16 || ec != std::errc() || end != hex.data() + hex.size())
    r.fail("checksum '" + printable(hex) + "' is not 16 hexadecimal digits");
  const int line = r.line();
  Schedule g = a2(t).schedule;
  if (g.transfer_count() != transfers)
    r.fail_at(line, "the file has " + std::to_string(transfers) + " transfers, the a2 schedule of " + t.spec() + " has " +
                        std::to_string(g.transfer_count()));
  const FileError mismatch(r.name(), line, "checksum " + hex + " does not match the a2 schedule this totex generates for " +
                                               t.spec() + " (written by a different generator version?)");
  if (g.lazy())  // checked in the first pass over the steps (verify's replay), not in a pass of its own
    g.source = std::make_shared<ChecksummedSource>(g.source, sum, mismatch);
  else if (transfer_checksum(g) != sum)
    throw mismatch;
  g.algorithm = s.algorithm;
  g.period = s.period;  // a `period` line before `generated` applies to the regenerated steps
  s = std::move(g);
}

/// The binary body after a "binary" line (docs/formats.md): per non-empty step
/// varint(transfers) varint(steps skipped), then varint(from) varint(port) varint(src) varint(dst)
/// per transfer; varint(0) ends it. Errors name the "binary" line, the record and the byte.
void read_binary(LineReader& r, const Topology& t, Schedule& s, std::int64_t claimed_steps) {
  std::int64_t offset = 0, record = 0, transfers = 0, last = -1;
  auto fail = [&](const std::string& what) {
    r.fail("binary body, step record " + std::to_string(record) + ", byte " + std::to_string(offset) + ": " + what);
  };
  auto get = [&](const char* what, std::uint64_t hi) {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      unsigned char b = 0;
      if (!r.byte(b)) fail("the file ends inside the binary body (truncated?)");
      ++offset;
      if (shift > 56) fail(std::string(what) + " is not a varint of at most 9 bytes");
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) break;
    }
    if (v > hi) fail(std::string(what) + " " + std::to_string(v) + " is out of range 0.." + std::to_string(hi));
    return v;
  };
  const auto nodes = static_cast<std::uint64_t>(t.nodes());
  while (true) {
    // A step uses each directed link at most once: a larger count is refused before it is read.
    const auto count = static_cast<std::int64_t>(get("transfer count", static_cast<std::uint64_t>(t.links())));
    if (count == 0) break;
    const auto gap = static_cast<std::int64_t>(get("step gap", static_cast<std::uint64_t>(kMaxSteps)));
    const std::int64_t index = last + 1 + gap;
    if (index >= claimed_steps)
      fail("step " + std::to_string(index) + " is beyond the " + std::to_string(claimed_steps) + " steps the header declares");
    if (index > transfers + kMaxIdleSteps) fail(idle_steps_text(index, transfers));
    transfers += count;
    check_memory(static_cast<std::uint64_t>(transfers), sizeof(Transfer), "the transfers of " + t.spec() + " in this file");
    s.steps.resize(static_cast<std::size_t>(index) + 1);
    std::vector<Transfer>& step = s.steps.back();
    step.reserve(static_cast<std::size_t>(std::min<std::int64_t>(count, 1 << 20)));
    for (std::int64_t k = 0; k < count; ++k) {
      const auto from = static_cast<NodeId>(get("from node", nodes - 1));
      const auto port = static_cast<Port>(get("port", static_cast<std::uint64_t>(t.degree(from)) - 1));
      const auto src = static_cast<NodeId>(get("source", nodes - 1));
      const auto dst = static_cast<NodeId>(get("destination", nodes - 1));
      const auto flit = s.traffic.is_all() ? 0 : static_cast<std::int32_t>(get("flit", static_cast<std::uint64_t>(kMaxPairFlits - 1)));
      if (src == dst) fail("message (" + std::to_string(src) + "," + std::to_string(dst) + ") is addressed to its own source");
      for (const NodeId end : {src, dst})
        if (!t.is_processor(end)) fail("node " + std::to_string(end) + " has no processor in " + t.spec());
      step.push_back({{src, dst, flit}, from, port});
    }
    last = index;
    ++record;
  }
  if (unsigned char b = 0; r.byte(b)) fail("data after the end marker of the binary body");
}

LoadedSchedule read_direct(LineReader& r, Model model) {
  const std::string spec = r.header("topology");
  Topology t = [&] {
    try {
      return parse_topology(spec);
    } catch (const UsageError& e) {
      r.fail(e.what());
    }
  }();
  Schedule s{t.spec(), model, r.header("algorithm"), {}};
  if (r.header_int("nodes", 1, kMaxNodes) != t.nodes()) r.fail("nodes does not match the topology");
  LoadedSchedule out;
  // Every message crossing at most N-1 links, one link and one message per step: no schedule of
  // this topology needs more steps. Bounds every step index (and what is allocated for it).
  // With a traffic line (below) the bound is the traffic's flits instead of N(N-1).
  const std::int64_t p = t.processor_count();
  const std::int64_t most = std::min<std::int64_t>(kMaxSteps, std::max<std::int64_t>(1, p * (p - 1)) * (t.nodes() - 1));
  out.claimed_steps = r.header_int("steps", 0, kMaxSteps);
  const int steps_line = r.line();
  bool steps_checked = false;
  const auto check_steps = [&](std::int64_t limit) {
    steps_checked = true;
    if (out.claimed_steps > limit)
      r.fail_at(steps_line, "steps " + std::to_string(out.claimed_steps) + " is out of range 0.." + std::to_string(limit));
  };
  std::int64_t current = -1;
  std::int64_t transfers = 0;
  while (r.next()) {
    const auto& f = r.fields();
    if (f[0] == "traffic" && current < 0 && !steps_checked) {
      // Optional (docs/formats.md): `traffic <flits> <sha256> <spec>`, the traffic the schedule
      // delivers; transfer lines then carry the flit index as a fifth field.
      if (f.size() < 4) r.fail("expected 'traffic <flits> <sha256> <spec>'");
      s.traffic.flits = r.integer(1, 1, kMaxTrafficFlits, "traffic flits");
      s.traffic.sha256 = std::string(f[2]);
      if (s.traffic.sha256.size() != 64 || s.traffic.sha256.find_first_not_of("0123456789abcdef") != std::string::npos)
        r.fail("traffic digest '" + printable(f[2]) + "' is not 64 lower-case hex digits (a SHA-256)");
      s.traffic.spec = std::string(f[3]);
      for (std::size_t i = 4; i < f.size(); ++i) s.traffic.spec += " " + std::string(f[i]);
      check_steps(std::min<std::int64_t>(kMaxSteps, s.traffic.flits * (t.nodes() - 1)));
      continue;
    }
    if (f[0] == "period" && current < 0 && s.period == 0 && s.steps.empty() && !s.lazy()) {
      // Optional (a periodic schedule, docs/periodic.md): the steps repeat every P steps.
      r.expect_fields(2, "period <P>");
      s.period = static_cast<int>(r.integer(1, 1, kMaxSteps, "period"));
      continue;
    }
    if (!steps_checked) check_steps(most);
    if (f[0] == "binary" && current < 0) {
      r.expect_fields(1, "binary");
      read_binary(r, t, s, out.claimed_steps);
      break;
    }
    if (f[0] == "generated" && current < 0) {
      read_generated(r, t, s);
      if (r.next()) r.fail("unexpected line after 'generated': a generated schedule has no step lines");
      break;
    }
    if (f[0] == "step") {
      r.expect_fields(2, "step <index>");
      const std::int64_t index = r.integer(1, 0, kMaxSteps, "step index");
      if (index <= current) r.fail("step " + printable(f[1]) + " does not follow step " + std::to_string(current));
      if (index >= out.claimed_steps)
        r.fail("step " + printable(f[1]) + " is beyond the " + std::to_string(out.claimed_steps) + " steps the header declares");
      if (index > transfers + kMaxIdleSteps) r.fail(idle_steps_text(index, transfers));
      const std::size_t previous = current < 0 ? 0 : s.steps.back().size();
      current = index;
      s.steps.resize(static_cast<std::size_t>(index) + 1);
      s.steps.back().reserve(previous);  // steps of one schedule are alike: fewer regrowths
      continue;
    }
    if (current < 0) r.fail("transfer before the first 'step' line");
    const bool flits = !s.traffic.is_all();
    if (flits) r.expect_fields(5, "<from> <to> <src> <dst> <flit>");
    else r.expect_fields(4, "<from> <to> <src> <dst>");
    // Plain digits below `nodes` (every line totex writes) are read here; anything else goes
    // through integer(), which says what is wrong.
    std::int64_t v[4];
    for (std::size_t i = 0; i < 4; ++i) {
      const std::string_view w = f[i];
      std::int64_t x = w.size() <= 9 ? 0 : -1;
      for (std::size_t k = 0; k < w.size() && x >= 0; ++k)
        x = w[k] >= '0' && w[k] <= '9' ? x * 10 + (w[k] - '0') : -1;
      v[i] = x >= 0 && x < t.nodes() && !w.empty() ? x : -1;
    }
    static const char* const kWhat[] = {"from node", "to node", "source", "destination"};
    for (std::size_t i = 0; i < 4; ++i)
      if (v[i] < 0) v[i] = r.integer(i, 0, t.nodes() - 1, kWhat[i]);
    const auto from = static_cast<NodeId>(v[0]), to = static_cast<NodeId>(v[1]);
    const auto src = static_cast<NodeId>(v[2]), dst = static_cast<NodeId>(v[3]);
    const auto port = t.port_to(from, to);
    if (!port) r.fail("no link " + printable(f[0]) + "->" + printable(f[1]) + " in " + t.spec());
    if (src == dst) r.fail("message (" + printable(f[2]) + "," + printable(f[3]) + ") is addressed to its own source");
    for (const NodeId end : {src, dst})  // a placed torus: empty nodes only forward
      if (!t.is_processor(end)) r.fail("node " + std::to_string(end) + " has no processor in " + t.spec());
    if (static_cast<std::int64_t>(s.steps.back().size()) >= t.links())  // refused before a repeated line piles up
      r.fail("step " + std::to_string(current) + " has more than " + std::to_string(t.links()) + " transfers, the directed links of " +
             t.spec() + "; a step uses each link at most once");
    if ((++transfers & 0xfffff) == 0)  // a file of any length streams in; what it holds must fit
      check_memory(static_cast<std::uint64_t>(transfers), sizeof(Transfer), "the transfers of " + t.spec() + " in this file");
    const auto flit = flits ? static_cast<std::int32_t>(r.integer(4, 0, kMaxPairFlits - 1, "flit")) : 0;
    s.steps.back().push_back({{src, dst, flit}, from, *port});
  }
  if (!steps_checked) check_steps(most);
  out.schedule = std::move(s);
  return out;
}

}  // namespace

namespace {
LoadedSchedule read_schedule_any(std::istream& whole, const std::string& name);
}  // namespace

void write_schedule(std::ostream& out, const Topology& t, const Schedule& s, bool binary) {
  std::int64_t steps = 0;
  if (s.lazy()) {
    steps = static_cast<std::int64_t>(s.source->busy_step_count());
  } else {
    for (std::size_t i = 0; i < s.steps.size(); ++i)
      if (!s.steps[i].empty()) steps = static_cast<std::int64_t>(i) + 1;
  }
  out << kScheduleMagic << ' ' << kFormatVersion << '\n'
      << "model " << to_string(s.model) << '\n'
      << "topology " << t.spec() << '\n'
      << "algorithm " << (s.algorithm.empty() ? "unnamed" : s.algorithm) << '\n'
      << "nodes " << t.nodes() << '\n'
      << "steps " << steps << '\n';
  if (s.period > 0) out << "# periodic: the steps repeat every P steps; step t uses slot t mod P\nperiod " << s.period << '\n';
  const bool flits = !s.traffic.is_all();
  if (flits)
    out << "# the traffic delivered: flits, SHA-256 of the matrix, spec (docs/traffic.md); a transfer names its flit\n"
        << "traffic " << s.traffic.flits << ' ' << s.traffic.sha256 << ' ' << s.traffic.spec << '\n';
  if (s.lazy() && !s.source->generator().empty()) {
    // 10^8 transfers are gigabytes of text: the compact form names the generator that rebuilds
    // them and the checksum of what it built here; a reader regenerates and compares.
    char sum[17];
    std::snprintf(sum, sizeof sum, "%016llx", static_cast<unsigned long long>(transfer_checksum(s)));
    out << "# form generated: the steps are what `generated <algorithm>` builds for this topology; checksum\n"
        << "# = FNV-1a over (step, size, then src dst from port of every transfer) as 32-bit words\n"
        << "generated " << s.source->generator() << ' ' << s.transfer_count() << ' ' << sum << '\n';
    return;
  }
  if (binary) {
    out << "# form binary: per non-empty step varint(transfers) varint(steps skipped), then per transfer\n"
        << "# varint(from) varint(port) varint(src) varint(dst)" << (flits ? " varint(flit)" : "") << "; varint(0) ends it (LEB128 varints)\n"
        << "binary\n";
    std::string buf;
    buf.reserve(1 << 20);
    auto put = [&](std::uint64_t v) {
      for (; v >= 0x80; v >>= 7) buf += static_cast<char>((v & 0x7f) | 0x80);
      buf += static_cast<char>(v);
    };
    std::int64_t last = -1;
    s.for_each_step([&](std::size_t i, const std::vector<Transfer>& step) {
      if (step.empty()) return;
      put(step.size());
      put(static_cast<std::uint64_t>(static_cast<std::int64_t>(i) - last - 1));
      last = static_cast<std::int64_t>(i);
      for (const Transfer& tr : step) {
        for (const std::int64_t v : {std::int64_t{tr.from}, std::int64_t{tr.port}, std::int64_t{tr.msg.src}, std::int64_t{tr.msg.dst}})
          put(static_cast<std::uint64_t>(v));
        if (flits) put(static_cast<std::uint64_t>(tr.msg.flit));
        if (buf.size() > (1 << 20) - 64) {
          out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
          buf.clear();
        }
      }
    });
    put(0);
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    return;
  }
  out << "# per step: one line per link crossing: <from> <to> <src> <dst>" << (flits ? " <flit>" : "") << '\n';
  // Formatted into a buffer with to_chars: a 4096-node schedule has 10^8 lines.
  std::string buf;
  buf.reserve(1 << 20);
  char num[16];
  auto put = [&](std::int64_t v, char sep) {
    const auto r = std::to_chars(num, num + sizeof num, v);
    buf.append(num, r.ptr);
    buf += sep;
  };
  std::unique_ptr<Progress> progress;
  if (s.lazy()) progress = std::make_unique<Progress>("write " + t.spec(), static_cast<std::int64_t>(s.step_count()));
  std::int64_t done = 0;
  s.for_each_step([&](std::size_t i, const std::vector<Transfer>& step) {
    if (progress) progress->update(++done);
    if (step.empty()) return;
    buf += "step ";
    put(static_cast<std::int64_t>(i), '\n');
    for (const Transfer& tr : step) {
      put(tr.from, ' ');
      put(t.neighbor(tr.from, tr.port), ' ');
      put(tr.msg.src, ' ');
      if (flits) {
        put(tr.msg.dst, ' ');
        put(tr.msg.flit, '\n');
      } else {
        put(tr.msg.dst, '\n');
      }
      if (buf.size() > (1 << 20) - 64) {
        out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
        buf.clear();
      }
    }
  });
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

void write_min_schedule(std::ostream& out, const MinNetwork& net, const MinSchedule& s) {
  const bool computed = !s.m0.empty();
  out << kConfigMagic << ' ' << kFormatVersion << '\n'
      << "model nic\n"
      << "topology " << net.spec() << '\n'
      << "algorithm " << (s.algorithm.empty() ? "unnamed" : s.algorithm) << '\n'
      << "nodes " << net.terminals() << '\n'
      << "radix " << net.radix() << '\n'
      << "stages " << net.stages() << '\n'
      << "switches-per-stage " << net.switches_per_stage() << '\n'
      << "configurations " << s.configurations.size() << '\n'
      << "steps " << s.steps(net) << '\n'
      << "form " << (computed ? "computed" : "table") << '\n';
  if (!s.traffic.is_all() && computed)  // M^0's rule derives all; the reader refuses the pair
    throw std::logic_error("a MIN schedule of a traffic has no M^0 (" + s.traffic.spec + ")");
  if (!s.traffic.is_all())
    out << "# the traffic delivered: flits, SHA-256 of the matrix, spec (docs/traffic.md); no self slot\n"
        << "traffic " << s.traffic.flits << ' ' << s.traffic.sha256 << ' ' << s.traffic.spec << '\n';
  if (computed) {
    out << "# M^x = M^0 (+)_d digit_{n-1-j}(x) for stage j (paper 002); states per stage, switch 0 first\n"
        << "m0 " << states_text(s.m0, net) << '\n';
  } else {
    out << "# config <x> then the shift states of each stage, switch 0 first [idle=<terminals sending nothing>]\n";
    for (std::size_t x = 0; x < s.configurations.size(); ++x) {
      out << "config " << x << ' ' << states_text(s.configurations[x], net);
      if (x < s.idle.size() && !s.idle[x].empty()) {
        out << " idle=";
        for (std::size_t i = 0; i < s.idle[x].size(); ++i) out << (i ? "," : "") << s.idle[x][i];
      }
      out << '\n';
    }
  }
}

LoadedSchedule read_schedule(std::istream& whole, const std::string& name, bool lazy_ok) {
  LoadedSchedule out = read_schedule_any(whole, name);
  if (lazy_ok) return out;
  if (auto* s = std::get_if<Schedule>(&out.schedule)) {
    // A generated-form file's checksum is checked in a streaming pass before its steps are
    // expanded: a wrong file is refused in the verifier's memory, not after gigabytes of steps.
    if (s->lazy()) s->for_each_step([](std::size_t, const std::vector<Transfer>&) {});
    s->materialize();
  }
  if (auto* m = std::get_if<MinSchedule>(&out.schedule); m != nullptr && m->configurations.empty() && !m->m0.empty()) {
    const MinNetwork net = std::get<MinNetwork>(parse_spec(m->topology));
    for (int x = 0; x < net.terminals(); ++x) m->configurations.push_back(configuration_from_m0(net, m->m0, x));
  }
  return out;
}

namespace {

LoadedSchedule read_schedule_any(std::istream& whole, const std::string& name) {
  ByteSource bytes(whole, name);
  LineReader r(bytes, name);
  if (r.upcoming_starts_with("totex-exchange-table")) {  // one row per generator: small, parsed whole
    LoadedSchedule out;
    out.table = io_detail::read_exchange_table(r);
    const Topology t = parse_topology(out.table->topology);
    out.table_errors = check_exchange_table(t, *out.table);
    Schedule s = expand_exchange_table(t, *out.table);
    out.claimed_steps = out.table->columns;
    out.schedule = std::move(s);
    return out;
  }
  if (!r.next()) r.fail("empty file; expected '" + std::string(kScheduleMagic) + " 1' or '" + kConfigMagic + " 1'");
  const auto& f = r.fields();
  const bool is_min = f[0] == kConfigMagic;
  if ((f[0] != kScheduleMagic && !is_min) || f.size() != 2)
    r.fail("expected '" + std::string(kScheduleMagic) + " 1' or '" + kConfigMagic + " 1'");
  if (r.integer(1, 0, 1000, "format version") != kFormatVersion)
    r.fail("format version " + printable(f[1]) + " is not supported (this totex reads version " + std::to_string(kFormatVersion) + ")");
  const std::string model_text = r.header("model");
  Model model{};
  try {
    model = parse_model(model_text);
  } catch (const UsageError& e) {
    r.fail(e.what());
  }
  return is_min ? read_min(r, model) : read_direct(r, model);
}

}  // namespace

LoadedSchedule read_schedule_file(const std::string& path, bool lazy_ok) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw FileError(path, 0, "is a directory, not a schedule file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FileError(path, 0, std::string("cannot open file: ") + std::strerror(errno));
  return read_schedule(in, path, lazy_ok);
}

}  // namespace totex
