// Seeds, replay commands, wave and coverage settings shared by every testbench.
#pragma once
#include <cstdint>
#include <string>

namespace flint::tb {

// The seed of a random test: FLINT_SEED if set, else Catch2's --rng-seed, else 1.
uint32_t TestSeed();

// Name of the running Catch2 test case (for wave file names and replay commands).
std::string CurrentTestName();

// The one command that replays the current test with this seed and an FST waveform.
std::string ReplayCommand(uint32_t seed);

// True when FLINT_WAVES=1: harnesses then dump an FST and a GTKWave save file.
bool WavesRequested();

// build/waves/<sanitised test name>, without extension; creates the folder.
std::string WavePathStem();

// True when FLINT_COVERAGE=<dir> names a folder: harnesses then write their DUT's coverage
// there when they end (make coverage, scripts/coverage.py). Read once per process.
bool CoverageRequested();

// A new file under the FLINT_COVERAGE folder for one harness's coverage:
// <sanitised test name>.<pid>.<n>.dat, n counting the harnesses of this process; creates the
// folder.
std::string CoveragePath();

}  // namespace flint::tb
