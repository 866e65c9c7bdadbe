// One harness owns the Verilated context, the DUT and its trace (STYLE.md, Testbenches).
//
// Per cycle a test drives inputs, calls Eval(), samples transfers (valid && ready), steps its
// model, then Tick(). RTL assertion failures do not abort: they set Failed(), which every test
// checks at its end, so a failing run keeps its waveform. With FLINT_COVERAGE=<dir> a harness
// writes its DUT's coverage (line, toggle, cover points) to a file of its own in <dir> when it
// ends, and the DUT powers up all zeros (make coverage); without it nothing changes.
#pragma once
#include <verilated.h>
#include <verilated_cov.h>
#include <verilated_fst_c.h>

#include <cstdint>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "tb/common/seed.hpp"

namespace flint::tb {

template <class Dut>
class Harness {
 public:
  // `waves_block` names tb/waves/<block>.gtkw, the signal groups for GTKWave. `waves_suffix`
  // tells apart the files of several harnesses in one test (the RTL and its netlist in a miter).
  explicit Harness(uint32_t seed, const std::string& waves_block = "",
                   const std::string& waves_suffix = "")
      : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->fatalOnError(false);
    // Uninitialised state random per seed (with --x-initial unique). A coverage run starts from
    // all zeros instead, so toggle coverage counts what the design does after power-up, not the
    // random power-up pattern (that alone would mark about 6 % more bits as toggled).
    ctx_->randReset(CoverageRequested() ? 0 : 2);
    ctx_->randSeed(static_cast<int>(seed & 0x7fffffff));
    ctx_->traceEverOn(true);
    dut_ = std::make_unique<Dut>(ctx_.get(), "TOP");
    if (WavesRequested()) {
      const std::string stem = WavePathStem() + waves_suffix;
      trace_ = std::make_unique<VerilatedFstC>();
      dut_->trace(trace_.get(), 99);
      trace_->open((stem + ".fst").c_str());
      WriteSaveFile(stem, waves_block);
    }
  }
  ~Harness() {
    if (trace_) trace_->close();
    // The model unregisters its scopes through the thread's current context; with two
    // harnesses in one test the other one's context may already be freed (a hang at exit).
    Select();
    dut_->final();
    // Written before the model goes: the coverage database points into its counters.
    if (CoverageRequested()) ctx_->coveragep()->write(CoveragePath().c_str());
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
  static void WriteSaveFile(const std::string& stem, const std::string& block) {
    std::ofstream out(stem + ".gtkw");
    out << "[dumpfile] \"" << stem << ".fst\"\n";
    if (block.empty()) return;
    std::ifstream groups(std::string(FLINT_SOURCE_DIR) + "/tb/waves/" + block + ".gtkw");
    out << groups.rdbuf();
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Dut> dut_;
  std::unique_ptr<VerilatedFstC> trace_;
  uint64_t cycle_ = 0;
};

}  // namespace flint::tb
