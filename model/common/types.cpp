#include "model/common/types.hpp"

namespace flint {

std::string_view ToString(Status s) {
  switch (s) {
    case Status::kOk: return "ok";
    case Status::kCorrected: return "corrected";
    case Status::kUncorrectable: return "uncorrectable";
    case Status::kOutOfRange: return "out_of_range";
    case Status::kNotLoaded: return "not_loaded";
  }
  return "invalid";
}

}  // namespace flint
