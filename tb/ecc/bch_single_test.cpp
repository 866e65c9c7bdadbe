// The single-error test of the BCH line decoder (flint_bch_single; docs/ecc.md, "The single-error
// path") against the model's field arithmetic, and against its own Yosys netlist (STYLE.md:
// trust no synthesis silently; the log table is an array that Yosys turns into a selection).
// Combinational: no clock, no harness; both models are evaluated on the same syndromes.
//
// Stimulus: the syndromes of a single error at every field position 0 .. 2^11 - 2 (inside and
// outside the shortened code); random error patterns of weight 2..2t+1; random syndrome vectors;
// single-error syndromes with one bit of one syndrome flipped; S_1 = 0 with the rest random.
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vbch_single.h"
#include "Vbch_single_netlist.h"
#include "model/ecc/bch.hpp"
#include "model/ecc/bch_line_timing.hpp"
#include "tb/common/ports.hpp"
#include "tb/common/seed.hpp"
#include "tb/ecc/bch_tb_util.hpp"
#include "verilated.h"

namespace {

namespace m = flint::model;
using flint::tb::BchLineCode;
using flint::tb::PutBits;

}  // namespace

TEST_CASE("bch_single: the single-error test equals the model's power test and its netlist",
          "[ecc][bch_single][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const m::BchCode& code = BchLineCode();
  const unsigned mb = code.m(), t = code.t();
  const uint32_t order = code.field_order() - 1;  // 2047
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->fatalOnError(false);
  Vbch_single rtl(ctx.get(), "rtl");
  Vbch_single_netlist net(ctx.get(), "net");
  std::mt19937 rng(seed);

  // Odd syndromes S_1, S_3, .. as a vector of t field elements.
  std::vector<std::vector<uint32_t>> jobs;
  auto odd_of = [&](const std::vector<uint32_t>& s) {
    std::vector<uint32_t> odd(t);
    for (unsigned k = 0; k < t; ++k) odd[k] = s[2 * k + 1];
    return odd;
  };
  for (uint32_t p = 0; p < order; ++p) {
    std::vector<uint32_t> odd(t);
    for (unsigned k = 0; k < t; ++k) odd[k] = code.Exp(p * (2 * k + 1));
    jobs.push_back(odd);
  }
  for (int i = 0; i < 3000; ++i) {
    std::vector<uint32_t> odd(t);
    switch (i % 4) {
      case 0: {  // an error pattern of weight 2..2t+1
        m::BchBits word(m::BchWords(code.code_bits()), 0);
        std::vector<uint32_t> pos(code.code_bits());
        std::iota(pos.begin(), pos.end(), 0u);
        const unsigned w = 2 + static_cast<unsigned>(i / 4) % (2 * t);
        for (unsigned e = 0; e < w; ++e) {
          std::uniform_int_distribution<uint32_t> pick(e, code.code_bits() - 1);
          std::swap(pos[e], pos[pick(rng)]);
          m::BchFlip(&word, pos[e]);
        }
        odd = odd_of(code.Syndromes(word));
        break;
      }
      case 1:  // any vector
        for (auto& s : odd) s = rng() & order;
        break;
      case 2: {  // a single error's syndromes with one bit of one syndrome flipped
        const uint32_t p = rng() % order;
        for (unsigned k = 0; k < t; ++k) odd[k] = code.Exp(p * (2 * k + 1));
        odd[rng() % t] ^= 1u << (rng() % mb);
        break;
      }
      default:  // S_1 = 0
        for (auto& s : odd) s = rng() & order;
        odd[0] = 0;
        break;
    }
    jobs.push_back(odd);
  }

  uint64_t mismatches = 0, singles = 0;
  std::string first;
  for (size_t j = 0; j < jobs.size(); ++j) {
    const auto& odd = jobs[j];
    for (unsigned k = 0; k < t; ++k) {
      PutBits(rtl.syn_i, k * mb, mb, odd[k]);
      PutBits(net.syn_i, k * mb, mb, odd[k]);
    }
    rtl.eval();
    net.eval();
    // The model: S_1 != 0 and S_j = S_1^j for the odd j; position log S_1.
    bool single = odd[0] != 0;
    for (unsigned k = 1; k < t && single; ++k) {
      single = odd[k] == code.Exp(code.Log(odd[0]) * (2 * k + 1));
    }
    const uint32_t pos = odd[0] != 0 ? code.Log(odd[0]) : 0;
    singles += single;
    const bool bad = rtl.single_o != single || (single && rtl.pos_o != pos) ||
                     net.single_o != rtl.single_o || net.pos_o != rtl.pos_o;
    if (bad && mismatches++ == 0) {
      std::ostringstream s;
      s << "job " << j << ": S_1 " << odd[0] << ": rtl " << int{rtl.single_o} << "/" << rtl.pos_o
        << ", netlist " << int{net.single_o} << "/" << net.pos_o << ", model " << single << "/"
        << pos;
      first = s.str();
    }
  }
  INFO("mismatches: " << mismatches << "; first: " << first);
  CHECK(mismatches == 0);
  // Every single error, and none of the perturbed or multi-error syndromes (up to 2t errors
  // never look single; the random vectors do with probability 2^-110).
  CHECK(singles == order);
  REQUIRE_FALSE(ctx->gotError());
}
