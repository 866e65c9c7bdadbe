// flint-sim's RTL engine: a trace through the Verilated stack top (rtl/top/flint_top.sv) on one
// NAND die model a die, with test_top's driver and checks (verif/top/): the model is
// loaded through the RTL's write path first, then the requests run; every response is checked
// against the SEC-DED model and the loaded weights. With `mount`, the dies are preloaded and the
// loader only fills the BTT (docs/top.md "Mount"), the state test_top proves a load leaves. Built
// for the configs listed by RtlConfigs().
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "flint_config.hpp"
#include "model/bbc/bbc_model.hpp"

namespace flint::sim {

struct RtlOptions {
  uint64_t loaded_bursts = 0;  // 0: the whole stack
  uint64_t seed = 1;           // the dies' error draws and the RTL's random initial state
  bool erase = false;          // erase every block before the load (a power-up after use)
  bool mount = false;          // preload the dies and mount instead of loading (docs/top.md)
  std::string waves;           // an FST file to write (with a GTKWave save file beside it)
  bool quiet_nand = false;     // no bit errors at all
  uint64_t pe_cycles = 0;      // every block starts at this wear (docs/nand_model.md "Errors")
  double rber_at_limit = 0;    // the error model's disturb/retention term at its limit (0: default)
  bool progress = true;        // a progress line on stderr every few seconds
  // The power-up's sweeps written by the backdoor but for their last cycles (docs/top.md,
  // "Power-up"; test_top proves it leaves what the sweeps leave)
  bool fast_powerup = false;
  // Also run a second model powered up by the sweeps and compare (RtlReport::check): the swept
  // state word for word, then the outputs every cycle. Implies fast_powerup; twice the run.
  bool check_fast_powerup = false;
};

struct RtlReport {
  uint64_t requests = 0, responses = 0;
  uint64_t status[5] = {0, 0, 0, 0, 0};
  uint64_t data_mismatches = 0;      // data differs from the weights (OK/CORRECTED responses)
  uint64_t model_mismatches = 0;     // status or data differ from the SEC-DED model's decode
  uint64_t beyond_code = 0;          // miscorrected lines (>= 3 errors in a word)
  uint64_t violations = 0;           // driver checks broken (first one in first_violation)
  uint64_t miscorrected_copies = 0;  // refresh-copied lines a miscorrected read re-encoded
  std::string first_violation;
  uint64_t cycles = 0, load_cycles = 0, sim_cycles = 0;
  uint64_t powerup_cycles = 0;           // reset to ready_o, the backdoor's share included
  uint64_t powerup_backdoor_cycles = 0;  // of which the backdoor wrote the state (not simulated)
  double powerup_seconds = 0;            // wall time to ready_o
  double run_seconds = 0;                // wall time of the requests' run (after the load)
  uint32_t threads = 1;                  // the Verilated model's threads (--threads N)
  uint64_t bursts = 0, refetched = 0, useful_bytes = 0, fetched_bytes = 0, link_slots = 0;
  uint64_t queue_high_water = 0, displacements = 0, park_wait_cycles = 0;
  uint64_t rotations = 0, forked = 0, scrubbed = 0, programmed = 0, erased = 0;
  uint64_t disturb_alarms = 0, max_read_count = 0;
  double nand_read_pj = 0, nand_program_pj = 0, nand_erase_pj = 0;
  // check_fast_powerup: the backdoor's model against the sweeps' model.
  struct PowerUpCheck {
    bool run = false;
    uint64_t ready_cycle = 0;       // the sweeps' model's ready_o
    uint64_t words = 0;             // swept words and registers compared
    uint64_t state_differ = 0;      // of which differ
    std::string first_difference;   // variable[index]
    uint64_t cycles = 0;            // cycles compared after ready_o
    bool diverged = false;          // an output differed (or the runs' lengths or ready_o did)
    uint64_t divergence_cycle = 0;  // the first cycle an output differed
    std::map<std::string, std::vector<uint64_t>> state;  // the sweeps' (while comparing)
  } check;
};

// The configs this build has a Verilated top for.
std::vector<std::string> RtlConfigs();
// Throws std::invalid_argument for a config without a Verilated top, std::runtime_error when the
// RTL or a die refuses something (an assertion, an illegal NAND command, a stuck run).
RtlReport RunRtl(const Config& cfg, const RtlOptions& opt,
                 const std::vector<flint::model::BbcRequest>& requests);

}  // namespace flint::sim
