// The stack top's fast power-up (docs/top.md, "Power-up"): out of reset every table of flint_top
// clears itself with a sweep of one word a cycle, 262 146 cycles at paper. The backdoor writes
// into the Verilated model, by name, the state those sweeps leave after `c` cycles out of reset
// (every word they write and every register they count with), so that a driver simulates only
// the last few cycles of the power-up. The RTL is unchanged: its sweeps still run in any other
// simulation and in synthesis.
//
// The names are public only in the Verilated stack tops: verif/top/backdoor.vlt, passed by
// cmake/flint.cmake to every flint_verilate of flint_top. They are looked up through Verilator's
// scope table (VerilatedContext::scopeFind, VerilatedScope::varFind), so one function serves every
// config (small, small_refresh, medium, paper) and every Dies/Planes/Blocks without naming a
// generated member. What each table holds after its sweep is written here from the RTL's
// documented contract (each module's header comment), not copied from its code; test_top's
// "fast power-up" case proves it equal to the sweep, word for word and then cycle for cycle.
#pragma once
#include <verilated.h>
#include <verilated_sym_props.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "flint_config.hpp"

namespace flint::verif::top {

// What the RTL was Verilated with beyond the config (flint_top's parameters).
struct BackdoorParams {
  uint32_t mode = 0;           // flint_top Mode: 1 (in-place distributed) staggers start counts
  uint64_t disturb_limit = 0;  // 0: the config's
  uint64_t idle_wait = 0;      // flint_top IdleWait; 0: the config's burst period
};

namespace backdoor {

inline uint32_t Clog2(uint64_t n) {
  uint32_t b = 0;
  while ((uint64_t{1} << b) < n) ++b;
  return b;
}
// The RTL's index widths: (n > 1) ? $clog2(n) : 1.
inline uint32_t IdxBits(uint64_t n) { return n > 1 ? Clog2(n) : 1; }
inline uint64_t Mask(uint64_t v, uint32_t bits) {
  return bits >= 64 ? v : v & ((uint64_t{1} << bits) - 1);
}

// One public variable of the model, found by its scope (hierarchy below the top) and name.
class Var {
 public:
  Var(const VerilatedContext* ctx, const std::string& scope, const char* name, bool required = true)
      : path_(scope + "." + name) {
    const VerilatedScope* s = ctx->scopeFind(("TOP." + scope).c_str());
    v_ = s ? s->varFind(name) : nullptr;
    if (!v_ && required) {
      throw std::runtime_error("fast power-up: no public " + path_ +
                               " (is verif/top/backdoor.vlt in this design's Verilator run?)");
    }
  }
  explicit operator bool() const { return v_ != nullptr; }
  const std::string& path() const { return path_; }
  uint32_t width() const { return static_cast<uint32_t>(v_->packed().elements()); }
  uint64_t size() const {
    return v_->udims() > 0 ? static_cast<uint64_t>(v_->unpacked().elements()) : 1;
  }
  void Set(uint64_t i, uint64_t value) const {
    Check(i);
    value = Mask(value, width());
    switch (v_->vltype()) {
      case VLVT_UINT8:
        static_cast<CData*>(v_->datap())[i] = static_cast<CData>(value);
        break;
      case VLVT_UINT16:
        static_cast<SData*>(v_->datap())[i] = static_cast<SData>(value);
        break;
      case VLVT_UINT32:
        static_cast<IData*>(v_->datap())[i] = static_cast<IData>(value);
        break;
      case VLVT_UINT64:
        static_cast<QData*>(v_->datap())[i] = value;
        break;
      default:
        throw std::runtime_error("fast power-up: " + path_ + " is wider than 64 bits");
    }
  }
  uint64_t Get(uint64_t i) const {
    Check(i);
    switch (v_->vltype()) {
      case VLVT_UINT8:
        return static_cast<const CData*>(v_->datap())[i];
      case VLVT_UINT16:
        return static_cast<const SData*>(v_->datap())[i];
      case VLVT_UINT32:
        return static_cast<const IData*>(v_->datap())[i];
      case VLVT_UINT64:
        return static_cast<const QData*>(v_->datap())[i];
      default:
        throw std::runtime_error("fast power-up: " + path_ + " is wider than 64 bits");
    }
  }

 private:
  void Check(uint64_t i) const {
    if (i >= size()) throw std::runtime_error("fast power-up: " + path_ + " index out of range");
  }
  std::string path_;
  const VerilatedVar* v_ = nullptr;
};

// A sweep of `len` words, one a cycle from the first edge out of reset: after c edges the words
// [0, min(c, len)) are written, in the order the counter (an index of `bits` bits) runs through.
struct Sweep {
  uint64_t len;
  uint64_t Written(uint64_t c) const { return std::min(c, len); }
  bool Busy(uint64_t c) const { return c < len; }
};

// The backdoor's one walk over every swept table and register: `f(var, index, value)` for each
// word the sweeps leave after c edges. FastPowerUp writes them; SweptState reads them back.
template <class F>
void ForEachSwept(const VerilatedContext* ctx, const flint::Config& cfg, const BackdoorParams& p,
                  uint64_t c, F&& f) {
  const uint64_t dies = cfg.dies, planes = cfg.planes, blocks = cfg.blocks;
  const uint64_t pp = planes + 1, bursts = cfg.bursts_per_stack;
  const uint32_t die_bits = IdxBits(dies), plane_bits = IdxBits(planes);
  const uint32_t pp_bits = Clog2(pp), block_bits = IdxBits(blocks);
  auto reg = [&](const std::string& scope, const char* name, uint64_t value) {
    f(Var(ctx, scope, name), 0, value);
  };

  // flint_btt (in flint_xlat): Entries = bursts words, every one cleared to {valid 0, 0, 0};
  // busy_o for exactly Entries cycles, the counter then one past the last index (it wraps).
  {
    const Sweep s{bursts};
    const Var mem(ctx, "flint_top.u_xlat.u_btt.u_table", "mem_q");
    for (uint64_t i = 0; i < s.Written(c); ++i) f(mem, i, 0);
    reg("flint_top.u_xlat.u_btt", "busy_q", s.Busy(c));
    reg("flint_top.u_xlat.u_btt", "sweep_q", Mask(s.Written(c), IdxBits(bursts)));
  }
  // flint_xlat's stripe table: per (die, logical plane) a column of Blocks words, the identity
  // {physical plane l, block b}, as the relocation table starts; its counter stops at Blocks.
  {
    const Sweep s{blocks};
    for (uint64_t d = 0; d < dies; ++d) {
      for (uint64_t l = 0; l < planes; ++l) {
        const Var col(ctx,
                      "flint_top.u_xlat.g_die[" + std::to_string(d) + "].g_plane[" +
                          std::to_string(l) + "].u_col",
                      "mem_q");
        for (uint64_t b = 0; b < s.Written(c); ++b) f(col, b, (l << block_bits) | b);
      }
    }
    reg("flint_top.u_xlat", "sweep_busy_q", s.Busy(c));
    reg("flint_top.u_xlat", "sweep_q", s.Written(c));
  }
  // flint_bbc: the fetched-before bitmap, one bit a burst, cleared; ready_o once its counter
  // reaches Bursts. Its cycle counters (the controller's and the scheduler's ages) run from reset.
  {
    const Sweep s{bursts};
    const Var mem(ctx, "flint_top.u_bbc.u_fetched", "mem_q");
    for (uint64_t i = 0; i < s.Written(c); ++i) f(mem, i, 0);
    reg("flint_top.u_bbc", "sweep_q", s.Written(c));
    reg("flint_top.u_bbc", "now_q", c);
    reg("flint_top.u_bbc.u_sched", "now_q", c);
  }
  // flint_reloc_table: one pass over the reverse table's (die, physical plane, block), block
  // fastest: the identity map (forward: logical (d, l, b) -> {l, b}; reverse: {Mapped, l, b} on
  // the logical planes, {Free, 0, 0} on the extra plane), the simulation's shadow copies alike,
  // and the plane map's shadow {not pending, phantom = Planes} at each (die, block) on plane 0.
  // StInit until the last word, then StIdle; check_q (the shadow tables' check) for one cycle.
  {
    const Sweep s{dies * pp * blocks};
    const Var fwd(ctx, "flint_top.u_reloc.u_fwd", "mem_q");
    const Var rev(ctx, "flint_top.u_reloc.u_rev", "mem_q");
    const Var fwd_sh(ctx, "flint_top.u_reloc", "fwd_sh");
    const Var rev_sh(ctx, "flint_top.u_reloc", "rev_sh");
    const Var pm_sh(ctx, "flint_top.u_reloc", "pm_sh");
    constexpr uint64_t kBlkFree = 0, kBlkMapped = 1;
    for (uint64_t i = 0; i < s.Written(c); ++i) {
      const uint64_t b = i % blocks, p = (i / blocks) % pp, d = i / (blocks * pp);
      const uint64_t rw = p < planes
                              ? (kBlkMapped << (plane_bits + block_bits)) | (p << block_bits) | b
                              : (kBlkFree << (plane_bits + block_bits));
      f(rev, i, rw);
      f(rev_sh, i, rw);
      if (p < planes) {
        const uint64_t fi = (d * planes + p) * blocks + b;
        f(fwd, fi, (p << block_bits) | b);
        f(fwd_sh, fi, (p << block_bits) | b);
      }
      if (p == 0) f(pm_sh, d * blocks + b, planes);
    }
    const uint64_t n = s.Written(c);
    const bool done = !s.Busy(c);
    reg("flint_top.u_reloc", "st_q", done ? 1 : 0);  // StIdle : StInit
    reg("flint_top.u_reloc", "check_q", c == s.len);
    reg("flint_top.u_reloc", "ini_block_q", done ? 0 : n % blocks);
    reg("flint_top.u_reloc", "ini_plane_q", done ? 0 : (n / blocks) % pp);
    reg("flint_top.u_reloc", "ini_die_q", Mask(done ? dies : n / (blocks * pp), die_bits));
  }
  // flint_plane_map (in flint_reloc_table): Dies*Blocks words {pending 0, phantom = Planes}.
  {
    const Sweep s{dies * blocks};
    const Var mem(ctx, "flint_top.u_reloc.u_plane_map.u_map", "mem_q");
    for (uint64_t i = 0; i < s.Written(c); ++i) f(mem, i, planes);
    reg("flint_top.u_reloc.u_plane_map", "busy_q", s.Busy(c));
    reg("flint_top.u_reloc.u_plane_map", "sweep_q", Mask(s.Written(c), IdxBits(dies * blocks)));
  }
  // flint_read_counters: one count a physical block (die, plane, block), block fastest, each
  // started at 0, or with PhaseStagger (Mode 1) at its stagger offset: the bit-reversed key
  // {block, die, plane} scaled to 2^StaggerBits.
  {
    const Sweep s{dies * pp * blocks};
    const Var mem(ctx, "flint_top.u_counters.u_counts", "mem_q");
    const uint64_t limit = p.disturb_limit ? p.disturb_limit : cfg.disturb_limit;
    const uint32_t stagger_bits = p.mode == 3   ? 0
                                  : p.mode == 1 ? Clog2(limit) - 1
                                                : Clog2(limit) - 3;
    const uint32_t key_bits = block_bits + die_bits + pp_bits;
    auto start = [&](uint64_t d, uint64_t pl, uint64_t b) -> uint64_t {
      if (p.mode != 1) return 0;
      const uint64_t cat = (((b << die_bits) | d) << pp_bits) | pl;
      uint64_t key = 0;
      for (uint32_t k = 0; k < key_bits; ++k) key |= ((cat >> (key_bits - 1 - k)) & 1) << k;
      return (key << stagger_bits) >> key_bits;
    };
    for (uint64_t i = 0; i < s.Written(c); ++i) {
      f(mem, i, start(i / (blocks * pp), (i / blocks) % pp, i % blocks));
    }
    const uint64_t n = s.Written(c);
    const bool done = !s.Busy(c);
    reg("flint_top.u_counters", "busy_q", s.Busy(c));
    reg("flint_top.u_counters", "sweep_q", Mask(n, Clog2(s.len)));
    reg("flint_top.u_counters", "sw_block_q", done ? 0 : n % blocks);
    reg("flint_top.u_counters", "sw_plane_q", done ? 0 : (n / blocks) % pp);
    reg("flint_top.u_counters", "sw_die_q", Mask(done ? dies : n / (blocks * pp), die_bits));
  }
  // FLINT refresh (Mode 0) only: each die's scrubber counts idle cycles up to IdleWait, and the
  // controller is idle all through the power-up.
  const uint64_t idle_wait = p.idle_wait ? p.idle_wait : cfg.burst_period_cycles;
  for (uint64_t d = 0; d < dies; ++d) {
    const Var idle(ctx,
                   "flint_top.u_refresh.g_die[" + std::to_string(d) + "].g_flint.u_die.u_scrub",
                   "idle_q", /*required=*/false);
    if (idle) f(idle, 0, std::min(c, idle_wait));
  }
}

// Whether T is a complete type here (the generated model's root and symbol table are, where
// their headers are included).
template <class T, class = void>
struct Complete : std::false_type {};
template <class T>
struct Complete<T, std::void_t<decltype(sizeof(T))>> : std::true_type {};

// Has the model's next eval() run its first evaluation again; false where its symbol table's
// header is not included (a driver of a design that never powers up fast).
template <class Root>
bool Resettle(Root* root) {
  using Syms = std::remove_cv_t<std::remove_pointer_t<decltype(root->vlSymsp)>>;
  if constexpr (Complete<Syms>::value) {
    root->vlSymsp->__Vm_didInit = false;
    return true;
  } else {
    return false;
  }
}

}  // namespace backdoor

// The longest sweep: the cycles out of reset until every table is written (ready_o follows
// within a cycle or two).
inline uint64_t SweepCycles(const flint::Config& cfg) {
  const uint64_t phys = cfg.dies * (cfg.planes + 1) * cfg.blocks;
  return std::max({cfg.bursts_per_stack, phys, uint64_t{cfg.blocks}});
}

// The cycles the backdoor stands in for: all but the last `tail` (at least) of the longest
// sweep, rounded down to a multiple of 64 so that any register that cycles with a period
// dividing 64 (round-robin pointers, toggles) is in the phase the sweep leaves. The RTL
// simulates the tail itself: its last writes, ready_o, and the registers that follow the
// sweep's end by a cycle or two (SRAM read ports, $past samples).
inline uint64_t BackdoorCycles(const flint::Config& cfg, uint64_t tail = 16) {
  const uint64_t len = SweepCycles(cfg);
  return len > tail ? (len - tail) / 64 * 64 : 0;
}

// Writes into `dut` (just out of reset: Harness::Reset, no clock edge since) the state of the
// stack top after `c` clock edges of its power-up, and has the next eval() settle every
// combinational signal from it: Verilator computes a signal that depends only on registers after
// the clock edge that changes them, so without a settle the registers written here would be
// followed by values computed from the old ones. The settle is the model's first evaluation run
// again (its `initial` blocks are checks only; its random initial values are set at construction,
// not there). The caller then evaluates, counts c cycles as run (Harness::Skip) and clocks until
// ready_o.
template <class Dut>
void FastPowerUp(Dut& dut, const flint::Config& cfg, uint64_t c, const BackdoorParams& p = {}) {
  using Root = std::remove_cv_t<std::remove_pointer_t<decltype(dut.rootp)>>;
  bool settles = false;
  if constexpr (backdoor::Complete<Root>::value) settles = backdoor::Resettle(dut.rootp);
  if (!settles) {
    throw std::logic_error(
        "fast power-up: include the model's <prefix>__Syms.h where its driver is instantiated");
  }
  backdoor::ForEachSwept(dut.contextp(), cfg, p, c,
                         [](const backdoor::Var& v, uint64_t i, uint64_t x) { v.Set(i, x); });
}

// Everything the backdoor writes, read back whole (name -> every word), for comparing two models.
inline std::map<std::string, std::vector<uint64_t>> SweptState(const VerilatedContext* ctx,
                                                               const flint::Config& cfg,
                                                               const BackdoorParams& p = {}) {
  std::map<std::string, std::vector<uint64_t>> out;
  backdoor::ForEachSwept(ctx, cfg, p, SweepCycles(cfg),
                         [&](const backdoor::Var& v, uint64_t, uint64_t) {
                           auto& words = out[v.path()];
                           if (!words.empty()) return;
                           words.resize(v.size());
                           for (uint64_t i = 0; i < words.size(); ++i) words[i] = v.Get(i);
                         });
  return out;
}

}  // namespace flint::verif::top
