// Trust no synthesis silently (STYLE.md): flint_maint_seq against its Yosys netlist
// (scripts/netlist.py; its struct ports with enum fields become plain vectors there), both driven
// alike every cycle by a random client and die that keep the protocol the RTL's assertions
// assume (a request and a beat held until taken, the park held while asked for, a data-out's
// data only after one was issued), every output compared after the inputs settle; payloads
// only while their valid is high. The sequencer as flint_top builds it (OutDepth 0: no line
// buffer, the client ready from a data-out until its line is back).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>

#include "Vmaint_seq_netlist.h"
#include "Vmaint_seq_rtl.h"
#include "flint_config.hpp"
#include "tb/common/harness.hpp"
#include "tb/common/ports.hpp"
#include "tb/common/seed.hpp"

namespace {

using flint::tb::GetBits;
using flint::tb::PutBits;

template <class W>
void RandomWide(W& w, uint32_t bits, std::mt19937& rng) {
  for (uint32_t i = 0; i < bits; i += 32) PutBits(w, i, std::min(32u, bits - i), rng());
}
template <class A, class B>
bool WideEq(const A& a, const B& b, uint32_t bits) {
  for (uint32_t i = 0; i < bits; i += 32) {
    const uint32_t n = std::min(32u, bits - i);
    if (GetBits(a, i, n) != GetBits(b, i, n)) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("maint_seq: the RTL matches its synthesized netlist", "[nand][maint_seq][random]") {
  const flint::Config& cfg = flint::kSmallConfig;
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  flint::tb::Harness<Vmaint_seq_rtl> hr(seed, "", "_rtl");
  flint::tb::Harness<Vmaint_seq_netlist> hn(seed, "", "_netlist");
  std::mt19937 rng(seed);
  std::bernoulli_distribution coin(0.5);
  const auto data_bits = static_cast<uint32_t>(cfg.cl_bytes * 8);
  const auto img_bits = static_cast<uint32_t>(cfg.cl_image_bytes * 8);
  const auto pp = static_cast<uint32_t>(cfg.phys_planes);

  // Client and controller-side state (offers held until taken, the park, a data-out in flight).
  bool req_on = false, wr_on = false, sense_free = false, parked = false, out = false;
  uint64_t req = 0;
  auto drive = [&](auto& d) {
    d.rst_ni = 1;
    d.req_valid_i = req_on;
    d.req_i = req;
    d.wr_valid_i = wr_on;
    d.sense_free_i = sense_free;
    d.parked_i = parked;
  };
  auto zero = [&](auto& d) {
    d.rst_ni = 1;
    d.req_valid_i = 0;
    d.wr_valid_i = 0;
    d.rd_ready_i = 0;
    d.rsp_ready_i = 0;
    d.sense_free_i = 0;
    d.parked_i = 0;
    d.dout_valid_i = 0;
    d.m_ready_i = 0;
  };
  zero(hr.dut());
  zero(hn.dut());
  hr.Eval();
  hn.Eval();
  hr.Reset();
  hn.Reset();

  const int cycles = 30000;
  std::string diff;
  uint64_t reqs = 0, rsps = 0, lines = 0, beats = 0, cmds = 0;
  for (int c = 0; c < cycles && diff.empty(); ++c) {
    auto& r = hr.dut();
    auto& n = hn.dut();
    // New offers (held until taken).
    if (!req_on && coin(rng)) {
      req_on = true;
      const uint64_t op = rng() % 3;
      // Tags distinct among those outstanding (at most a plane's slot each and the front end).
      req = ((reqs & 0xFF) << 42) | (op << 40) | (uint64_t{rng() % (pp + 2)} << 32) |
            (uint64_t{rng() % (cfg.blocks + 2)} << 16) | (rng() % (cfg.pages + 2));
    }
    if (!wr_on && coin(rng)) {
      wr_on = true;
      RandomWide(r.wr_data_i, data_bits, rng);
      r.wr_poison_i = coin(rng);
    }
    drive(r);
    drive(n);
    for (uint32_t i = 0; i < data_bits; i += 32) {
      PutBits(n.wr_data_i, i, std::min(32u, data_bits - i), GetBits(r.wr_data_i, i, 32));
    }
    n.wr_poison_i = r.wr_poison_i;
    // The die: random readiness; a data-out's data only after it was issued.
    const uint32_t idle = rng() % (1u << pp), cache = rng() % (1u << pp), fail = rng() % (1u << pp);
    // The client without a line buffer between (OutDepth 0, as built): ready while a data-out is
    // in flight, random otherwise.
    const bool io = coin(rng), m_ready = rng() % 4 != 0, rd_ready = coin(rng) || out,
               rsp_ready = coin(rng);
    const bool dout = out && coin(rng);
    // The line back as the die's decoder gives it: data and a status (OK, CORRECTED, UE).
    RandomWide(r.dout_data_i, data_bits, rng);
    for (uint32_t i = 0; i < data_bits; i += 32) {
      PutBits(n.dout_data_i, i, std::min(32u, data_bits - i), GetBits(r.dout_data_i, i, 32));
    }
    r.dout_status_i = n.dout_status_i = rng() % 3;
    r.plane_idle_i = n.plane_idle_i = idle;
    r.plane_cache_i = n.plane_cache_i = cache;
    r.plane_fail_i = n.plane_fail_i = fail;
    r.io_ready_i = n.io_ready_i = io;
    r.m_ready_i = n.m_ready_i = m_ready;
    r.rd_ready_i = n.rd_ready_i = rd_ready;
    r.rsp_ready_i = n.rsp_ready_i = rsp_ready;
    r.dout_valid_i = n.dout_valid_i = dout;
    hr.Eval();
    hn.Eval();
    // Compare.
    std::ostringstream os;
    auto check = [&](const char* name, uint64_t a, uint64_t b) {
      if (a != b && os.tellp() == 0) os << name << " rtl 0x" << std::hex << a << " netlist 0x" << b;
    };
    check("req_ready_o", r.req_ready_o, n.req_ready_o);
    check("wr_ready_o", r.wr_ready_o, n.wr_ready_o);
    check("rd_valid_o", r.rd_valid_o, n.rd_valid_o);
    check("rsp_valid_o", r.rsp_valid_o, n.rsp_valid_o);
    check("park_o", r.park_o, n.park_o);
    check("hold_o", r.hold_o, n.hold_o);
    check("m_valid_o", r.m_valid_o, n.m_valid_o);
    check("din_valid_o", r.din_valid_o, n.din_valid_o);
    if (r.rd_valid_o) {
      check("rd_status_o", r.rd_status_o, n.rd_status_o);
      check("rd_line_o", r.rd_line_o, n.rd_line_o);
      check("rd_last_o", r.rd_last_o, n.rd_last_o);
      if (!WideEq(r.rd_data_o, n.rd_data_o, data_bits)) check("rd_data_o", 1, 0);
    }
    if (r.rsp_valid_o) check("rsp_o", r.rsp_o, n.rsp_o);
    if (r.m_valid_o) {
      check("m_op_o", r.m_op_o, n.m_op_o);
      check("m_plane_o", r.m_plane_o, n.m_plane_o);
      check("m_block_o", r.m_block_o, n.m_block_o);
      check("m_page_o", r.m_page_o, n.m_page_o);
      check("m_line_o", r.m_line_o, n.m_line_o);
    }
    if (r.din_valid_o && !WideEq(r.din_data_o, n.din_data_o, img_bits)) check("din_data_o", 1, 0);
    if (os.tellp() != 0) diff = "cycle " + std::to_string(hr.cycle()) + ": " + os.str();
    // Transfers, from the RTL's outputs (equal to the netlist's when no difference).
    if (req_on && r.req_ready_o) {
      req_on = false;
      ++reqs;
    }
    if (wr_on && r.wr_ready_o) {
      wr_on = false;
      ++beats;
    }
    lines += r.rd_valid_o && rd_ready;
    rsps += r.rsp_valid_o && rsp_ready;
    if (dout) out = false;
    if (r.m_valid_o && m_ready) {
      ++cmds;
      if (r.m_op_o == 3) out = true;  // NandCmdDataOut
    }
    // The controller side frees its page buffers some cycles after it is asked and parks some
    // cycles after that (parked implies sense-free), and stays so while asked.
    sense_free = r.park_o && (sense_free || coin(rng));
    parked = sense_free && (parked || coin(rng));
    hr.Tick();
    hn.Tick();
    if (hr.Failed()) diff = "cycle " + std::to_string(hr.cycle()) + ": an RTL assertion failed";
  }
  INFO(diff);
  INFO(reqs << " requests, " << rsps << " responses, " << lines << " lines, " << beats << " beats, "
            << cmds << " die commands");
  REQUIRE(diff.empty());
  REQUIRE(rsps > 200);
  REQUIRE(lines > 200);
  REQUIRE(beats > 200);
}
