#include "tb/common/seed.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

namespace flint::tb {

uint32_t TestSeed() {
  if (const char* env = std::getenv("FLINT_SEED"); env != nullptr && *env != '\0') {
    return static_cast<uint32_t>(std::strtoul(env, nullptr, 0));
  }
  const uint32_t catch_seed = Catch::rngSeed();
  return catch_seed != 0 ? catch_seed : 1u;
}

std::string CurrentTestName() {
  return Catch::getResultCapture().getCurrentTestName();
}

std::string ReplayCommand(uint32_t seed) {
  return "seed " + std::to_string(seed) + "; replay with waves: make waves TEST='" +
         CurrentTestName() + "' SEED=" + std::to_string(seed);
}

bool WavesRequested() {
  const char* env = std::getenv("FLINT_WAVES");
  return env != nullptr && std::string(env) == "1";
}

namespace {

std::string SanitisedTestName() {
  std::string name = CurrentTestName();
  for (char& ch : name) {
    const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                      (ch >= '0' && ch <= '9') || ch == '-' || ch == '_';
    if (!keep) ch = '_';
  }
  return name;
}

const std::string& CoverageDir() {
  static const std::string dir = [] {
    const char* env = std::getenv("FLINT_COVERAGE");
    return std::string(env != nullptr ? env : "");
  }();
  return dir;
}

}  // namespace

std::string WavePathStem() {
  const std::filesystem::path dir = std::filesystem::path(FLINT_BINARY_DIR) / "waves";
  std::filesystem::create_directories(dir);
  return (dir / SanitisedTestName()).string();
}

bool CoverageRequested() { return !CoverageDir().empty(); }

std::string CoveragePath() {
  static int harnesses = 0;
  const std::filesystem::path dir(CoverageDir());
  std::filesystem::create_directories(dir);
  // Long test names are cut so the file name stays well under the usual 255-byte limit.
  const std::string file = SanitisedTestName().substr(0, 160) + "." + std::to_string(::getpid()) + "." +
                           std::to_string(harnesses++) + ".dat";
  return (dir / file).string();
}

}  // namespace flint::tb
