#include "sim/workload/workload_routing.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <string_view>
#include <utility>

#include "sim/workload/workload_hash.hpp"

namespace flint::sim {

ZipfRouter::ZipfRouter(const ModelShape& model, double skew, uint64_t seed)
    : experts_(model.experts), top_k_(model.top_k), skew_(skew), seed_(seed) {
  if (!model.IsMoe()) throw std::invalid_argument("ZipfRouter: " + model.name + " is dense");
  if (!(skew >= 0) || !std::isfinite(skew)) {
    throw std::invalid_argument("ZipfRouter: skew must be a finite number >= 0");
  }
  weight_.resize(experts_);
  inv_weight_.resize(experts_);
  for (uint64_t r = 0; r < experts_; ++r) {
    weight_[r] = std::pow(static_cast<double>(r + 1), -skew);
    inv_weight_[r] = 1.0 / weight_[r];
    weight_sum_ += weight_[r];
  }
  perm_.resize(model.layers * experts_);
  rank_of_.resize(model.layers * experts_);
  for (uint64_t l = 0; l < model.layers; ++l) {
    uint32_t* p = &perm_[l * experts_];
    for (uint64_t r = 0; r < experts_; ++r) p[r] = static_cast<uint32_t>(r);
    // Fisher-Yates from the seed: rank -> expert.
    for (uint64_t i = experts_ - 1; i > 0; --i) {
      const uint64_t j = Below(WorkloadHash(seed_, HashTag::kPermute, l, i), i + 1);
      std::swap(p[i], p[j]);
    }
    for (uint64_t r = 0; r < experts_; ++r)
      rank_of_[l * experts_ + p[r]] = static_cast<uint32_t>(r);
  }
}

void ZipfRouter::Route(uint64_t step, uint64_t layer, uint32_t token, uint32_t* experts) const {
  // Key log(u) / w per rank; the top_k largest keys are a weighted sample without replacement.
  thread_local std::vector<std::pair<double, uint32_t>> keys;
  keys.resize(experts_);
  const uint64_t site = (layer << 32) | token;
  for (uint64_t r = 0; r < experts_; ++r) {
    const double u = UnitOpen(WorkloadHash(seed_, HashTag::kRoute, step, site, r));
    keys[r] = {std::log(u) * inv_weight_[r], static_cast<uint32_t>(r)};
  }
  std::partial_sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(top_k_), keys.end(),
                    [](const auto& a, const auto& b) {
                      return a.first > b.first || (a.first == b.first && a.second < b.second);
                    });
  for (uint64_t j = 0; j < top_k_; ++j) experts[j] = ExpertOfRank(layer, keys[j].second);
}

double ZipfRouter::Popularity(uint64_t layer, uint32_t expert) const {
  return weight_[rank_of_.at(layer * experts_ + expert)] / weight_sum_;
}

RoutingError::RoutingError(const std::string& source, uint64_t line, const std::string& what)
    : std::runtime_error(source + ":" + std::to_string(line) + ": " + what), line_(line) {}

namespace {

bool ParseDecimal(std::string_view s, uint64_t* out) {
  if (s.empty() || s.size() > 19) return false;
  uint64_t v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return false;
    v = v * 10 + static_cast<uint64_t>(ch - '0');
  }
  *out = v;
  return true;
}

std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

}  // namespace

RoutingTrace RoutingTrace::Parse(std::istream& in, const ModelShape& model, uint32_t batch,
                                 const std::string& source) {
  if (!model.IsMoe()) {
    throw RoutingError(source, 0, "model " + model.name + " is dense: it takes no routing");
  }
  if (batch == 0) throw RoutingError(source, 0, "batch must be >= 1");
  RoutingTrace rt(model.layers, model.top_k, batch);
  const uint64_t per_step = model.layers * batch * model.top_k;
  std::map<uint64_t, std::vector<uint32_t>> steps;
  std::map<uint64_t, std::vector<uint64_t>> seen_line;  // line number of each (layer, token)
  std::string buf;
  uint64_t line = 0;
  while (std::getline(in, buf)) {
    ++line;
    std::string_view text(buf);
    if (const size_t hash = text.find('#'); hash != std::string_view::npos) {
      text = text.substr(0, hash);
    }
    const auto f = Fields(text);
    if (f.empty()) continue;
    auto fail = [&](const std::string& what) { throw RoutingError(source, line, what); };
    if (f.size() != 3 + model.top_k) {
      fail("expected '<step> <layer> <token>' and " + std::to_string(model.top_k) +
           " expert ids (top_k of " + model.name + "), got " + std::to_string(f.size()) +
           " field(s)");
    }
    uint64_t v[3];
    const char* what[3] = {"step", "layer", "token"};
    for (int i = 0; i < 3; ++i) {
      if (!ParseDecimal(f[i], &v[i])) {
        fail(std::string(what[i]) + " '" + std::string(f[i]) + "' is not a decimal number");
      }
    }
    const uint64_t step = v[0], layer = v[1], token = v[2];
    if (step > 1000000) fail("step " + std::to_string(step) + " is beyond 1000000");
    if (layer >= model.layers) {
      fail("layer " + std::to_string(layer) + " does not exist (" + model.name + " has " +
           std::to_string(model.layers) + ")");
    }
    if (!model.IsMoeLayer(layer)) fail("layer " + std::to_string(layer) + " is a dense layer");
    if (token >= batch) {
      fail("token " + std::to_string(token) + " is outside the batch of " + std::to_string(batch) +
           " (tokens 0.." + std::to_string(batch - 1) + ")");
    }
    auto& slots = steps[step];
    auto& lines = seen_line[step];
    if (slots.empty()) {
      slots.assign(per_step, 0);
      lines.assign(model.layers * batch, 0);
    }
    const uint64_t site = layer * batch + token;
    if (lines[site] != 0) {
      fail("step " + std::to_string(step) + " layer " + std::to_string(layer) + " token " +
           std::to_string(token) + " is routed again (first on line " +
           std::to_string(lines[site]) + ")");
    }
    lines[site] = line;
    for (uint64_t j = 0; j < model.top_k; ++j) {
      uint64_t e = 0;
      if (!ParseDecimal(f[3 + j], &e)) {
        fail("expert '" + std::string(f[3 + j]) + "' is not a decimal number");
      }
      if (e >= model.experts) {
        fail("expert " + std::to_string(e) + " does not exist (" + model.name + " has " +
             std::to_string(model.experts) + " routed experts)");
      }
      for (uint64_t i = 0; i < j; ++i) {
        if (slots[site * model.top_k + i] == e) {
          fail("expert " + std::to_string(e) + " is listed twice for one token");
        }
      }
      slots[site * model.top_k + j] = static_cast<uint32_t>(e);
    }
  }
  if (in.bad()) throw RoutingError(source, line, "read error");
  if (steps.empty()) throw RoutingError(source, line, "no routing lines");
  const uint64_t n_steps = steps.rbegin()->first + 1;
  for (uint64_t s = 0; s < n_steps; ++s) {
    auto it = seen_line.find(s);
    if (it == seen_line.end()) {
      throw RoutingError(source, line,
                         "step " + std::to_string(s) + " has no lines (steps 0.." +
                             std::to_string(n_steps - 1) + " must all be present)");
    }
    for (uint64_t l = 0; l < model.layers; ++l) {
      if (!model.IsMoeLayer(l)) continue;
      for (uint64_t t = 0; t < batch; ++t) {
        if (it->second[l * batch + t] == 0) {
          throw RoutingError(source, line,
                             "step " + std::to_string(s) + " layer " + std::to_string(l) +
                                 " token " + std::to_string(t) + " is not routed");
        }
      }
    }
    rt.steps_.push_back(std::move(steps[s]));
  }
  return rt;
}

RoutingTrace RoutingTrace::ReadFile(const std::string& path, const ModelShape& model,
                                    uint32_t batch) {
  std::ifstream in(path);
  if (!in) throw RoutingError(path, 0, "cannot open the routing file");
  return Parse(in, model, batch, path);
}

void RoutingTrace::Route(uint64_t step, uint64_t layer, uint32_t token, uint32_t* experts) const {
  const auto& s = steps_[step % steps_.size()];
  const uint64_t base = (layer * batch_ + token) * top_k_;
  for (uint64_t j = 0; j < top_k_; ++j) experts[j] = s[base + j];
}

void WriteRouting(std::ostream& out, const ModelShape& model, const Router& router, uint32_t batch,
                  uint64_t steps) {
  out << "# flint routing: <step> <layer> <token> then " << model.top_k << " expert ids ("
      << model.name << ")\n";
  std::vector<uint32_t> e(model.top_k);
  for (uint64_t s = 0; s < steps; ++s) {
    for (uint64_t l = 0; l < model.layers; ++l) {
      if (!model.IsMoeLayer(l)) continue;
      for (uint32_t t = 0; t < batch; ++t) {
        router.Route(s, l, t, e.data());
        out << s << ' ' << l << ' ' << t;
        for (uint32_t x : e) out << ' ' << x;
        out << '\n';
      }
    }
  }
}

}  // namespace flint::sim
