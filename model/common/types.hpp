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

// Why a refresh die halted (flint_pkg::refresh_err_e; its err_code_o, RefreshErrNone while err_o
// is low).
enum class RefreshErr : uint8_t {
  kNone = 0,
  kReloc = 1,    // the relocation table refused a command (in place: the sequencer a read)
  kProgram = 2,  // a program failed
  kErase = 3,    // an erase failed
  kSource = 4,   // the source plane is not one whole logical plane
  kNoSpare = 5,  // no free block on the phantom plane
};

// The NAND maintenance sequencer's transactions (flint_pkg::maint_op_e, maint_status_e,
// maint_req_t, maint_rsp_t; rtl/nand/flint_maint_seq.sv, docs/nand_seq.md). Pack() / Unpack()
// put the first SV field at the MSB, as a packed struct does.
enum class MaintOp : uint8_t { kReadPage = 0, kProgramPage = 1, kEraseBlock = 2 };

enum class MaintStatus : uint8_t {
  kOk = 0,
  kCorrected = 1,      // ReadPage: a line corrected, none uncorrectable
  kUncorrectable = 2,  // ReadPage: a line uncorrectable
  kProgramFail = 3,
  kEraseFail = 4,
  kBadAddress = 5,  // past the die's geometry: nothing issued
  kBadOp = 6,       // an op none of the three: nothing issued
};

inline constexpr uint32_t kMaintOpBits = 2;
inline constexpr uint32_t kMaintStatusBits = 3;
inline constexpr uint32_t kMaintPlaneBits = 8;
inline constexpr uint32_t kMaintBlockBits = 16;
inline constexpr uint32_t kMaintPageBits = 16;
inline constexpr uint32_t kMaintTagBits = 8;  // flint_pkg::MaintTagBits: the first field
inline constexpr uint32_t kMaintClientIdBits = 1;  // flint_pkg::MaintClientIdBits (flint_maint_arb)
inline constexpr uint32_t kMaintReqBits =
    kMaintTagBits + kMaintOpBits + kMaintPlaneBits + kMaintBlockBits + kMaintPageBits;
inline constexpr uint32_t kMaintRspBits = kMaintReqBits + kMaintStatusBits;

namespace maint_detail {
inline constexpr uint64_t Mask(uint32_t bits) { return (uint64_t{1} << bits) - 1; }
// plane, block, page: the low fields of both structs.
inline constexpr uint64_t PackAddr(uint32_t plane, uint32_t block, uint32_t page) {
  return ((plane & Mask(kMaintPlaneBits)) << (kMaintBlockBits + kMaintPageBits)) |
         ((block & Mask(kMaintBlockBits)) << kMaintPageBits) | (page & Mask(kMaintPageBits));
}
}  // namespace maint_detail

struct MaintReq {
  MaintOp op = MaintOp::kReadPage;
  uint32_t plane = 0, block = 0, page = 0;
  uint32_t tag = 0;  // echoed in the response (program and erase responses come out of order)

  uint64_t Pack() const {
    using maint_detail::Mask;
    constexpr uint32_t addr = kMaintPlaneBits + kMaintBlockBits + kMaintPageBits;
    return ((static_cast<uint64_t>(tag) & Mask(kMaintTagBits)) << (addr + kMaintOpBits)) |
           ((static_cast<uint64_t>(op) & Mask(kMaintOpBits)) << addr) |
           maint_detail::PackAddr(plane, block, page);
  }
  static MaintReq Unpack(uint64_t v) {
    using maint_detail::Mask;
    MaintReq r;
    r.page = static_cast<uint32_t>(v & Mask(kMaintPageBits));
    r.block = static_cast<uint32_t>((v >> kMaintPageBits) & Mask(kMaintBlockBits));
    r.plane =
        static_cast<uint32_t>((v >> (kMaintPageBits + kMaintBlockBits)) & Mask(kMaintPlaneBits));
    r.op = static_cast<MaintOp>((v >> (kMaintPageBits + kMaintBlockBits + kMaintPlaneBits)) &
                                Mask(kMaintOpBits));
    r.tag = static_cast<uint32_t>(
        (v >> (kMaintPageBits + kMaintBlockBits + kMaintPlaneBits + kMaintOpBits)) &
        Mask(kMaintTagBits));
    return r;
  }
};

struct MaintRsp {
  MaintOp op = MaintOp::kReadPage;
  MaintStatus status = MaintStatus::kOk;
  uint32_t plane = 0, block = 0, page = 0;
  uint32_t tag = 0;  // the request's

  uint64_t Pack() const {
    using maint_detail::Mask;
    constexpr uint32_t addr = kMaintPlaneBits + kMaintBlockBits + kMaintPageBits;
    return ((static_cast<uint64_t>(tag) & Mask(kMaintTagBits))
            << (addr + kMaintStatusBits + kMaintOpBits)) |
           ((static_cast<uint64_t>(op) & Mask(kMaintOpBits)) << (addr + kMaintStatusBits)) |
           ((static_cast<uint64_t>(status) & Mask(kMaintStatusBits)) << addr) |
           maint_detail::PackAddr(plane, block, page);
  }
  static MaintRsp Unpack(uint64_t v) {
    using maint_detail::Mask;
    constexpr uint32_t addr = kMaintPlaneBits + kMaintBlockBits + kMaintPageBits;
    const MaintReq a = MaintReq::Unpack(v & Mask(addr));
    MaintRsp r;
    r.plane = a.plane;
    r.block = a.block;
    r.page = a.page;
    r.status = static_cast<MaintStatus>((v >> addr) & Mask(kMaintStatusBits));
    r.op = static_cast<MaintOp>((v >> (addr + kMaintStatusBits)) & Mask(kMaintOpBits));
    r.tag = static_cast<uint32_t>((v >> (addr + kMaintStatusBits + kMaintOpBits)) &
                                  Mask(kMaintTagBits));
    return r;
  }
};

}  // namespace flint
