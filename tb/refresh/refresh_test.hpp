// The Catch2 pieces the refresh benches' tests share (refresh_die_test.cpp,
// inplace_die_test.cpp): run a bench to a condition with its first divergence shown, and the end
// of every test.
#pragma once
#include <catch2/catch.hpp>

// Runs the bench until `run` (a RunUntil-style call returning false on a divergence or a timeout)
// returns, the first divergence shown if it fails.
#define REQUIRE_RUN(b, run) \
  do {                      \
    const bool ok_ = (run); \
    INFO((b).Error());      \
    REQUIRE(ok_);           \
  } while (0)

namespace flint::tb {

// The end of every test: no divergence, no RTL assertion.
template <class B>
void FinishBench(B& b) {
  INFO(b.Error());
  CHECK(b.Error().empty());
  CHECK_FALSE(b.RtlFailed());
}

}  // namespace flint::tb
