// NAND die model against a small reference of the command rules (docs/nand_model.md), written
// apart from the model: seeded random commands, legal and illegal, on the small config. Every
// legal command must succeed with the reference's timing and bytes; every illegal one must
// throw one of the codes the reference predicts.
#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "tb/common/seed.hpp"
#include "tb/nand/nand_test_util.hpp"

namespace {

using namespace flint::tb::nand;  // NOLINT: test-local helpers
using flint::Config;
using flint::kSmallConfig;
using Code = flint::model::NandErrorCode;

// What a page or buffer holds: a tag, or erased (nullopt).
using Content = std::optional<PageTag>;

struct RefPlane {
  uint64_t ready = 0;        // array free
  uint64_t cache_ready = 0;  // cache buffer readable
  std::optional<Content> page_buf, cache_buf;
};

class Reference {
 public:
  explicit Reference(const Config& cfg)
      : cfg_(cfg),
        planes_(cfg.phys_planes),
        total_(cfg.page_image_bytes),
        din_((total_ + cfg.die_io_bytes_per_cycle - 1) / cfg.die_io_bytes_per_cycle) {}

  // Each returns the codes the command violates (empty: legal).
  std::set<Code> Sense(bool cache_read, const std::vector<PlaneBlock>& ts, uint32_t page,
                       uint64_t now) const {
    std::set<Code> v = TimeOk(now);
    if (ts.empty()) v.insert(Code::kBadArgument);
    std::set<uint32_t> seen;
    for (const auto& t : ts) {
      if (t.plane >= cfg_.phys_planes || t.block >= cfg_.blocks || page >= cfg_.pages) {
        v.insert(Code::kOutOfRange);
        continue;
      }
      if (!seen.insert(t.plane).second) v.insert(Code::kDuplicatePlane);
      const RefPlane& p = planes_[t.plane];
      if (now < p.ready) v.insert(Code::kPlaneBusy);
      if (cache_read && !p.page_buf) v.insert(Code::kPageBufferEmpty);
      if (cache_read && ReadingOut(t.plane, now)) v.insert(Code::kCacheBusy);
    }
    return v;
  }
  std::set<Code> End(const std::vector<uint32_t>& ps, uint64_t now) const {
    std::set<Code> v = TimeOk(now);
    if (ps.empty()) v.insert(Code::kBadArgument);
    std::set<uint32_t> seen;
    for (uint32_t q : ps) {
      if (q >= cfg_.phys_planes) {
        v.insert(Code::kOutOfRange);
        continue;
      }
      if (!seen.insert(q).second) v.insert(Code::kDuplicatePlane);
      if (now < planes_[q].ready) v.insert(Code::kPlaneBusy);
      if (!planes_[q].page_buf) v.insert(Code::kPageBufferEmpty);
      if (ReadingOut(q, now)) v.insert(Code::kCacheBusy);
    }
    return v;
  }
  std::set<Code> Out(uint32_t q, uint32_t off, uint32_t n, uint64_t now) const {
    std::set<Code> v = TimeOk(now);
    if (q >= cfg_.phys_planes) {
      v.insert(Code::kOutOfRange);
      return v;
    }
    if (n == 0) v.insert(Code::kBadArgument);
    if (uint64_t{off} + n > total_) v.insert(Code::kOutOfRange);
    const RefPlane& p = planes_[q];
    if (!p.cache_buf)
      v.insert(Code::kCacheEmpty);
    else if (now < p.cache_ready)
      v.insert(Code::kCacheBusy);
    if (now < io_until_) v.insert(Code::kIoBusy);
    return v;
  }
  std::set<Code> Prog(const PageAddr& a, uint64_t now) const {
    std::set<Code> v = TimeOk(now);
    if (a.plane >= cfg_.phys_planes || a.block >= cfg_.blocks || a.page >= cfg_.pages) {
      v.insert(Code::kOutOfRange);
      return v;
    }
    if (now < planes_[a.plane].ready) v.insert(Code::kPlaneBusy);
    if (now < io_until_) v.insert(Code::kIoBusy);
    const uint32_t wp = Wp(a.plane, a.block);
    if (a.page < wp) v.insert(Code::kNotErased);
    if (a.page > wp) v.insert(Code::kOutOfOrder);
    return v;
  }
  std::set<Code> Ers(uint32_t q, uint32_t blk, uint64_t now) const {
    std::set<Code> v = TimeOk(now);
    if (q >= cfg_.phys_planes || blk >= cfg_.blocks) {
      v.insert(Code::kOutOfRange);
      return v;
    }
    if (now < planes_[q].ready) v.insert(Code::kPlaneBusy);
    return v;
  }

  // Effects of legal commands; each returns the completion cycle the die must report.
  uint64_t DoRead(const std::vector<PlaneBlock>& ts, uint32_t page, uint64_t now) {
    last_ = now;
    for (const auto& t : ts) {
      planes_[t.plane].page_buf = At(t.plane, t.block, page);
      planes_[t.plane].ready = now + cfg_.t_read_cycles;
    }
    return now + cfg_.t_read_cycles;
  }
  uint64_t DoCacheRead(const std::vector<PlaneBlock>& ts, uint32_t page, uint64_t now) {
    last_ = now;
    const uint64_t moved = now + cfg_.t_cache_xfer_cycles;
    for (const auto& t : ts) {
      RefPlane& p = planes_[t.plane];
      p.cache_buf = p.page_buf;
      p.cache_ready = moved;
      p.page_buf = At(t.plane, t.block, page);
      p.ready = moved + cfg_.t_read_cycles;
    }
    return moved;
  }
  uint64_t DoEnd(const std::vector<uint32_t>& ps, uint64_t now) {
    last_ = now;
    const uint64_t moved = now + cfg_.t_cache_xfer_cycles;
    for (uint32_t q : ps) {
      RefPlane& p = planes_[q];
      p.cache_buf = p.page_buf;
      p.page_buf.reset();
      p.cache_ready = p.ready = moved;
    }
    return moved;
  }
  std::vector<uint8_t> DoOut(uint32_t q, uint32_t off, uint32_t n, uint64_t now, uint64_t* done) {
    last_ = now;
    io_until_ = now + (n + cfg_.die_io_bytes_per_cycle - 1) / cfg_.die_io_bytes_per_cycle;
    io_plane_ = q;
    *done = io_until_;
    const Content& c = *planes_[q].cache_buf;
    if (!c) return std::vector<uint8_t>(n, 0xFF);
    // The image from the layout rule: the tag's data words, each followed by its check byte.
    std::vector<uint8_t> data(cfg_.page_bytes);
    flint::model::TagBytes(*c, 0, data.size(), data.data());
    return Slice(InterleaveRef(data, FoldCheck), off, n);
  }
  uint64_t DoProg(const PageAddr& a, const PageTag& tag, uint64_t now) {
    last_ = now;
    RefPlane& p = planes_[a.plane];
    p.page_buf.reset();
    p.cache_buf.reset();
    io_until_ = now + din_;
    io_plane_ = ~0u;
    p.ready = now + din_ + cfg_.t_prog_cycles;
    blocks_[{a.plane, a.block}].push_back(tag);
    return p.ready;
  }
  uint64_t DoErase(uint32_t q, uint32_t blk, uint64_t now) {
    last_ = now;
    blocks_.erase({q, blk});
    planes_[q].ready = now + cfg_.t_erase_cycles;
    return planes_[q].ready;
  }

  uint32_t Wp(uint32_t q, uint32_t blk) const {
    auto it = blocks_.find({q, blk});
    return it == blocks_.end() ? 0 : static_cast<uint32_t>(it->second.size());
  }
  const RefPlane& plane(uint32_t q) const { return planes_[q]; }
  uint64_t last() const { return last_; }
  uint64_t io_until() const { return io_until_; }

 private:
  std::set<Code> TimeOk(uint64_t now) const {
    return now < last_ ? std::set<Code>{Code::kTimeReversal} : std::set<Code>{};
  }
  bool ReadingOut(uint32_t q, uint64_t now) const { return io_plane_ == q && now < io_until_; }
  Content At(uint32_t q, uint32_t blk, uint32_t page) const {
    auto it = blocks_.find({q, blk});
    if (it == blocks_.end() || page >= it->second.size()) return std::nullopt;
    return it->second[page];
  }

  const Config& cfg_;
  std::vector<RefPlane> planes_;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<PageTag>> blocks_;
  uint64_t total_, din_;
  uint64_t last_ = 0, io_until_ = 0;
  uint32_t io_plane_ = ~0u;
};

}  // namespace

TEST_CASE("nand: random command streams follow the reference rules", "[nand][nand_die][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, seed, QuietOptions());
  die.SetSpareFn(FoldCheck);  // non-trivial check bytes, so a misplaced one shows
  Reference ref(cfg);
  std::mt19937_64 rng(seed);
  auto pick = [&](uint64_t n) { return n == 0 ? 0 : rng() % n; };
  // Mostly valid addresses, now and then one past the end.
  auto plane = [&] { return static_cast<uint32_t>(pick(cfg.phys_planes + (pick(40) == 0))); };
  auto block = [&] {
    return static_cast<uint32_t>(pick(cfg.blocks / 2 + uint64_t{pick(40) == 0} * 8));
  };
  auto page = [&] { return static_cast<uint32_t>(pick(cfg.pages + (pick(40) == 0))); };
  // Half the time a plane whose buffer holds a page (so more cache moves and data-outs are legal).
  auto plane_holding = [&](bool cache) {
    std::vector<uint32_t> with;
    for (uint32_t q = 0; q < cfg.phys_planes; ++q) {
      if (cache ? ref.plane(q).cache_buf.has_value() : ref.plane(q).page_buf.has_value()) {
        with.push_back(q);
      }
    }
    return with.empty() || pick(2) ? plane() : with[pick(with.size())];
  };
  // A time: the last command's, or just after, or when some plane or the I/O frees up.
  auto when = [&](uint32_t q) {
    const uint64_t last = ref.last();
    switch (pick(6)) {
      case 0: return last;
      case 1: return last + pick(cfg.t_read_cycles);
      case 2: return last > 0 && pick(20) == 0 ? last - 1 : last;  // time reversal now and then
      case 3: return std::max(last, ref.io_until());
      default:
        return q < cfg.phys_planes ? std::max({last, ref.plane(q).ready, ref.plane(q).cache_ready})
                                   : last;
    }
  };
  std::map<std::string, int> legal, illegal;
  const int steps = 20000;
  for (int step = 0; step < steps; ++step) {
    INFO("step " << step);
    const int op = static_cast<int>(pick(100));
    std::set<Code> expect;
    std::string name;
    // Legal: the die's result must equal the reference's. Illegal: the die must throw one of
    // the predicted codes (and, having thrown, change nothing the reference would see).
    auto run = [&](auto&& die_call, auto&& ref_call) {
      if (expect.empty()) {
        ++legal[name];
        const auto got = die_call();
        const auto want = ref_call();
        CHECK(got == want);
        return;
      }
      ++illegal[name];
      bool threw = false;
      try {
        die_call();
      } catch (const NandError& e) {
        threw = true;
        INFO(e.what());
        INFO("predicted first " << flint::model::ToString(*expect.begin()) << " of "
                                << expect.size());
        CHECK(expect.count(e.code()) == 1);
      }
      if (!threw) FAIL(name << " accepted an illegal command");
    };
    if (op < 20) {  // multi-plane read
      name = "read";
      std::vector<PlaneBlock> ts;
      const auto n = 1 + pick(cfg.phys_planes);
      for (uint64_t i = 0; i < n; ++i) ts.push_back(PlaneBlock{plane(), block()});
      const uint32_t pg = page();
      const uint64_t now = when(ts[0].plane);
      expect = ref.Sense(false, ts, pg, now);
      run([&] { return die.Read(ts, pg, now); }, [&] { return ref.DoRead(ts, pg, now); });
    } else if (op < 40) {  // cache read
      name = "cache_read";
      std::vector<PlaneBlock> ts;
      const auto n = 1 + pick(cfg.phys_planes);
      for (uint64_t i = 0; i < n; ++i) ts.push_back(PlaneBlock{plane_holding(false), block()});
      const uint32_t pg = page();
      const uint64_t now = when(ts[0].plane);
      expect = ref.Sense(true, ts, pg, now);
      run([&] { return die.CacheRead(ts, pg, now).cache_ready_at; },
          [&] { return ref.DoCacheRead(ts, pg, now); });
    } else if (op < 50) {  // cache end
      name = "cache_end";
      std::vector<uint32_t> ps{plane_holding(false)};
      if (pick(2)) ps.push_back(plane_holding(false));
      const uint64_t now = when(ps[0]);
      expect = ref.End(ps, now);
      run([&] { return die.CacheEnd(ps, now).cache_ready_at; }, [&] { return ref.DoEnd(ps, now); });
    } else if (op < 75) {  // data-out of a random range
      name = "data_out";
      const uint32_t q = plane_holding(true);
      const uint32_t total = die.page_image_bytes();
      // Half the time a whole cache line's image, as the BBC reads it; else any range.
      const bool line = pick(2);
      const auto off = static_cast<uint32_t>(line ? pick(cfg.cl_per_page + 1) * cfg.cl_image_bytes
                                                  : pick(total + 2));
      const auto n = static_cast<uint32_t>(line ? cfg.cl_image_bytes : pick(total - off + 3));
      const uint64_t now = when(q);
      expect = ref.Out(q, off, n, now);
      run(
          [&] {
            auto bytes = die.DataOutBytes(q, off, n, now);
            return std::make_pair(bytes, die.IoBusyUntil());
          },
          [&] {
            uint64_t done = 0;
            auto want = ref.DoOut(q, off, n, now, &done);
            return std::make_pair(want, done);
          });
    } else if (op < 95) {  // program: usually the next page, sometimes not
      name = "program";
      const uint32_t q = plane();
      const uint32_t blk = block();
      const uint32_t wp = q < cfg.phys_planes && blk < cfg.blocks ? ref.Wp(q, blk) : 0;
      const uint32_t pg = pick(4) ? wp : page();
      const PageTag tag{pick(64), static_cast<uint32_t>(pick(4)), 0};
      const uint64_t now = when(q);
      expect = ref.Prog(PageAddr{q, blk, pg}, now);
      run(
          [&] {
            return die.ProgramTagged(PageAddr{q, blk, pg}, tag, now).done_at;
          },
          [&] {
            return ref.DoProg(PageAddr{q, blk, pg}, tag, now);
          });
    } else {  // erase
      name = "erase";
      const uint32_t q = plane();
      const uint32_t blk = block();
      const uint64_t now = when(q);
      expect = ref.Ers(q, blk, now);
      run([&] { return die.Erase(q, blk, now).done_at; }, [&] { return ref.DoErase(q, blk, now); });
    }
  }
  // The stream exercised both sides of every command.
  for (const char* n : {"read", "cache_read", "cache_end", "data_out", "program", "erase"}) {
    INFO(n << ": legal " << legal[n] << " illegal " << illegal[n]);
    CHECK(legal[n] > 20);
    CHECK(illegal[n] > 20);
  }
}
