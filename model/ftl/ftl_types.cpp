#include "model/ftl/ftl_types.hpp"

namespace flint {

std::string_view ToString(RelocCmd c) {
  switch (c) {
    case RelocCmd::kAlloc: return "alloc";
    case RelocCmd::kCommit: return "commit";
    case RelocCmd::kRelease: return "release";
    case RelocCmd::kMarkBad: return "mark_bad";
    case RelocCmd::kQuery: return "query";
  }
  return "invalid";
}

std::string_view ToString(FtlStatus s) {
  switch (s) {
    case FtlStatus::kOk: return "ok";
    case FtlStatus::kOutOfRange: return "out_of_range";
    case FtlStatus::kNoFree: return "no_free";
    case FtlStatus::kBusy: return "busy";
    case FtlStatus::kWrongState: return "wrong_state";
  }
  return "invalid";
}

std::string_view ToString(BlockState s) {
  switch (s) {
    case BlockState::kFree: return "free";
    case BlockState::kMapped: return "mapped";
    case BlockState::kReserved: return "reserved";
    case BlockState::kVacated: return "vacated";
    case BlockState::kBad: return "bad";
  }
  return "invalid";
}

}  // namespace flint
