// Golden model of one die's phantom-plane rotation (paper section 4.2; docs/refresh.md, "Q2", "Q1",
// "Q4", "Bad blocks during the rotation", and "The refresh model and its bench"), written from the
// documents, not from rtl/refresh/. Transaction level: it sees the controller's relocation-table
// commands, read-counter resets and NAND programs, erases and scrub reads as they happen, one call
// each, and says whether each is the one the rotation allows.
//
// What it predicts (an observed transaction that differs is a divergence):
//   - the source plane S of each step: round-robin over the physical planes that are not the
//     phantom P, each once a pass (a new pass when every non-phantom plane has been a source), from
//     the plane after the last source; a plane with a due trip event first (the hot-block path);
//     the step's first Query names it;
//   - the logical plane lS that S holds, and its blocks (the table's answers to the Queries);
//   - the copy targets: each live logical block b (b < live_blocks) gets the block of P that the
//     relocation table (model/ftl/reloc_table, owned here: its answers are the ones the bench gives
//     the RTL) reserves for it; an empty block gets its target only at its commit;
//   - every ProgramPage: into P, at tgt[b], pages of a block in order from 0 (next[b]), data the
//     source page's content, exactly once each;
//   - a failed program of b into y: MarkBad (P, y), then Alloc (lS, b), the copy of b restarts into
//     the new block from page 0; nothing more into y;
//   - Commit (P, tgt[b]) only once every page of every live block is programmed, each block once;
//     an empty block's Alloc first;
//   - after the last commit: EraseBlock of each block of S that held a live block (no other), then
//     Release (S, x) (MarkBad instead if the erase failed), and a read-counter reset of every block
//     of S after its Release; then S is the new phantom and P holds lS;
//   - an Alloc answered NoFree: the die halts (no command, program or erase after it);
//   - the counts of rotations, programs, erases and retired blocks.
// What depends on timing is checked by rule: which pages come from the fork and which from the
// scrubber, how the blocks' programs interleave, pages dropped and copied again later (a page is
// accepted whenever it is the next of its block); scrub reads only of S's live blocks during the
// copy; an erase only while no resident burst reads S (the caller says whether one does).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "model/ftl/reloc_table.hpp"

namespace flint::model {

class RefreshModel {
 public:
  // The data (page_bytes) logical page (lplane, lblock, page) holds: the load, never changed.
  using ContentFn = std::function<std::vector<uint8_t>(uint32_t, uint32_t, uint32_t)>;

  RefreshModel(const Config& cfg, uint32_t live_blocks, ContentFn content);

  // --- inputs (not checked) ------------------------------------------------------------------
  // A read-counter trip event of the die: a due event marks its plane for the next choice.
  void TripEvent(uint32_t plane, bool limit);

  // --- observed transactions: each returns "" or what differs --------------------------------
  // A relocation-table command the controller issued (plane/block as the table takes them);
  // `answer` is the table's answer, for the bench to give back. A refused command is still applied
  // to the table (the bench answers the RTL from it): after the first refusal the model's state
  // means nothing, and the bench stops there.
  std::string Reloc(RelocCmd op, uint32_t plane, uint32_t block, RelocResult* answer);
  // A read-counter reset.
  std::string CounterReset(uint32_t plane, uint32_t block);
  // A NAND program with its decoded data (page_bytes) and whether the die passed it.
  std::string Program(uint32_t plane, uint32_t block, uint32_t page,
                      const std::vector<uint8_t>& data, bool pass);
  // A NAND erase, whether it passed, and whether a resident burst still reads the plane.
  std::string Erase(uint32_t plane, uint32_t block, bool pass, bool plane_resident);
  // The scrubber's page read (the NAND Read of the maintenance sequencer).
  std::string ScrubRead(uint32_t plane, uint32_t block, uint32_t page);
  // The controller's counters against the model's.
  std::string Counters(uint64_t rotations, uint64_t programmed, uint64_t erased,
                       uint64_t retired_prog, uint64_t retired_erase) const;

  // --- state ----------------------------------------------------------------------------------
  const RelocTable& table() const { return table_; }
  uint32_t phantom() const { return phantom_; }
  uint32_t source() const { return source_; }
  bool in_step() const { return step_; }
  bool copying() const { return step_ && !commit_started_; }
  bool halted() const { return halted_; }
  uint64_t rotations() const { return rotations_; }
  uint64_t programmed() const { return programmed_; }
  uint64_t programmed_ok() const { return programmed_ok_; }
  uint64_t erased() const { return erased_; }
  uint64_t retired_prog() const { return retired_prog_; }
  uint64_t retired_erase() const { return retired_erase_; }
  uint64_t commits() const { return commits_total_; }
  // Choices a due event steered away from plain round-robin.
  uint64_t steered() const { return steered_; }
  const std::vector<uint32_t>& sources() const { return sources_; }
  // The copy of logical block b this step: its target on P (or ~0u) and next page.
  uint32_t Target(uint32_t b) const { return tgt_[b]; }
  uint32_t Next(uint32_t b) const { return next_[b]; }
  // Logical block of S's physical block x this step (or ~0u).
  uint32_t LblockOfSource(uint32_t x) const { return src_owner_[x]; }
  // The plane the next choice would pick now (the source prediction).
  uint32_t PredictSource() const;

 private:
  static constexpr uint32_t kNone = ~0u;
  std::string Fail(const std::string& what) const;
  void StartStep();
  void EndStep();
  bool CopyComplete() const;
  void SetTarget(uint32_t b, uint32_t block);

  const Config& cfg_;
  uint32_t live_, planes_, phys_, blocks_, pages_;
  ContentFn content_;
  RelocTable table_;

  uint32_t phantom_, source_ = 0, ls_ = 0;
  uint32_t rr_last_;                 // the last source
  std::vector<bool> visited_, due_;  // this pass's sources; due planes
  bool step_ = false, halted_ = false;
  // The step.
  std::vector<bool> queried_;         // S's blocks queried
  std::vector<uint32_t> src_owner_;   // S's block -> logical block (kNone: not yet / not ls)
  std::vector<uint32_t> tgt_, next_;  // by logical block
  std::vector<uint32_t> tgt_owner_;   // block of P -> the logical block it is the target of
  std::vector<bool> committed_;       // by logical block
  std::vector<bool> empty_alloc_;     // empty block allocated, awaiting its commit
  uint32_t retire_b_ = kNone,
           retire_y_ = kNone;  // a failed program awaiting MarkBad / Alloc
  bool retire_marked_ = false;
  bool commit_started_ = false;
  uint32_t commits_ = 0;
  std::vector<bool> erased_blk_, erase_failed_, released_, reset_;  // S's blocks
  // Counts.
  uint64_t rotations_ = 0, programmed_ = 0, programmed_ok_ = 0, erased_ = 0;
  uint64_t retired_prog_ = 0, retired_erase_ = 0, commits_total_ = 0, steered_ = 0;
  std::vector<uint32_t> sources_;
};

}  // namespace flint::model
