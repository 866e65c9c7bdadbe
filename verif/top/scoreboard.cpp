#include "verif/top/scoreboard.hpp"

#include <algorithm>
#include <sstream>

#include "model/ecc/secded.hpp"
#include "model/nand/page_content.hpp"

namespace flint::verif::top {

using flint::Status;
using flint::model::PageTag;
using flint::model::PlaneBlock;

TopScoreboard::TopScoreboard(const flint::Config& cfg, const TopOptions& opt)
    : cfg_(cfg),
      generation_(opt.generation),
      placement_(opt.placement),
      in_place_(opt.in_place),
      pred_(cfg.dies),
      want_(cfg.cl_bytes) {}

void TopScoreboard::PowerUp() {
  loaded_ = loaded_n_ = 0;
  for (uint32_t k = 0; k < cfg_.dies; ++k) {
    for (uint32_t l = 0; l < cfg_.planes; ++l) {
      for (uint32_t b = 0; b < cfg_.blocks; ++b) map_[Key3(k, l, b)] = {l, b};
    }
  }
  held_.clear();  // a refresh cut short: its block is erased or half programmed, and unused
  for (auto& q : pred_) q.clear();
}

void TopScoreboard::StartLoad(uint64_t bursts) {
  loaded_n_ = bursts;
  live_ = flint::model::LiveBlocks(bursts, cfg_.pages);
  total_ = live_ * cfg_.pages;
  prog_k_ = prog_s_ = 0;
  loading_ = true;
}

void TopScoreboard::StartMount(uint64_t bursts) {
  loaded_n_ = bursts;
  live_ = flint::model::LiveBlocks(bursts, cfg_.pages);
  total_ = live_ * cfg_.pages;
  shadow_.clear();
}

Content TopScoreboard::Logical(uint64_t burst, uint32_t slice) const {
  Content c;
  c.kind = burst < loaded_n_ ? Content::kTag : Content::kPad;
  c.tag = PageTag{burst, slice, generation_};
  return c;
}

uint64_t TopScoreboard::BurstAt(uint32_t block, uint32_t page) const {
  if (placement_ == flint::model::BurstPlacement::kLinear) {
    return uint64_t{block} * cfg_.pages + page;
  }
  return uint64_t{page} * live_ + block;
}

std::vector<uint8_t> TopScoreboard::ImageOf(const Content& c) const {
  if (c.kind == Content::kTag) {
    return flint::model::ExpectedPageImage(cfg_, c.tag, flint::model::SecdedEncode);
  }
  const std::vector<uint8_t> zeros(cfg_.page_bytes, 0);
  if (c.kind == Content::kPad) {
    return flint::model::ImageFromData(zeros, flint::model::SecdedEncode);
  }
  return std::vector<uint8_t>(cfg_.page_image_bytes, 0xFF);
}

// Every (die, logical plane) of a burst sense must read a page that holds the burst's slice.
void TopScoreboard::OnSense(uint64_t t, uint32_t die, const std::vector<PlaneBlock>& stripe,
                            uint32_t page, bool sense, uint64_t burst) {
  if (!sense) {
    Violation(t, "a burst sense without sense_o");
    return;
  }
  for (uint32_t l = 0; l < cfg_.planes; ++l) {
    const Content want = Logical(burst, die * static_cast<uint32_t>(cfg_.planes) + l);
    const Content have = Shadow(die, stripe[l].plane, stripe[l].block, page);
    if (have != want) {
      Violation(t, "burst " + std::to_string(burst) + " senses die " + std::to_string(die) +
                       " plane " + std::to_string(stripe[l].plane) + " block " +
                       std::to_string(stripe[l].block) + " page " + std::to_string(page) +
                       ", which does not hold its slice");
    }
  }
}

// Per line: the SEC-DED model's decode (into a reused slot), and what the cells held, for
// Beyond() should the response's data differ from the weights.
void TopScoreboard::OnDataOut(const flint::model::NandDie& die_model, uint32_t k, uint32_t plane,
                              uint32_t off, const std::vector<uint8_t>& img, bool maintenance) {
  const flint::model::SensedPage* cb = die_model.CacheBuffer(plane);
  if (maintenance) {
    scrub_buf_.resize(img.size() / flint::model::kCodewordBytes * flint::model::kWordBytes);
    const Status st = flint::model::DecodeImageInto(img.data(), img.size(), scrub_buf_.data());
    scrub_uncorr_ += st == Status::kUncorrectable;
    if (st != Status::kUncorrectable && cb != nullptr) {
      NoteMiscorrection(k, cb->addr, off, scrub_buf_.data(), scrub_buf_.size());
    }
    return;
  }
  Pred& p = pred_[k].Push();
  p.data.resize(img.size() / flint::model::kCodewordBytes * flint::model::kWordBytes);
  p.status = flint::model::DecodeImageInto(img.data(), img.size(), p.data.data());
  p.raw.assign(img.begin(), img.end());
  p.offset = off;
  p.sensed = cb != nullptr;
  p.cells = p.sensed ? Shadow(k, cb->addr.plane, cb->addr.block, cb->addr.page) : Content{};
  // A foreground line feeds the refresh fork as decoded: a miscorrection may be copied.
  if (p.sensed && p.status != Status::kUncorrectable) {
    NoteMiscorrection(k, cb->addr, off, p.data.data(), p.data.size());
  }
}

void TopScoreboard::NoteMiscorrection(uint32_t die, const flint::model::PageAddr& addr,
                                      uint64_t off, const uint8_t* data, uint64_t bytes) {
  const Content& c = Shadow(die, addr.plane, addr.block, addr.page);
  if (c.kind == Content::kErased) return;  // no line to judge (a sense check reports it)
  const uint64_t line_img = cfg_.cl_image_bytes;
  for (uint64_t at = 0; at < bytes; at += cfg_.cl_bytes) {
    const uint64_t line = off / line_img + at / cfg_.cl_bytes;
    clean_.assign(cfg_.cl_bytes, 0);  // a pad page holds zeros
    if (c.kind == Content::kTag) {
      flint::model::TagBytes(c.tag, line * cfg_.cl_bytes, cfg_.cl_bytes, clean_.data());
    }
    if (std::equal(clean_.begin(), clean_.end(), data + at)) continue;
    // Beyond the code: the copy programs this decode with fresh check bytes.
    std::vector<uint8_t> img(line_img);
    for (uint64_t w = 0; w < cfg_.cl_bytes / flint::model::kWordBytes; ++w) {
      std::copy_n(data + at + w * flint::model::kWordBytes, flint::model::kWordBytes,
                  &img[w * flint::model::kCodewordBytes]);
      img[w * flint::model::kCodewordBytes + flint::model::kWordBytes] =
          flint::model::SecdedEncode(flint::model::LoadWord(data + at, w));
    }
    auto& seen =
        miscorrected_[{die, addr.plane, addr.block, addr.page, static_cast<uint32_t>(line)}];
    if (std::find(seen.begin(), seen.end(), img) == seen.end()) seen.push_back(std::move(img));
  }
}

// A line read has more errors in one word than SEC-DED detects for sure (>= 3): the code may
// miscorrect it. Judged from the cells' clean image, which the shadow knew at the data-out.
bool TopScoreboard::Beyond(const Pred& p) const {
  if (!p.sensed) return false;
  const std::vector<uint8_t> clean = ImageOf(p.cells);
  const std::vector<uint8_t>& img = p.raw;
  for (size_t w = 0; w + 9 <= img.size(); w += 9) {
    int flips = 0;
    for (size_t i = 0; i < 9; ++i) {
      flips += __builtin_popcount(img[w + i] ^ clean[p.offset + w + i]);
    }
    if (flips >= 3) return true;
  }
  return false;
}

void TopScoreboard::OnProgram(uint64_t t, uint32_t k, uint32_t plane, uint32_t block, uint32_t page,
                              const std::vector<uint8_t>& image, uint32_t phantom,
                              uint32_t source) {
  Content c;
  if (loading_) {
    // The loader's pages come in stream order: burst k, slice s.
    const uint64_t n = loaded_n_;
    const auto want_slice = static_cast<uint32_t>(prog_s_);
    const uint32_t want_die = want_slice / static_cast<uint32_t>(cfg_.planes);
    const uint32_t want_plane = want_slice % static_cast<uint32_t>(cfg_.planes);
    const flint::model::BlockPage bp = PlacePadded(prog_k_, n);
    if (k != want_die || plane != want_plane || block != bp.block || page != bp.page) {
      Violation(t, "load programs die " + std::to_string(k) + " plane " + std::to_string(plane) +
                       " block " + std::to_string(block) + " page " + std::to_string(page) +
                       " for burst " + std::to_string(prog_k_) + " slice " +
                       std::to_string(prog_s_));
    }
    c = Logical(prog_k_, want_slice);
    if (image != ImageOf(c)) Violation(t, "load programs a page with the wrong image");
    if (++prog_s_ == cfg_.dies * cfg_.planes) {
      prog_s_ = 0;
      ++prog_k_;
    }
  } else if (in_place_) {
    c = MatchInPlace(t, k, plane, block, page, image);
    ++copies_;
  } else {
    if (plane != phantom) Violation(t, "a refresh program outside the phantom plane");
    c = MatchCopy(t, k, source, page, image);
    ++copies_;
  }
  Shadow(k, plane, block, page) = c;
}

// The loader places pad bursts past n with the same function, over whole live blocks.
flint::model::BlockPage TopScoreboard::PlacePadded(uint64_t burst, uint64_t n) const {
  const uint64_t live = flint::model::LiveBlocks(n, cfg_.pages);
  if (placement_ == flint::model::BurstPlacement::kLinear) {
    return {static_cast<uint32_t>(burst / cfg_.pages), static_cast<uint32_t>(burst % cfg_.pages)};
  }
  return {static_cast<uint32_t>(burst % live), static_cast<uint32_t>(burst / live)};
}

// A refresh copy is page `page` of some block of the source plane: every line either clean,
// or poisoned (the data as read, every word's check byte its code flipped in the two low bits,
// so it reads back uncorrectable).
Content TopScoreboard::MatchCopy(uint64_t t, uint32_t die, uint32_t source, uint32_t page,
                                 const std::vector<uint8_t>& img) {
  const std::vector<uint8_t> poisoned_line = PoisonedLines(img);
  for (uint32_t x = 0; x < cfg_.blocks; ++x) {
    const Content c = Shadow(die, source, x, page);
    if (c.kind == Content::kErased) continue;
    if (IsCopyOf(img, c, poisoned_line, Key{die, source, x, page})) return c;
  }
  Violation(t, "die " + std::to_string(die) + ": a refresh program of page " +
                   std::to_string(page) + " that copies no page of source plane " +
                   std::to_string(source));
  return Content{};
}

std::vector<uint8_t> TopScoreboard::PoisonedLines(const std::vector<uint8_t>& img) const {
  std::vector<uint8_t> poisoned(cfg_.cl_per_page, 1);
  for (uint64_t l = 0; l < cfg_.cl_per_page; ++l) {
    for (uint64_t w = 0; w < cfg_.cl_image_bytes / 9; ++w) {
      const uint64_t o = l * cfg_.cl_image_bytes + w * 9;
      const uint64_t word = flint::model::LoadWord(&img[o], 0);
      poisoned[l] &= img[o + 8] == (flint::model::SecdedEncode(word) ^ 0x03);
    }
  }
  return poisoned;
}

// Every line of `img` is c's line, poisoned (counted in poisoned_copy_lines), or a miscorrected
// read of it re-encoded (counted in miscorrected_copy_lines).
bool TopScoreboard::IsCopyOf(const std::vector<uint8_t>& img, const Content& c,
                             const std::vector<uint8_t>& poisoned_line, const Key& at) {
  const uint64_t line_img = cfg_.cl_image_bytes;
  const std::vector<uint8_t> want = ImageOf(c);
  uint64_t poisoned = 0, miscorrected = 0;
  for (uint64_t l = 0; l < cfg_.cl_per_page; ++l) {
    const auto first = img.begin() + static_cast<std::ptrdiff_t>(l * line_img);
    const auto last = first + static_cast<std::ptrdiff_t>(line_img);
    if (std::equal(first, last, want.begin() + static_cast<std::ptrdiff_t>(l * line_img))) {
      continue;
    }
    if (poisoned_line[l]) {
      ++poisoned;
      continue;
    }
    const auto it = miscorrected_.find({std::get<0>(at), std::get<1>(at), std::get<2>(at),
                                        std::get<3>(at), static_cast<uint32_t>(l)});
    if (it == miscorrected_.end() ||
        std::none_of(it->second.begin(), it->second.end(), [&](const std::vector<uint8_t>& m) {
          return std::equal(first, last, m.begin());
        })) {
      return false;
    }
    ++miscorrected;
  }
  poisoned_copy_lines_ += poisoned;
  miscorrected_copy_lines_ += miscorrected;
  return true;
}

// An in-place program: the next page of a block the refresh erased, with what it held.
Content TopScoreboard::MatchInPlace(uint64_t t, uint32_t die, uint32_t plane, uint32_t block,
                                    uint32_t page, const std::vector<uint8_t>& img) {
  const std::string where = "die " + std::to_string(die) + " plane " + std::to_string(plane) +
                            " block " + std::to_string(block) + " page " + std::to_string(page);
  auto it = held_.find(Key3(die, plane, block));
  if (it == held_.end() || page != it->second.next) {
    Violation(t, "an in-place program of " + where + " out of order or of a block not refreshed");
    return Content{};
  }
  const Content c = it->second.pages.at(page);
  if (c.kind != Content::kErased &&
      !IsCopyOf(img, c, PoisonedLines(img), Key{die, plane, block, page})) {
    Violation(t, "an in-place program of " + where + " that is not what it held");
  }
  if (++it->second.next == cfg_.pages) {
    held_.erase(it);
    ForgetMiscorrections(die, plane, block);
  }
  return c;
}

void TopScoreboard::OnErase(uint64_t t, uint32_t k, uint32_t plane, uint32_t block) {
  if (!loading_ && in_place_) {
    ++refresh_erases_;
    Held h;
    for (uint32_t pg = 0; pg < cfg_.pages; ++pg) h.pages.push_back(Shadow(k, plane, block, pg));
    if (held_.count(Key3(k, plane, block)) != 0) {
      Violation(t, "die " + std::to_string(k) + ": in-place erase of plane " +
                       std::to_string(plane) + " block " + std::to_string(block) +
                       " before its pages were programmed back");
    }
    held_[Key3(k, plane, block)] = h;
  } else if (!loading_) {
    ++refresh_erases_;
    for (uint32_t l = 0; l < cfg_.planes; ++l) {
      for (uint32_t b = 0; b < cfg_.blocks; ++b) {
        const auto& m = map_.at(Key3(k, l, b));
        if (m.first == plane && m.second == block) {
          Violation(t, "die " + std::to_string(k) + ": erase of plane " + std::to_string(plane) +
                           " block " + std::to_string(block) + ", which logical block " +
                           std::to_string(b) + " still maps to");
        }
      }
    }
  }
  for (uint32_t pg = 0; pg < cfg_.pages; ++pg) Shadow(k, plane, block, pg) = Content{};
  // The block's miscorrected reads go with its cells; an in-place refresh programs them back
  // (MatchInPlace) and forgets them with its last page.
  if (!(!loading_ && in_place_)) ForgetMiscorrections(k, plane, block);
}

void TopScoreboard::ForgetMiscorrections(uint32_t die, uint32_t plane, uint32_t block) {
  miscorrected_.erase(miscorrected_.lower_bound({die, plane, block, 0, 0}),
                      miscorrected_.lower_bound({die, plane, block + 1, 0, 0}));
}

// A remap moves a logical block to a block that holds every page of it.
void TopScoreboard::OnRemap(uint64_t t, uint32_t die, uint32_t l, uint32_t b, uint32_t plane,
                            uint32_t block) {
  ++remaps_;
  auto& m = map_.at(Key3(die, l, b));
  for (uint32_t pg = 0; pg < cfg_.pages; ++pg) {
    if (Shadow(die, plane, block, pg) != Shadow(die, m.first, m.second, pg)) {
      Violation(t, "die " + std::to_string(die) + ": remap of logical block " + std::to_string(b) +
                       " to plane " + std::to_string(plane) + " block " + std::to_string(block) +
                       " whose page " + std::to_string(pg) + " is not a copy");
      break;
    }
  }
  m = {plane, block};
}

bool TopScoreboard::Served(uint64_t t, uint64_t address, Status st) {
  if (address >= cfg_.stack_bytes) {
    if (st != Status::kOutOfRange) {
      Violation(t, "address past the stack not OUT_OF_RANGE", address);
    }
    return false;
  }
  const uint64_t burst = address / cfg_.burst_bytes;
  if (burst >= loaded_) {
    if (st != Status::kNotLoaded) Violation(t, "unloaded address not NOT_LOADED", address);
    return false;
  }
  return true;
}

// The response's line against the SEC-DED model's decode of what the die returned, and the
// loaded weights.
void TopScoreboard::CheckServed(uint64_t t, uint64_t address, Status st,
                                const std::vector<uint8_t>& got, ResponseErrors* r) {
  const uint64_t burst = address / cfg_.burst_bytes;
  const uint64_t in_burst = address % cfg_.burst_bytes;
  const auto slice = static_cast<uint32_t>(in_burst / cfg_.page_bytes);
  const uint32_t die = slice / static_cast<uint32_t>(cfg_.planes);
  if (pred_[die].empty()) {
    Violation(t, "a served response with no line read from its die", address);
    return;
  }
  const Pred& p = pred_[die].front();
  if (p.status != st || (st != Status::kUncorrectable && p.data != got)) {
    ++r->model_mismatches;
    Violation(t, "response differs from the SEC-DED decode of the raw line", address);
  }
  if (st == Status::kOk || st == Status::kCorrected) {
    flint::model::TagBytes(PageTag{burst, slice, generation_},
                           in_burst % cfg_.page_bytes / cfg_.cl_bytes * cfg_.cl_bytes,
                           cfg_.cl_bytes, want_.data());
    if (got != want_) {
      if (Beyond(p)) {
        ++r->beyond_code;
      } else {
        ++r->data_mismatches;
      }
    }
  }
  pred_[die].pop_front();
}

void TopScoreboard::Violation(uint64_t t, const std::string& what, uint64_t address) {
  std::ostringstream os;
  os << "cycle " << t << ": " << what << " (address 0x" << std::hex << address << ")";
  violations_.push_back(os.str());
}

void TopScoreboard::Violation(uint64_t t, const std::string& what) {
  violations_.push_back("cycle " + std::to_string(t) + ": " + what);
}

}  // namespace flint::verif::top
