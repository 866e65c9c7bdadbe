#include "model/nand/reliability.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "model/nand/page_content.hpp"

namespace flint::model {

namespace {

void Require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("nand error model: " + what);
}

constexpr double kPi = 3.14159265358979323846;

// x^a, exact and cheap for the usual a = 1.
double Power(double x, double a) { return a == 1.0 ? x : std::pow(x, a); }

}  // namespace

ErrorModel::ErrorModel(const Config& cfg, const ReliabilityParams& params) : params_(params) {
  Require(cfg.disturb_limit > 0, "config disturb_limit must be > 0");
  Require(cfg.pe_limit > 0, "config pe_limit must be > 0");
  Require(cfg.retention_cycles > 0, "config retention_cycles must be > 0");
  Require(params.base_rber >= 0 && params.base_rber <= 0.5, "base_rber must be in [0, 0.5]");
  Require(params.rber_at_limit >= 0 && params.rber_at_limit <= 0.5,
          "rber_at_limit must be in [0, 0.5]");
  Require(params.wear_gain >= 0, "wear_gain must be >= 0");
  Require(params.disturb_exponent > 0 && params.retention_exponent > 0 && params.wear_exponent > 0,
          "exponents must be > 0");
  disturb_limit_ = static_cast<double>(cfg.disturb_limit);
  retention_cycles_ = static_cast<double>(cfg.retention_cycles);
  pe_limit_ = static_cast<double>(cfg.pe_limit);
  term_scale_ = params.rber_at_limit / WearFactor(cfg.pe_limit);
}

double ErrorModel::WearFactor(uint64_t pe_cycles) const {
  if (pe_cycles == 0) return 1.0;
  return 1.0 + params_.wear_gain *
                   Power(static_cast<double>(pe_cycles) / pe_limit_, params_.wear_exponent);
}

double ErrorModel::Rber(uint64_t disturb, uint64_t age_cycles, double wear) const {
  double terms = params_.base_rber;
  if (disturb > 0) {
    terms += term_scale_ *
             Power(static_cast<double>(disturb) / disturb_limit_, params_.disturb_exponent);
  }
  if (age_cycles > 0) {
    terms += term_scale_ *
             Power(static_cast<double>(age_cycles) / retention_cycles_, params_.retention_exponent);
  }
  return std::min(0.5, wear * terms);
}

uint32_t ErrorModel::DrawCount(double mean, uint64_t key, uint32_t cap) {
  if (!(mean > 0.0) || cap == 0) return 0;
  const double u = UnitInterval(Mix64(key));
  uint64_t k = 0;
  if (mean <= 64.0) {
    // Inverse transform: the smallest k with CDF(k) >= u.
    double p = std::exp(-mean);
    double cdf = p;
    const uint64_t stop = static_cast<uint64_t>(mean * 20.0) + 200;  // rounding guard
    while (u > cdf && k < stop) {
      ++k;
      p *= mean / static_cast<double>(k);
      cdf += p;
    }
  } else {
    const double u2 = UnitInterval(Mix64(key ^ 0x5bd1e9955bd1e995ULL));
    const double z = std::sqrt(-2.0 * std::log1p(-u)) * std::cos(2.0 * kPi * u2);
    const double x = std::floor(mean + std::sqrt(mean) * z + 0.5);
    k = x <= 0.0 ? 0 : static_cast<uint64_t>(x);
  }
  return static_cast<uint32_t>(std::min<uint64_t>(k, cap));
}

void ErrorModel::DrawPositions(uint64_t key, uint32_t count, uint32_t bits,
                               std::vector<uint32_t>* out) {
  out->clear();
  if (bits == 0) return;
  count = std::min(count, bits);
  out->reserve(count);
  std::vector<uint8_t> seen;
  if (count > 64) seen.assign(bits, 0);
  for (uint64_t i = 0; out->size() < count; ++i) {
    const uint64_t x = Mix64(key + i * 0x9e3779b97f4a7c15ULL);
    // Multiply-high of 32 random bits by `bits` (< 2^32): uniform in [0, bits).
    const auto pos = static_cast<uint32_t>(((x >> 32) * bits) >> 32);
    bool dup;
    if (count > 64) {
      dup = seen[pos] != 0;
      seen[pos] = 1;
    } else {
      dup = std::find(out->begin(), out->end(), pos) != out->end();
    }
    if (!dup) out->push_back(pos);
  }
}

}  // namespace flint::model
