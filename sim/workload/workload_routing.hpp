// MoE routing for the decode generator: which top_k experts each token of the batch uses in
// each MoE layer at each decode step. Either drawn from a Zipf-like popularity (skew s; s = 0 is
// uniform) with the expert ranks permuted per layer by seed, or read from a routing file of
// measured routing (format in docs/workloads.md).
#pragma once
#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/workload/workload_model.hpp"

namespace flint::sim {

class Router {
 public:
  virtual ~Router() = default;
  // Writes the model's top_k distinct expert ids for `token` of the batch in MoE layer `layer`
  // at decode step `step` into experts[0..top_k).
  virtual void Route(uint64_t step, uint64_t layer, uint32_t token, uint32_t* experts) const = 0;
};

// Popularity of the expert of rank r (0 = most popular) is proportional to 1 / (r + 1)^skew.
// Each token draws top_k distinct experts by weighted sampling without replacement (successive
// draws, each proportional to the popularity of the experts not drawn yet), done exactly with
// one exponential key per expert (Efraimidis-Spirakis). Rank -> expert id is a permutation per
// layer drawn from the seed, so hot experts differ from layer to layer.
class ZipfRouter : public Router {
 public:
  ZipfRouter(const ModelShape& model, double skew, uint64_t seed);
  void Route(uint64_t step, uint64_t layer, uint32_t token, uint32_t* experts) const override;
  // Probability that a single draw picks `expert` in `layer`.
  double Popularity(uint64_t layer, uint32_t expert) const;
  // The expert of popularity rank `rank` in `layer`.
  uint32_t ExpertOfRank(uint64_t layer, uint32_t rank) const {
    return perm_[layer * experts_ + rank];
  }
  double skew() const { return skew_; }

 private:
  uint64_t experts_;
  uint64_t top_k_;
  double skew_;
  uint64_t seed_;
  std::vector<double> inv_weight_;  // 1 / weight of each rank
  std::vector<double> weight_;
  double weight_sum_ = 0;
  std::vector<uint32_t> perm_;     // [layer][rank] -> expert
  std::vector<uint32_t> rank_of_;  // [layer][expert] -> rank
};

class RoutingError : public std::runtime_error {
 public:
  RoutingError(const std::string& source, uint64_t line, const std::string& what);
  uint64_t line() const { return line_; }

 private:
  uint64_t line_;
};

// A routing file: one line per (step, MoE layer, token),
//   <step> <layer> <token> <expert_1> ... <expert_top_k>
// '#' starts a comment, blank lines are ignored. Steps 0..S-1 must each be complete (every MoE
// layer, every token 0..batch-1, once); a run longer than S steps reuses step (s mod S).
class RoutingTrace : public Router {
 public:
  static RoutingTrace Parse(std::istream& in, const ModelShape& model, uint32_t batch,
                            const std::string& source = "<routing>");
  static RoutingTrace ReadFile(const std::string& path, const ModelShape& model, uint32_t batch);

  void Route(uint64_t step, uint64_t layer, uint32_t token, uint32_t* experts) const override;
  uint64_t steps() const { return steps_.size(); }
  uint32_t batch() const { return batch_; }

 private:
  RoutingTrace(uint64_t layers, uint64_t top_k, uint32_t batch)
      : layers_(layers), top_k_(top_k), batch_(batch) {}
  uint64_t layers_;
  uint64_t top_k_;
  uint32_t batch_;
  // steps_[s][(layer * batch + token) * top_k + j]
  std::vector<std::vector<uint32_t>> steps_;
};

// Writes `steps` steps of `router`'s routing in the routing-file format (a round trip of
// RoutingTrace, and a way to freeze a drawn routing for replay).
void WriteRouting(std::ostream& out, const ModelShape& model, const Router& router, uint32_t batch,
                  uint64_t steps);

}  // namespace flint::sim
