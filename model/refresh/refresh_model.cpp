#include "model/refresh/refresh_model.hpp"

#include <sstream>
#include <utility>

namespace flint::model {

namespace {
std::string Addr(uint32_t plane, uint32_t block) {
  return std::to_string(plane) + "/" + std::to_string(block);
}
}  // namespace

RefreshModel::RefreshModel(const Config& cfg, uint32_t live_blocks, ContentFn content)
    : cfg_(cfg),
      live_(live_blocks),
      planes_(static_cast<uint32_t>(cfg.planes)),
      phys_(static_cast<uint32_t>(cfg.phys_planes)),
      blocks_(static_cast<uint32_t>(cfg.blocks)),
      pages_(static_cast<uint32_t>(cfg.pages)),
      content_(std::move(content)),
      table_(cfg),
      phantom_(static_cast<uint32_t>(cfg.planes)),  // the extra plane starts as the phantom
      rr_last_(static_cast<uint32_t>(cfg.planes)),
      visited_(cfg.phys_planes, false),
      due_(cfg.phys_planes, false) {}

std::string RefreshModel::Fail(const std::string& what) const {
  std::ostringstream os;
  os << "rotation " << rotations_ << " (S " << (step_ ? std::to_string(source_) : "-") << ", P "
     << phantom_ << "): " << what;
  return os.str();
}

void RefreshModel::TripEvent(uint32_t plane, bool limit) {
  if (!limit && plane < phys_) due_[plane] = true;
}

uint32_t RefreshModel::PredictSource() const {
  // Candidates: the planes not yet a source this pass, never the phantom (all if none is left).
  std::vector<bool> cand(phys_);
  bool any = false;
  for (uint32_t p = 0; p < phys_; ++p) {
    cand[p] = !visited_[p] && p != phantom_;
    any = any || cand[p];
  }
  if (!any) {
    for (uint32_t p = 0; p < phys_; ++p) cand[p] = p != phantom_;
  }
  // From the plane after the last source: the first due candidate, else the first candidate.
  for (uint32_t i = 1; i <= phys_; ++i) {
    const uint32_t p = (rr_last_ + i) % phys_;
    if (cand[p] && due_[p]) return p;
  }
  for (uint32_t i = 1; i <= phys_; ++i) {
    const uint32_t p = (rr_last_ + i) % phys_;
    if (cand[p]) return p;
  }
  return kNone;
}

void RefreshModel::StartStep() {
  const uint32_t pick = PredictSource();
  // Would plain round-robin (no due events) have picked another plane?
  std::vector<bool> saved = due_;
  due_.assign(phys_, false);
  const uint32_t plain = PredictSource();
  due_ = std::move(saved);
  if (plain != pick) ++steered_;
  bool pass_done = true;
  for (uint32_t p = 0; p < phys_; ++p) pass_done = pass_done && (visited_[p] || p == phantom_);
  if (pass_done) visited_.assign(phys_, false);
  visited_[pick] = true;
  due_[pick] = false;
  rr_last_ = pick;
  source_ = pick;
  sources_.push_back(pick);
  step_ = true;
  ls_ = kNone;
  queried_.assign(blocks_, false);
  src_owner_.assign(blocks_, kNone);
  tgt_.assign(blocks_, kNone);
  next_.assign(blocks_, 0);
  tgt_owner_.assign(blocks_, kNone);
  committed_.assign(blocks_, false);
  empty_alloc_.assign(blocks_, false);
  retire_b_ = retire_y_ = kNone;
  retire_marked_ = false;
  commit_started_ = false;
  commits_ = 0;
  erased_blk_.assign(blocks_, false);
  erase_failed_.assign(blocks_, false);
  released_.assign(blocks_, false);
  reset_.assign(blocks_, false);
}

void RefreshModel::EndStep() {
  ++rotations_;
  phantom_ = source_;
  step_ = false;
}

// Logical block b's target on P is `block` (kNone: none), the reverse map kept with it.
void RefreshModel::SetTarget(uint32_t b, uint32_t block) {
  if (tgt_[b] != kNone && tgt_owner_[tgt_[b]] == b) tgt_owner_[tgt_[b]] = kNone;
  tgt_[b] = block;
  if (block != kNone && block < blocks_) tgt_owner_[block] = b;
}

bool RefreshModel::CopyComplete() const {
  if (retire_b_ != kNone) return false;
  for (uint32_t b = 0; b < live_; ++b) {
    if (tgt_[b] == kNone || next_[b] != pages_) return false;
  }
  return true;
}

std::string RefreshModel::Reloc(RelocCmd op, uint32_t plane, uint32_t block, RelocResult* answer) {
  std::string err;
  const std::string what = std::string(ToString(op)) + " (" + Addr(plane, block) + ")";
  if (halted_) err = Fail(what + " after the halt (NoSpare)");
  if (err.empty() && !step_) {
    // Only a Query of the source the choice predicts starts a step.
    if (op != RelocCmd::kQuery) {
      err = Fail(what + " outside a rotation step");
    } else {
      StartStep();
      if (plane != source_) {
        err = Fail("the step's source is plane " + std::to_string(plane) + ", expected plane " +
                   std::to_string(source_) + " (round-robin, due planes first)");
      }
    }
  }
  *answer = table_.Apply(op, 0, plane, block);
  if (!err.empty()) return err;
  const bool erase_phase = commit_started_ && commits_ == blocks_;
  switch (op) {
    case RelocCmd::kQuery:
      if (commit_started_ || plane != source_ || block >= blocks_ || queried_[block])
        return Fail(what + ": a Query not of S's unqueried blocks before the copy");
      queried_[block] = true;
      if (answer->state != BlockState::kMapped) return Fail(what + ": S's block is not mapped");
      if (ls_ == kNone) ls_ = answer->lplane;
      if (answer->lplane != ls_) return Fail(what + ": S holds more than one logical plane");
      src_owner_[block] = answer->lblock;
      return "";
    case RelocCmd::kAlloc: {
      if (plane != ls_)
        return Fail(what + ": an Alloc for logical plane other than S's " + std::to_string(ls_));
      for (uint32_t x = 0; x < blocks_; ++x) {
        if (!queried_[x])
          return Fail(what + " before S's block " + std::to_string(x) + " was queried");
      }
      const uint32_t b = block;
      if (b < live_) {
        const bool restart = retire_b_ == b && retire_marked_;
        if (!restart && (tgt_[b] != kNone || commit_started_))
          return Fail(what + ": live block " + std::to_string(b) + " allocated twice");
        if (retire_b_ != kNone && !restart)
          return Fail(what + " while block " + std::to_string(retire_b_) + " is being retired");
        if (answer->status == FtlStatus::kNoFree) {
          halted_ = true;
          return "";
        }
        if (answer->status != FtlStatus::kOk) return Fail(what + ": the table refused it");
        SetTarget(b, answer->block);
        next_[b] = 0;
        if (restart) {
          retire_b_ = retire_y_ = kNone;
          retire_marked_ = false;
        }
        return "";
      }
      // An empty block's target, at its commit.
      if (!CopyComplete()) return Fail(what + ": an empty block allocated before the copy ends");
      if (committed_[b] || empty_alloc_[b]) return Fail(what + ": empty block allocated twice");
      commit_started_ = true;
      if (answer->status == FtlStatus::kNoFree) {
        halted_ = true;
        return "";
      }
      if (answer->status != FtlStatus::kOk) return Fail(what + ": the table refused it");
      empty_alloc_[b] = true;
      SetTarget(b, answer->block);
      return "";
    }
    case RelocCmd::kCommit: {
      if (!CopyComplete()) {
        for (uint32_t b = 0; b < live_; ++b) {
          if (next_[b] != pages_)
            return Fail(what + " before the copy ends: block " + std::to_string(b) + " has " +
                        std::to_string(next_[b]) + " of " + std::to_string(pages_) +
                        " pages programmed");
        }
        return Fail(what + " before the copy ends");
      }
      if (plane != phantom_) return Fail(what + ": a Commit not on the phantom");
      const uint32_t k = block < blocks_ ? tgt_owner_[block] : kNone;
      const uint32_t b =
          k != kNone && !committed_[k] && (k < live_ || empty_alloc_[k]) ? k : kNone;
      if (b == kNone) return Fail(what + ": not the target of an uncommitted block");
      if (answer->status != FtlStatus::kOk) return Fail(what + ": the table refused it");
      commit_started_ = true;
      committed_[b] = true;
      ++commits_;
      ++commits_total_;
      return "";
    }
    case RelocCmd::kMarkBad:
      if (retire_b_ != kNone && !retire_marked_) {
        if (plane != phantom_ || block != retire_y_)
          return Fail(what + ": expected MarkBad (" + Addr(phantom_, retire_y_) +
                      ") after its failed program");
        retire_marked_ = true;
        ++retired_prog_;
        return "";
      }
      if (erase_phase && plane == source_ && block < blocks_ && erase_failed_[block] &&
          !released_[block]) {
        released_[block] = true;
        ++retired_erase_;
        return "";
      }
      return Fail(what + ": no failed program or erase to retire there");
    case RelocCmd::kRelease:
      if (!erase_phase) return Fail(what + " before every block is committed");
      if (plane != source_ || block >= blocks_ || released_[block])
        return Fail(what + ": not an unreleased block of S");
      if (erase_failed_[block]) return Fail(what + ": its erase failed (MarkBad expected)");
      if (src_owner_[block] < live_ && !erased_blk_[block])
        return Fail(what + " before its erase (it held live block " +
                    std::to_string(src_owner_[block]) + ")");
      released_[block] = true;
      return "";
  }
  return Fail(what + ": unknown command");
}

std::string RefreshModel::CounterReset(uint32_t plane, uint32_t block) {
  const std::string what = "counter reset (" + Addr(plane, block) + ")";
  if (halted_) return Fail(what + " after the halt");
  if (!step_ || plane != source_ || block >= blocks_ || !released_[block] || reset_[block])
    return Fail(what + ": not a released, unreset block of S");
  reset_[block] = true;
  bool done = true;
  for (uint32_t x = 0; x < blocks_; ++x) done = done && released_[x] && reset_[x];
  if (done) EndStep();
  return "";
}

std::string RefreshModel::Program(uint32_t plane, uint32_t block, uint32_t page,
                                  const std::vector<uint8_t>& data, bool pass) {
  const std::string what =
      "ProgramPage (" + Addr(plane, block) + " page " + std::to_string(page) + ")";
  if (halted_) return Fail(what + " after the halt");
  if (!step_ || commit_started_) return Fail(what + " outside the copy");
  if (plane != phantom_) return Fail(what + ": not into the phantom");
  const uint32_t k = block < blocks_ ? tgt_owner_[block] : kNone;
  const uint32_t b = k < live_ ? k : kNone;
  if (b == kNone) {
    if (block == retire_y_) return Fail(what + ": into the block that failed, retired");
    return Fail(what + ": not the target of any live block");
  }
  if (retire_b_ == b) return Fail(what + ": block " + std::to_string(b) + " is being retired");
  if (page != next_[b])
    return Fail(what + ": block " + std::to_string(b) + " expects page " +
                std::to_string(next_[b]) + " next (pages in order, each once)");
  ++programmed_;
  const std::vector<uint8_t> want = content_(ls_, b, page);
  if (data != want) {
    size_t i = 0;
    while (i < data.size() && i < want.size() && data[i] == want[i]) ++i;
    std::ostringstream os;
    os << what << ": data differs from logical page (" << ls_ << ", " << b << ", " << page
       << ") at byte " << i;
    if (i < data.size() && i < want.size())
      os << ": 0x" << std::hex << int(data[i]) << ", expected 0x" << int(want[i]);
    return Fail(os.str());
  }
  if (pass) {
    ++next_[b];
    ++programmed_ok_;
  } else {
    retire_b_ = b;
    retire_y_ = block;
    retire_marked_ = false;
    SetTarget(b, kNone);
  }
  return "";
}

std::string RefreshModel::Erase(uint32_t plane, uint32_t block, bool pass, bool plane_resident) {
  const std::string what = "EraseBlock (" + Addr(plane, block) + ")";
  if (halted_) return Fail(what + " after the halt");
  if (!step_ || !commit_started_ || commits_ != blocks_)
    return Fail(what + " before every block of S is committed");
  if (plane != source_) return Fail(what + ": not of the source plane");
  if (block >= blocks_ || erased_blk_[block] || released_[block])
    return Fail(what + ": erased twice or after its Release");
  if (src_owner_[block] >= live_)
    return Fail(what + ": the block held no live data (logical block " +
                std::to_string(src_owner_[block]) + ")");
  if (plane_resident) return Fail(what + " while a resident burst still reads the plane");
  ++erased_;
  erased_blk_[block] = true;
  erase_failed_[block] = !pass;
  return "";
}

std::string RefreshModel::ScrubRead(uint32_t plane, uint32_t block, uint32_t page) {
  const std::string what =
      "scrub ReadPage (" + Addr(plane, block) + " page " + std::to_string(page) + ")";
  if (halted_) return Fail(what + " after the halt");
  if (!copying() || plane != source_) return Fail(what + ": not of S during the copy");
  if (block >= blocks_ || src_owner_[block] >= live_)
    return Fail(what + ": not a block of S holding a live block");
  const uint32_t b = src_owner_[block];
  // The controller's next[] counts pages queued, the model's pages programmed: a page at or past
  // the model's next (a restart resets both to 0 before the scrubber goes on).
  if (page >= pages_ || page < next_[b])
    return Fail(what + ": block " + std::to_string(b) + " has pages up to " +
                std::to_string(next_[b]) + " programmed already");
  return "";
}

std::string RefreshModel::Counters(uint64_t rotations, uint64_t programmed, uint64_t erased,
                                   uint64_t retired_prog, uint64_t retired_erase) const {
  if (rotations == rotations_ && programmed == programmed_ && erased == erased_ &&
      retired_prog == retired_prog_ && retired_erase == retired_erase_) {
    return "";
  }
  std::ostringstream os;
  os << "counters rotations/programmed/erased/retired_prog/retired_erase " << rotations << "/"
     << programmed << "/" << erased << "/" << retired_prog << "/" << retired_erase << ", expected "
     << rotations_ << "/" << programmed_ << "/" << erased_ << "/" << retired_prog_ << "/"
     << retired_erase_;
  return Fail(os.str());
}

}  // namespace flint::model
