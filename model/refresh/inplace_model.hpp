// Golden model of one die's in-place refresh, the paper's two baselines (section 6.2: in-place
// burst and in-place distributed refresh; docs/refresh.md, "In-place baselines in RTL"), written
// from the documents, not from rtl/refresh/flint_refresh_inplace_die.sv. Transaction level: it sees
// the die's due and limit events, its park, its transactions with the die's maintenance sequencer
// (requests, program beats, read lines, answers), its read-counter resets and its halt, one call
// each, and says whether each is the one the refresh allows.
//
// The refresh of one block (the paper charges tERASE + Pages x tPROG with its plane blocked; the
// block has to be read out first):
//   park the burst-buffer controller; ReadPage of pages 0 .. Pages-1, each answered with its lines
//   0 .. Lines-1 (SEC-DED decoded: a correctable error corrected, a poisoned line uncorrectable);
//   EraseBlock; ProgramPage of pages 0 .. Pages-1, each with the lines read out of that page, a
//   line that came uncorrectable poisoned (it stays uncorrectable; the others come back clean);
//   a read-counter reset of the block, answered; release the park.
// What it predicts (an observed transaction that differs is a divergence):
//   - one block at a time; only a block with a due event (a limit event raises the alarm and
//     refreshes nothing); a due event of a block already due is absorbed (a block comes due once an
//     erase cycle);
//   - the park: raised only when a block is due and none is being refreshed; held from before the
//     first ReadPage to the counter reset's answer; released after each block (the next block parks
//     again); every transaction runs while the controller is parked;
//   - for each block the transactions above, in that order, each address the block's, each answer
//     with the status the load and the fault plan imply (ReadPage: Ok, Corrected or Uncorrectable
//     from its lines; ProgramFail / EraseFail where a fault is planned, else Ok);
//   - every read line's data (the content as loaded, for a line not poisoned) and status; every
//     program beat: the data of that line as read, poisoned iff it came uncorrectable;
//   - a failed erase or program: the die halts with RefreshErrErase / RefreshErrProgram, nothing
//     after (no transaction, no counter reset, the park released); no halt otherwise;
//   - the counts: blocks refreshed, pages read out and programmed back (a failed program counts),
//     blocks erased, poisoned lines read, due and limit events, blocks pending, the alarm.
// What depends on timing is checked by rule: the order of the due blocks. The die scans its blocks
// in index order (plane-major: index plane * Blocks + block) round and round, from the last block
// it refreshed (from index 0 when enabled), and refreshes a due block when the scan reaches it: a
// block due when the scan resumed is never passed over, so the next block refreshed is a due one,
// and no block that was due when the scan resumed lies between the scan's start and it. Blocks that
// come due while the scan runs may or may not be taken before the others, depending on where the
// scan is.
#pragma once
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "model/common/types.hpp"

namespace flint::model {

// The die's counters (flint_refresh_inplace_die's status outputs).
struct InplaceCounts {
  uint64_t refreshed = 0, read_out = 0, programmed = 0, erased = 0, poisoned = 0;
  uint64_t due = 0, limit = 0, pending = 0;
  bool alarm = false;
};

class InplaceModel {
 public:
  // The data (page_bytes) physical page (plane, block, page) holds as loaded.
  using ContentFn = std::function<std::vector<uint8_t>(uint32_t, uint32_t, uint32_t)>;

  InplaceModel(const Config& cfg, ContentFn content);

  // --- inputs (not checked) ------------------------------------------------------------------
  // The die is enabled: its scan starts at index 0.
  void Enable();
  // A read-counter trip event of the die: a due event (the block comes due) or a limit event.
  void Due(uint32_t plane, uint32_t block);
  void Limit(uint32_t plane, uint32_t block);
  // The load: a correctable error in a line (corrected when read, gone after a refresh), or an
  // uncorrectable one (a poisoned line: uncorrectable for good).
  void CorruptLine(uint32_t plane, uint32_t block, uint32_t page, uint32_t line);
  void PoisonLine(uint32_t plane, uint32_t block, uint32_t page, uint32_t line);
  // The fault plan: the next erase of the block fails; the next program of the page fails.
  void FailErase(uint32_t plane, uint32_t block);
  void FailProgram(uint32_t plane, uint32_t block, uint32_t page);

  // --- observed: each returns "" or what differs ---------------------------------------------
  // The die's own park request rose or fell.
  std::string Park(bool up);
  // A transaction the sequencer accepted; `parked`: the controller's park acknowledge then.
  std::string Request(const MaintReq& req, bool parked);
  // A program beat (cl_bytes) the sequencer took, and whether it was poisoned.
  std::string WriteBeat(const std::vector<uint8_t>& data, bool poison);
  // A read line the die took from the sequencer.
  std::string ReadLine(uint32_t line, const std::vector<uint8_t>& data, Status status);
  // A transaction's answer the die took.
  std::string Response(const MaintRsp& rsp);
  // A read-counter reset the counters took, and its answer.
  std::string CounterReset(uint32_t plane, uint32_t block);
  std::string CounterAnswered();
  // The die's error output rose with this code (a flint_pkg::refresh_err_e value).
  std::string Halt(uint32_t code);
  // The die's counters against the model's.
  std::string Counters(const InplaceCounts& rtl) const;

  // --- state ----------------------------------------------------------------------------------
  const InplaceCounts& counts() const { return counts_; }
  bool busy() const { return phase_ != Phase::kIdle; }
  bool halted() const { return phase_ == Phase::kHalted; }
  RefreshErr error() const { return err_; }
  // The block being refreshed (valid while busy()).
  uint32_t plane() const { return cur_ / blocks_; }
  uint32_t block() const { return cur_ % blocks_; }
  bool Pending(uint32_t plane, uint32_t block) const { return pending_.count(Index(plane, block)); }
  // The blocks refreshed, in order, as (plane, block).
  const std::vector<std::pair<uint32_t, uint32_t>>& order() const { return order_; }
  // Whether a line is poisoned (reads uncorrectable), now.
  bool Poisoned(uint32_t plane, uint32_t block, uint32_t page, uint32_t line) const {
    return poison_.count(LineIndex(plane, block, page, line)) != 0;
  }
  // A line's data as loaded (cl_bytes).
  std::vector<uint8_t> LineData(uint32_t plane, uint32_t block, uint32_t page, uint32_t line) const;

 private:
  enum class Phase : uint8_t {
    kIdle,      // no block; the park down
    kParked,    // the park up, the first ReadPage awaited
    kReadReq,   // ReadPage of page_ awaited
    kReadOut,   // its lines, then its answer
    kEraseReq,  // EraseBlock awaited
    kEraseRsp,
    kProgReq,  // ProgramPage of page_ awaited
    kBeats,    // its beats, then its answer
    kCount,    // the counter reset awaited
    kCountRsp,
    kDone,     // the block refreshed: the park must fall
    kHalting,  // a failure answered: the halt awaited
    kHalted,
  };
  uint32_t Index(uint32_t plane, uint32_t block) const { return plane * blocks_ + block; }
  uint64_t LineIndex(uint32_t plane, uint32_t block, uint32_t page, uint32_t line) const {
    return ((uint64_t{Index(plane, block)} * pages_) + page) * lines_ + line;
  }
  std::string Fail(const std::string& what) const;
  std::string Expect(MaintOp op, const MaintReq& req) const;
  std::string StartBlock(const MaintReq& req);

  const Config& cfg_;
  uint32_t phys_, blocks_, pages_, lines_, line_bytes_;
  ContentFn content_;
  std::set<uint32_t> pending_;           // due blocks by index
  std::set<uint32_t> waiting_;           // those due when the scan resumed
  uint32_t scan_from_ = 0;               // where it resumed
  std::set<uint64_t> corrupt_, poison_;  // lines by LineIndex
  std::set<uint32_t> fail_erase_;        // blocks by index
  std::set<uint64_t> fail_prog_;         // pages by Index * pages + page

  Phase phase_ = Phase::kIdle;
  uint32_t cur_ = 0, page_ = 0, line_ = 0;
  bool parked_up_ = false;
  // The block's lines as read out: data and whether uncorrectable.
  std::vector<std::vector<uint8_t>> buf_;
  std::vector<bool> buf_bad_;
  MaintStatus page_status_ = MaintStatus::kOk;
  RefreshErr err_ = RefreshErr::kNone;
  InplaceCounts counts_;
  std::vector<std::pair<uint32_t, uint32_t>> order_;
};

}  // namespace flint::model
