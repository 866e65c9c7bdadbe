// Types of the NAND die model (docs/nand_model.md): commands, addresses, page tags, content
// descriptors, results and the typed error every illegal command raises.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace flint::model {

// Opcodes of the die's command port. Values equal flint_pkg::nand_cmd_e (rtl/flint_pkg.sv); a
// test reads the SV file and checks that they still agree.
enum class NandCmd : uint8_t {
  kRead = 0,       // multi-plane sense into the page buffers (00h-30h)
  kCacheRead = 1,  // page buffer -> cache buffer, then sense the next page (31h)
  kCacheEnd = 2,   // page buffer -> cache buffer, no new sense (3Fh)
  kDataOut = 3,    // stream bytes of one plane's cache buffer over the die I/O
  kProgram = 4,    // program one page of one plane
  kErase = 5,      // erase one block of one plane
};
inline constexpr unsigned kNandCmdWidth = 3;
std::string_view ToString(NandCmd cmd);

// One plane of a multi-plane command and the block it addresses there (independent plane
// addressing: each plane its own block, DESIGN.md 6.5).
struct PlaneBlock {
  uint32_t plane = 0;  // physical plane, 0 .. phys_planes-1
  uint32_t block = 0;
};

struct PageAddr {
  uint32_t plane = 0;
  uint32_t block = 0;
  uint32_t page = 0;
};

// What was programmed into a page: slice `slice` of logical burst `burst`, of weight load
// `generation`. The bytes are a pure function of the tag (page_content.hpp), so a refresh copy
// that keeps the tag holds the same bytes. Consecutive pages of a block loaded in order carry
// consecutive bursts (burst b at page b mod PAGES) and the same slice and generation.
struct PageTag {
  uint64_t burst = 0;
  uint32_t slice = 0;
  uint32_t generation = 0;

  // The tag `k` pages further along a block loaded in order.
  PageTag Plus(uint64_t k) const { return PageTag{burst + k, slice, generation}; }
  friend bool operator==(const PageTag& a, const PageTag& b) {
    return a.burst == b.burst && a.slice == b.slice && a.generation == b.generation;
  }
  friend bool operator!=(const PageTag& a, const PageTag& b) { return !(a == b); }
};

// Where a page's bytes come from. Buffers and overrides hold this descriptor, not the bytes.
enum class ContentKind : uint8_t {
  kErased = 0,     // every bit 1: data and check bytes read 0xFF
  kTagged = 1,     // data = TagBytes(tag), each word followed by the die's spare function of it
  kBytes = 2,      // an explicit interleaved image (the RTL write path), stored sparsely
  kGarbage = 3,    // a failed program left undefined charge: seeded noise
  kBadMarker = 4,  // a factory-bad block: every byte reads 0x00 (the marker a scan looks for)
};

struct PageImage {
  ContentKind kind = ContentKind::kErased;
  PageTag tag{};                                         // kTagged
  uint64_t garbage_seed = 0;                             // kGarbage
  std::shared_ptr<const std::vector<uint8_t>> bytes;     // kBytes: page_image_bytes, interleaved
  std::shared_ptr<const std::vector<uint32_t>> corrupt;  // flipped image bits stored in the cells
};

// A page as it sits in a page or cache buffer: which page, what it held when sensed, and the
// raw bit errors of this sense (positions are drawn at data-out, docs/nand_model.md).
struct SensedPage {
  PageAddr addr;
  PageImage image;
  uint64_t sense_index = 0;   // the block's sense count including this one (read disturb)
  uint64_t sensed_at = 0;     // cycle the sense completes
  double rber = 0.0;          // raw bit error rate the error model gave for this sense
  uint32_t flip_count = 0;    // raw bit errors of this sense over the whole image
  uint64_t flip_key = 0;      // per-sense seed of the count
  uint64_t position_key = 0;  // per-program seed of the positions (errors persist across senses)

  // Raw bit errors this buffer will show at data-out: sense errors plus stored corruption.
  uint32_t BitErrors() const {
    return flip_count + (image.corrupt ? static_cast<uint32_t>(image.corrupt->size()) : 0u);
  }
};

// Why a block is bad. Anything but kGood refuses program and erase.
enum class BadBlock : uint8_t {
  kGood = 0,
  kFactory = 1,      // marked at manufacture (factory_bad_block_ppm, seeded)
  kMarked = 2,       // marked by MarkBad() (tests, a controller's retirement)
  kWornOut = 3,      // an erase or program past the P/E budget failed
  kProgramFail = 4,  // an injected program failure
  kEraseFail = 5,    // an injected erase failure
};
std::string_view ToString(BadBlock b);

// A fault a test arms on a block: the next operation of that kind fails with status FAIL.
enum class Fault : uint8_t { kProgramFail = 0, kEraseFail = 1 };

// Result of a program or erase: pass/fail as the status register reports it once done.
struct OpResult {
  bool pass = true;
  uint64_t done_at = 0;  // cycle the plane is ready again
};

// Timing of a cache-buffer move (CacheRead / CacheEnd).
struct CacheMove {
  uint64_t cache_ready_at = 0;  // the moved page can be read out from this cycle
  uint64_t array_ready_at = 0;  // the plane takes its next command from this cycle
};

// The status register of one plane (ONFI SR: RDY, ARDY, FAIL).
struct PlaneStatus {
  bool ready = false;        // array and cache buffer idle: any command may be issued
  bool array_ready = false;  // no sense, program or erase in progress
  bool fail = false;         // the last program or erase of this plane failed (valid when ready)
};

// One command as the RTL's NAND port presents it, for NandDie::Apply.
struct NandCommand {
  NandCmd op = NandCmd::kRead;
  std::vector<PlaneBlock> targets;  // Read/CacheRead: planes and blocks; CacheEnd: planes;
                                    // DataOut/Program/Erase: exactly one
  uint32_t page = 0;                // Read/CacheRead/Program
  uint32_t offset = 0;              // DataOut: first image byte (codeword w at 9w)
  uint32_t nbytes = 0;              // DataOut: image bytes
  std::vector<uint8_t> data;        // Program: page_bytes of data (check bytes computed) or
                                    // page_image_bytes of interleaved image (stored as given)
};

struct NandResponse {
  uint64_t done_at = 0;       // cycle the command's effect completes
  bool pass = true;           // Program/Erase status
  std::vector<uint8_t> data;  // DataOut bytes
};

// Counters of work done, from which energy follows (paper Table 2 figures via the config).
struct NandCounters {
  uint64_t read_cmds = 0;
  uint64_t cache_read_cmds = 0;
  uint64_t cache_end_cmds = 0;
  uint64_t data_out_cmds = 0;
  uint64_t program_cmds = 0;  // single-page programs plus pages of block programs
  uint64_t erase_cmds = 0;
  uint64_t senses = 0;        // page senses (one per plane of a multi-plane read)
  uint64_t cache_xfers = 0;   // page buffer -> cache buffer moves
  uint64_t sensed_bytes = 0;  // page image bytes sensed (data + check)
  uint64_t out_bytes = 0;     // image bytes moved over the die I/O by DataOut
  uint64_t programmed_bytes = 0;
  uint64_t program_fails = 0;
  uint64_t erase_fails = 0;
};

struct NandEnergy {
  double read_pj = 0.0;     // sensed bits x read_pj_per_bit
  double program_pj = 0.0;  // programmed bits x prog_pj_per_bit
  double erase_pj = 0.0;    // erases x erase_nj_per_block
  double TotalPj() const { return read_pj + program_pj + erase_pj; }
};

// Every way a command can be illegal. Each raises NandError; none is a silent no-op.
enum class NandErrorCode : uint8_t {
  kPlaneBusy = 0,        // sense, program, erase or cache move in progress on the plane
  kCacheBusy = 1,        // cache buffer still filling, or being read out over the I/O
  kIoBusy = 2,           // the die's shared I/O is moving other data
  kOutOfRange = 3,       // plane, block, page or byte range outside the die
  kNotErased = 4,        // program of a page already programmed since the last erase
  kOutOfOrder = 5,       // program skips pages: a block is programmed in page order
  kCacheEmpty = 6,       // data-out from a cache buffer that holds no sensed page
  kPageBufferEmpty = 7,  // cache move with no sensed page in the page buffer
  kBadBlock = 8,         // program or erase of a bad block
  kDuplicatePlane = 9,   // a multi-plane command names a plane twice
  kBadArgument = 10,     // empty target list, zero length, wrong data size, ...
  kTimeReversal = 11,    // a command dated before the previous command
};
std::string_view ToString(NandErrorCode code);

// The typed error of an illegal command: code, where (plane/block/page, -1 when not relevant),
// when (cycle), and a message naming all of them.
class NandError : public std::runtime_error {
 public:
  NandError(NandErrorCode code, uint32_t die, NandCmd cmd, int64_t plane, int64_t block,
            int64_t page, uint64_t cycle, const std::string& what);
  NandErrorCode code() const { return code_; }
  NandCmd cmd() const { return cmd_; }
  int64_t plane() const { return plane_; }
  int64_t block() const { return block_; }
  int64_t page() const { return page_; }
  uint64_t cycle() const { return cycle_; }

 private:
  NandErrorCode code_;
  NandCmd cmd_;
  int64_t plane_, block_, page_;
  uint64_t cycle_;
};

}  // namespace flint::model
