// Prints the NAND model's RBER (model/nand/reliability, default ReliabilityParams) on a grid of
// (senses since erase, age, P/E cycles) for every config, one point a line:
//   <config> <disturb> <age_cycles> <pe_cycles> <rber, %.17g>
// scripts/ecc_choice.py --check --cpp-rber <this> recomputes every point with its own copy of
// the formula (docs/nand_model.md, "Errors") and fails on any difference, so the code choice
// rests on the same curve the die model draws its errors from.
#include <cinttypes>
#include <cstdio>

#include "flint_config.hpp"
#include "model/nand/reliability.hpp"

int main() {
  for (const flint::Config* cfg : flint::kAllConfigs) {
    const flint::model::ErrorModel model(*cfg, flint::model::ReliabilityParams{});
    const uint64_t disturbs[] = {0,
                                 cfg->disturb_limit / 10,
                                 cfg->disturb_limit / 2,
                                 cfg->disturb_limit - cfg->disturb_limit / 16,
                                 cfg->disturb_limit,
                                 2 * cfg->disturb_limit};
    const uint64_t ages[] = {0, cfg->retention_cycles / 365, cfg->retention_cycles / 2,
                             cfg->retention_cycles};
    const uint64_t wears[] = {0, cfg->pe_limit / 3, cfg->pe_limit / 2, cfg->pe_limit};
    for (uint64_t d : disturbs) {
      for (uint64_t a : ages) {
        for (uint64_t c : wears) {
          std::printf("%.*s %" PRIu64 " %" PRIu64 " %" PRIu64 " %.17g\n",
                      static_cast<int>(cfg->name.size()), cfg->name.data(), d, a, c,
                      model.Rber(d, a, c));
        }
      }
    }
  }
  return 0;
}
