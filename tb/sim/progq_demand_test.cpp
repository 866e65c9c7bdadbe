// The transaction-level program-queue demand model (sim/studies/progq_demand): conservation, the
// program bound, Little's law, the fork reserve, the steal's cost and pace, and the finding the
// area report's sizing rests on (docs/progq_demand.md), as properties that can fail.
#include <catch2/catch.hpp>
#include <stdexcept>

#include "flint_config.hpp"
#include "sim/studies/progq_demand.hpp"
#include "sim/workload/workload_gen.hpp"

namespace {

namespace s = flint::sim;
using flint::kPaperConfig;

s::DecodeGenerator Gen(const char* model) {
  s::DecodeOptions o;
  o.steps = 64;
  const s::ModelShape* m = s::FindModel(model);
  REQUIRE(m != nullptr);
  return s::DecodeGenerator(*m, kPaperConfig, o);
}

uint64_t Xfer() {
  return (kPaperConfig.page_bytes + kPaperConfig.die_io_bytes_per_cycle - 1) /
         kPaperConfig.die_io_bytes_per_cycle;
}

// The copy cannot beat the phantom's program rate.
double ProgramBound(const s::ProgqDemandResult& r) {
  return static_cast<double>(r.live_blocks * kPaperConfig.pages *
                             (kPaperConfig.t_prog_cycles + Xfer()));
}

void RequireConsistent(const s::ProgqDemandResult& r, uint32_t k) {
  INFO("taken " << r.taken() << " released " << r.released << " programmed " << r.programmed
                << " copies " << r.copies << " peak " << r.peak_occupancy);
  // Every page taken is released or still holds a slot; nothing is lost or made up.
  REQUIRE(r.released == r.programmed);
  REQUIRE(r.taken() >= r.released);
  REQUIRE(r.taken() - r.released <= k);
  REQUIRE(r.peak_occupancy <= k);
  // A completed copy programmed every page of every live block.
  const uint64_t per_copy = r.live_blocks * kPaperConfig.pages;
  REQUIRE(r.programmed >= r.copies * per_copy);
  REQUIRE(r.programmed < (r.copies + 1) * per_copy);
  REQUIRE(r.forks_offered == r.forks_taken + r.forks_dropped);
  // Little's law on the measured occupancy, arrivals and residence.
  if (r.released > 1000) {
    const double l = r.mean_occupancy();
    const double lw = r.arrival_per_cycle() * r.mean_residence_cycles();
    REQUIRE(lw == Approx(l).epsilon(0.01));
  }
  if (r.copies > 0) {
    REQUIRE(static_cast<double>(r.copy_cycles_sum) / static_cast<double>(r.copies) >=
            ProgramBound(r));
  }
}

}  // namespace

TEST_CASE("progq demand: at saturation the as-built scrubber never runs and forks stall",
          "[sim][progq_demand][directed]") {
  // The weights' first pages of every block (embeddings, routed experts) are not read in page
  // order, so the in-order fork stops at once; with no idle time the scrubber never starts.
  const s::DecodeGenerator gen = Gen("deepseek-v3");
  s::ProgqDemandOptions o;
  o.queue_pages = 128;
  o.scrub = s::ScrubPolicy::kIdleOnly;
  o.copies = 1;
  o.max_cycles = 400'000'000;  // 0.4 s: five times the copy's program-bound share of it
  const s::ProgqDemandResult r = s::RunProgqDemand(gen, kPaperConfig, o);
  RequireConsistent(r, o.queue_pages);
  REQUIRE(r.copies == 0);
  REQUIRE(r.scrubbed_idle + r.scrubbed_stolen == 0);
  REQUIRE(r.stall_cycles == 0);
  REQUIRE(r.forks_taken < 100);  // of the 40 blocks x 1024 pages a copy needs
}

TEST_CASE("progq demand: a just-in-time steal copies at the program rate with 2 slots",
          "[sim][progq_demand][directed]") {
  const s::DecodeGenerator gen = Gen("llama-3.1-405b");
  s::ProgqDemandOptions o;
  o.queue_pages = 2;
  o.scrub = s::ScrubPolicy::kSteal;
  o.copies = 2;
  const s::ProgqDemandResult r = s::RunProgqDemand(gen, kPaperConfig, o);
  RequireConsistent(r, o.queue_pages);
  REQUIRE(r.copies == 2);
  const double mean_copy = static_cast<double>(r.copy_cycles_sum) / 2.0;
  REQUIRE(mean_copy < 1.05 * ProgramBound(r));
  // Each stolen read stalls the stack for exactly one burst period, and nothing else does.
  REQUIRE(r.stall_cycles == r.scrubbed_stolen * kPaperConfig.burst_period_cycles);
  REQUIRE(r.scrubbed_stolen > 0);
  REQUIRE(r.scrubbed_idle == 0);
  // The stall is the sense cost of the pages the forks did not supply: one period a page.
  const double pages = static_cast<double>(r.scrubbed_stolen);
  REQUIRE(r.stall_fraction() ==
          Approx(pages * static_cast<double>(kPaperConfig.burst_period_cycles) /
                 static_cast<double>(r.foreground_cycles)));
  REQUIRE(r.mean_occupancy() < 0.5);  // a page waits about one read, not in a queue
  // The scrubber's cursor turns over the blocks, so it takes each block's cold first pages
  // early and the dense model's in-order reads fork a good share of the rest.
  REQUIRE(r.forks_taken * 5 > r.programmed);
}

TEST_CASE("progq demand: the pace stretches the copy and lowers the stall",
          "[sim][progq_demand][directed]") {
  const s::DecodeGenerator gen = Gen("deepseek-v3");
  s::ProgqDemandOptions o;
  o.queue_pages = 3;
  o.scrub = s::ScrubPolicy::kSteal;
  o.copies = 2;
  o.pace = 1.0;
  const s::ProgqDemandResult fast = s::RunProgqDemand(gen, kPaperConfig, o);
  o.pace = 1.25;
  const s::ProgqDemandResult slow = s::RunProgqDemand(gen, kPaperConfig, o);
  RequireConsistent(fast, 3);
  RequireConsistent(slow, 3);
  const double copy_fast = static_cast<double>(fast.copy_cycles_sum) / 2.0;
  const double copy_slow = static_cast<double>(slow.copy_cycles_sum) / 2.0;
  REQUIRE(copy_slow == Approx(1.25 * ProgramBound(slow)).epsilon(0.02));
  REQUIRE(copy_fast < 1.05 * ProgramBound(fast));
  REQUIRE(slow.stall_fraction() < fast.stall_fraction());
}

TEST_CASE("progq demand: idle time feeds the queue; a deeper queue then steals less",
          "[sim][progq_demand][directed]") {
  const s::DecodeGenerator gen = Gen("deepseek-v3");
  s::ProgqDemandOptions o;
  o.scrub = s::ScrubPolicy::kSteal;
  o.idle_fraction = 0.1;
  o.copies = 2;
  o.pace = 1.1;
  uint64_t last_stolen = UINT64_MAX;
  for (uint32_t k : {2u, 16u, 64u, 128u}) {
    o.queue_pages = k;
    const s::ProgqDemandResult r = s::RunProgqDemand(gen, kPaperConfig, o);
    INFO("K = " << k);
    RequireConsistent(r, k);
    REQUIRE(r.copies == 2);
    REQUIRE(r.scrubbed_idle > 0);
    REQUIRE(r.scrubbed_stolen < last_stolen);
    last_stolen = r.scrubbed_stolen;
  }
  // 128 pages cover a DeepSeek-V3 step (4.7 ms, 93 programs) from one gap: no steal is needed.
  REQUIRE(last_stolen * 100 < o.copies * 40 * kPaperConfig.pages);
}

TEST_CASE("progq demand: one slot is the fork's reserve, so the scrubber never opens one",
          "[sim][progq_demand][directed]") {
  const s::DecodeGenerator gen = Gen("deepseek-v3");
  s::ProgqDemandOptions o;
  o.queue_pages = 1;
  o.scrub = s::ScrubPolicy::kSteal;
  o.idle_fraction = 0.2;
  o.copies = 1;
  o.max_cycles = 100'000'000;
  const s::ProgqDemandResult r = s::RunProgqDemand(gen, kPaperConfig, o);
  RequireConsistent(r, 1);
  REQUIRE(r.scrubbed_idle + r.scrubbed_stolen == 0);
  REQUIRE(r.copies == 0);
}

TEST_CASE("progq demand: bad options are refused", "[sim][progq_demand][directed]") {
  const s::DecodeGenerator gen = Gen("deepseek-v3");
  s::ProgqDemandOptions o;
  o.queue_pages = 4;
  o.copies = 1;
  s::ProgqDemandOptions bad = o;
  bad.queue_pages = 0;
  REQUIRE_THROWS_AS(s::RunProgqDemand(gen, kPaperConfig, bad), std::invalid_argument);
  bad = o;
  bad.copies = 0;
  REQUIRE_THROWS_AS(s::RunProgqDemand(gen, kPaperConfig, bad), std::invalid_argument);
  bad = o;
  bad.idle_fraction = 1.0;
  REQUIRE_THROWS_AS(s::RunProgqDemand(gen, kPaperConfig, bad), std::invalid_argument);
  bad = o;
  bad.pace = 0.9;
  REQUIRE_THROWS_AS(s::RunProgqDemand(gen, kPaperConfig, bad), std::invalid_argument);
  bad = o;
  bad.stack = 99;
  REQUIRE_THROWS_AS(s::RunProgqDemand(gen, kPaperConfig, bad), std::out_of_range);
  REQUIRE(s::ParseScrubPolicy("steal") == s::ScrubPolicy::kSteal);
  REQUIRE_THROWS_AS(s::ParseScrubPolicy("sometimes"), std::invalid_argument);
}
