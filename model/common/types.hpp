// C++ mirrors of the configuration-independent types of rtl/flint_pkg.sv.
#pragma once
#include <cstdint>
#include <string_view>

namespace flint {

// Status of an accelerator response; values equal flint_pkg::status_e.
enum class Status : uint8_t {
  kOk = 0,
  kCorrected = 1,
  kUncorrectable = 2,
  kOutOfRange = 3,
  kNotLoaded = 4,
};
inline constexpr unsigned kStatusWidth = 3;

std::string_view ToString(Status s);

}  // namespace flint
