// One harness owns the Verilated context, the DUT and its trace (STYLE.md, Testbenches), with no
// Catch2 in it: the testbenches (tb/common/harness.hpp, which fills HarnessOptions from the
// running test's name, FLINT_WAVES and FLINT_COVERAGE) and flint-sim's RTL engine share it.
//
// Per cycle a driver sets inputs, calls Eval(), samples transfers (valid && ready), steps its
// model, then Tick(). RTL assertion failures do not abort: they set Failed(), which the caller
// checks (a test at its end, so a failing run keeps its waveform; flint-sim after every cycle).
#pragma once
#include <verilated.h>
#include <verilated_cov.h>
#include <verilated_fst_c.h>

#include <cstdint>
#include <fstream>
#include <functional>
#include <memory>
#include <string>

namespace flint::verif {

struct HarnessOptions {
  uint32_t seed = 1;        // the RTL's random initial state (--x-initial unique)
  int rand_reset = 2;       // VerilatedContext::randReset: 2 random per seed, 0 all zeros
  std::string fst;          // an FST to write ("" for none)
  std::string gtkw;         // its GTKWave save file ("" for none)
  std::string gtkw_groups;  // a file of signal groups appended to the save file ("" for none)
  // Called when the harness ends, before the model goes: the file for the DUT's coverage
  // ("" or no function: none written).
  std::function<std::string()> coverage_path;
};

// tb/waves/<block>.gtkw, the signal groups of a block for GTKWave ("" for none).
inline std::string WaveGroups(const std::string& block) {
  return block.empty() ? std::string()
                       : std::string(FLINT_SOURCE_DIR) + "/tb/waves/" + block + ".gtkw";
}

template <class Dut>
class Harness {
 public:
  explicit Harness(const HarnessOptions& opt)
      : ctx_(std::make_unique<VerilatedContext>()), coverage_path_(opt.coverage_path) {
    ctx_->fatalOnError(false);
    ctx_->randReset(opt.rand_reset);
    ctx_->randSeed(static_cast<int>(opt.seed & 0x7fffffff));
    ctx_->traceEverOn(true);
    dut_ = std::make_unique<Dut>(ctx_.get(), "TOP");
    if (!opt.fst.empty()) {
      trace_ = std::make_unique<VerilatedFstC>();
      dut_->trace(trace_.get(), 99);
      trace_->open(opt.fst.c_str());
      if (!opt.gtkw.empty()) WriteSaveFile(opt.fst, opt.gtkw, opt.gtkw_groups);
    }
  }
  ~Harness() {
    if (trace_) trace_->close();
    // The model unregisters its scopes through the thread's current context; with two
    // harnesses in one test the other one's context may already be freed (a hang at exit).
    Select();
    dut_->final();
    // Written before the model goes: the coverage database points into its counters.
    if (coverage_path_) {
      const std::string path = coverage_path_();
      if (!path.empty()) ctx_->coveragep()->write(path.c_str());
    }
    trace_.reset();
    dut_.reset();
  }
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  Dut& dut() { return *dut_; }
  uint64_t cycle() const { return cycle_; }
  // True once any RTL assertion ($error / assert) has fired.
  bool Failed() const { return ctx_->gotError(); }

  // Active-low asynchronous reset held for `cycles` clock cycles.
  void Reset(int cycles = 2) {
    // Drive a real falling edge of rst_ni so asynchronous resets fire at any call, not only
    // from the (undefined) initial value.
    dut_->clk_i = 0;
    dut_->rst_ni = 1;
    Eval();
    dut_->rst_ni = 0;
    Eval();
    for (int i = 0; i < cycles; ++i) Tick();
    dut_->rst_ni = 1;
    Eval();
  }

  // Settle combinational logic after inputs change.
  void Eval() {
    Select();
    dut_->eval();
  }

  // One clock cycle: settle, dump, rising edge, dump, falling edge. The settle is what gives
  // the edge's assertions their sampled values: Verilator samples $past, $stable and an
  // assertion's operands from the evaluation before the edge, so inputs set since the last
  // Eval() must be evaluated before the edge for them to be seen there. No evaluation for the
  // falling edge: nothing in the design runs on it, and the next evaluation takes clk_i's fall
  // together with the next inputs.
  void Tick() {
    Select();
    dut_->eval();
    Edge();
  }
  // One clock cycle right after Eval(), with no input changed since: the rising edge's
  // evaluation only. The drivers that evaluate once a cycle to sample ready and valid use it,
  // so a cycle costs two evaluations instead of four (every evaluation runs all the logic that
  // depends on an input; docs/bench.md).
  void TickAfterEval() {
    Select();
    Edge();
  }
  // Counts `cycles` clock cycles as run without simulating them: the fast power-up's backdoor
  // (verif/top/backdoor.hpp) has written the state they leave. The trace shows a gap.
  void Skip(uint64_t cycles) {
    ctx_->timeInc(2 * cycles);
    cycle_ += cycles;
  }

 private:
  // Verilator 5.006 records $error/$stop (gotError) in the thread's current context, not in
  // the model's own, and a context becomes current when it is created. With several harnesses
  // in one test (the RTL and its netlist in a miter) each must make its own current before it
  // evaluates, or its assertion failures land in another harness and Failed() misses them.
  void Select() { Verilated::threadContextp(ctx_.get()); }

  void Edge() {
    Dump();
    dut_->clk_i = 1;
    ctx_->timeInc(1);
    dut_->eval();
    Dump();
    dut_->clk_i = 0;
    ctx_->timeInc(1);
    ++cycle_;
  }

  void Dump() {
    if (trace_) trace_->dump(ctx_->time());
  }
  static void WriteSaveFile(const std::string& fst, const std::string& gtkw,
                            const std::string& groups) {
    std::ofstream out(gtkw);
    out << "[dumpfile] \"" << fst << "\"\n";
    if (groups.empty()) return;
    std::ifstream in(groups);
    out << in.rdbuf();
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Dut> dut_;
  std::unique_ptr<VerilatedFstC> trace_;
  std::function<std::string()> coverage_path_;
  uint64_t cycle_ = 0;
};

}  // namespace flint::verif
