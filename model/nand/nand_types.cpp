#include "model/nand/nand_types.hpp"

#include <sstream>

namespace flint::model {

std::string_view ToString(NandCmd cmd) {
  switch (cmd) {
    case NandCmd::kRead: return "Read";
    case NandCmd::kCacheRead: return "CacheRead";
    case NandCmd::kCacheEnd: return "CacheEnd";
    case NandCmd::kDataOut: return "DataOut";
    case NandCmd::kProgram: return "Program";
    case NandCmd::kErase: return "Erase";
  }
  return "invalid";
}

std::string_view ToString(BadBlock b) {
  switch (b) {
    case BadBlock::kGood: return "good";
    case BadBlock::kFactory: return "factory-bad";
    case BadBlock::kMarked: return "marked-bad";
    case BadBlock::kWornOut: return "worn-out";
    case BadBlock::kProgramFail: return "program-failed";
    case BadBlock::kEraseFail: return "erase-failed";
  }
  return "invalid";
}

std::string_view ToString(NandErrorCode code) {
  switch (code) {
    case NandErrorCode::kPlaneBusy: return "plane_busy";
    case NandErrorCode::kCacheBusy: return "cache_busy";
    case NandErrorCode::kIoBusy: return "io_busy";
    case NandErrorCode::kOutOfRange: return "out_of_range";
    case NandErrorCode::kNotErased: return "not_erased";
    case NandErrorCode::kOutOfOrder: return "out_of_order";
    case NandErrorCode::kCacheEmpty: return "cache_empty";
    case NandErrorCode::kPageBufferEmpty: return "page_buffer_empty";
    case NandErrorCode::kBadBlock: return "bad_block";
    case NandErrorCode::kDuplicatePlane: return "duplicate_plane";
    case NandErrorCode::kBadArgument: return "bad_argument";
    case NandErrorCode::kTimeReversal: return "time_reversal";
  }
  return "invalid";
}

namespace {

std::string Format(NandErrorCode code, uint32_t die, NandCmd cmd, int64_t plane, int64_t block,
                   int64_t page, uint64_t cycle, const std::string& what) {
  std::ostringstream s;
  s << "nand die " << die << ": " << ToString(cmd);
  if (plane >= 0) s << " plane " << plane;
  if (block >= 0) s << " block " << block;
  if (page >= 0) s << " page " << page;
  s << " at cycle " << cycle << ": " << ToString(code) << ": " << what;
  return s.str();
}

}  // namespace

NandError::NandError(NandErrorCode code, uint32_t die, NandCmd cmd, int64_t plane, int64_t block,
                     int64_t page, uint64_t cycle, const std::string& what)
    : std::runtime_error(Format(code, die, cmd, plane, block, page, cycle, what)),
      code_(code),
      cmd_(cmd),
      plane_(plane),
      block_(block),
      page_(page),
      cycle_(cycle) {}

}  // namespace flint::model
