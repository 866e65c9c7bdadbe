// Behavioural model of one HBF NAND die (docs/nand_model.md): phys_planes planes, each with a
// page buffer, a cache buffer and an array of blocks x pages, and one I/O shared by the die.
//
// Event-timed: every command carries the current cycle `now` (non-decreasing from command to
// command) and is checked against the busy state; nothing ticks, so a simulator can skip time.
// The API mirrors the RTL's command port (NandCmd) one call per opcode, plus Apply() taking a
// NandCommand. Every illegal command throws NandError and leaves the die unchanged.
//
// A page is an interleaved image of page_image_bytes (page_content.hpp): codeword w = data word
// w then its check byte at image bytes [9w, 9w+9). DataOut offsets, program images and stored
// corruption all address image bytes.
//
// Timing (cycles, from the config; rate = die_io_bytes_per_cycle, which carries the parity):
//   Read       planes busy tR; the sensed page lands in each page buffer.
//   CacheRead  page buffer -> cache buffer (t_cache_xfer), then the next sense (tR) starts.
//   CacheEnd   page buffer -> cache buffer (t_cache_xfer), no new sense.
//   DataOut    N image bytes of one plane's cache buffer hold the die I/O ceil(N / rate).
//   Program    data-in over the die I/O (page_image_bytes / rate, optional), then tPROG.
//   Erase      tERASE.
#pragma once
#include <cstdint>
#include <vector>

#include "flint_config.hpp"
#include "model/nand/nand_types.hpp"
#include "model/nand/page_content.hpp"
#include "model/nand/reliability.hpp"

namespace flint::model {

struct NandOptions {
  ReliabilityParams reliability{};
  // A program's data-in crosses the die I/O and holds it, as on a real die (one DQ bus). Off:
  // programs need no I/O (a model of a separate write path).
  bool program_data_in_on_io = true;
};

class NandDie {
 public:
  // `seed` drives factory bad blocks and bit errors; `die_index` names the die in errors and
  // decorrelates dies that share a seed. Throws std::invalid_argument for an unusable config.
  NandDie(const Config& cfg, uint32_t die_index, uint64_t seed, const NandOptions& options = {});
  NandDie(NandDie&&) = default;
  NandDie& operator=(NandDie&&) = default;
  NandDie(const NandDie&) = delete;
  NandDie& operator=(const NandDie&) = delete;

  // --- Commands (one per NandCmd opcode) ---------------------------------------------------
  // Multi-plane sense of `page` of each target's own block into its plane's page buffer.
  // Returns the cycle the senses complete.
  uint64_t Read(const std::vector<PlaneBlock>& targets, uint32_t page, uint64_t now);
  // ONFI 31h on every target plane: move the sensed page to the cache buffer and start sensing
  // `page` of the target's block into the page buffer.
  CacheMove CacheRead(const std::vector<PlaneBlock>& targets, uint32_t page, uint64_t now);
  // ONFI 3Fh: move the sensed page to the cache buffer; no new sense.
  CacheMove CacheEnd(const std::vector<uint32_t>& planes, uint64_t now);
  // Image bytes [offset, offset+nbytes) of the plane's cache buffer (cache line k is
  // [k * cl_image_bytes, +cl_image_bytes), its data and check bytes), with this sense's raw bit
  // errors applied. `out` may be null: timing and
  // counters only (the simulator at paper scale). Returns the cycle the I/O is free again.
  // Inline: the BBC model calls it once a cache line. Every check of ThrowDataOut at once.
  uint64_t DataOut(uint32_t plane, uint32_t offset, uint32_t nbytes, uint64_t now, uint8_t* out) {
    if (now < last_cmd_cycle_ || plane >= cfg_.phys_planes || nbytes == 0 ||
        static_cast<uint64_t>(offset) + nbytes > image_bytes_ || !planes_[plane].cache_valid ||
        now < planes_[plane].cache_ready_at || now < io_busy_until_) {
      ThrowDataOut(plane, offset, nbytes, now);
    }
    last_cmd_cycle_ = now;
    if (out != nullptr) ReadOut(planes_[plane], offset, nbytes, out);
    if (nbytes != out_nbytes_) SetOutBytes(nbytes);
    io_busy_until_ = now + out_cycles_;
    io_plane_ = plane;
    ++counters_.data_out_cmds;
    counters_.out_bytes += nbytes;
    return io_busy_until_;
  }
  std::vector<uint8_t> DataOutBytes(uint32_t plane, uint32_t offset, uint32_t nbytes, uint64_t now);
  // Program the next page of a block (pages go in order) with the content of `tag`.
  OpResult ProgramTagged(const PageAddr& addr, const PageTag& tag, uint64_t now);
  // Program with explicit bytes (the RTL write path): page_bytes of data (interleaved with the
  // check bytes the spare function gives) or a whole page_image_bytes image (stored as given).
  OpResult ProgramBytes(const PageAddr& addr, const std::vector<uint8_t>& data, uint64_t now);
  // Fast path for model load: `pages` single-page programs of the next pages with tags base,
  // base+1, ..., in O(1). The plane is busy as for that many programs back to back; only the
  // first data-in is put on the I/O (the others fit between reads: data-in << tPROG). On a
  // failing block it fails like the first of those programs.
  OpResult ProgramBlockTagged(uint32_t plane, uint32_t block, const PageTag& base, uint32_t pages,
                              uint64_t now);
  OpResult Erase(uint32_t plane, uint32_t block, uint64_t now);
  // One command as the RTL port presents it.
  NandResponse Apply(const NandCommand& cmd, uint64_t now);

  // --- Status and timing -------------------------------------------------------------------
  // Inline: a bench drives every plane's readiness onto the RTL's die ports every cycle.
  PlaneStatus Status(uint32_t plane, uint64_t now) const {
    const PlaneState& ps = QueryPlane(plane);
    PlaneStatus s;
    s.array_ready = now >= ps.array_busy_until;
    s.ready = s.array_ready && now >= ps.cache_ready_at && !CacheReadingOut(plane, now);
    s.fail = s.ready && ps.op_failed && now >= ps.op_done_at;
    return s;
  }
  // The array is free (sense/program/erase/move done).
  uint64_t PlaneReadyAt(uint32_t plane) const { return QueryPlane(plane).array_busy_until; }
  bool PlaneBusy(uint32_t plane, uint64_t now) const { return now < PlaneReadyAt(plane); }
  // The cache buffer's page can be read out.
  uint64_t CacheReadyAt(uint32_t plane) const { return QueryPlane(plane).cache_ready_at; }
  uint64_t IoBusyUntil() const { return io_busy_until_; }
  // What a buffer holds, or null when it holds no sensed page.
  const SensedPage* PageBuffer(uint32_t plane) const {
    const PlaneState& ps = QueryPlane(plane);
    return ps.page_valid ? &ps.page_buf : nullptr;
  }
  const SensedPage* CacheBuffer(uint32_t plane) const {
    const PlaneState& ps = QueryPlane(plane);
    return ps.cache_valid ? &ps.cache_buf : nullptr;
  }

  // --- Block state -------------------------------------------------------------------------
  uint64_t DisturbCount(uint32_t plane, uint32_t block) const;  // senses since erase
  uint64_t PeCycles(uint32_t plane, uint32_t block) const;      // erases
  uint64_t RetentionAge(uint32_t plane, uint32_t block, uint64_t now) const;
  uint32_t WritePointer(uint32_t plane, uint32_t block) const;  // pages programmed
  BadBlock BadState(uint32_t plane, uint32_t block) const;
  bool IsBad(uint32_t plane, uint32_t block) const {
    return BadState(plane, block) != BadBlock::kGood;
  }
  uint64_t BadBlockCount() const;
  // What the cells of a page hold (no sense errors).
  PageImage StoredImage(const PageAddr& addr) const;
  // RBER a sense of this block would see at `now`.
  double Rber(uint32_t plane, uint32_t block, uint64_t now) const;

  // --- Hooks for tests and the simulator ---------------------------------------------------
  void MarkBad(uint32_t plane, uint32_t block);
  // Start a block at a given wear (lifetime studies) without running the erases.
  void SetPeCycles(uint32_t plane, uint32_t block, uint64_t pe_cycles);
  // The next program (or erase) of the block fails with status FAIL and grows a bad block.
  void InjectFault(uint32_t plane, uint32_t block, Fault fault);
  // Flip bits stored in a programmed page (bit i = bit i%8 of image byte i/8, so data and check
  // bytes alike), kept until erase.
  void CorruptPage(const PageAddr& addr, const std::vector<uint32_t>& bits);
  // A simulator's shortcut for a model load (flint_top's mount, docs/top.md "Mount"): leaves
  // the block as an erase (if `erase`) and programs of `pages` in order would, with no timing,
  // no I/O and no command counted: pages [0, pages.size()) hold the images given (tagged or
  // explicit bytes), the rest are erased; senses since erase 0; retention counted from `now`.
  // Without `erase` the block must be erased already. Throws NandError for a bad block, a
  // programmed block without `erase`, more pages than a block has, or a busy plane.
  void Preload(uint32_t plane, uint32_t block, bool erase, const std::vector<PageImage>& pages,
               uint64_t now);
  // Install the spare function (data word -> check byte: the ECC encoder, e.g. SecdedEncode).
  // Tagged pages compute their check bytes with the function installed when they are read out,
  // so install it before loading; ProgramBytes of data applies it at program time. An empty
  // function means ErasedSpare (0xFF).
  void SetSpareFn(SpareFn fn) { spare_fn_ = fn ? std::move(fn) : SpareFn(ErasedSpare); }
  const SpareFn& spare_fn() const { return spare_fn_; }

  // --- Accounting --------------------------------------------------------------------------
  const NandCounters& counters() const { return counters_; }
  NandEnergy Energy() const;
  // Host memory the die holds (block records, overrides, buffers), in bytes.
  uint64_t FootprintBytes() const;

  const Config& config() const { return cfg_; }
  uint32_t die_index() const { return die_index_; }
  const ErrorModel& error_model() const { return error_model_; }
  uint32_t page_image_bytes() const { return image_bytes_; }

 private:
  struct BlockState {
    BlockContent content;
    uint64_t disturb = 0;        // senses since erase
    uint64_t program_cycle = 0;  // when the first page since erase was programmed
    uint64_t pe = 0;             // erases
    double wear = 1.0;           // error_model_.WearFactor(pe), cached
    BadBlock bad = BadBlock::kGood;
    uint8_t faults = 0;  // armed Fault bits
  };
  struct PlaneState {
    uint64_t array_busy_until = 0;
    uint64_t cache_ready_at = 0;
    uint64_t op_done_at = 0;
    bool op_failed = false;
    bool page_valid = false;
    bool cache_valid = false;
    bool positions_ready = false;  // cache_positions drawn for cache_buf
    SensedPage page_buf;
    SensedPage cache_buf;
    std::vector<uint32_t> cache_positions;
  };
  static constexpr uint32_t kNoPlane = ~0u;

  [[noreturn]] void Throw(NandErrorCode code, NandCmd cmd, int64_t plane, int64_t block,
                          int64_t page, uint64_t now, const std::string& what) const;
  // The checks every command makes, inline (DataOut runs once a cache line); the throws, which
  // build the message, are out of line.
  void CheckTime(NandCmd cmd, uint64_t now) const {
    if (now < last_cmd_cycle_) ThrowTimeReversal(cmd, now);
  }
  void CheckPlane(NandCmd cmd, uint32_t plane, uint64_t now) const {
    if (plane >= cfg_.phys_planes) ThrowPlaneRange(cmd, plane, now);
  }
  [[noreturn]] void ThrowTimeReversal(NandCmd cmd, uint64_t now) const;
  [[noreturn]] void ThrowPlaneRange(NandCmd cmd, uint32_t plane, uint64_t now) const;
  [[noreturn]] void ThrowDataOut(uint32_t plane, uint32_t offset, uint32_t nbytes,
                                 uint64_t now) const;
  void CheckBlock(NandCmd cmd, uint32_t plane, uint32_t block, uint64_t now) const;
  void CheckPage(NandCmd cmd, uint32_t plane, uint32_t block, uint32_t page, uint64_t now) const;
  // Range, duplicate and busy checks shared by Read and CacheRead.
  void CheckSenseTargets(NandCmd cmd, const std::vector<PlaneBlock>& targets, uint32_t page,
                         uint64_t now);
  void CheckNotDuplicate(NandCmd cmd, uint32_t plane, uint64_t now);
  bool CacheReadingOut(uint32_t plane, uint64_t now) const {
    return io_plane_ == plane && now < io_busy_until_;
  }
  // Validation common to every program; returns the block.
  BlockState& CheckProgram(const PageAddr& addr, uint64_t now);
  // Timing, status and counters of `pages` programs that start at `now`; `failed` marks the
  // block and leaves garbage in the page.
  OpResult FinishProgram(const PageAddr& addr, BlockState& b, uint32_t pages, bool failed,
                         uint64_t now);
  // True if the next operation of kind `fault` on `b` fails (armed fault, or past P/E budget).
  bool ConsumeFailure(BlockState& b, Fault fault) const;
  void ReadOut(PlaneState& ps, uint32_t offset, uint32_t nbytes, uint8_t* out);
  void SetOutBytes(uint32_t nbytes);  // out_nbytes_ and its I/O cycles
  void Sense(uint32_t plane, uint32_t block, uint32_t page, uint64_t start, SensedPage* out);
  uint64_t PageKey(uint32_t plane, uint32_t block, uint32_t page) const;

  BlockState& Block(uint32_t plane, uint32_t block) {
    return blocks_[static_cast<uint64_t>(plane) * cfg_.blocks + block];
  }
  const BlockState& Block(uint32_t plane, uint32_t block) const {
    return blocks_[static_cast<uint64_t>(plane) * cfg_.blocks + block];
  }
  const BlockState& QueryBlock(uint32_t plane, uint32_t block) const;
  const PlaneState& QueryPlane(uint32_t plane) const {
    if (plane >= cfg_.phys_planes) ThrowPlaneQuery(plane);
    return planes_[plane];
  }
  [[noreturn]] void ThrowPlaneQuery(uint32_t plane) const;

  Config cfg_;
  uint32_t die_index_;
  uint64_t seed_;
  NandOptions options_;
  ErrorModel error_model_;
  SpareFn spare_fn_;
  uint32_t image_bytes_;  // page_image_bytes: data + check bytes
  uint32_t page_bits_;
  uint32_t data_in_cycles_;
  std::vector<BlockState> blocks_;  // plane-major
  std::vector<PlaneState> planes_;
  uint64_t io_busy_until_ = 0;
  // DataOut's I/O cycles for the last byte count asked (a line at a time: the same count).
  uint32_t out_nbytes_ = 0;
  uint64_t out_cycles_ = 0;
  uint32_t io_plane_ = kNoPlane;  // whose cache buffer the I/O is reading out
  uint64_t last_cmd_cycle_ = 0;
  NandCounters counters_;
  std::vector<uint32_t> seen_epoch_;  // duplicate-plane check without clearing
  uint32_t epoch_ = 0;
};

}  // namespace flint::model
