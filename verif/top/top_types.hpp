// What the stack top's verification pieces (attach.hpp, scoreboard.hpp, stimulus.hpp) share:
// the options of a run, what a physical page holds, and what a load and a run report.
#pragma once
#include <cstdint>
#include <vector>

#include "model/common/placement.hpp"
#include "model/nand/nand_die.hpp"
#include "model/nand/page_content.hpp"

namespace flint::verif::top {

inline constexpr uint32_t kAddrW = 48;  // flint_top's AddrW

struct TopOptions {
  flint::model::NandOptions nand{};  // program_data_in_on_io is forced off (docs/refresh.md)
  uint32_t generation = 1;           // which weights a load streams (a reload changes them)
  flint::model::BurstPlacement placement = flint::model::BurstPlacement::kInterleaved;
  uint64_t seed = 1;      // the dies' error draws
  bool in_place = false;  // the top refreshes in place (Mode 1 or 3)
};

// What a physical page holds: nothing, a pad page (zeros), or slice `tag.slice` of a burst.
struct Content {
  enum Kind : uint8_t { kErased, kPad, kTag } kind = kErased;
  flint::model::PageTag tag{};
  bool operator==(const Content& o) const {
    return kind == o.kind && (kind != kTag || tag == o.tag);
  }
  bool operator!=(const Content& o) const { return !(*this == o); }
};

struct LoadResult {
  uint64_t cycles = 0;  // the loader's own count (start to done)
  uint64_t wall = 0;    // cycles the driver ran
  bool error = false;
  uint32_t code = 0;
  uint64_t not_loaded_during_load = 0;  // requests answered NOT_LOADED while loading
};

// The scoreboard's verdicts on the responses of a run.
struct ResponseErrors {
  uint64_t data_mismatches = 0;   // data differs from the loaded weights (OK or CORRECTED)
  uint64_t model_mismatches = 0;  // status or data differ from the SEC-DED model's decode
  uint64_t beyond_code = 0;       // lines the code miscorrected (>= 3 errors in a word)
};

struct RunStats {
  uint64_t requests = 0, responses = 0;
  uint64_t status[5] = {0, 0, 0, 0, 0};
  uint64_t data_mismatches = 0;   // data differs from the loaded weights (OK or CORRECTED)
  uint64_t model_mismatches = 0;  // status or data differ from the SEC-DED model's decode
  uint64_t beyond_code = 0;       // lines the code miscorrected (>= 3 errors in a word)
  uint64_t first_accept = 0, last_response = 0, cycles = 0;
  uint64_t backpressure = 0;  // lane-cycles a request waited
  uint64_t senses = 0;
  std::vector<uint64_t> sense_bursts;
};

}  // namespace flint::verif::top
