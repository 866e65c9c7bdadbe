// One burst's life through flint_bbc at small, for the waveform picture docs/burst_waves.png
// (make pictures, scripts/pictures.py): the lines of one burst requested on the port, the
// scheduler's pick, the multi-plane sense, the move to the cache buffers, the data-out of each
// line, its ECC decode (one line carries a flipped bit, so the picture shows a correction) and
// the responses. Checked against the model like every bbc top test, so the picture shows a run
// that passed.
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "Vbbc_small.h"
#include "flint_config.hpp"
#include "tb/bbc/bbc_top_tb.hpp"
#include "tb/common/seed.hpp"

TEST_CASE("pictures: one burst's life with one line corrected", "[pictures]") {
  const flint::Config& cfg = flint::kSmallConfig;
  // Burst 0, die 0, plane 1: one flipped bit in line 2.
  auto prepare = [&](flint::model::BbcModel& m) {
    const flint::model::BlockPage bp = m.PhysicalOf(0);
    const uint32_t line_bits = static_cast<uint32_t>(cfg.cl_image_bytes * 8);
    m.die(0).CorruptPage({1, bp.block, bp.page}, {2 * line_bits + 5});
  };
  const std::vector<flint::model::BbcRequest> reqs = flint::tb::bbctop::Sweep(cfg, 0, 1);
  const auto [r, m] = flint::tb::bbctop::Compare<Vbbc_small>(cfg, flint::tb::TestSeed(),
                                                             flint::model::BbcOptions{}, reqs,
                                                             prepare);
  REQUIRE(r.senses.size() == 1);
  REQUIRE(r.status[static_cast<unsigned>(flint::Status::kCorrected)] == 1);
}
