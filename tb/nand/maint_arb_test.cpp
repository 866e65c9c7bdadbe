// flint_maint_arb (rtl/nand/, docs/nand_seq.md "Clients"): the arbiter between a die's clients
// and its maintenance sequencer, against a model of its contract. The sequencer side is a
// stand-in written from flint_maint_seq's documented contract (one request at a time in the
// front end; a ReadPage's lines, then its answer; a ProgramPage's beats, then its answer later,
// out of order with the erases'; a program to a bad address answered at once without beats;
// every answer held once offered). The clients keep the handshake rules (a request or beat held
// once offered), use tags in the low MaintClientTagBits, and send a program's beats after its
// request is taken.
//
// Checked every cycle, from the handshakes alone (the bench never reads the tag's client bits):
// a request reaches the sequencer exactly when one client's is taken, equal but for the tag, and
// every tag in the sequencer is distinct; a beat reaches the sequencer exactly when the program's
// client gives it, unchanged and in line order; a read line and an answer reach exactly the
// client whose request they belong to (the client recorded when its request was taken), in the
// cycle the sequencer gives them, unchanged but for the tag, which is the client's own again; a
// client hears each of its requests answered once, with its op and address; nothing is lost
// (every request answered by the end). Round robin: a client offering a request sees at most
// Clients - 1 other grants before its own. The first divergence is kept (cycle and what).
#include <catch2/catch.hpp>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vmaint_arb.h"
#include "flint_config.hpp"
#include "model/common/types.hpp"
#include "tb/common/harness.hpp"
#include "tb/common/ports.hpp"
#include "tb/common/seed.hpp"

namespace {

using flint::MaintOp;
using flint::MaintReq;
using flint::MaintRsp;
using flint::MaintStatus;
using flint::Status;
using flint::tb::GetBits;
using flint::tb::PutBits;

constexpr uint32_t kClients = 2;
constexpr uint32_t kClientTagBits = flint::kMaintTagBits - flint::kMaintClientIdBits;
constexpr uint32_t kReqBits = flint::kMaintReqBits;
constexpr uint32_t kBadPlane = 200;  // the stand-in answers MaintBadAddress for planes past this

// A line's data as 64-bit chunks, from what identifies it: who sent it (or the sequencer tag of
// the read it belongs to), which request, which line.
uint64_t Chunk(uint32_t who, uint32_t tag, uint32_t line, uint32_t k) {
  uint64_t x = (uint64_t{who} << 48) ^ (uint64_t{tag} << 32) ^ (uint64_t{line} << 16) ^ k;
  x ^= x >> 31;
  x *= 0x9e3779b97f4a7c15ULL;
  return x ^ (x >> 29);
}

struct Knobs {
  double req_p = 1.0, wr_p = 1.0, rd_ready_p = 1.0, rsp_ready_p = 1.0;  // clients
  double s_req_p = 1.0, s_wr_p = 1.0, s_rd_p = 1.0, s_rsp_p = 1.0;     // stand-in sequencer
  uint32_t max_delay = 40;  // cycles a program or erase takes in its plane, at most
};

class ArbBench {
 public:
  ArbBench(uint32_t seed) : h_(seed, "maint_arb"), rng_(seed) {
    auto& d = h_.dut();
    d.rst_ni = 1;
    d.c_req_valid_i = 0;
    d.c_wr_valid_i = 0;
    d.c_rd_ready_i = 0;
    d.c_rsp_ready_i = 0;
    d.s_req_ready_i = 0;
    d.s_wr_ready_i = 0;
    d.s_rd_valid_i = 0;
    d.s_rsp_valid_i = 0;
    h_.Eval();
    h_.Reset();
  }
  Knobs& knobs() { return k_; }
  std::mt19937& rng() { return rng_; }
  uint64_t cycle() const { return h_.cycle(); }
  const std::string& Error() const { return error_; }
  bool Failed() const { return h_.Failed(); }
  uint64_t answered(uint32_t c) const { return cl_[c].answered; }
  uint64_t lines(uint32_t c) const { return cl_[c].lines; }
  const std::vector<uint32_t>& grants() const { return grants_; }
  uint32_t max_wait_grants() const { return max_wait_grants_; }
  uint32_t max_in_sequencer() const { return max_in_seq_; }

  // Queues a request of client c (its tag is given here, distinct among its requests in flight).
  void Submit(uint32_t c, MaintOp op, uint32_t plane, uint32_t block, uint32_t page = 0) {
    MaintReq r{op, plane, block, page};
    r.tag = cl_[c].next_tag;
    cl_[c].next_tag = (cl_[c].next_tag + 1) % (1u << kClientTagBits);
    cl_[c].to_send.push_back(r);
  }
  bool Idle() const {
    for (const auto& c : cl_) {
      if (!c.to_send.empty() || !c.in_flight.empty()) return false;
    }
    return !front_ && pending_.empty();
  }
  void Run(uint64_t n) {
    for (uint64_t i = 0; i < n && error_.empty(); ++i) Step();
  }
  void Drain(uint64_t max_cycles = 200000) {
    const uint64_t stop = h_.cycle() + max_cycles;
    while (!Idle() && error_.empty() && h_.cycle() < stop) Step();
    if (!Idle() && error_.empty()) Fail("not drained after " + std::to_string(max_cycles));
  }

 private:
  struct Client {
    std::deque<MaintReq> to_send;
    std::map<uint32_t, MaintReq> in_flight;  // by the client's tag
    std::optional<MaintReq> beating;         // its program whose beats it sends
    uint32_t beat = 0;
    bool req_offered = false, wr_offered = false;
    uint32_t next_tag = 0;
    uint32_t waited_grants = 0;  // grants to others while this client offered
    uint64_t answered = 0, lines = 0;
  };
  struct Front {           // the stand-in's front end
    MaintReq req;          // as the sequencer got it
    uint32_t client = 0;   // who sent it (from the handshake)
    uint32_t line = 0;     // lines given / beats taken
    bool line_offered = false;
    Status worst = Status::kOk;
    bool answer = false;   // its answer is due in the front end
    MaintStatus status = MaintStatus::kOk;
  };
  struct Pending {
    MaintRsp rsp;
    uint64_t at;
  };

  static bool Chance(std::mt19937& g, double p) {
    return p >= 1.0 || std::uniform_real_distribution<double>(0, 1)(g) < p;
  }
  void Fail(const std::string& what) {
    if (!error_.empty()) return;
    std::ostringstream s;
    s << "cycle " << h_.cycle() << ": " << what;
    error_ = s.str();
  }
  static bool SameAddr(const MaintReq& a, const MaintReq& b) {
    return a.op == b.op && a.plane == b.plane && a.block == b.block && a.page == b.page;
  }

  void Drive() {
    auto& d = h_.dut();
    // Clients: a request, once offered, is held until taken.
    uint32_t req_valid = 0, wr_valid = 0, rd_ready = 0, rsp_ready = 0;
    for (uint32_t c = 0; c < kClients; ++c) {
      Client& cl = cl_[c];
      if (!cl.to_send.empty() && (cl.req_offered || Chance(rng_, k_.req_p))) {
        cl.req_offered = true;
        req_valid |= 1u << c;
        PutBits(d.c_req_i, c * kReqBits, kReqBits, cl.to_send.front().Pack());
      }
      if (cl.beating && (cl.wr_offered || Chance(rng_, k_.wr_p))) {
        cl.wr_offered = true;
        wr_valid |= 1u << c;
        for (uint32_t k = 0; k < kWords; ++k) {
          PutBits(d.c_wr_data_i, c * kDataBits + 64 * k, 64, Chunk(c, cl.beating->tag, cl.beat, k));
        }
        PutBits(d.c_wr_poison_i, c, 1, (cl.beat + cl.beating->tag) & 1);
      }
      if (Chance(rng_, k_.rd_ready_p)) rd_ready |= 1u << c;
      if (Chance(rng_, k_.rsp_ready_p)) rsp_ready |= 1u << c;
    }
    d.c_req_valid_i = req_valid;
    d.c_wr_valid_i = wr_valid;
    d.c_rd_ready_i = rd_ready;
    d.c_rsp_ready_i = rsp_ready;
    // The stand-in sequencer.
    d.s_req_ready_i = !front_ && Chance(rng_, k_.s_req_p);
    d.s_wr_ready_i = front_ && front_->req.op == MaintOp::kProgramPage && !front_->answer &&
                     Chance(rng_, k_.s_wr_p);
    d.s_rd_valid_i = 0;
    if (front_ && front_->req.op == MaintOp::kReadPage && !front_->answer &&
        (front_->line_offered || Chance(rng_, k_.s_rd_p))) {
      front_->line_offered = true;
      d.s_rd_valid_i = 1;
      for (uint32_t k = 0; k < kWords; ++k) {
        PutBits(d.s_rd_data_i, 64 * k, 64, Chunk(99, front_->req.tag, front_->line, k));
      }
      d.s_rd_status_i = static_cast<uint8_t>(LineStatus(front_->req.tag, front_->line));
      d.s_rd_line_i = front_->line;
      d.s_rd_last_i = front_->line + 1 == kLines;
    }
    if (!offered_) {
      // The front end's answer, or a finished program or erase (any order), when it chooses to.
      if (front_ && front_->answer && Chance(rng_, k_.s_rsp_p)) {
        MaintRsp r;
        r.tag = front_->req.tag;
        r.op = front_->req.op;
        r.status = front_->status;
        r.plane = front_->req.plane;
        r.block = front_->req.block;
        r.page = front_->req.page;
        offered_ = r;
        offered_front_ = true;
      } else {
        std::vector<size_t> ready;
        for (size_t i = 0; i < pending_.size(); ++i) {
          if (pending_[i].at <= h_.cycle()) ready.push_back(i);
        }
        if (!ready.empty() && Chance(rng_, k_.s_rsp_p)) {
          const size_t i = ready[rng_() % ready.size()];
          offered_ = pending_[i].rsp;
          offered_front_ = false;
          pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
        }
      }
    }
    d.s_rsp_valid_i = offered_.has_value();
    if (offered_) d.s_rsp_i = offered_->Pack();
  }

  static Status LineStatus(uint32_t tag, uint32_t line) {
    const uint32_t v = (tag * 7 + line * 3) % 11;
    return v == 0 ? Status::kUncorrectable : v < 3 ? Status::kCorrected : Status::kOk;
  }

  void Sample() {
    auto& d = h_.dut();
    const uint32_t c_req_go = d.c_req_valid_i & d.c_req_ready_o;
    const uint32_t c_wr_go = d.c_wr_valid_i & d.c_wr_ready_o;
    const uint32_t c_rd_go = d.c_rd_valid_o & d.c_rd_ready_i;
    const uint32_t c_rsp_go = d.c_rsp_valid_o & d.c_rsp_ready_i;
    const bool s_req_go = d.s_req_valid_o && d.s_req_ready_i;
    const bool s_wr_go = d.s_wr_valid_o && d.s_wr_ready_i;
    const bool s_rd_go = d.s_rd_valid_i && d.s_rd_ready_o;
    const bool s_rsp_go = d.s_rsp_valid_i && d.s_rsp_ready_o;

    // Requests.
    if (d.c_req_valid_i != 0 && !d.s_req_valid_o) {
      Fail("a client requests, the sequencer sees none");
    }
    if (__builtin_popcount(c_req_go) != (s_req_go ? 1 : 0)) {
      Fail("request taken from " + std::to_string(__builtin_popcount(c_req_go)) +
           " clients, sequencer transfer " + std::to_string(s_req_go));
    }
    if (s_req_go && c_req_go != 0) {
      const uint32_t c = static_cast<uint32_t>(__builtin_ctz(c_req_go));
      Client& cl = cl_[c];
      const MaintReq want = cl.to_send.front();
      const MaintReq got = MaintReq::Unpack(d.s_req_o);
      if (!SameAddr(want, got)) Fail("client " + std::to_string(c) + "'s request changed");
      if (owner_.count(got.tag)) Fail("tag " + std::to_string(got.tag) + " twice in the sequencer");
      owner_[got.tag] = {c, want.tag};
      max_in_seq_ = std::max<uint32_t>(max_in_seq_, static_cast<uint32_t>(owner_.size()));
      cl.in_flight[want.tag] = want;
      cl.to_send.pop_front();
      cl.req_offered = false;
      grants_.push_back(c);
      for (uint32_t o = 0; o < kClients; ++o) {
        if (o == c) {
          cl_[o].waited_grants = 0;
        } else if (cl_[o].req_offered) {
          max_wait_grants_ = std::max(max_wait_grants_, ++cl_[o].waited_grants);
        }
      }
      Front f;
      f.req = got;
      f.client = c;
      if (got.op == MaintOp::kEraseBlock) {
        pending_.push_back({Answer(got, MaintStatus::kOk), Later()});
      } else if (got.op == MaintOp::kProgramPage && got.plane >= kBadPlane) {
        f.answer = true;
        f.status = MaintStatus::kBadAddress;
        front_ = f;
      } else {
        front_ = f;
        if (got.op == MaintOp::kProgramPage) {
          cl.beating = want;
          cl.beat = 0;
        }
      }
    }

    // Program beats: exactly the program's client's, unchanged, in line order.
    if (__builtin_popcount(c_wr_go) != (s_wr_go ? 1 : 0)) Fail("a beat on one side only");
    if (s_wr_go) {
      if (!front_ || front_->req.op != MaintOp::kProgramPage) {
        Fail("a beat with no program in the front end");
      } else if (c_wr_go != (1u << front_->client)) {
        Fail("a beat from a client whose program it is not");
      } else {
        Client& cl = cl_[front_->client];
        for (uint32_t k = 0; k < kWords; ++k) {
          if (GetBits(d.s_wr_data_o, 64 * k, 64) !=
              Chunk(front_->client, cl.beating->tag, cl.beat, k)) {
            Fail("beat " + std::to_string(cl.beat) + " data changed on its way");
          }
        }
        if (d.s_wr_poison_o != ((cl.beat + cl.beating->tag) & 1)) Fail("beat poison changed");
        cl.wr_offered = false;
        ++cl.beat;
        if (++front_->line == kLines) {
          cl.beating.reset();
          const MaintStatus st =
              (front_->req.tag % 5 == 0) ? MaintStatus::kProgramFail : MaintStatus::kOk;
          pending_.push_back({Answer(front_->req, st), Later()});
          front_.reset();
        }
      }
    }

    // Read lines: exactly to the reader, unchanged.
    for (uint32_t c = 0; c < kClients; ++c) {
      const bool want = d.s_rd_valid_i && front_ && front_->client == c;
      if (((d.c_rd_valid_o >> c) & 1) != want) {
        Fail("read line valid to client " + std::to_string(c));
      }
    }
    if (__builtin_popcount(c_rd_go) != (s_rd_go ? 1 : 0)) Fail("a line taken on one side only");
    if (s_rd_go && front_) {
      const uint32_t c = front_->client;
      for (uint32_t k = 0; k < kWords; ++k) {
        if (GetBits(d.c_rd_data_o, 64 * k, 64) != Chunk(99, front_->req.tag, front_->line, k)) {
          Fail("line data changed on its way");
        }
      }
      const Status st = LineStatus(front_->req.tag, front_->line);
      if (d.c_rd_status_o != static_cast<uint8_t>(st) || d.c_rd_line_o != front_->line ||
          d.c_rd_last_o != (front_->line + 1 == kLines)) {
        Fail("line status, number or last flag changed on its way");
      }
      if (st == Status::kUncorrectable) {
        front_->worst = st;
      } else if (st == Status::kCorrected && front_->worst == Status::kOk) {
        front_->worst = st;
      }
      ++cl_[c].lines;
      front_->line_offered = false;
      if (++front_->line == kLines) {
        front_->answer = true;
        front_->status = front_->worst == Status::kUncorrectable ? MaintStatus::kUncorrectable
                         : front_->worst == Status::kCorrected   ? MaintStatus::kCorrected
                                                                 : MaintStatus::kOk;
      }
    }

    // Answers: exactly to the client whose request it is, its tag its own again.
    int to = -1;
    if (d.s_rsp_valid_i) {
      const MaintRsp sr = MaintRsp::Unpack(d.s_rsp_i);
      auto it = owner_.find(sr.tag);
      if (it == owner_.end()) {
        Fail("the stand-in answers a tag it does not hold");
      } else {
        to = static_cast<int>(it->second.first);
      }
    }
    for (uint32_t c = 0; c < kClients; ++c) {
      if (((d.c_rsp_valid_o >> c) & 1) != (static_cast<int>(c) == to)) {
        Fail("answer valid to client " + std::to_string(c));
      }
    }
    if (__builtin_popcount(c_rsp_go) != (s_rsp_go ? 1 : 0)) {
      Fail("an answer taken on one side only");
    }
    if (s_rsp_go && to >= 0) {
      const MaintRsp sr = MaintRsp::Unpack(d.s_rsp_i);
      const MaintRsp cr = MaintRsp::Unpack(d.c_rsp_o);
      Client& cl = cl_[static_cast<uint32_t>(to)];
      const uint32_t ctag = owner_[sr.tag].second;
      auto f = cl.in_flight.find(cr.tag);
      if (cr.tag != ctag || f == cl.in_flight.end()) {
        Fail("client " + std::to_string(to) + " got tag " + std::to_string(cr.tag) + ", its " +
             std::to_string(ctag) + " was answered");
      } else if (cr.op != f->second.op || cr.plane != f->second.plane ||
                 cr.block != f->second.block || cr.page != f->second.page ||
                 cr.status != sr.status) {
        Fail("client " + std::to_string(to) + "'s answer changed on its way");
      } else {
        cl.in_flight.erase(f);
        ++cl.answered;
      }
      owner_.erase(sr.tag);
      if (offered_front_) front_.reset();
      offered_.reset();
    }
  }

  static MaintRsp Answer(const MaintReq& q, MaintStatus st) {
    MaintRsp r;
    r.tag = q.tag;
    r.op = q.op;
    r.status = st;
    r.plane = q.plane;
    r.block = q.block;
    r.page = q.page;
    return r;
  }
  uint64_t Later() { return h_.cycle() + 1 + rng_() % (k_.max_delay + 1); }

  void Step() {
    Drive();
    h_.Eval();
    Sample();
    h_.TickAfterEval();
  }

  static constexpr uint32_t kDataBits = 256;
  static constexpr uint32_t kWords = kDataBits / 64;
  static constexpr uint32_t kLines = 8;

  flint::tb::Harness<Vmaint_arb> h_;
  std::mt19937 rng_;
  Knobs k_;
  Client cl_[kClients];
  std::optional<Front> front_;
  std::vector<Pending> pending_;
  std::optional<MaintRsp> offered_;
  bool offered_front_ = false;
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> owner_;  // sequencer tag -> client, its tag
  std::vector<uint32_t> grants_;
  uint32_t max_wait_grants_ = 0, max_in_seq_ = 0;
  std::string error_;
};

void RequireClean(const ArbBench& b) {
  INFO(b.Error());
  REQUIRE(b.Error().empty());
  REQUIRE_FALSE(b.Failed());
}

}  // namespace

TEST_CASE("maint_arb: the bench's widths are small's", "[nand][maint_arb][smoke]") {
  REQUIRE(flint::kSmallConfig.cl_data_bits == 256);
  REQUIRE(flint::kSmallConfig.cl_per_page == 8);
}

TEST_CASE("maint_arb: each client's reads, programs and erases come back to it",
          "[nand][maint_arb][directed]") {
  ArbBench b(flint::tb::TestSeed());
  b.Submit(0, MaintOp::kReadPage, 0, 1, 2);
  b.Submit(1, MaintOp::kReadPage, 1, 3, 4);
  b.Submit(0, MaintOp::kProgramPage, 2, 5, 0);
  b.Submit(1, MaintOp::kProgramPage, 3, 6, 0);
  b.Submit(0, MaintOp::kEraseBlock, 0, 7);
  b.Submit(1, MaintOp::kEraseBlock, 1, 8);
  b.Drain();
  RequireClean(b);
  REQUIRE(b.answered(0) == 3);
  REQUIRE(b.answered(1) == 3);
  REQUIRE(b.lines(0) == 8);
  REQUIRE(b.lines(1) == 8);
}

TEST_CASE("maint_arb: contending clients are granted in turn", "[nand][maint_arb][directed]") {
  ArbBench b(flint::tb::TestSeed());
  b.knobs().max_delay = 0;
  for (uint32_t i = 0; i < 20; ++i) {
    b.Submit(0, MaintOp::kEraseBlock, 0, i);
    b.Submit(1, MaintOp::kEraseBlock, 1, i);
  }
  b.Drain();
  RequireClean(b);
  // Both always offer: the grants alternate, neither waits for more than one of the other's.
  const auto& g = b.grants();
  REQUIRE(g.size() == 40);
  for (size_t i = 1; i < g.size(); ++i) REQUIRE(g[i] != g[i - 1]);
  REQUIRE(b.max_wait_grants() == 1);
}

TEST_CASE("maint_arb: an answer waiting for a slow client holds the rest, none lost",
          "[nand][maint_arb][directed]") {
  ArbBench b(flint::tb::TestSeed());
  b.knobs().rsp_ready_p = 0.05;  // both clients slow to take answers
  b.knobs().rd_ready_p = 0.3;
  for (uint32_t i = 0; i < 6; ++i) {
    b.Submit(i % 2, MaintOp::kEraseBlock, i, 0);
    b.Submit((i + 1) % 2, MaintOp::kProgramPage, i, 1, 0);
    b.Submit(i % 2, MaintOp::kReadPage, i, 2, 0);
  }
  b.Drain();
  RequireClean(b);
  REQUIRE(b.answered(0) + b.answered(1) == 18);
}

TEST_CASE("maint_arb: a program answered without its beats closes them",
          "[nand][maint_arb][corner]") {
  ArbBench b(flint::tb::TestSeed());
  b.Submit(0, MaintOp::kProgramPage, 250, 0, 0);  // the stand-in answers MaintBadAddress
  b.Submit(1, MaintOp::kProgramPage, 1, 0, 0);
  b.Submit(0, MaintOp::kProgramPage, 2, 0, 0);
  b.Drain();
  RequireClean(b);
  REQUIRE(b.answered(0) == 2);
  REQUIRE(b.answered(1) == 1);
}

TEST_CASE("maint_arb: random traffic of two clients against the contract",
          "[nand][maint_arb][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  ArbBench b(seed);
  auto& g = b.rng();
  std::uniform_real_distribution<double> u(0.2, 1.0);
  b.knobs() = {u(g), u(g), u(g), u(g), u(g), u(g), u(g), u(g), 60};
  uint32_t total = 0;
  for (int round = 0; round < 40; ++round) {
    // Each client a batch of up to five requests (several of its programs and erases in
    // flight), then both drained together; some rounds only one client is busy.
    for (uint32_t c = 0; c < 2; ++c) {
      const uint32_t n = g() % 6;
      for (uint32_t i = 0; i < n; ++i) {
        const auto op = static_cast<MaintOp>(g() % 3);
        const uint32_t plane = (g() % 13 == 0) ? kBadPlane + 1 : g() % 5;
        b.Submit(c, op, plane, g() % 64, g() % 16);
        ++total;
      }
    }
    b.Run(g() % 50);
    if (round % 4 == 3) b.knobs() = {u(g), u(g), u(g), u(g), u(g), u(g), u(g), u(g), 60};
  }
  b.Drain(1000000);
  RequireClean(b);
  REQUIRE(b.answered(0) + b.answered(1) == total);
  REQUIRE(b.max_wait_grants() <= 1);
  REQUIRE(b.max_in_sequencer() >= 3);
}
