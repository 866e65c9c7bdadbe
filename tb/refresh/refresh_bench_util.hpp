// What the benches of a die's refresh (refresh_die_tb.hpp: FLINT's rotation; inplace_die_tb.hpp:
// the in-place baselines) set up alike: the NAND die model's configuration and options, and the
// pages they load.
#pragma once
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "model/common/types.hpp"
#include "model/ecc/secded.hpp"
#include "model/nand/nand_die.hpp"
#include "model/nand/page_content.hpp"

namespace flint::tb {

// The die erases in `t_erase_cycles` (the refresh only sees plane busy/idle): small's 48 000
// cycles a block would make a refresh mostly waiting.
inline Config WithEraseCycles(const Config& cfg, uint64_t t_erase_cycles) {
  Config c = cfg;
  c.t_erase_cycles = t_erase_cycles;
  return c;
}

// No random bit errors (exact images: the data checks are exact; errors only where a test puts
// them), programs' data in through the maintenance port (the phantom's write path,
// docs/nand_model.md).
inline model::NandOptions RefreshNandOptions() {
  model::NandOptions o;
  o.reliability.base_rber = 0;
  o.reliability.rber_at_limit = 0;
  o.program_data_in_on_io = false;
  return o;
}

// A page's data: `bytes` bytes of a hash of (a, b, page) under `seed`.
inline std::vector<uint8_t> HashedPage(size_t bytes, uint64_t seed, uint32_t a, uint32_t b,
                                       uint32_t page) {
  std::vector<uint8_t> out(bytes);
  const uint64_t key = seed ^ (uint64_t{a} << 48) ^ (uint64_t{b} << 24) ^ page;
  for (size_t w = 0; w < out.size() / 8; ++w) {
    const uint64_t v = model::Mix64(key + w * 0x9e37ULL);
    for (size_t k = 0; k < 8; ++k) out[8 * w + k] = static_cast<uint8_t>(v >> (8 * k));
  }
  return out;
}

// Loads block `block` of `plane` (erasing it first) with Pages pages, page p's data `content(p)`,
// SEC-DED encoded as the sequencer writes it.
template <class ContentFn>
void PreloadBlock(model::NandDie& die, const Config& cfg, uint32_t plane, uint32_t block,
                  ContentFn content) {
  std::vector<model::PageImage> pages;
  for (uint32_t p = 0; p < cfg.pages; ++p) {
    model::PageImage img;
    img.kind = model::ContentKind::kBytes;
    img.bytes = std::make_shared<const std::vector<uint8_t>>(
        model::ImageFromData(content(p), model::SecdedEncode));
    pages.push_back(img);
  }
  die.Preload(plane, block, true, pages, 0);
}

// A bench's run loop and first divergence (CRTP: Bench has cycle() and Step()). Fail() keeps the
// first divergence with its cycle; tests check Error() once.
template <class Bench>
class BenchRun {
 public:
  const std::string& Error() const { return error_; }
  // Runs until `done()` holds, the first divergence, or `max_cycles` (an error).
  template <class Pred>
  bool RunUntil(Pred done, uint64_t max_cycles, const std::string& what) {
    const uint64_t stop = Self().cycle() + max_cycles;
    while (!done() && error_.empty() && Self().cycle() < stop) Self().Step();
    if (error_.empty() && !done()) {
      Fail("not " + what + " after " + std::to_string(max_cycles) + " cycles");
    }
    return error_.empty();
  }
  void Run(uint64_t cycles) {
    for (uint64_t i = 0; i < cycles && error_.empty(); ++i) Self().Step();
  }

 protected:
  void Fail(const std::string& what) {
    if (!error_.empty()) return;
    std::ostringstream os;
    os << "cycle " << Self().cycle() << ": " << what;
    error_ = os.str();
  }
  void Check(const std::string& err) {
    if (!err.empty()) Fail(err);
  }
  std::string error_;

 private:
  Bench& Self() { return static_cast<Bench&>(*this); }
};

}  // namespace flint::tb
