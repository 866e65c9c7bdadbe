// The studies' rotation on the refresh model (sim/studies/model_rotation): the order of the
// planes it copies, and that a study whose bookkeeping breaks the rotation's rules is stopped.
#include "sim/studies/model_rotation.hpp"

#include <catch2/catch.hpp>
#include <stdexcept>

#include "flint_config.hpp"

namespace {

using flint::kPaperConfig;
using flint::kSmallConfig;
using flint::sim::ModelRotation;

// Every page of every live block, in order.
void CopyAll(ModelRotation& rot, uint32_t live, uint32_t pages) {
  for (uint32_t b = 0; b < live; ++b) {
    for (uint32_t p = 0; p < pages; ++p) rot.Program(b, p);
  }
}

}  // namespace

TEST_CASE("model rotation: logical planes in turn, the vacated plane the next phantom",
          "[sim][rotation]") {
  const auto& cfg = kSmallConfig;
  const uint32_t live = 3, pages = static_cast<uint32_t>(cfg.pages);
  ModelRotation rot(cfg, live);
  const uint32_t planes = static_cast<uint32_t>(cfg.planes);
  REQUIRE(rot.phantom() == planes);  // the extra plane starts as the phantom
  for (uint32_t step = 0; step < 3 * (planes + 1); ++step) {
    INFO("step " << step);
    const uint32_t p = rot.phantom();
    // The copy refreshes the logical planes in turn (the studies' old "copies % planes").
    REQUIRE(rot.StartStep() == step % planes);
    REQUIRE(rot.source() != p);
    // Round robin over the physical planes other than the phantom.
    REQUIRE(rot.source() ==
            (step == 0 ? 0u : (rot.model().sources()[step - 1] + 1) % (planes + 1)));
    CopyAll(rot, live, pages);
    const uint32_t s = rot.source();
    rot.EndStep();
    REQUIRE(rot.phantom() == s);
    REQUIRE(rot.model().rotations() == step + 1);
  }
  REQUIRE(rot.model().programmed() == 3ull * (planes + 1) * live * pages);
  REQUIRE(rot.model().erased() == 3ull * (planes + 1) * live);
  REQUIRE(rot.model().table().CheckInvariants().empty());
}

TEST_CASE("model rotation: pages out of order, twice, or a step ended early are refused",
          "[sim][rotation]") {
  const auto& cfg = kSmallConfig;
  const uint32_t live = 2, pages = static_cast<uint32_t>(cfg.pages);
  SECTION("a page before its predecessor") {
    ModelRotation rot(cfg, live);
    rot.StartStep();
    rot.Program(0, 0);
    REQUIRE_THROWS_AS(rot.Program(0, 2), std::logic_error);
  }
  SECTION("a page twice") {
    ModelRotation rot(cfg, live);
    rot.StartStep();
    rot.Program(1, 0);
    REQUIRE_THROWS_WITH(rot.Program(1, 0), Catch::Contains("expects page 1"));
  }
  SECTION("the step ended before the copy") {
    ModelRotation rot(cfg, live);
    rot.StartStep();
    CopyAll(rot, live - 1, pages);
    REQUIRE_THROWS_WITH(rot.EndStep(), Catch::Contains("before the copy ends"));
  }
  SECTION("a scrub read of a page already programmed") {
    ModelRotation rot(cfg, live);
    rot.StartStep();
    rot.ScrubRead(0, 0);
    rot.Program(0, 0);
    REQUIRE_THROWS_WITH(rot.ScrubRead(0, 0), Catch::Contains("programmed already"));
  }
  SECTION("a step inside a step") {
    ModelRotation rot(cfg, live);
    rot.StartStep();
    REQUIRE_THROWS_AS(rot.StartStep(), std::logic_error);
  }
  SECTION("more live blocks than a plane has") {
    REQUIRE_THROWS_AS(ModelRotation(cfg, static_cast<uint32_t>(cfg.blocks) + 1),
                      std::invalid_argument);
  }
}

TEST_CASE("model rotation: a whole pass at paper", "[sim][rotation]") {
  const auto& cfg = kPaperConfig;
  const uint32_t live = 40, pages = static_cast<uint32_t>(cfg.pages);
  const uint32_t planes = static_cast<uint32_t>(cfg.planes);
  ModelRotation rot(cfg, live);
  for (uint32_t step = 0; step <= planes; ++step) {
    REQUIRE(rot.StartStep() == step % planes);
    CopyAll(rot, live, pages);
    rot.EndStep();
  }
  // A whole pass: every physical plane a source once, the extra one last.
  REQUIRE(rot.model().rotations() == planes + 1);
  REQUIRE(rot.phantom() == planes);
  REQUIRE(rot.model().table().CheckInvariants().empty());
}
