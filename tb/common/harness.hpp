// The testbenches' harness: verif/harness.hpp (the Verilated context, the DUT, its trace, the
// clock; no Catch2 in it) set up from the running test. FLINT_WAVES=1 dumps an FST named after
// the test under build/waves/ with a GTKWave save file beside it (signal groups from
// tb/waves/<block>.gtkw). With FLINT_COVERAGE=<dir> a harness writes its DUT's coverage (line,
// toggle, cover points) to a file of its own in <dir> when it ends, and the DUT powers up all
// zeros (make coverage); without it nothing changes.
//
// Per cycle a test drives inputs, calls Eval(), samples transfers (valid && ready), steps its
// model, then Tick(). RTL assertion failures do not abort: they set Failed(), which every test
// checks at its end, so a failing run keeps its waveform.
#pragma once
#include <cstdint>
#include <string>

#include "tb/common/seed.hpp"
#include "verif/harness.hpp"

namespace flint::tb {

// The harness options of the running test (seed, waves, coverage).
inline verif::HarnessOptions TestHarnessOptions(uint32_t seed, const std::string& waves_block,
                                                const std::string& waves_suffix) {
  verif::HarnessOptions o;
  o.seed = seed;
  // Uninitialised state random per seed (with --x-initial unique). A coverage run starts from
  // all zeros instead, so toggle coverage counts what the design does after power-up, not the
  // random power-up pattern (that alone would mark about 6 % more bits as toggled).
  o.rand_reset = CoverageRequested() ? 0 : 2;
  if (WavesRequested()) {
    const std::string stem = WavePathStem() + waves_suffix;
    o.fst = stem + ".fst";
    o.gtkw = stem + ".gtkw";
    o.gtkw_groups = verif::WaveGroups(waves_block);
  }
  o.coverage_path = [] { return CoverageRequested() ? CoveragePath() : std::string(); };
  return o;
}

template <class Dut>
class Harness : public verif::Harness<Dut> {
 public:
  // `waves_block` names tb/waves/<block>.gtkw, the signal groups for GTKWave. `waves_suffix`
  // tells apart the files of several harnesses in one test (the RTL and its netlist in a miter).
  explicit Harness(uint32_t seed, const std::string& waves_block = "",
                   const std::string& waves_suffix = "")
      : verif::Harness<Dut>(TestHarnessOptions(seed, waves_block, waves_suffix)) {}
};

}  // namespace flint::tb
