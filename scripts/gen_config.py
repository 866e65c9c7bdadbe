#!/usr/bin/env python3
"""One source of truth for parameters: configs/<name>.toml -> SV package, C++ header, JSON.

Reads every config in configs/, checks it, derives the figures DESIGN.md section 2 names, and
writes into OUT:
  <name>/flint_cfg_pkg.sv   package flint_cfg_pkg (same package name for every config; a build
                            reads exactly one of them)
  <name>/config.json        raw + derived values, for scripts and reports
  flint_config.hpp          struct flint::Config and one constexpr instance per config
Standard library only. Usage: gen_config.py --configs DIR --out DIR
"""
import argparse
import json
import math
import pathlib
import sys
import tomllib

# Every key a config must have, by table, with its C++/SV kind. Nothing else is accepted.
SCHEMA = {
    "geometry": ["dies", "planes", "blocks", "pages", "page_bytes", "spare_bytes", "cl_bytes"],
    "port": ["lanes", "req_id_bits", "clock_mhz"],
    "timing": ["t_read_cycles", "t_prog_cycles", "t_erase_cycles", "t_cache_xfer_cycles"],
    "reliability": ["disturb_limit", "pe_limit", "retention_cycles", "factory_bad_block_ppm"],
    "energy": ["read_pj_per_bit", "prog_pj_per_bit", "d2d_pj_per_bit", "erase_nj_per_block"],
    "bbc": ["crq_entries", "crq_die_slack", "sched_slots"],
    "refresh": ["progq_pages"],
}
FLOAT_KEYS = {"read_pj_per_bit", "prog_pj_per_bit", "d2d_pj_per_bit", "erase_nj_per_block"}
POW2_KEYS = ["dies", "planes", "blocks", "pages", "page_bytes", "cl_bytes", "lanes"]


class ConfigError(Exception):
    pass


def clog2(n):
    """Bits to index n things (at least 1, as an SV vector needs a bit)."""
    return max(1, math.ceil(math.log2(n))) if n > 1 else 1


def load(path):
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    name = doc.get("name")
    if name != path.stem:
        raise ConfigError(f"{path}: name = {name!r} must match the file name {path.stem!r}")
    flat = {}
    for table, keys in SCHEMA.items():
        got = doc.get(table)
        if not isinstance(got, dict):
            raise ConfigError(f"{path}: missing table [{table}]")
        extra = set(got) - set(keys)
        if extra:
            raise ConfigError(f"{path}: unknown key(s) in [{table}]: {', '.join(sorted(extra))}")
        for key in keys:
            if key not in got:
                raise ConfigError(f"{path}: [{table}] lacks {key}")
            val = got[key]
            if key in FLOAT_KEYS:
                if not isinstance(val, (int, float)) or val < 0:
                    raise ConfigError(f"{path}: {key} must be a non-negative number")
                val = float(val)
            elif not isinstance(val, int) or isinstance(val, bool) or val < 0:
                raise ConfigError(f"{path}: {key} must be a non-negative integer, got {val!r}")
            flat[key] = val
    flat["name"] = name
    flat["description"] = doc.get("description", "")
    return flat


def derive(c):
    """Derived figures. Every constraint the RTL relies on is checked here, loudly."""
    name = c["name"]
    for key in POW2_KEYS:
        v = c[key]
        if v == 0 or v & (v - 1):
            raise ConfigError(f"{name}: {key} = {v} must be a power of two")
    if c["page_bytes"] % c["cl_bytes"]:
        raise ConfigError(f"{name}: page_bytes must be a multiple of cl_bytes")
    link = c["lanes"] * c["cl_bytes"]  # bytes per cycle on the accelerator side
    if link % c["dies"]:
        raise ConfigError(f"{name}: lanes*cl_bytes = {link} must divide evenly among dies")
    d = {}
    d["phys_planes"] = c["planes"] + 1
    d["burst_bytes"] = c["dies"] * c["planes"] * c["page_bytes"]
    d["bursts_per_stack"] = c["blocks"] * c["pages"]
    d["stack_bytes"] = d["burst_bytes"] * d["bursts_per_stack"]
    d["btt_entries"] = d["bursts_per_stack"]
    d["slices_per_burst"] = c["dies"] * c["planes"]
    d["cl_per_page"] = c["page_bytes"] // c["cl_bytes"]
    d["cl_per_burst"] = d["burst_bytes"] // c["cl_bytes"]
    # One ECC check byte per 64-bit data word (docs/nand_model.md, page image layout).
    if c["spare_bytes"] * 8 != c["page_bytes"]:
        raise ConfigError(f"{name}: spare_bytes must be page_bytes/8 (one check byte a 64-bit word)")
    if (link // c["dies"]) % 8:
        raise ConfigError(f"{name}: lanes*cl_bytes/dies must be a multiple of 8")
    d["link_bytes_per_cycle"] = link
    # The die I/O carries data and its check bytes (9/8 of the data), so a burst slice with its
    # parity leaves the die in the time its data needs on the link.
    d["die_io_bytes_per_cycle"] = link // c["dies"] * 9 // 8
    d["page_image_bytes"] = c["page_bytes"] + c["spare_bytes"]
    d["cl_image_bytes"] = c["cl_bytes"] * 9 // 8
    d["drain_cycles"] = c["planes"] * d["page_image_bytes"] // d["die_io_bytes_per_cycle"]
    # Steady-state cache-read period: the next sense overlaps the drain, then one latch copy.
    d["burst_period_cycles"] = max(d["drain_cycles"], c["t_read_cycles"]) + c["t_cache_xfer_cycles"]
    d["bitmap_bits_per_die"] = c["blocks"] * c["pages"]
    d["in_place_refresh_cycles"] = c["t_erase_cycles"] + c["pages"] * c["t_prog_cycles"]
    d["plane_bytes"] = c["blocks"] * c["pages"] * c["page_bytes"]
    # One rotation step: copy a whole plane at one plane's program rate.
    d["rotation_step_cycles"] = c["blocks"] * c["pages"] * c["t_prog_cycles"]
    d["full_pass_cycles"] = d["phys_planes"] * d["rotation_step_cycles"]
    # The rotation as the refresh controller runs it (docs/refresh.md): a step copies every block
    # of a plane and erases the blocks it vacated, one plane at a time a die, so every block is
    # refreshed once a pass. An always-read block under the interleaved placement is sensed once
    # every `blocks` bursts at the full read rate. hot_block_cycles / rotation_pass_cycles is the
    # margin by which the rotation alone keeps it under the disturb limit (paper 1.16).
    d["rotation_pass_cycles"] = d["phys_planes"] * c["blocks"] * (
        c["pages"] * c["t_prog_cycles"] + c["t_erase_cycles"])
    d["hot_block_cycles"] = c["disturb_limit"] * c["blocks"] * d["burst_period_cycles"]
    # A clean install of a full stack (paper 4.4; docs/top.md): every plane erases its blocks,
    # then every burst programs one page on every plane at once, streamed one cache line a
    # cycle, so a burst costs the longer of tPROG and its lines.
    d["load_cycles"] = c["blocks"] * c["t_erase_cycles"] + d["bursts_per_stack"] * max(
        c["t_prog_cycles"], d["cl_per_burst"])
    d["bdp_bytes"] = link * c["t_read_cycles"]
    # Widths for the RTL.
    d["die_bits"] = clog2(c["dies"])
    d["plane_bits"] = clog2(c["planes"])
    d["phys_plane_bits"] = clog2(d["phys_planes"])
    d["block_bits"] = clog2(c["blocks"])
    d["page_bits"] = clog2(c["pages"])
    d["burst_idx_bits"] = clog2(d["bursts_per_stack"])
    d["addr_bits"] = clog2(d["stack_bytes"])
    d["cl_offset_bits"] = clog2(c["cl_bytes"])
    d["cl_in_page_bits"] = clog2(d["cl_per_page"])
    d["cl_data_bits"] = 8 * c["cl_bytes"]
    d["disturb_count_bits"] = clog2(c["disturb_limit"] + 1)
    d["crq_idx_bits"] = clog2(c["crq_entries"])
    # The lookahead senses the next burst when its first request is queued; a queue shorter than
    # a burst of lines holds the next burst's requests back until the active one is nearly
    # drained, and a sequential sweep then runs at drain + tR instead of max(drain, tR)
    # (docs/bbc.md, "Queue depth").
    if c["crq_entries"] < d["cl_per_burst"]:
        raise ConfigError(f"{c['name']}: crq_entries = {c['crq_entries']} is less than a burst of "
                          f"lines ({d['cl_per_burst']}); the lookahead cannot reach the tR-bound peak")
    # ACTIVE, NEXT and at least one burst waiting; a request for a burst with no slot is refused
    # and holds the port (docs/bbc.md, "Slots").
    if c["sched_slots"] < 3:
        raise ConfigError(f"{c['name']}: sched_slots = {c['sched_slots']}: ACTIVE, NEXT and one "
                          "waiting burst need at least 3")
    d["sched_slot_bits"] = clog2(c["sched_slots"])
    # A die's queue banks hold crq_die_slack x (crq_entries / dies) entries, the total stays
    # crq_entries: from an even share (1) to the whole queue on one die (dies), as the pooled
    # golden model allows (docs/bbc.md, "Queue banks a die").
    if not 1 <= c["crq_die_slack"] <= c["dies"]:
        raise ConfigError(f"{c['name']}: crq_die_slack = {c['crq_die_slack']} must be in "
                          f"1..dies ({c['dies']})")
    return d


# The refresh controller's buses to the relocation table, the read counters and the stripe table
# (docs/refresh.md, "The buses as structs"): their field widths come from the config, so their
# types live here. A die's bus has no die field; the stack's (flint_refresh to flint_top) has.
# Yosys 0.23 finds no type of another package in a struct here ("typedef for user type
# `\flint_pkg::reloc_cmd_e' not found"), nor a localparam of one: a flint_pkg enum field is
# raw bits of the enum's width, decoded onto its names by a unique case where it is used; those
# widths are copied here, and scripts/test_gen_config.py checks them against rtl/flint_pkg.sv.
REFRESH_BUSES = """\
  // refresh buses (flint_refresh_die, flint_refresh, flint_top); first field = MSB
  localparam int unsigned RelocCmdBits = 3;   // flint_pkg::RelocCmdWidth
  localparam int unsigned FtlStatusBits = 3;  // flint_pkg::FtlStatusWidth
  localparam int unsigned BlkStateBits = 3;   // flint_pkg::BlkStateWidth
  // a relocation-table command; plane/block logical for Alloc, physical otherwise
  typedef struct packed {
    logic [RelocCmdBits-1:0]  op;     // a flint_pkg::reloc_cmd_e value
    logic [PhysPlaneBits-1:0] plane;
    logic [BlockBits-1:0]     block;
  } rc_cmd_t;
  localparam int unsigned RcCmdWidth = RelocCmdBits + PhysPlaneBits + BlockBits;
  typedef struct packed {
    logic [DieBits-1:0]       die;
    logic [RelocCmdBits-1:0]  op;
    logic [PhysPlaneBits-1:0] plane;
    logic [BlockBits-1:0]     block;
  } stack_rc_cmd_t;
  localparam int unsigned StackRcCmdWidth = DieBits + RcCmdWidth;
  // its answer: the block answered for, its state before the command, its logical owner
  typedef struct packed {
    logic [FtlStatusBits-1:0] status;  // a flint_pkg::ftl_status_e value
    logic [BlkStateBits-1:0]  state;   // a flint_pkg::blk_state_e value
    logic [PhysPlaneBits-1:0] plane;
    logic [BlockBits-1:0]     block;
    logic [PlaneBits-1:0]     lplane;
    logic [BlockBits-1:0]     lblock;
  } rc_rsp_t;
  localparam int unsigned RcRspWidth = FtlStatusBits + BlkStateBits + PhysPlaneBits +
                                       2 * BlockBits + PlaneBits;
  // a physical block of a die: a read-counter reset, a scrubber's sense
  typedef struct packed {
    logic [PhysPlaneBits-1:0] plane;
    logic [BlockBits-1:0]     block;
  } pblk_t;
  localparam int unsigned PblkWidth = PhysPlaneBits + BlockBits;
  typedef struct packed {
    logic [DieBits-1:0]       die;
    logic [PhysPlaneBits-1:0] plane;
    logic [BlockBits-1:0]     block;
  } stack_pblk_t;
  localparam int unsigned StackPblkWidth = DieBits + PblkWidth;
  // a read-counter trip event: the block, and whether it reached the disturb limit
  typedef struct packed {
    logic [PhysPlaneBits-1:0] plane;
    logic [BlockBits-1:0]     block;
    logic                     limit;
  } evt_t;
  localparam int unsigned EvtWidth = PhysPlaneBits + BlockBits + 1;
  typedef struct packed {
    logic [DieBits-1:0]       die;
    logic [PhysPlaneBits-1:0] plane;
    logic [BlockBits-1:0]     block;
    logic                     limit;
  } stack_evt_t;
  localparam int unsigned StackEvtWidth = DieBits + EvtWidth;
  // a committed relocation for the stripe table: logical (plane, block) now at physical
  typedef struct packed {
    logic [PlaneBits-1:0]     lplane;
    logic [BlockBits-1:0]     lblock;
    logic [PhysPlaneBits-1:0] pplane;
    logic [BlockBits-1:0]     pblock;
  } upd_t;
  localparam int unsigned UpdWidth = PlaneBits + 2 * BlockBits + PhysPlaneBits;
  typedef struct packed {
    logic [DieBits-1:0]       die;
    logic [PlaneBits-1:0]     lplane;
    logic [BlockBits-1:0]     lblock;
    logic [PhysPlaneBits-1:0] pplane;
    logic [BlockBits-1:0]     pblock;
  } stack_upd_t;
  localparam int unsigned StackUpdWidth = DieBits + UpdWidth;
"""


def sv_name(key):
    return "".join(p.capitalize() for p in key.split("_"))


def emit_sv(c, d):
    lines = [
        "// Generated by scripts/gen_config.py from configs/%s.toml. Do not edit." % c["name"],
        "// %s" % c["description"],
        "`default_nettype none",
        "package flint_cfg_pkg;",
    ]
    for group, vals in (("configured", c), ("derived", d)):
        lines.append("  // %s" % group)
        for key, val in vals.items():
            if key in ("name", "description") or key in FLOAT_KEYS:
                continue
            if val < 2**31:
                lines.append("  localparam int unsigned %s = %d;" % (sv_name(key), val))
            else:  # beyond int: a 64-bit vector constant
                lines.append("  localparam logic [63:0] %s = 64'd%d;" % (sv_name(key), val))
    lines += REFRESH_BUSES.splitlines()
    lines += ["endpackage", "`default_nettype wire", ""]
    return "\n".join(lines)


def emit_hpp(configs):
    int_keys = [k for t in SCHEMA.values() for k in t if k not in FLOAT_KEYS]
    float_keys = [k for t in SCHEMA.values() for k in t if k in FLOAT_KEYS]
    derived_keys = list(configs[0][1].keys())
    out = [
        "// Generated by scripts/gen_config.py from configs/*.toml. Do not edit.",
        "#pragma once",
        "#include <array>",
        "#include <cstdint>",
        "#include <string_view>",
        "",
        "namespace flint {",
        "",
        "// Every parameter of one configuration, configured and derived (see DESIGN.md section 2).",
        "struct Config {",
        "  std::string_view name;",
        "  std::string_view description;",
    ]
    out += ["  uint64_t %s;" % k for k in int_keys]
    out += ["  double %s;" % k for k in float_keys]
    out += ["  // derived"] + ["  uint64_t %s;" % k for k in derived_keys]
    out += ["};", ""]
    for c, d in configs:
        out.append("inline constexpr Config k%sConfig{" % sv_name(c["name"]))
        out.append('    "%s",' % c["name"])
        out.append('    "%s",' % c["description"].replace('"', '\\"'))
        out += ["    %dULL,  // %s" % (c[k], k) for k in int_keys]
        out += ["    %r,  // %s" % (c[k], k) for k in float_keys]
        out += ["    %dULL,  // %s" % (d[k], k) for k in derived_keys]
        out.append("};")
    out.append("")
    out.append("inline constexpr std::array<const Config*, %d> kAllConfigs{" % len(configs))
    out += ["    &k%sConfig," % sv_name(c["name"]) for c, _ in configs]
    out += ["};", ""]
    out += [
        "// The config named `name`, or nullptr.",
        "inline const Config* FindConfig(std::string_view name) {",
        "  for (const Config* c : kAllConfigs) {",
        "    if (c->name == name) return c;",
        "  }",
        "  return nullptr;",
        "}",
        "",
        "}  // namespace flint",
        "",
    ]
    return "\n".join(out)


def write_if_changed(path, text):
    """Keep timestamps when nothing changed, so the build does not redo Verilation."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and path.read_text() == text:
        return
    path.write_text(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", required=True, type=pathlib.Path)
    ap.add_argument("--out", required=True, type=pathlib.Path)
    args = ap.parse_args()
    paths = sorted(args.configs.glob("*.toml"))
    if not paths:
        print(f"gen_config: no configs in {args.configs}", file=sys.stderr)
        return 1
    configs = []
    try:
        for p in paths:
            c = load(p)
            configs.append((c, derive(c)))
    except (ConfigError, tomllib.TOMLDecodeError) as e:
        print(f"gen_config: {e}", file=sys.stderr)
        return 1
    for c, d in configs:
        write_if_changed(args.out / c["name"] / "flint_cfg_pkg.sv", emit_sv(c, d))
        write_if_changed(args.out / c["name"] / "config.json",
                         json.dumps({"config": c, "derived": d}, indent=2) + "\n")
    write_if_changed(args.out / "flint_config.hpp", emit_hpp(configs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
