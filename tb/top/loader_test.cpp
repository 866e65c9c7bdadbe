// flint_loader against model::Loader (model/top/loader.hpp). The bench plays each die's
// maintenance sequencer (requests and a page's lines taken at random readiness, answers after a
// random delay, failures injected where a test asks), the BTT's load port and the runtime's
// weight stream; it checks every request as it is made: the erases (each block of each physical
// plane of each die once, all before the first program), the programs in the model's order with
// their lines equal to the stream's (zero for a pad), the BTT entries in burst order at the
// placement's (block, page); the first failure's code and address; nothing requested after it;
// every request answered before done; and for a mount, no NAND work and no stream at all.
#include "model/top/loader.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <deque>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "Vloader_netlist.h"
#include "Vloader_small.h"
#include "Vloader_small_linear.h"
#include "flint_config.hpp"
#include "model/common/types.hpp"
#include "tb/common/harness.hpp"
#include "tb/common/ports.hpp"
#include "tb/common/seed.hpp"
#include "tb/ftl/ftl_tb.hpp"

namespace {

using flint::Config;
using flint::kMaintReqBits;
using flint::kMaintRspBits;
using flint::MaintOp;
using flint::MaintReq;
using flint::MaintRsp;
using flint::MaintStatus;
using flint::model::BurstPlacement;
using flint::model::Loader;
using flint::model::LoadError;
using flint::model::LoadPage;
using flint::tb::GetBits;
using flint::tb::Harness;
using flint::tb::PutBits;

const Config& kCfg = flint::kSmallConfig;

// A byte of the weight stream: burst, slice and line decide it (a pad line is zero).
uint8_t StreamByte(uint64_t burst, uint32_t slice, uint32_t line, uint32_t byte) {
  uint64_t x =
      (burst * 0x9E3779B97F4A7C15ull) ^ (uint64_t{slice} << 40) ^ (uint64_t{line} << 24) ^ byte;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  return static_cast<uint8_t>(x);
}

struct Faults {
  int64_t program = -1;  // the program (in request order) whose answer fails
  int64_t erase = -1;    // the erase (in request order) whose answer fails
};

struct Knobs {
  int req_ready = 70;  // percent of cycles each port is ready
  int wr_ready = 80;
  int btt_ready = 70;
  int data_valid = 80;
  int max_delay = 20;  // an answer's delay after its last line (program) or its request (erase)
};

struct Outcome {
  bool done = false;
  uint64_t cycles = 0;
  uint32_t loaded = 0, live = 0;
  bool err = false;
  uint32_t code = 0, die = 0, plane = 0, block = 0, page = 0;
  uint64_t erases = 0, programs = 0, btt = 0, beats = 0, answers = 0;
  bool clear_seen = false;
};

template <class Dut>
class LoaderBench {
 public:
  LoaderBench(uint32_t seed, BurstPlacement placement)
      : h_(seed, "loader"),
        rng_(seed),
        model_(kCfg, placement),
        lines_(static_cast<uint32_t>(kCfg.cl_per_page)),
        data_bytes_(static_cast<uint32_t>(kCfg.cl_bytes)),
        dies_(static_cast<uint32_t>(kCfg.dies)) {
    flint::tb::ResetFromHigh(h_);
  }

  // Runs one load (or mount) of n bursts to done; returns what the loader reported.
  Outcome Run(uint64_t n, bool erase, bool mount, const Faults& faults, const Knobs& k,
              uint64_t max_cycles = 2000000) {
    auto& d = h_.dut();
    const bool fits = model_.Fits(n);
    const std::vector<LoadPage> plan =
        fits && !mount ? model_.Programs(n) : std::vector<LoadPage>{};
    Outcome o;
    std::uniform_int_distribution<int> pct(0, 99);
    std::uniform_int_distribution<int> delay_d(1, k.max_delay);
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> erased;
    std::vector<std::deque<std::pair<uint64_t, MaintRsp>>> answers(dies_);
    struct Open {
      bool on = false;
      MaintReq req;
      uint32_t got = 0;
      int64_t index = -1;
    };
    std::vector<Open> open(dies_);
    std::vector<uint64_t> unanswered(dies_, 0);
    uint64_t next_program = 0, next_btt = 0, outstanding = 0;
    uint64_t s_burst = 0, s_line = 0;  // the stream's cursor: burst, and line within the burst
    const uint64_t stream_lines = n * model_.slices() * lines_;
    bool failed_answered = false;  // a failure has been answered: no new request after it
    uint64_t offered_at_fail = 0;  // dies whose request was already offered then
    bool started = false;
    for (uint64_t c = 0; c < max_cycles; ++c) {
      const uint64_t t = h_.cycle();
      // Drive.
      d.start_i = !started;
      d.n_bursts_i = static_cast<uint32_t>(n);
      d.erase_i = erase;
      d.mount_i = mount;
      const bool dv =
          pct(rng_) < k.data_valid && s_burst * model_.slices() * lines_ + s_line < stream_lines;
      d.data_valid_i = dv;
      for (uint32_t b = 0; b < data_bytes_; ++b) {
        const uint32_t slice = static_cast<uint32_t>(s_line / lines_);
        PutBits(d.data_i, 8 * b, 8,
                dv ? StreamByte(s_burst, slice, static_cast<uint32_t>(s_line % lines_), b) : 0);
      }
      d.btt_ready_i = pct(rng_) < k.btt_ready;
      uint32_t rq_ready = 0, wr_ready = 0, rsp_valid = 0;
      for (uint32_t x = 0; x < dies_; ++x) {
        // The sequencer holds one program or erase a plane: at most PhysPlanes a die unanswered.
        if (pct(rng_) < k.req_ready && unanswered[x] < kCfg.phys_planes) rq_ready |= 1u << x;
        if (pct(rng_) < k.wr_ready) wr_ready |= 1u << x;
        if (!answers[x].empty() && answers[x].front().first <= t) {
          rsp_valid |= 1u << x;
          PutBits(d.mrsp_i, x * kMaintRspBits, kMaintRspBits, answers[x].front().second.Pack());
        }
      }
      d.mreq_ready_i = rq_ready;
      d.mwr_ready_i = wr_ready;
      d.mrsp_valid_i = rsp_valid;
      h_.Eval();
      if (!started) {
        o.clear_seen = d.btt_clear_o;
        // Every start but a mount's clears the BTT (a refused one too: nothing stays in service).
        if (static_cast<bool>(d.btt_clear_o) != !mount) Fail(t, "btt_clear_o at start");
      }
      // Answers taken (mrsp_ready_o is all ones: checked).
      for (uint32_t x = 0; x < dies_; ++x) {
        if (!(rsp_valid >> x & 1)) continue;
        if (!(GetBits(d.mrsp_ready_o, x, 1))) Fail(t, "an answer not taken");
        const MaintRsp r = answers[x].front().second;
        answers[x].pop_front();
        --outstanding;
        --unanswered[x];
        ++o.answers;
        if (r.status != MaintStatus::kOk) failed_answered = true;
      }
      if (failed_answered && offered_at_fail == 0 && o.answers > 0) {
        offered_at_fail = GetBits(d.mreq_valid_o, 0, dies_) | (uint64_t{1} << 63);
      }
      // Requests.
      for (uint32_t x = 0; x < dies_; ++x) {
        if (!(GetBits(d.mreq_valid_o, x, 1) && (rq_ready >> x & 1))) continue;
        const MaintReq r = MaintReq::Unpack(GetBits(d.mreq_o, x * kMaintReqBits, kMaintReqBits));
        if (mount) Fail(t, "a mount made a NAND request");
        if (failed_answered && !(offered_at_fail >> x & 1)) {
          Fail(t, "a new request after the load failed");
        }
        ++outstanding;
        ++unanswered[x];
        if (r.op == MaintOp::kEraseBlock) {
          if (!erase) Fail(t, "an erase in a load without erase");
          if (o.programs > 0) Fail(t, "an erase after the first program");
          if (r.plane >= kCfg.phys_planes || r.block >= kCfg.blocks) Fail(t, "erase address");
          if (!erased.insert({x, r.plane, r.block}).second) Fail(t, "a block erased twice");
          MaintRsp a{MaintOp::kEraseBlock, MaintStatus::kOk, r.plane, r.block, 0, r.tag};
          if (static_cast<int64_t>(o.erases) == faults.erase) a.status = MaintStatus::kEraseFail;
          answers[x].push_back({t + delay_d(rng_), a});
          ++o.erases;
        } else if (r.op == MaintOp::kProgramPage) {
          if (erase && erased.size() != model_.Erases()) Fail(t, "a program before every erase");
          if (next_program >= plan.size()) {
            Fail(t, "a program past the model's plan");
            continue;
          }
          const LoadPage& p = plan[next_program];
          if (x != p.die || r.plane != p.plane || r.block != p.block || r.page != p.page) {
            std::ostringstream w;
            w << "program " << next_program << ": die " << x << " plane " << r.plane << " block "
              << r.block << " page " << r.page << ", the model's die " << p.die << " plane "
              << p.plane << " block " << p.block << " page " << p.page;
            Fail(t, w.str());
          }
          if (open[x].on) Fail(t, "a program before the last one's lines");
          open[x] = {true, r, 0, static_cast<int64_t>(next_program)};
          ++next_program;
          ++o.programs;
        } else {
          Fail(t, "a read request from the loader");
        }
      }
      // A page's lines.
      for (uint32_t x = 0; x < dies_; ++x) {
        if (!(GetBits(d.mwr_valid_o, x, 1) && (wr_ready >> x & 1))) continue;
        if (!open[x].on) {
          Fail(t, "a line without its program request");
          continue;
        }
        const LoadPage& p = plan[static_cast<size_t>(open[x].index)];
        for (uint32_t b = 0; b < data_bytes_ && error_.empty(); ++b) {
          const uint8_t want = p.pad ? 0 : StreamByte(p.burst, p.slice, open[x].got, b);
          if (GetBits(d.mwr_data_o, 8 * b, 8) != want) {
            Fail(t, "program " + std::to_string(open[x].index) + " line " +
                        std::to_string(open[x].got) + " byte " + std::to_string(b) + " differs");
          }
        }
        ++o.beats;
        if (++open[x].got == lines_) {
          MaintRsp a{MaintOp::kProgramPage, MaintStatus::kOk, open[x].req.plane,
                     open[x].req.block,     open[x].req.page, open[x].req.tag};
          if (open[x].index == faults.program) a.status = MaintStatus::kProgramFail;
          answers[x].push_back({t + delay_d(rng_), a});
          open[x].on = false;
        }
      }
      // The stream.
      if (dv && d.data_ready_o) {
        if (mount) Fail(t, "a mount took a stream beat");
        if (++s_line == model_.slices() * lines_) {
          s_line = 0;
          ++s_burst;
        }
      }
      // The BTT.
      if (d.btt_valid_o && d.btt_ready_i) {
        const auto want = model_.Place(next_btt, n);
        if (d.btt_idx_o != next_btt || d.btt_block_o != want.block || d.btt_page_o != want.page) {
          std::ostringstream w;
          w << "BTT entry " << next_btt << ": got idx " << d.btt_idx_o << " (" << d.btt_block_o
            << ", " << d.btt_page_o << "), the model's (" << want.block << ", " << want.page << ")";
          Fail(t, w.str());
        }
        ++next_btt;
        ++o.btt;
      }
      const bool done = d.done_o;
      started = true;
      h_.Tick();
      if (done && c > 0) {
        o.done = true;
        if (outstanding != 0) Fail(t, "done with requests unanswered");
        break;
      }
    }
    auto& q = h_.dut();
    o.cycles = q.cycles_o;
    o.loaded = q.loaded_o;
    o.live = q.live_blocks_o;
    o.err = q.err_o;
    o.code = q.err_code_o;
    o.die = q.err_die_o;
    o.plane = q.err_plane_o;
    o.block = q.err_block_o;
    o.page = q.err_page_o;
    plan_ = plan;
    return o;
  }

  const std::vector<LoadPage>& plan() const { return plan_; }
  Loader& model() { return model_; }
  bool Failed() { return h_.Failed(); }
  const std::string& Error() const { return error_; }

 private:
  void Fail(uint64_t t, const std::string& what) {
    if (error_.empty()) error_ = "cycle " + std::to_string(t) + ": " + what;
  }

  Harness<Dut> h_;
  std::mt19937 rng_;
  Loader model_;
  uint32_t lines_, data_bytes_, dies_;
  std::vector<LoadPage> plan_;
  std::string error_;
};

template <class Dut>
void CheckLoaded(LoaderBench<Dut>& b, const Outcome& o, uint64_t n, bool erase) {
  REQUIRE(b.Error().empty());
  REQUIRE(o.done);
  REQUIRE_FALSE(o.err);
  REQUIRE(o.loaded == n);
  REQUIRE(o.live == b.model().LiveBlocks(n));
  REQUIRE(o.programs == b.plan().size());
  REQUIRE(o.beats == b.plan().size() * kCfg.cl_per_page);
  REQUIRE(o.btt == n);
  REQUIRE(o.erases == (erase ? b.model().Erases() : 0));
  REQUIRE(o.answers == o.programs + o.erases);
  REQUIRE_FALSE(b.Failed());
}

// Random loads: size, erase or not, readiness of every port, answer delays, and in half of the
// runs a program or erase failure at a random place.
template <class Dut>
void RunRandomLoads(uint32_t seed, int runs) {
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937 rng(seed);
  for (int run = 0; run < runs; ++run) {
    LoaderBench<Dut> b(seed * 100 + static_cast<uint32_t>(run), BurstPlacement::kInterleaved);
    const uint64_t n = 1 + rng() % kCfg.bursts_per_stack;
    const bool erase = rng() % 2 == 0;
    Knobs k;
    k.req_ready = 20 + static_cast<int>(rng() % 81);
    k.wr_ready = 20 + static_cast<int>(rng() % 81);
    k.btt_ready = 20 + static_cast<int>(rng() % 81);
    k.data_valid = 20 + static_cast<int>(rng() % 81);
    k.max_delay = 1 + static_cast<int>(rng() % 60);
    Faults f;
    const uint64_t programs = b.model().Programs(n).size();
    const int kind = static_cast<int>(rng() % 4);  // 0, 1: none; 2: a program; 3: an erase
    if (kind == 2) f.program = static_cast<int64_t>(rng() % programs);
    if (kind == 3 && erase) f.erase = static_cast<int64_t>(rng() % b.model().Erases());
    INFO("run " << run << ": n " << n << " erase " << erase << " fault kind " << kind << " program "
                << f.program << " erase " << f.erase);
    const Outcome o = b.Run(n, erase, false, f, k);
    REQUIRE(b.Error().empty());
    REQUIRE(o.done);
    if (f.program < 0 && f.erase < 0) {
      CheckLoaded(b, o, n, erase);
    } else {
      REQUIRE(o.err);
      REQUIRE(o.code == static_cast<uint32_t>(f.program >= 0 ? LoadError::kProgramFail
                                                             : LoadError::kEraseFail));
      REQUIRE(o.loaded == 0);
      REQUIRE(o.answers == o.programs + o.erases);
    }
    REQUIRE_FALSE(b.Failed());
  }
}

}  // namespace

TEST_CASE("loader: a whole load with erase programs every page where the model places it",
          "[top][loader][directed]") {
  LoaderBench<Vloader_small> b(1, BurstPlacement::kInterleaved);
  const uint64_t n = kCfg.bursts_per_stack;
  const Outcome o = b.Run(n, true, false, {}, {});
  CheckLoaded(b, o, n, true);
  REQUIRE(o.clear_seen);
}

TEST_CASE("loader: a partial load pads its live blocks with zero pages and no BTT entry",
          "[top][loader][directed]") {
  LoaderBench<Vloader_small> b(1, BurstPlacement::kInterleaved);
  const uint64_t n = 37;  // 3 live blocks of 16 pages: 11 pad pages a plane
  const Outcome o = b.Run(n, false, false, {}, {});
  CheckLoaded(b, o, n, false);
  REQUIRE(o.live == 3);
  REQUIRE(b.plan().size() == 3 * kCfg.pages * kCfg.dies * kCfg.planes);
}

TEST_CASE("loader: the paper's linear placement", "[top][loader][directed]") {
  LoaderBench<Vloader_small_linear> b(1, BurstPlacement::kLinear);
  const uint64_t n = 50;
  const Outcome o = b.Run(n, true, false, {}, {});
  CheckLoaded(b, o, n, true);
}

TEST_CASE("loader: a load of more bursts than the stack holds is refused at once",
          "[top][loader][corner]") {
  LoaderBench<Vloader_small> b(1, BurstPlacement::kInterleaved);
  const Outcome o = b.Run(kCfg.bursts_per_stack + 1, true, false, {}, {});
  REQUIRE(b.Error().empty());
  REQUIRE(o.done);
  REQUIRE(o.err);
  REQUIRE(o.code == static_cast<uint32_t>(LoadError::kTooManyBursts));
  REQUIRE(o.loaded == 0);
  REQUIRE(o.programs + o.erases + o.btt == 0);
  REQUIRE(o.cycles <= 2);
  REQUIRE_FALSE(b.Failed());
}

TEST_CASE("loader: a program failure stops the load with its address, every request answered",
          "[top][loader][corner]") {
  LoaderBench<Vloader_small> b(1, BurstPlacement::kInterleaved);
  const uint64_t n = 64;
  Faults f;
  f.program = 45;  // die 1 (slices 4..7), well into the load
  const Outcome o = b.Run(n, false, false, f, {});
  REQUIRE(b.Error().empty());
  REQUIRE(o.done);
  REQUIRE(o.err);
  REQUIRE(o.code == static_cast<uint32_t>(LoadError::kProgramFail));
  const LoadPage& p = b.plan()[45];
  REQUIRE(o.die == p.die);
  REQUIRE(o.plane == p.plane);
  REQUIRE(o.block == p.block);
  REQUIRE(o.page == p.page);
  REQUIRE(o.loaded == 0);
  REQUIRE(o.programs < b.plan().size());
  REQUIRE(o.answers == o.programs);
  REQUIRE_FALSE(b.Failed());
}

TEST_CASE("loader: an erase failure stops the load before any program", "[top][loader][corner]") {
  LoaderBench<Vloader_small> b(1, BurstPlacement::kInterleaved);
  Faults f;
  f.erase = 13;
  const Outcome o = b.Run(20, true, false, f, {});
  REQUIRE(b.Error().empty());
  REQUIRE(o.done);
  REQUIRE(o.err);
  REQUIRE(o.code == static_cast<uint32_t>(LoadError::kEraseFail));
  REQUIRE(o.programs == 0);
  REQUIRE(o.btt == 0);
  REQUIRE(o.loaded == 0);
  REQUIRE(o.answers == o.erases);
  REQUIRE_FALSE(b.Failed());
}

TEST_CASE("loader: a mount writes the BTT entries and touches no die and no stream",
          "[top][loader][directed]") {
  LoaderBench<Vloader_small> b(1, BurstPlacement::kInterleaved);
  const uint64_t n = 100;
  const Outcome o = b.Run(n, true, true, {}, {});
  REQUIRE(b.Error().empty());
  REQUIRE(o.done);
  REQUIRE_FALSE(o.err);
  REQUIRE(o.loaded == n);
  REQUIRE(o.live == b.model().LiveBlocks(n));
  REQUIRE(o.btt == n);
  REQUIRE(o.programs + o.erases + o.beats == 0);
  REQUIRE_FALSE(o.clear_seen);
  REQUIRE_FALSE(b.Failed());
}

TEST_CASE("loader: random sizes, readiness, delays and faults match the model",
          "[top][loader][random]") {
  RunRandomLoads<Vloader_small>(flint::tb::TestSeed(), 40);
}

// Trust no synthesis silently (STYLE.md): the Yosys netlist of the loader through the same bench.
TEST_CASE("loader: its synthesized netlist passes the random loads", "[top][loader][netlist]") {
  RunRandomLoads<Vloader_netlist>(flint::tb::TestSeed(), 20);
}
