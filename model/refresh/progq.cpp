#include "model/refresh/progq.hpp"

#include <stdexcept>
#include <string>

namespace flint::model {

ProgramQueue::ProgramQueue(uint32_t slots, uint32_t lines, uint32_t line_bytes,
                           uint32_t fork_reserve)
    : slots_(slots), lines_(lines), line_bytes_(line_bytes), fork_reserve_(fork_reserve) {
  if (slots < 2 || lines == 0 || line_bytes == 0 || fork_reserve >= slots) {
    throw std::invalid_argument("program queue: " + std::to_string(slots) + " slots of " +
                                std::to_string(lines) + " lines of " +
                                std::to_string(line_bytes) + " B, fork reserve " +
                                std::to_string(fork_reserve) + " is not a queue");
  }
}

ProgramQueue::Page ProgramQueue::NewPage(uint32_t block, uint32_t page, ProgqSource source) const {
  Page p;
  p.block = block;
  p.page = page;
  p.source = source;
  p.data.assign(lines_, {});
  p.written.assign(lines_, false);
  p.missing = lines_;
  return p;
}

void ProgramQueue::Allocate() {
  ++in_use_;
  if (in_use_ > stats_.high_water) stats_.high_water = in_use_;
}

bool ProgramQueue::ForkOpen(uint32_t block, uint32_t page) {
  if (fork_) throw std::logic_error("program queue: fork open while a fork page is open");
  if (!fork_room()) {
    ++stats_.dropped;
    return false;
  }
  Allocate();
  fork_ = NewPage(block, page, ProgqSource::kFork);
  return true;
}

void ProgramQueue::ScrubOpen(uint32_t block, uint32_t page) {
  if (scrub_) throw std::logic_error("program queue: scrubber open while a scrub page is open");
  if (!scrub_room()) {
    throw std::logic_error("program queue: scrubber open without room (" +
                           std::to_string(slots_ - in_use_) + " free, reserve " +
                           std::to_string(fork_reserve_) + ")");
  }
  Allocate();
  scrub_ = NewPage(block, page, ProgqSource::kScrub);
}

bool ProgramQueue::WriteLine(std::optional<Page>& ctx, uint32_t line,
                             const std::vector<uint8_t>& data) {
  if (!ctx) return false;
  if (line >= lines_ || data.size() != line_bytes_) {
    throw std::logic_error("program queue: line " + std::to_string(line) + " of " +
                           std::to_string(data.size()) + " B outside a page of " +
                           std::to_string(lines_) + " x " + std::to_string(line_bytes_) + " B");
  }
  if (ctx->written[line]) {
    throw std::logic_error("program queue: line " + std::to_string(line) + " of (block " +
                           std::to_string(ctx->block) + ", page " + std::to_string(ctx->page) +
                           ") written twice");
  }
  ctx->written[line] = true;
  ctx->data[line] = data;
  if (--ctx->missing != 0) return false;
  (ctx->source == ProgqSource::kFork ? stats_.enq_fork : stats_.enq_scrub)++;
  committed_.push_back(std::move(*ctx));
  ctx.reset();
  return true;
}

bool ProgramQueue::ForkLine(uint32_t line, const std::vector<uint8_t>& data) {
  return WriteLine(fork_, line, data);
}

bool ProgramQueue::ScrubLine(uint32_t line, const std::vector<uint8_t>& data) {
  return WriteLine(scrub_, line, data);
}

void ProgramQueue::Cancel(std::optional<Page>& ctx) {
  if (!ctx) return;
  ctx.reset();
  --in_use_;
  ++stats_.cancelled;
}

void ProgramQueue::ForkCancel() { Cancel(fork_); }
void ProgramQueue::ScrubCancel() { Cancel(scrub_); }

ProgqBeat ProgramQueue::TakeBeat() {
  if (committed_.empty()) throw std::logic_error("program queue: no committed page to take");
  const Page& p = committed_.front();
  ProgqBeat b;
  b.block = p.block;
  b.page = p.page;
  b.source = p.source;
  b.line = next_line_;
  b.last = next_line_ + 1 == lines_;
  b.data = p.data[next_line_];
  if (b.last) {
    committed_.pop_front();
    next_line_ = 0;
    --in_use_;
    ++stats_.programmed;
  } else {
    ++next_line_;
  }
  return b;
}

}  // namespace flint::model
