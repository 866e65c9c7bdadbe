// Golden model of the phantom-plane program queue (paper section 4.2, Fig. 8; docs/refresh.md,
// "The program queue as built"; RTL rtl/refresh/flint_progq.sv). Transaction level: pages, their
// lines and the order in which they leave, with no cycles.
//
// The queue holds `slots` pages of `lines` cache lines. Two writers fill one page each at a time:
// the fork (a corrected foreground read; never refused: an open that finds no free slot drops the
// page) and the scrubber (may open only while more than `fork_reserve` slots are free). A page is
// committed when every one of its lines has been written, in any order, and only committed pages
// leave, in commit order, line 0 first. A slot is in use from the open to the program side's
// taking of the page's last line, or to a cancel.
#pragma once
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace flint::model {

enum class ProgqSource : uint8_t { kFork = 0, kScrub = 1 };

// One line of a committed page, as the program side takes it.
struct ProgqBeat {
  uint32_t block = 0, page = 0;
  ProgqSource source = ProgqSource::kFork;
  uint32_t line = 0;
  bool last = false;
  std::vector<uint8_t> data;
};

struct ProgqStats {
  uint64_t enq_fork = 0;    // fork pages committed
  uint64_t enq_scrub = 0;   // scrubber pages committed
  uint64_t dropped = 0;     // fork opens that found no free slot
  uint64_t programmed = 0;  // pages whose last line the program side took
  uint64_t cancelled = 0;   // open pages cancelled (either writer)
  uint32_t high_water = 0;  // most slots in use right after an allocation
};

class ProgramQueue {
 public:
  // slots >= 2, lines >= 1, line_bytes >= 1, fork_reserve < slots; std::invalid_argument else.
  ProgramQueue(uint32_t slots, uint32_t lines, uint32_t line_bytes, uint32_t fork_reserve);

  // Room as the writers see it now.
  bool fork_room() const { return in_use_ < slots_; }
  bool scrub_room() const { return slots_ - in_use_ > fork_reserve_; }
  bool fork_open() const { return fork_.has_value(); }
  bool scrub_open() const { return scrub_.has_value(); }

  // Fork. ForkOpen: false = dropped (no free slot). ForkLine: a line of the open page (ignored,
  // returning false, when no page is open: a line of a dropped or cancelled page); true when it
  // committed the page. Opening with a page open, a line twice, a line out of range or data of
  // the wrong size throw std::logic_error (contract violations the RTL asserts on).
  bool ForkOpen(uint32_t block, uint32_t page);
  bool ForkLine(uint32_t line, const std::vector<uint8_t>& data);
  void ForkCancel();  // forget the open page, if any
  // Scrubber: the same, but an open without scrub_room() is a contract violation (the RTL
  // refuses it with ready low).
  void ScrubOpen(uint32_t block, uint32_t page);
  bool ScrubLine(uint32_t line, const std::vector<uint8_t>& data);
  void ScrubCancel();

  // Program side: whether a line is ready to leave, and taking it (std::logic_error if none).
  bool beat_ready() const { return !committed_.empty(); }
  ProgqBeat TakeBeat();

  uint32_t slots() const { return slots_; }
  uint32_t lines() const { return lines_; }
  uint32_t occupancy() const { return in_use_; }
  size_t committed_pages() const { return committed_.size(); }
  const ProgqStats& stats() const { return stats_; }

 private:
  struct Page {
    uint32_t block = 0, page = 0;
    ProgqSource source = ProgqSource::kFork;
    std::vector<std::vector<uint8_t>> data;  // per line
    std::vector<bool> written;
    uint32_t missing = 0;
  };
  Page NewPage(uint32_t block, uint32_t page, ProgqSource source) const;
  void Allocate();
  bool WriteLine(std::optional<Page>& ctx, uint32_t line, const std::vector<uint8_t>& data);
  void Cancel(std::optional<Page>& ctx);

  uint32_t slots_, lines_, line_bytes_, fork_reserve_;
  uint32_t in_use_ = 0;
  std::optional<Page> fork_, scrub_;
  std::deque<Page> committed_;
  uint32_t next_line_ = 0;  // of committed_.front()
  ProgqStats stats_;
};

}  // namespace flint::model
