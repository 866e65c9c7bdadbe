// The stack top's scoreboard: what every NAND command, sense, remap and response of flint_top
// must be, judged from a shadow of what each physical page holds, independently of the RTL.
// It reads no port: the driver (stimulus.hpp) hands it what the attached dies (attach.hpp) saw
// and what the DUT answered. Nothing in it throws or asserts: a broken rule is recorded as a
// line of text (violations()) and a test requires none.
//
// What it checks:
//  - model load: every page is programmed where the placement puts it, with its ECC image;
//  - every burst sense reads, on every (die, logical plane), a physical page that holds the
//    logical page the burst needs;
//  - every response: status and data equal the SEC-DED golden model's decode of the raw line
//    the die returned (so an injected error is corrected exactly when the code can), and the
//    data equals the weights loaded unless the line had more errors than the code detects;
//  - refresh: programs go only to the die's phantom plane and copy a page of its source plane
//    (clean, or poisoned where the scrubbed line was uncorrectable, or, where a read of the line
//    had so many errors that SEC-DED miscorrected it, that read's decode re-encoded: the
//    code's limit, counted in miscorrected_copy_lines); a remap names a block whose
//    every page holds the logical block's data; an erase hits only a block nothing maps to;
//  - in-place refresh (TopOptions::in_place): an erase takes a block's pages away until each is
//    programmed back, in order, with what it held (clean or poisoned); a sense of the block
//    meanwhile is a violation (the sense check sees an erased page).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "flint_config.hpp"
#include "model/common/placement.hpp"
#include "model/common/types.hpp"
#include "model/nand/nand_die.hpp"
#include "verif/top/top_types.hpp"

namespace flint::verif::top {

class TopScoreboard {
 public:
  TopScoreboard(const flint::Config& cfg, const TopOptions& opt);

  // The weights the next load streams (a reload after power loss may bring others).
  void SetGeneration(uint32_t g) { generation_ = g; }
  uint32_t generation() const { return generation_; }

  // Power loss: the dies keep their cells (the shadow stays), the base die forgets everything.
  void PowerUp();
  // A load of `bursts` bursts begins: its programs are checked against the stream's order.
  void StartLoad(uint64_t bursts);
  void EndLoad() { loading_ = false; }
  // A mount of `bursts` bursts begins: the shadow is cleared (the driver then preloads it).
  void StartMount(uint64_t bursts);
  // The loader has finished: `bursts` are in service (0 after an error).
  void SetLoaded(uint64_t bursts) { loaded_ = bursts; }
  uint64_t live_blocks() const { return live_; }
  uint64_t padded_bursts() const { return total_; }  // live blocks x pages: bursts with pads
  uint64_t bursts_programmed() const { return prog_k_; }

  // The weights of logical burst k's slice s (what a line of it must read).
  Content Logical(uint64_t burst, uint32_t slice) const;
  // The burst the load puts at (block, page) of a live block (PlacePadded's inverse).
  uint64_t BurstAt(uint32_t block, uint32_t page) const;
  // The page image (data and check bytes) of a page holding `c`.
  std::vector<uint8_t> ImageOf(const Content& c) const;
  // What physical page (die, plane, block, page) holds.
  Content& Shadow(uint32_t d, uint32_t p, uint32_t b, uint32_t pg) {
    return shadow_[Key{d, p, b, pg}];
  }

  // A burst sense (read or cache read) of `page` on `stripe`; `sense`/`burst` are the top's
  // sense_o / sense_burst_o that cycle.
  void OnSense(uint64_t t, uint32_t die, const std::vector<flint::model::PlaneBlock>& stripe,
               uint32_t page, bool sense, uint64_t burst);
  // A line's data-out `img` from `die_model` (die k): decoded by the SEC-DED model it is what the
  // response (read port) or the refresh copy (maintenance port) must show.
  void OnDataOut(const flint::model::NandDie& die_model, uint32_t k, uint32_t plane, uint32_t off,
                 const std::vector<uint8_t>& img, bool maintenance);
  // A program of `image` (the data-in beats before it); `phantom` and `source` are the die's
  // rf_phantom_o / rf_source_o fields that cycle.
  void OnProgram(uint64_t t, uint32_t k, uint32_t plane, uint32_t block, uint32_t page,
                 const std::vector<uint8_t>& image, uint32_t phantom, uint32_t source);
  void OnErase(uint64_t t, uint32_t k, uint32_t plane, uint32_t block);
  // A remap moves logical block (die, l, b) to (plane, block).
  void OnRemap(uint64_t t, uint32_t die, uint32_t l, uint32_t b, uint32_t plane, uint32_t block);

  // A response of status `st` to `address`; `line()` gives the line the lane carries (read only
  // for a served address), as a std::vector<uint8_t> or a reference to one.
  template <class Line>
  void OnResponse(uint64_t t, uint64_t address, flint::Status st, Line&& line, ResponseErrors* r) {
    if (Served(t, address, st)) CheckServed(t, address, st, line(), r);
  }

  // A broken rule, with the cycle (and address) it was seen at.
  void Violation(uint64_t t, const std::string& what, uint64_t address);
  void Violation(uint64_t t, const std::string& what);
  // A broken rule of the stimulus, recorded as it is.
  void Record(std::string what) { violations_.push_back(std::move(what)); }

  const std::vector<std::string>& violations() const { return violations_; }
  uint64_t copies() const { return copies_; }
  uint64_t poisoned_copy_lines() const { return poisoned_copy_lines_; }
  // Copied lines equal to a miscorrected read's decode, re-encoded (what SEC-DED cannot see).
  uint64_t miscorrected_copy_lines() const { return miscorrected_copy_lines_; }
  uint64_t scrub_uncorrectable_lines() const { return scrub_uncorr_; }
  uint64_t remaps() const { return remaps_; }
  uint64_t refresh_erases() const { return refresh_erases_; }
  uint64_t loaded() const { return loaded_; }

 private:
  using Key = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>;
  static uint64_t Key3(uint32_t d, uint32_t l, uint32_t b) {
    return (uint64_t{d} << 40) | (uint64_t{l} << 20) | b;
  }
  struct Held {
    std::vector<Content> pages;  // what the block held before its in-place erase
    uint32_t next = 0;           // the page to program back next
  };
  // What a read-port data-out predicts of the response that carries its line: the SEC-DED
  // model's decode, and what Beyond() needs to judge the raw line against the cells, should the
  // data differ from the weights (rare, so judged then, not at every data-out).
  struct Pred {
    flint::Status status = flint::Status::kOk;
    std::vector<uint8_t> data;  // decoded
    std::vector<uint8_t> raw;   // the line as the die returned it
    uint32_t offset = 0;        // its image offset in the page
    bool sensed = false;        // the die's cache buffer held a sensed page
    Content cells;              // what that page held, by the shadow, at the data-out
  };
  // A FIFO of predictions whose slots (and their buffers) are reused: no allocation per line.
  class PredQueue {
   public:
    bool empty() const { return size_ == 0; }
    void clear() { head_ = size_ = 0; }
    Pred& Push() {
      if (size_ == slots_.size()) {
        std::rotate(slots_.begin(), slots_.begin() + static_cast<std::ptrdiff_t>(head_),
                    slots_.end());
        head_ = 0;
        slots_.resize(std::max<size_t>(4, 2 * slots_.size()));
      }
      return slots_[(head_ + size_++) % slots_.size()];
    }
    const Pred& front() const { return slots_[head_]; }
    void pop_front() {
      head_ = (head_ + 1) % slots_.size();
      --size_;
    }

   private:
    std::vector<Pred> slots_;
    size_t head_ = 0, size_ = 0;
  };

  // False (and the status checked) when `address` is not served from the dies.
  bool Served(uint64_t t, uint64_t address, flint::Status st);
  void CheckServed(uint64_t t, uint64_t address, flint::Status st, const std::vector<uint8_t>& got,
                   ResponseErrors* r);
  bool Beyond(const Pred& p) const;
  flint::model::BlockPage PlacePadded(uint64_t burst, uint64_t n) const;
  Content MatchCopy(uint64_t t, uint32_t die, uint32_t source, uint32_t page,
                    const std::vector<uint8_t>& img);
  std::vector<uint8_t> PoisonedLines(const std::vector<uint8_t>& img) const;
  // Every line of `img` is c's line, poisoned, or a miscorrected read's decode of that line of
  // (die, plane, block, page) re-encoded.
  bool IsCopyOf(const std::vector<uint8_t>& img, const Content& c,
                const std::vector<uint8_t>& poisoned_line, const Key& at);
  // A line read at image offset `off` of the page at `addr` decoded (not uncorrectable) to
  // `data`: if that is not what the cells hold, keeps its re-encoded image for the copy check.
  void NoteMiscorrection(uint32_t die, const flint::model::PageAddr& addr, uint64_t off,
                         const uint8_t* data, uint64_t bytes);
  void ForgetMiscorrections(uint32_t die, uint32_t plane, uint32_t block);
  Content MatchInPlace(uint64_t t, uint32_t die, uint32_t plane, uint32_t block, uint32_t page,
                       const std::vector<uint8_t>& img);

  flint::Config cfg_;
  uint32_t generation_;
  flint::model::BurstPlacement placement_;
  bool in_place_;
  std::vector<PredQueue> pred_;
  std::vector<uint8_t> want_;       // a served line's weights, refilled per response
  std::vector<uint8_t> scrub_buf_;  // a maintenance line's decoded data (only its status counts)
  std::map<Key, Content> shadow_;
  std::map<uint64_t, std::pair<uint32_t, uint32_t>> map_;  // (die, l, b) -> (plane, block)
  std::map<uint64_t, Held> held_;                          // (die, plane, block) in refresh
  // (die, plane, block, page, line) -> the distinct re-encoded images of its miscorrected reads;
  // cleared when the block is erased.
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t>,
           std::vector<std::vector<uint8_t>>>
      miscorrected_;
  std::vector<uint8_t> clean_;  // a line's weights, refilled per note
  std::vector<std::string> violations_;
  bool loading_ = false;
  uint64_t loaded_n_ = 0, loaded_ = 0, live_ = 0, total_ = 0;
  uint64_t prog_k_ = 0;
  uint32_t prog_s_ = 0;
  uint64_t copies_ = 0, poisoned_copy_lines_ = 0, scrub_uncorr_ = 0, remaps_ = 0;
  uint64_t miscorrected_copy_lines_ = 0;
  uint64_t refresh_erases_ = 0;
};

}  // namespace flint::verif::top
