// flint_nand_seq driving a NandDie model through a cycle-level bridge: the die model refuses any
// illegal command (busy plane, cache buffer being read out, I/O busy), so every test is also a
// check that the sequencer obeys busy/ready. Directed: a burst pipeline (Read, CacheRead...,
// CacheEnd) with every line of every plane read out and compared with what load wrote, at the
// cache-read period; a cache move offered while lines are still wanted waits for them; a Read
// does not hold back the lines of the page being served. Seeded random: burst commands and line
// requests offered at random times and in random order.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <sstream>
#include <vector>

#include "Vseq_paper.h"
#include "Vseq_small.h"
#include "flint_config.hpp"
#include "model/ecc/secded.hpp"
#include "model/nand/nand_die.hpp"
#include "model/nand/page_content.hpp"
#include "tb/common/harness.hpp"
#include "tb/common/ports.hpp"
#include "tb/common/seed.hpp"
#include "tb/ftl/ftl_tb.hpp"

namespace {

using flint::Config;
using flint::model::NandCmd;
using flint::model::NandDie;
using flint::model::PageTag;
using flint::model::PlaneBlock;
using flint::tb::Bits;

struct Burst {
  uint32_t block = 0, page = 0;
};

// One die behind the sequencer: a NandDie loaded with tagged pages, the readiness inputs it
// gives the RTL each cycle, the commands the RTL issues applied at the current cycle, and
// data-outs delivered when the die I/O finishes them.
template <class Dut>
class SeqBench {
 public:
  SeqBench(const Config& cfg, uint32_t seed)
      : cfg_(cfg), h_(seed, "nand_seq"), die_(cfg, 0, seed, Quiet()) {
    die_.SetSpareFn(flint::model::SecdedEncode);
    uint64_t t = 0;
    for (uint32_t blk = 0; blk < cfg.blocks; ++blk) {
      for (uint32_t p = 0; p < cfg.planes; ++p) {
        t = std::max({t, die_.PlaneReadyAt(p), die_.IoBusyUntil()});
        REQUIRE(die_.ProgramBlockTagged(p, blk, Tag(blk, 0, p), static_cast<uint32_t>(cfg.pages), t)
                    .pass);
      }
    }
    for (uint32_t p = 0; p < cfg.planes; ++p) t = std::max(t, die_.PlaneReadyAt(p));
    start_ = t;
    flint::tb::ResetFromHigh(h_);
  }
  static flint::model::NandOptions Quiet() {
    flint::model::NandOptions o;
    o.reliability.base_rber = 0;  // exact data: the test compares images bit for bit
    o.reliability.rber_at_limit = 0;
    return o;
  }
  PageTag Tag(uint32_t block, uint32_t page, uint32_t plane) const {
    return PageTag{uint64_t{block} * cfg_.pages + page, plane, 0};
  }
  uint64_t Now() const { return start_ + h_.cycle(); }

  // What the TB wants this cycle.
  struct Want {
    std::optional<std::pair<NandCmd, Burst>> bcmd;
    std::optional<std::pair<uint32_t, uint32_t>> line;  // plane, line
    uint32_t tag = 0;
  };
  struct Got {
    bool bcmd_taken = false, line_taken = false;
    std::optional<std::pair<uint32_t, std::vector<uint8_t>>> rsp;  // tag, image
  };

  Got Step(const Want& w) {
    auto& d = h_.dut();
    const uint64_t now = Now();
    bool array_ready = true, cache_ready = true;
    for (uint32_t p = 0; p < cfg_.planes; ++p) {
      array_ready = array_ready && !die_.PlaneBusy(p, now);
      cache_ready = cache_ready && die_.CacheBuffer(p) != nullptr && die_.CacheReadyAt(p) <= now;
    }
    d.die_array_ready_i = array_ready;
    d.die_io_ready_i = die_.IoBusyUntil() <= now;
    d.die_cache_ready_i = cache_ready;
    d.die_data_valid_i = pending_ && pending_->first <= now;
    if (pending_) SetWide(d.die_data_i, pending_->second);
    d.bcmd_valid_i = w.bcmd.has_value();
    d.bcmd_op_i = w.bcmd ? static_cast<uint32_t>(w.bcmd->first) : 0;
    d.bcmd_page_i = w.bcmd ? w.bcmd->second.page : 0;
    std::vector<uint32_t> planes, blocks;
    const uint32_t pb = Bits(cfg_.phys_planes), bb = Bits(cfg_.blocks);
    for (uint32_t p = 0; p < cfg_.planes; ++p) {
      PutBits(&planes, p * pb, pb, p);
      PutBits(&blocks, p * bb, bb, w.bcmd ? w.bcmd->second.block : 0);
    }
    SetPort(d.bcmd_planes_i, planes);
    SetPort(d.bcmd_blocks_i, blocks);
    d.line_valid_i = w.line.has_value();
    d.line_plane_i = w.line ? w.line->first : 0;
    d.line_idx_i = w.line ? w.line->second : 0;
    d.line_tag_i = w.tag;
    h_.Eval();
    Got g;
    if (d.line_rsp_valid_o) {
      REQUIRE(pending_.has_value());
      g.rsp = std::make_pair(static_cast<uint32_t>(d.line_rsp_tag_o), GetWide(d.line_rsp_data_o));
      REQUIRE(g.rsp->second == pending_->second);
      pending_.reset();
    }
    if (d.nand_valid_o) {
      const auto op = static_cast<NandCmd>(d.nand_op_o);
      // The stripe as the RTL drives it: each plane's physical plane and block.
      std::vector<PlaneBlock> targets;
      std::vector<uint32_t> plane_list;
      for (uint32_t p = 0; p < cfg_.planes; ++p) {
        const auto phys = static_cast<uint32_t>(GetBits(d.nand_planes_o, p * pb, pb));
        const auto blk = static_cast<uint32_t>(GetBits(d.nand_blocks_o, p * bb, bb));
        targets.push_back({phys, blk});
        plane_list.push_back(phys);
      }
      // Any illegal command throws a NandError naming it: the sequencer broke busy/ready.
      switch (op) {
        case NandCmd::kRead:
          REQUIRE(d.bcmd_ready_o);
          die_.Read(targets, d.nand_page_o, now);
          ++issued_[0];
          g.bcmd_taken = true;
          break;
        case NandCmd::kCacheRead:
          die_.CacheRead(targets, d.nand_page_o, now);
          ++issued_[1];
          g.bcmd_taken = true;
          break;
        case NandCmd::kCacheEnd:
          die_.CacheEnd(plane_list, now);
          ++issued_[2];
          g.bcmd_taken = true;
          break;
        case NandCmd::kDataOut: {
          REQUIRE(d.line_ready_o);
          REQUIRE(d.nand_nbytes_o == cfg_.cl_image_bytes);
          std::vector<uint8_t> img(cfg_.cl_image_bytes);
          const uint64_t free_at =
              die_.DataOut(d.nand_plane_o, d.nand_offset_o, d.nand_nbytes_o, now, img.data());
          pending_ = std::make_pair(std::max(free_at, now + 1), img);
          g.line_taken = true;
          ++issued_[3];
          break;
        }
        default:
          FAIL("sequencer issued opcode " << static_cast<int>(op));
      }
      REQUIRE(g.bcmd_taken == static_cast<bool>(d.bcmd_ready_o));
      REQUIRE(g.line_taken == static_cast<bool>(d.line_ready_o));
    } else {
      REQUIRE_FALSE(d.bcmd_ready_o);
      REQUIRE_FALSE(d.line_ready_o);
    }
    h_.Tick();
    REQUIRE_FALSE(h_.Failed());
    return g;
  }

  const Config& cfg() const { return cfg_; }
  uint64_t cycle() const { return h_.cycle(); }
  uint64_t issued(int k) const { return issued_[k]; }

 private:
  template <class W>
  static void SetWide(W& w, const std::vector<uint8_t>& bytes) {
    for (size_t i = 0; i < bytes.size(); i += 4) {
      uint32_t v = 0;
      for (size_t k = 0; k < 4 && i + k < bytes.size(); ++k) v |= uint32_t{bytes[i + k]} << (8 * k);
      w[i / 4] = v;
    }
  }
  template <class W>
  static std::vector<uint8_t> GetWide(const W& w) {
    std::vector<uint8_t> out(sizeof(w.m_storage) / sizeof(w.m_storage[0]) * 4);
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(w[i / 4] >> (8 * (i % 4)));
    return out;
  }
  template <class T>
  static uint64_t GetBits(const T& port, uint32_t pos, uint32_t width) {
    uint64_t v = 0;
    for (uint32_t i = 0; i < width; ++i) {
      const uint32_t bit = pos + i;
      uint32_t word;
      if constexpr (sizeof(T) <= 8) {
        word = static_cast<uint32_t>(static_cast<uint64_t>(port) >> (32 * (bit / 32)));
      } else {
        word = port[bit / 32];
      }
      v |= uint64_t{(word >> (bit % 32)) & 1u} << i;
    }
    return v;
  }
  static void PutBits(std::vector<uint32_t>* words, uint32_t pos, uint32_t width, uint64_t v) {
    for (uint32_t i = 0; i < width; ++i) {
      const uint32_t bit = pos + i;
      if (words->size() <= bit / 32) words->resize(bit / 32 + 1, 0);
      if ((v >> i) & 1u) (*words)[bit / 32] |= uint32_t{1} << (bit % 32);
    }
  }
  template <class T>
  static void SetPort(T& port, const std::vector<uint32_t>& words) {
    if constexpr (sizeof(T) <= 8) {
      uint64_t v = 0;
      for (size_t i = 0; i < words.size() && i < 2; ++i) v |= uint64_t{words[i]} << (32 * i);
      port = static_cast<T>(v);
    } else {
      for (size_t i = 0; i < sizeof(port.m_storage) / sizeof(port.m_storage[0]); ++i) {
        port[i] = i < words.size() ? words[i] : 0;
      }
    }
  }

  Config cfg_;
  flint::tb::Harness<Dut> h_;
  NandDie die_;
  uint64_t start_ = 0;
  std::optional<std::pair<uint64_t, std::vector<uint8_t>>> pending_;
  uint64_t issued_[4] = {0, 0, 0, 0};
};

}  // namespace

namespace {

// Acts as the BBC core: Read the first burst, then per burst a cache move (CacheRead of the
// next, CacheEnd after the last) and every line of every plane of the moved burst, in random
// order with random gaps; `overlap` offers the next cache move while lines are still wanted.
// Checks every returned line against what load wrote. Returns cycles from the first cache move.
// The sequencer cannot know more lines will come: holding the move until they are done is the
// core's rule (docs/bbc.md); the sequencer keeps the die legal and gives a line priority.
template <class Dut>
uint64_t Pipeline(SeqBench<Dut>& b, const std::vector<Burst>& bursts, std::mt19937_64& rng,
                  uint32_t gap_pct, bool overlap) {
  const Config& c = b.cfg();
  using Want = typename SeqBench<Dut>::Want;
  auto offer_bcmd = [&](NandCmd op, const Burst& x) {
    Want w;
    w.bcmd = std::make_pair(op, x);
    for (int guard = 0;; ++guard) {
      REQUIRE(guard < 100000);
      if (b.Step(w).bcmd_taken) return;
    }
  };
  offer_bcmd(NandCmd::kRead, bursts[0]);
  const uint64_t t0 = b.cycle();
  for (size_t k = 0; k < bursts.size(); ++k) {
    const bool last = k + 1 == bursts.size();
    if (last) {
      offer_bcmd(NandCmd::kCacheEnd, Burst{});
    } else {
      offer_bcmd(NandCmd::kCacheRead, bursts[k + 1]);
    }
    std::vector<std::pair<uint32_t, uint32_t>> lines;
    for (uint32_t p = 0; p < c.planes; ++p) {
      for (uint32_t l = 0; l < c.cl_per_page; ++l) lines.push_back({p, l});
    }
    std::shuffle(lines.begin(), lines.end(), rng);
    size_t next = 0, answered = 0;
    for (int guard = 0; answered < lines.size(); ++guard) {
      REQUIRE(guard < 100000);
      Want w;
      if (next < lines.size() && rng() % 100 >= gap_pct) {
        w.line = lines[next];
        w.tag = static_cast<uint32_t>(next);
      }
      // The core offers the next move only when its lines are done; offered beside a line, the
      // line goes first and the move waits (the cache buffer is being read out).
      if (overlap && !last && w.line) {
        w.bcmd = std::make_pair(k + 2 < bursts.size() ? NandCmd::kCacheRead : NandCmd::kCacheEnd,
                                k + 2 < bursts.size() ? bursts[k + 2] : Burst{});
      }
      const auto g = b.Step(w);
      REQUIRE_FALSE(g.bcmd_taken);  // lines wanted: no cache move
      if (g.line_taken) ++next;
      if (g.rsp) {
        const auto [plane, line] = lines.at(g.rsp->first);
        const auto want = flint::model::ExpectedLineImage(
            c, b.Tag(bursts[k].block, bursts[k].page, plane), line, flint::model::SecdedEncode);
        REQUIRE(g.rsp->second == want);
        ++answered;
      }
    }
  }
  return b.cycle() - t0;
}

std::vector<Burst> RandomBursts(const Config& c, std::mt19937_64& rng, size_t n) {
  std::vector<Burst> v;
  for (size_t i = 0; i < n; ++i) {
    v.push_back({static_cast<uint32_t>(rng() % c.blocks), static_cast<uint32_t>(rng() % c.pages)});
  }
  return v;
}

}  // namespace

TEST_CASE("nand seq: a burst pipeline reads every line right at the cache-read period", "[bbc]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  const Config& c = flint::kSmallConfig;
  SeqBench<Vseq_small> b(c, seed);
  const auto bursts = RandomBursts(c, rng, 12);
  const uint64_t cycles = Pipeline(b, bursts, rng, 0, false);
  REQUIRE(b.issued(0) == 1);
  REQUIRE(b.issued(1) == bursts.size() - 1);
  REQUIRE(b.issued(2) == 1);
  REQUIRE(b.issued(3) == bursts.size() * c.planes * c.cl_per_page);
  // One die: its lines take planes x cl_per_page x (cl_image_bytes / rate) cycles a burst, the
  // sense tR overlaps them; the driver adds a cycle per response round trip at each move.
  const uint64_t line_cycles = (c.cl_image_bytes + c.die_io_bytes_per_cycle - 1) /
                               c.die_io_bytes_per_cycle;
  const uint64_t drain = c.planes * c.cl_per_page * line_cycles;
  const uint64_t period = std::max(drain, c.t_read_cycles) + c.t_cache_xfer_cycles;
  INFO("cycles " << cycles << " period " << period);
  REQUIRE(cycles <= bursts.size() * (period + 4));
  REQUIRE(cycles >= bursts.size() * drain);
}

TEST_CASE("nand seq: a cache move offered beside a line waits for it", "[bbc]") {
  const uint32_t seed = flint::tb::TestSeed();
  std::mt19937_64 rng(seed);
  const Config& c = flint::kSmallConfig;
  SeqBench<Vseq_small> b(c, seed);
  Pipeline(b, RandomBursts(c, rng, 6), rng, 30, true);
  REQUIRE(b.issued(3) == 6 * c.planes * c.cl_per_page);
}

TEST_CASE("nand seq: a Read senses while the served page drains", "[bbc]") {
  const uint32_t seed = flint::tb::TestSeed();
  const Config& c = flint::kSmallConfig;
  SeqBench<Vseq_small> b(c, seed);
  using Want = SeqBench<Vseq_small>::Want;
  auto take = [&](NandCmd op, Burst x) {
    Want w;
    w.bcmd = std::make_pair(op, x);
    while (!b.Step(w).bcmd_taken) {
    }
  };
  take(NandCmd::kRead, Burst{1, 2});
  take(NandCmd::kCacheEnd, Burst{});
  // Page buffers free, cache buffers hold burst {1, 2}: offer the Read of {3, 4} with the lines.
  uint64_t lines_taken = 0, cycles = 0, answered = 0;
  bool read_taken = false;
  uint32_t next = 0;
  while (answered < c.planes * c.cl_per_page) {
    REQUIRE(++cycles < 10000);
    Want w;
    if (!read_taken) w.bcmd = std::make_pair(NandCmd::kRead, Burst{3, 4});
    if (next < c.planes * c.cl_per_page) {
      w.line = std::make_pair(next / static_cast<uint32_t>(c.cl_per_page),
                              next % static_cast<uint32_t>(c.cl_per_page));
      w.tag = next;
    }
    const auto g = b.Step(w);
    read_taken = read_taken || g.bcmd_taken;
    if (g.line_taken) {
      ++next;
      ++lines_taken;
    }
    if (g.rsp) {
      const uint32_t t = g.rsp->first;
      REQUIRE(g.rsp->second ==
              flint::model::ExpectedLineImage(c, b.Tag(1, 2, t / static_cast<uint32_t>(c.cl_per_page)),
                                              t % c.cl_per_page, flint::model::SecdedEncode));
      ++answered;
    }
  }
  REQUIRE(read_taken);
  // The Read cost the lines one command slot, not a sense time.
  REQUIRE(cycles <= c.planes * c.cl_per_page * 2 + 4);
  REQUIRE(cycles < c.t_read_cycles + c.planes * c.cl_per_page);
}

TEST_CASE("nand seq: random pipelines at small and paper keep the die legal", "[bbc][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  SECTION("small") {
    SeqBench<Vseq_small> b(flint::kSmallConfig, seed);
    for (int r = 0; r < 4; ++r) {
      Pipeline(b, RandomBursts(flint::kSmallConfig, rng, 8), rng, rng() % 60, rng() % 2);
    }
  }
  SECTION("paper") {
    SeqBench<Vseq_paper> b(flint::kPaperConfig, seed);
    Pipeline(b, RandomBursts(flint::kPaperConfig, rng, 3), rng, 20, true);
  }
}
