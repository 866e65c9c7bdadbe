// Raw bit error model of a page sense (docs/nand_model.md, "Errors").
//
//   RBER(d, t, c) = W(c) * ( base + D * (d / disturb_limit)^a_d + D * (t / retention_cycles)^a_t )
//   W(c)          = 1 + wear_gain * (c / pe_limit)^a_w,      D = rber_at_limit / W(pe_limit)
//
// d: senses of the block since its last erase (read disturb; shape after Cai et al., DSN 2015),
// t: cycles since the block was programmed (retention; Cai et al., HPCA 2015),
// c: the block's program/erase cycles (wear; power law in cycles after Mielke et al., IRPS 2008).
// The forms follow those sources; the numbers are ours, chosen so that a block at the end of its
// P/E budget reaches rber_at_limit after disturb_limit senses, or after retention_cycles of age.
//
// Errors of a sense: a count drawn from Poisson(RBER * bits) seeded by (die seed, plane, block,
// page, sense index), and positions taken in order from a stream seeded by the page and its
// program generation, so that errors persist from one sense to the next and a larger count is a
// superset of a smaller one (disturb and retention shift cells; they do not move at random).
#pragma once
#include <cstdint>
#include <vector>

#include "flint_config.hpp"

namespace flint::model {

// Tunables of the error model. Defaults documented in docs/nand_model.md; not in configs/
// because they describe the flash technology, not a FLINT design point.
struct ReliabilityParams {
  double base_rber = 1e-9;          // fresh block, just programmed, never read (x W(c))
  double rber_at_limit = 1e-4;      // disturb (or retention) term at its limit, end of P/E life
  double disturb_exponent = 1.0;    // a_d: RBER grows linearly with senses since erase
  double retention_exponent = 1.0;  // a_t
  double wear_gain = 9.0;           // W(pe_limit) = 1 + wear_gain = 10
  double wear_exponent = 1.5;       // a_w
};

class ErrorModel {
 public:
  // Throws std::invalid_argument for a negative rate, a non-positive exponent, or a config
  // whose disturb_limit, pe_limit or retention_cycles is zero.
  ErrorModel(const Config& cfg, const ReliabilityParams& params);

  const ReliabilityParams& params() const { return params_; }

  // W(c): how much wear multiplies every error term.
  double WearFactor(uint64_t pe_cycles) const;
  // RBER of a sense; `wear` is WearFactor(pe) (the die caches it per block). At most 0.5.
  double Rber(uint64_t disturb, uint64_t age_cycles, double wear) const;
  double Rber(uint64_t disturb, uint64_t age_cycles, uint64_t pe_cycles) const {
    return Rber(disturb, age_cycles, WearFactor(pe_cycles));
  }

  // A Poisson(mean) count from `key`, at most `cap`. Inverse transform for small means, a
  // rounded normal approximation above 64. Deterministic: no std:: distributions, whose
  // results differ between standard libraries.
  static uint32_t DrawCount(double mean, uint64_t key, uint32_t cap);
  // The first `count` distinct bit positions in [0, bits) of the stream seeded by `key`.
  static void DrawPositions(uint64_t key, uint32_t count, uint32_t bits,
                            std::vector<uint32_t>* out);

 private:
  ReliabilityParams params_;
  double disturb_limit_, retention_cycles_, pe_limit_;
  double term_scale_;  // D
};

// A uniform double in [0, 1) from 53 bits of `x`.
inline double UnitInterval(uint64_t x) { return static_cast<double>(x >> 11) * 0x1.0p-53; }

}  // namespace flint::model
