// Trust no synthesis silently (STYLE.md): the BCH decoder's Berlekamp-Massey unit and Chien
// search (P = 16) against their Yosys netlists (scripts/netlist.py, tb/common's flint_netlist),
// both driven alike every cycle with a random handshake (valid held until taken, ready at
// random), every handshake output compared each cycle and the payloads while their valid is high
// (the datapath registers are not reset, so they differ before the first result). The RTL side
// is the wrapper flint_bch_dec_tb's bm_* and ch_* ports.
//
// Stimulus: syndromes of random error patterns (weight 0..2t+1) and random syndrome vectors for
// Berlekamp-Massey; for the search, the model's locators of such patterns (so roots are found)
// and random locators of random degree.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vbch_bm_netlist.h"
#include "Vbch_chien_p16_netlist.h"
#include "Vbch_dec.h"
#include "model/ecc/bch.hpp"
#include "tb/common/harness.hpp"
#include "tb/common/ports.hpp"
#include "tb/common/seed.hpp"
#include "tb/ecc/bch_tb_util.hpp"

namespace {

namespace m = flint::model;
using flint::tb::GetBits;
using flint::tb::PutBits;

using flint::tb::BchLineCode;

// Field elements e[j] into bits [j*mb, j*mb + mb) of a wide port.
template <class W>
void PutElems(W& w, const std::vector<uint32_t>& e, unsigned mb) {
  for (size_t j = 0; j < e.size(); ++j) PutBits(w, static_cast<uint32_t>(j * mb), mb, e[j]);
}

template <class A, class B>
bool WideEq(const A& a, const B& b, uint32_t bits) {
  for (uint32_t i = 0; i < bits; i += 32) {
    const uint32_t n = std::min(32u, bits - i);
    if (GetBits(a, i, n) != GetBits(b, i, n)) return false;
  }
  return true;
}

// A random error pattern's word (no codeword needed: the syndromes see only the errors).
m::BchBits RandomErrors(const m::BchCode& code, std::mt19937& rng, unsigned weight) {
  m::BchBits word(m::BchWords(code.code_bits()), 0);
  std::vector<uint32_t> pos(code.code_bits());
  std::iota(pos.begin(), pos.end(), 0u);
  for (unsigned e = 0; e < weight; ++e) {
    std::uniform_int_distribution<uint32_t> pick(e, code.code_bits() - 1);
    std::swap(pos[e], pos[pick(rng)]);
    m::BchFlip(&word, pos[e]);
  }
  return word;
}

}  // namespace

TEST_CASE("bch_dec: Berlekamp-Massey and the Chien search match their synthesized netlists",
          "[ecc][bch_dec][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const m::BchCode& code = BchLineCode();
  const unsigned t = code.t(), mb = code.m(), n = code.code_bits();
  flint::tb::Harness<Vbch_dec> hr(seed, "", "_rtl");
  flint::tb::Harness<Vbch_bm_netlist> hb(seed, "", "_bm_netlist");
  flint::tb::Harness<Vbch_chien_p16_netlist> hc(seed, "", "_chien_netlist");
  std::mt19937 rng(seed);
  std::bernoulli_distribution coin(0.5);

  auto& r = hr.dut();
  auto& b = hb.dut();
  auto& c = hc.dut();
  r.bm_in_valid_i = r.ch_in_valid_i = r.dec_in_valid_i = 0;
  r.bm_out_ready_i = r.ch_out_ready_i = r.dec_out_ready_i = 0;
  b.in_valid_i = b.out_ready_i = 0;
  c.in_valid_i = c.out_ready_i = 0;
  hr.Reset();
  hb.Reset();
  hc.Reset();

  std::string diff;
  uint64_t bm_results = 0, ch_results = 0, ch_roots = 0;
  const int cycles = 40000;
  for (int cyc = 0; cyc < cycles && diff.empty(); ++cyc) {
    // New offers, held until taken.
    if (!r.bm_in_valid_i && coin(rng)) {
      std::vector<uint32_t> odd(t);
      if (rng() % 3 == 0) {
        for (auto& s : odd) s = rng() & (code.field_order() - 1);
      } else {
        const std::vector<uint32_t> s =
            code.Syndromes(RandomErrors(code, rng, rng() % (2 * t + 2)));
        for (unsigned k = 0; k < t; ++k) odd[k] = s[2 * k + 1];
      }
      PutElems(r.bm_in_syn_i, odd, mb);
      PutElems(b.in_syn_i, odd, mb);
      r.bm_in_valid_i = b.in_valid_i = 1;
    }
    if (!r.ch_in_valid_i && coin(rng)) {
      std::vector<uint32_t> lambda(t + 1, 0);
      unsigned deg = 0;
      if (rng() % 4 == 0) {
        deg = rng() % 32;
        for (unsigned j = 0; j <= t && j <= deg; ++j) lambda[j] = rng() & (code.field_order() - 1);
      } else {
        std::vector<uint32_t> full;
        deg = code.ErrorLocator(code.Syndromes(RandomErrors(code, rng, 1 + rng() % (2 * t + 1))),
                                &full);
        std::copy(full.begin(), full.begin() + t + 1, lambda.begin());
      }
      PutElems(r.ch_in_lambda_i, lambda, mb);
      PutElems(c.in_lambda_i, lambda, mb);
      r.ch_in_deg_i = c.in_deg_i = static_cast<uint8_t>(deg);
      r.ch_in_valid_i = c.in_valid_i = 1;
    }
    r.bm_out_ready_i = b.out_ready_i = coin(rng);
    r.ch_out_ready_i = c.out_ready_i = coin(rng);
    hr.Eval();
    hb.Eval();
    hc.Eval();

    std::ostringstream os;
    if (r.bm_in_ready_o != b.in_ready_o || r.bm_out_valid_o != b.out_valid_o) {
      os << "bm handshake: rtl ready/valid " << int{r.bm_in_ready_o} << int{r.bm_out_valid_o}
         << ", netlist " << int{b.in_ready_o} << int{b.out_valid_o};
    } else if (r.bm_out_valid_o && (r.bm_out_deg_o != b.out_deg_o ||
                                    !WideEq(r.bm_out_lambda_o, b.out_lambda_o, (t + 1) * mb))) {
      os << "bm result: rtl L " << int{r.bm_out_deg_o} << ", netlist L " << int{b.out_deg_o}
         << " (or Lambda differs)";
    } else if (r.ch_in_ready_o != c.in_ready_o || r.ch_out_valid_o != c.out_valid_o) {
      os << "chien handshake: rtl ready/valid " << int{r.ch_in_ready_o} << int{r.ch_out_valid_o}
         << ", netlist " << int{c.in_ready_o} << int{c.out_valid_o};
    } else if (r.ch_out_valid_o &&
               (r.ch_out_count_o != c.out_count_o || r.ch_out_uncorr_o != c.out_uncorr_o ||
                !WideEq(r.ch_out_mask_o, c.out_mask_o, n))) {
      os << "chien result: rtl count " << r.ch_out_count_o << " uncorr " << int{r.ch_out_uncorr_o}
         << ", netlist " << c.out_count_o << " " << int{c.out_uncorr_o} << " (or the mask)";
    }
    if (os.tellp() != 0) diff = "cycle " + std::to_string(cyc) + ": " + os.str();

    const bool bm_in = r.bm_in_valid_i && r.bm_in_ready_o;
    const bool ch_in = r.ch_in_valid_i && r.ch_in_ready_o;
    if (r.bm_out_valid_o && r.bm_out_ready_i) ++bm_results;
    if (r.ch_out_valid_o && r.ch_out_ready_i) {
      ++ch_results;
      ch_roots += r.ch_out_count_o;
    }
    hr.Tick();
    hb.Tick();
    hc.Tick();
    if (bm_in) r.bm_in_valid_i = b.in_valid_i = 0;
    if (ch_in) r.ch_in_valid_i = c.in_valid_i = 0;
  }
  INFO("first difference: " << diff);
  CHECK(diff.empty());
  // The run reached both blocks' results, and the search found roots.
  CHECK(bm_results > 200);
  CHECK(ch_results > 50);
  CHECK(ch_roots > 100);
  REQUIRE_FALSE(hr.Failed());
  REQUIRE_FALSE(hb.Failed());
  REQUIRE_FALSE(hc.Failed());
}
