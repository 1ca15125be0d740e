// SPDX-License-Identifier: Apache-2.0
/// The Verilator side of every harness, engine and RTL test: an RAII clocked model with optional
/// FST/VCD tracing (ClockedModel), and bit-field access that works on Verilator's port types
/// (CData..QData and VlWide).
#pragma once
#include <verilated.h>
#include <verilated_syms.h>
#if VM_TRACE_FST
#include <verilated_fst_c.h>
#endif
#if VM_TRACE_VCD
#include <verilated_vcd_c.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace totex::sim {

/// A network of Verilated tiles reset as ClockedModel does: rst_ni asserted and evaluated on every
/// tile, two rising edges (`tick`: the network's clock edge, links included), released.
template <class Tiles, class Tick>
void reset_tiles(Tiles& tiles, Tick&& tick) {
  for (auto& x : tiles) {
    x->rst_ni = 0;
    x->eval();
  }
  tick();
  tick();
  for (auto& x : tiles) {
    x->rst_ni = 1;
    x->eval();
  }
}

/// Bits [lsb, lsb+width) of a port value (width <= 64).
template <class T>
std::uint64_t bits(const T& value, int lsb, int width) {
  if constexpr (std::is_integral_v<T>) {
    const auto v = static_cast<std::uint64_t>(value) >> lsb;
    return width >= 64 ? v : v & ((std::uint64_t{1} << width) - 1);
  } else {  // VlWide: 32-bit words, least significant first; whole words (per bit, reading the
            // 256 x 256 MIN's eject bus took 3 % of its run)
    const auto word = static_cast<std::size_t>(lsb / 32);
    std::uint64_t out = static_cast<std::uint64_t>(value[word]) >> (lsb % 32);
    std::size_t next = word + 1;
    for (int have = 32 - lsb % 32; have < width && next < sizeof(T) / sizeof(std::uint32_t); have += 32, ++next)
      out |= static_cast<std::uint64_t>(value[next]) << have;
    return width >= 64 ? out : out & ((std::uint64_t{1} << width) - 1);
  }
}

/// Sets bits [lsb, lsb+width) of a port value (width <= 64); returns whether they changed.
template <class T>
bool set_bits(T& port, int lsb, int width, std::uint64_t value) {
  const std::uint64_t mask = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
  value &= mask;
  if (bits(port, lsb, width) == value) return false;
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    port = static_cast<T>((static_cast<U>(port) & ~static_cast<U>(mask << lsb)) | static_cast<U>(value << lsb));
  } else {
    for (int b = 0; b < width;) {  // VlWide: word by word
      const int word = (lsb + b) / 32, shift = (lsb + b) % 32, take = std::min(32 - shift, width - b);
      const std::uint32_t m = (take == 32 ? ~0U : ((1U << take) - 1)) << shift;
      port[static_cast<std::size_t>(word)] = (port[static_cast<std::size_t>(word)] & ~m) |
                                            (static_cast<std::uint32_t>(value >> b) << shift & m);
      b += take;
    }
  }
  return true;
}

/// Sets a port of up to 64 bits.
template <class T>
void set_port(T& port, std::uint64_t value) {
  if constexpr (std::is_integral_v<T>) {
    port = static_cast<T>(value);
  } else {
    for (std::size_t w = 0; w < sizeof(T) / sizeof(std::uint32_t); ++w) port[w] = w < 2 ? static_cast<std::uint32_t>(value >> (32 * w)) : 0U;
  }
}

/// One memory of a Verilated model made public by rtl/totex_backdoor.vlt (public_flat_rw): the
/// backdoor load writes its elements from C++ between clock edges, no edge spent. Memories are
/// read combinationally at the step or slot a flip-flop holds, so every read after the next edge
/// sees the write (the harnesses only start a run after loading).
class PublicMemory {
 public:
  /// The memory `var` in the scope named `scope` ("top.<top module>.<instance path>").
  PublicMemory(VerilatedContext& ctx, const std::string& scope, const char* var) {
    const VerilatedScope* s = find_scope(ctx, scope);
    const VerilatedVar* v = s ? s->varFind(var) : nullptr;
    if (!v)
      throw std::invalid_argument("--load backdoor: no public memory " + scope + "." + var +
                                  " in this model (built without rtl/totex_backdoor.vlt?)");
    if (v->udims() != 1 || v->entSize() > 8)
      throw std::invalid_argument("--load backdoor: " + scope + "." + var + " is not a memory of words <= 64 bits");
    data_ = static_cast<unsigned char*>(v->datap());
    bytes_ = v->entSize();
    elements_ = static_cast<std::size_t>(v->elements(1));
    const int width = v->dims() > v->udims() ? v->packed().elements() : 1;
    mask_ = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
  }
  [[nodiscard]] std::size_t size() const { return elements_; }
  /// Element `index` = `value`, cut to the element's width (Verilator keeps unused bits zero).
  void write(std::size_t index, std::uint64_t value) {
    if (index >= elements_) throw std::out_of_range("--load backdoor: memory index out of range");
    value &= mask_;
    unsigned char* at = data_ + index * bytes_;
    switch (bytes_) {  // CData, SData, IData, QData
      case 1: { const auto x = static_cast<std::uint8_t>(value); std::memcpy(at, &x, 1); break; }
      case 2: { const auto x = static_cast<std::uint16_t>(value); std::memcpy(at, &x, 2); break; }
      case 4: { const auto x = static_cast<std::uint32_t>(value); std::memcpy(at, &x, 4); break; }
      default: std::memcpy(at, &value, 8); break;
    }
  }

 private:
  /// `name` in the model's context, or in a hierarchical build (verilator --hierarchical) the
  /// scope inside a hier_block, which Verilator names with one more component (the block's
  /// model, e.g. "...u_node.totex_direct_dyn_node_3.u_nic" for "...u_node.u_nic").
  static const VerilatedScope* find_scope(VerilatedContext& ctx, const std::string& name) {
    static std::vector<std::string> blocks;  // hier_block components seen so far: try them first
    for (VerilatedContext* c : {&ctx, Verilated::threadContextp()}) {
      if (const VerilatedScope* s = c->scopeFind(name.c_str())) return s;
      for (const std::string& block : blocks)
        for (std::size_t at = name.find('.'); at != std::string::npos; at = name.find('.', at + 1))
          if (const VerilatedScope* s = c->scopeFind((name.substr(0, at) + "." + block + name.substr(at)).c_str()))
            return s;
      for (const auto& [n, s] : *c->scopeNameMap()) {
        const std::string candidate = n;
        if (candidate.size() <= name.size()) continue;
        // Drop one dot-separated component of the candidate; does the rest equal `name`?
        for (std::size_t from = candidate.find('.'); from != std::string::npos; from = candidate.find('.', from + 1)) {
          const std::size_t to = candidate.find('.', from + 1);
          if (to == std::string::npos) break;
          if (candidate.compare(0, from, name, 0, from) == 0 &&
              candidate.compare(to, std::string::npos, name, from, std::string::npos) == 0) {
            blocks.push_back(candidate.substr(from + 1, to - from - 1));
            return s;
          }
        }
      }
    }
    return nullptr;
  }

  unsigned char* data_ = nullptr;
  std::size_t bytes_ = 0, elements_ = 0;
  std::uint64_t mask_ = 0;
};

/// The clock and active-low reset inputs of a top: clk_i and rst_ni (every totex RTL top).
struct ClkRstPins {
  template <class Model>
  static auto& clock(Model& m) { return m.clk_i; }
  template <class Model>
  static auto& reset_n(Model& m) { return m.rst_ni; }
};

/// Whether the constructor resets the model (every RTL top) or leaves it as powered on (a board
/// top with its own power-on reset).
enum class Start { Reset, PowerOn };

/// The one Verilator harness (every engine, test and board check): owns context, model and
/// optional FST/VCD trace. RTL assertion failures ($error) are counted, not fatal, so a run can
/// expect none and a test can provoke some on purpose. Registers start random (randReset(2)), so
/// a missing reset shows up.
///
/// Order of events, the same everywhere:
///   construction  clock low, reset released, eval (inputs settle, initial blocks run); then,
///                 with Start::Reset, reset():
///   reset(n)      reset asserted and evaluated (a real falling edge, for asynchronous resets),
///                 n rising edges with reset held (for synchronous ones), released and evaluated;
///   tick()        clock high, eval, dump; clock low, eval, dump: one rising edge. Outputs read
///                 after tick() show the cycle that starts at that edge; inputs set before tick()
///                 are sampled at it.
/// edges() counts every rising edge, reset's included.
template <class Model, class Pins = ClkRstPins>
class ClockedModel {
 public:
  explicit ClockedModel(const std::string& wave = "", Start start = Start::Reset)
      : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->randReset(2);
    ctx_->fatalOnError(false);
    ctx_->errorLimit(1 << 30);
    top_ = std::make_unique<Model>(ctx_.get(), "top");
    if (!wave.empty()) open_trace(wave);
    Pins::clock(*top_) = 0;
    Pins::reset_n(*top_) = 1;
    top_->eval();
    if (start == Start::Reset) reset(kResetEdges);
  }
  ClockedModel(const ClockedModel&) = delete;
  ClockedModel& operator=(const ClockedModel&) = delete;
  ~ClockedModel() {
    top_->final();
#if VM_TRACE
    if (trace_) trace_->close();
#endif
  }

  /// Half a clock period in time units (the models are built with --timescale 1ns/1ns): the
  /// waveform shows a 100 MHz clock.
  static constexpr int kHalfPeriod = 5;
  /// Rising edges with reset held at construction.
  static constexpr int kResetEdges = 2;

  Model& top() { return *top_; }
  VerilatedContext& context() { return *ctx_; }
  [[nodiscard]] int assertion_failures() const { return ctx_->errorCount(); }
  [[nodiscard]] std::uint64_t edges() const { return edges_; }

  void reset(int edges) {
    Pins::reset_n(*top_) = 0;
    top_->eval();
    dump();
    tick(edges);
    Pins::reset_n(*top_) = 1;
    top_->eval();
  }

  void tick(int n = 1) {
    for (int i = 0; i < n; ++i) {
      Pins::clock(*top_) = 1;
      top_->eval();
      ctx_->timeInc(kHalfPeriod);
      dump();
      Pins::clock(*top_) = 0;
      top_->eval();
      ctx_->timeInc(kHalfPeriod);
      dump();
      ++edges_;
    }
  }

 private:
  void open_trace(const std::string& wave) {
#if VM_TRACE_FST
    if (wave.size() < 4 || wave.substr(wave.size() - 4) != ".fst")
      throw std::invalid_argument("this model traces FST; --wave must end in .fst");
#elif VM_TRACE_VCD
    if (wave.size() < 4 || wave.substr(wave.size() - 4) != ".vcd")
      throw std::invalid_argument("this model traces VCD; --wave must end in .vcd");
#else
    throw std::invalid_argument("this model was built without tracing");
#endif
#if VM_TRACE
    ctx_->traceEverOn(true);
    trace_ = std::make_unique<Trace>();
    top_->trace(trace_.get(), 99);
    trace_->open(wave.c_str());
#endif
  }
  void dump() {
#if VM_TRACE
    if (trace_) trace_->dump(ctx_->time());
#endif
  }

#if VM_TRACE_FST
  using Trace = VerilatedFstC;
#elif VM_TRACE_VCD
  using Trace = VerilatedVcdC;
#endif
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> top_;
#if VM_TRACE
  std::unique_ptr<Trace> trace_;
#endif
  std::uint64_t edges_ = 0;
};

}  // namespace totex::sim
