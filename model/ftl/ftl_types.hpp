// C++ mirrors of the FTL types of rtl/flint_pkg.sv (reloc_cmd_e, ftl_status_e, blk_state_e);
// the values equal the SV enum values.
#pragma once
#include <cstdint>
#include <string_view>

namespace flint {

// Command of the relocation table's command port.
enum class RelocCmd : uint8_t {
  kAlloc = 0,
  kCommit = 1,
  kRelease = 2,
  kMarkBad = 3,
  kQuery = 4,
};

// Outcome of a relocation-table command.
enum class FtlStatus : uint8_t {
  kOk = 0,
  kOutOfRange = 1,
  kNoFree = 2,
  kBusy = 3,
  kWrongState = 4,
};

// State of one physical block in the relocation table.
enum class BlockState : uint8_t {
  kFree = 0,
  kMapped = 1,
  kReserved = 2,
  kVacated = 3,
  kBad = 4,
};

std::string_view ToString(RelocCmd c);
std::string_view ToString(FtlStatus s);
std::string_view ToString(BlockState s);

}  // namespace flint
