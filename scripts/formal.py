#!/usr/bin/env python3
"""Formal proofs by induction with Yosys 0.23 `sat` (make formal; docs/formal.md).

Each proof is a property wrapper under tb/formal/ around one RTL block at a tiny
parameterisation. For each it runs
  1. the proof: `sat -tempinduct` (k-induction: a base case from reset and an induction step of
     length k, k raised until the step holds or MAXSTEPS is reached) over every assertion, the
     block's own FLINT_ASSERTs and the wrapper's properties;
  2. the non-vacuity checks: copies of the property or of the design broken on purpose, each of
     which a bounded run from reset (`sat -seq N`) must refute with a counterexample. A check
     that finds none fails the run: the proof could be passing for a trivial reason.
Prints a table (proof, block, parameters, k, seconds, result) and exits 1 on any failure, with
the path of the counterexample VCD.

Wrapper inputs named tap_* are not free: the script deletes them as ports after flattening and
connects each to the internal signal of the design named in the proof's table (`connect -set`),
so the induction invariants can talk about pointers and storage without changing the RTL.

Usage: formal.py [--gen build/gen] [--config small] [--out build/formal] [--list] [PROOF ...]
Standard library only; needs yosys on PATH.
"""
import argparse
import dataclasses
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


@dataclasses.dataclass
class Break:
    """A deliberately broken copy: the bounded run from reset must find a counterexample."""
    name: str
    what: str                                  # one line: what is broken
    define: str = ""                           # a `define for the wrapper (BREAK_*), or
    edit: tuple = ()                           # (file, old text, new text) on a copy of the RTL
    drop_assume: str = ""                      # a wrapper `define that removes an assumption
    steps: int = 0                             # bounded length, if not the proof's bmc_steps


@dataclasses.dataclass
class Proof:
    name: str
    block: str                                 # the RTL module under proof
    top: str                                   # the wrapper module
    files: list                                # RTL and wrapper sources, repository-relative
    params: dict                               # wrapper parameters (chparam)
    prop: str                                  # one line: what is proven
    taps: dict = dataclasses.field(default_factory=dict)      # wrapper input -> internal signal
    mem_taps: dict = dataclasses.field(default_factory=dict)  # input -> (memory, words, width)
    maxsteps: int = 20
    bmc_steps: int = 20
    breaks: list = dataclasses.field(default_factory=list)
    needs_cfg: bool = False                    # reads flint_cfg_pkg (the generated config)
    # A proof the RTL as it stands fails (a bug found and reported, not fixed here): left out of
    # the default run (and of ctest), run by name to reproduce the counterexample, or with
    # --with-fix on a copy of the RTL with `fix` (file, old text, new text) applied.
    blocked: str = ""
    fix: tuple = ()
    # read_verilog -defer: elaborate only at the proof's parameters (a module whose defaults,
    # from the generated config, are slow to elaborate: flint_reloc_table's whole-table checks).
    defer: bool = False


PROOFS = [
    Proof(
        name="fifo",
        block="flint_fifo",
        top="flint_fifo_props",
        files=["rtl/common/flint_fifo.sv", "tb/formal/flint_fifo_props.sv"],
        params={"Width": 2, "Depth": 3},
        prop="own asserts; usage <= Depth and = pushes - pops; a tracked element leaves once, "
             "after exactly those in front of it, with its data",
        taps={"tap_rd_ptr": "u_dut.rd_ptr_q", "tap_wr_ptr": "u_dut.wr_ptr_q"},
        mem_taps={"tap_mem": ("u_dut.mem_q", 3, 2)},
        maxsteps=10,
        bmc_steps=10,
        breaks=[
            Break("prop_early", "property: the tracked element leaves one pop early",
                  define="BREAK_PROP"),
            Break("no_reset", "assumption dropped: no reset in the first cycle",
                  drop_assume="DROP_RESET_ASSUME"),
            Break("design_push_full", "design: a push is taken into a full FIFO",
                  edit=("rtl/common/flint_fifo.sv",
                        "assign in_ready_o  = (count_q != CntBits'(Depth)) || out_ready_i;",
                        "assign in_ready_o  = 1'b1;")),
            Break("design_wrap", "design: the read pointer wraps one entry late",
                  edit=("rtl/common/flint_fifo.sv",
                        "if (pop) rd_ptr_d = next_ptr(rd_ptr_q);",
                        "if (pop) rd_ptr_d = rd_ptr_q + 1'b1;")),
        ],
    ),
    Proof(
        name="rr_arb",
        block="flint_rr_arb",
        top="flint_rr_arb_props",
        files=["rtl/common/flint_rr_arb.sv", "tb/formal/flint_rr_arb_props.sv"],
        params={"N": 3},
        prop="own asserts (one-hot grant to a requester, stall hold, a_fair); the winner is the "
             "first requester from the priority pointer; a waiting requester is granted within "
             "N transfers",
        taps={"tap_prio": "u_dut.prio_q", "tap_hold": "u_dut.hold_q",
              "tap_last": "u_dut.last_idx_q",
              **{f"tap_others[{32 * g + 31}:{32 * g}]": f"u_dut.g_fair[{g}].others_q"
                 for g in range(3)}},
        maxsteps=12,
        bmc_steps=10,
        breaks=[
            Break("prop_fixed_prio", "property: claims fixed priority (requester 0 always wins)",
                  define="BREAK_PROP"),
            Break("no_reset", "assumption dropped: no reset in the first cycle",
                  drop_assume="DROP_RESET_ASSUME"),
            Break("design_no_rotate", "design: the priority never moves",
                  edit=("rtl/common/flint_rr_arb.sv",
                        "assign prio_d      = !transfer ? prio_q :",
                        "assign prio_d      = 1'b1 ? prio_q :")),
        ],
    ),
    Proof(
        name="crq_bank",
        block="flint_bbc_crq_bank",
        top="flint_bbc_crq_bank_props",
        files=["rtl/common/flint_sram.sv", "rtl/bbc/flint_bbc_crq_bank.sv",
               "tb/formal/flint_bbc_crq_bank_props.sv"],
        params={"Entries": 4, "Slots": 2, "Width": 2},
        prop="a tracked accepted request is answered exactly once: queued (its slot non-empty, "
             "`ahead` counting down) xor answered, its answer carries its slot and payload; "
             "the entry indices partition lists / free FIFO / prefetch / bump",
        taps={"tap_head": "u_dut.head_q", "tap_tail": "u_dut.tail_q", "tap_cnt": "u_dut.cnt_q",
              "tap_pend": "u_dut.pend_q", "tap_pend_slot": "u_dut.pend_slot_q",
              "tap_bump": "u_dut.bump_q", "tap_frd": "u_dut.frd_q", "tap_fwr": "u_dut.fwr_q",
              "tap_fcnt": "u_dut.fcnt_q", "tap_fin": "u_dut.fin_q", "tap_ob_n": "u_dut.ob_n_q",
              "tap_ob0": "u_dut.ob0_q", "tap_ob1": "u_dut.ob1_q", "tap_app_idx": "u_dut.app_idx",
              "tap_next_rd": "u_dut.u_next.rd_data_q", "tap_free_rd": "u_dut.u_free.rd_data_q"},
        mem_taps={"tap_next": ("u_dut.u_next.mem_q", 4, 2),
                  "tap_free": ("u_dut.u_free.mem_q", 4, 2),
                  "tap_pay": ("u_dut.u_payload.mem_q", 4, 2)},
        maxsteps=6,
        bmc_steps=8,
        needs_cfg=True,
        breaks=[
            Break("prop_late", "property: claims the answer comes a cycle late",
                  define="BREAK_PROP"),
            Break("no_reset", "assumption dropped: no reset in the first cycle",
                  drop_assume="DROP_RESET_ASSUME"),
            Break("design_one_entry", "design: an append to a one-entry list being popped "
                  "links behind the popped entry instead of becoming the head",
                  edit=("rtl/bbc/flint_bbc_crq_bank.sv",
                        "if (app_cnt == '0 || (pop_fire && pop_slot_i == app_slot_i && "
                        "pop_cnt == CntBits'(1))) begin",
                        "if (app_cnt == '0) begin")),
            Break("design_free_twice", "design: a popped entry's index is not returned to the "
                  "free FIFO's write pointer (the FIFO write pointer does not advance)",
                  edit=("rtl/bbc/flint_bbc_crq_bank.sv",
                        "fwr_d = (32'(fwr_q) == Entries - 1) ? '0 : fwr_q + 1'b1;",
                        "fwr_d = fwr_q;")),
        ],
    ),
    Proof(
        name="progq",
        block="flint_progq",
        top="flint_progq_props",
        files=["rtl/common/flint_sram.sv", "rtl/common/flint_fifo.sv",
               "rtl/refresh/flint_progq.sv", "tb/formal/flint_progq_props.sv"],
        params={"Slots": 2, "Lines": 2, "BeatBits": 1, "Blocks": 2, "Pages": 2, "StatBits": 2},
        prop="the program side never sees a partial page: every read of the reader is of a slot "
             "whose lines were all written since its allocation; writes only into the writer's "
             "open slot; beats of a page in line order, last on the last; the module's asserts",
        taps={"tap_free": "u_dut.free_q", "tap_fk_open": "u_dut.fk_open_q",
              "tap_fk_slot": "u_dut.fk_slot_q", "tap_fk_mask": "u_dut.fk_mask_q",
              "tap_sc_open": "u_dut.sc_open_q", "tap_sc_slot": "u_dut.sc_slot_q",
              "tap_sc_mask": "u_dut.sc_mask_q", "tap_rd_act": "u_dut.rd_act_q",
              "tap_rd_ent": "u_dut.rd_ent_q", "tap_inflight": "u_dut.inflight_q",
              "tap_meta": "u_dut.meta_q", "tap_rd_issue": "u_dut.rd_issue",
              "tap_rd_addr": "u_dut.rd_addr", "tap_wr_en": "u_dut.wr_en",
              "tap_wr_addr": "u_dut.wr_addr", "tap_fk_write": "u_dut.fk_write",
              "tap_alloc": "u_dut.alloc", "tap_alloc_slot": "u_dut.alloc_slot",
              "tap_cm_rd": "u_dut.u_commit.rd_ptr_q", "tap_cm_cnt": "u_dut.u_commit.count_q",
              "tap_ob_rd": "u_dut.u_out.rd_ptr_q", "tap_ob_cnt": "u_dut.u_out.count_q",
              "tap_cm_wr": "u_dut.u_commit.wr_ptr_q", "tap_ob_wr": "u_dut.u_out.wr_ptr_q"},
        mem_taps={"tap_cm_mem": ("u_dut.u_commit.mem_q", 2, 4),
                  "tap_ob_mem": ("u_dut.u_out.mem_q", 2, 7)},
        maxsteps=10,
        bmc_steps=12,
        needs_cfg=True,
        breaks=[
            Break("prop_line0", "property: claims the reader never reads line 1 of a page",
                  define="BREAK_PROP"),
            Break("no_reset", "assumption dropped: no reset in the first cycle",
                  drop_assume="DROP_RESET_ASSUME"),
            Break("design_commit_early", "design: a page commits when its first line is written "
                  "(a partial page)",
                  edit=("rtl/refresh/flint_progq.sv",
                        "assign fk_done     = fk_write && fk_mask_new == AllLines;",
                        "assign fk_done     = fk_write && fk_mask_new != '0;")),
        ],
    ),
    Proof(
        name="read_counters",
        block="flint_read_counters",
        top="flint_read_counters_props",
        files=["rtl/common/flint_sram.sv", "rtl/common/flint_fifo.sv",
               "rtl/ftl/flint_read_counters.sv", "tb/formal/flint_read_counters_props.sv"],
        params={"Dies": 1, "PhysPlanes": 2, "Blocks": 2, "DisturbLimit": 6, "CountBits": 3,
                "StaggerBits": 1, "TripMargin": 1, "EventDepth": 2},
        prop="a tracked block's count is exact and saturates (a read answers the senses since "
             "the last erase, capped at 2^CountBits-1); due exactly at its trip point, below the "
             "limit, limit alarm exactly at DisturbLimit; the module's own asserts",
        taps={"tap_busy": "u_dut.busy_q", "tap_sweep": "u_dut.sweep_q",
              "tap_s1_valid": "u_dut.s1_valid_q", "tap_s1_ok": "u_dut.s1_ok_q",
              "tap_s1_sense": "u_dut.s1_sense_q", "tap_s1_addr": "u_dut.s1_addr_q",
              "tap_b_wr": "u_dut.b_wr", "tap_wr_data": "u_dut.wr_data",
              "tap_old_count": "u_dut.old_count", "tap_trip": "u_dut.trip",
              "tap_due": "u_dut.due", "tap_at_limit": "u_dut.at_limit",
              "tap_cmd_busy": "u_dut.cmd_busy_q", "tap_evt_rd": "u_dut.u_events.rd_ptr_q",
              "tap_evt_wr": "u_dut.u_events.wr_ptr_q", "tap_evt_cnt": "u_dut.u_events.count_q"},
        mem_taps={"tap_mem": ("u_dut.u_counts.mem_q", 4, 3)},
        maxsteps=10,
        bmc_steps=18,
        needs_cfg=True,
        breaks=[
            Break("prop_plus_one", "property: claims a read answers one more than the count",
                  define="BREAK_PROP"),
            # The bug this proof found (docs/formal.md, "Found"), put back: it must fail again.
            Break("design_countmax_1", "design: CountMax = '1, which Yosys 0.23 makes 1",
                  edit=("rtl/ftl/flint_read_counters.sv",
                        "localparam logic [CountBits-1:0] CountMax = {CountBits{1'b1}};",
                        "localparam logic [CountBits-1:0] CountMax = '1;")),
            Break("no_reset", "assumption dropped: no reset in the first cycle",
                  drop_assume="DROP_RESET_ASSUME"),
            Break("design_wraps", "design: the count wraps instead of saturating",
                  edit=("rtl/ftl/flint_read_counters.sv",
                        "assign new_count = saturated ? old_count : old_count + 1'b1;",
                        "assign new_count = old_count + 1'b1;")),
            Break("design_erase_keeps", "design: an erase reset leaves the count as it was",
                  edit=("rtl/ftl/flint_read_counters.sv",
                        "assign wr_data = busy_q ? start_count : s1_erase_q ? '0 : new_count;",
                        "assign wr_data = busy_q ? start_count : s1_erase_q ? old_count : "
                        "new_count;")),
        ],
    ),
    Proof(
        name="reloc",
        block="flint_reloc_table",
        top="flint_reloc_table_props",
        files=["rtl/common/flint_sram.sv", "rtl/ftl/flint_plane_map.sv",
               "rtl/ftl/flint_reloc_table.sv", "tb/formal/flint_reloc_table_props.sv"],
        params={"Dies": 1, "Planes": 2, "Blocks": 2},
        prop="the relocation table stays a bijection with its free pool: every logical block "
             "onto a physical block Mapped back to it, every other block Free/Reserved/Vacated/"
             "Bad once, a reservation on its block index's phantom iff pending, distinct planes; "
             "invariants of Alloc's and Commit's in-between states; the module's own asserts",
        taps={"tap_st": "u_dut.st_q", "tap_op": "u_dut.op_q", "tap_die": "u_dut.die_q",
              "tap_plane": "u_dut.plane_q", "tap_block": "u_dut.block_q", "tap_l": "u_dut.l_q",
              "tap_b": "u_dut.b_q", "tap_h": "u_dut.h_q", "tap_scan": "u_dut.scan_q",
              "tap_src_plane": "u_dut.src_plane_q", "tap_src_block": "u_dut.src_block_q",
              "tap_ini_die": "u_dut.ini_die_q", "tap_ini_plane": "u_dut.ini_plane_q",
              "tap_ini_block": "u_dut.ini_block_q", "tap_rsp_valid": "u_dut.rsp_valid_q",
              "tap_lk_fresh": "u_dut.lk_fresh_q", "tap_lk_hold": "u_dut.lk_hold_q", "tap_pm_busy": "u_dut.u_plane_map.busy_q",
              "tap_pm_sweep": "u_dut.u_plane_map.sweep_q", "tap_fwd_rd": "u_dut.u_fwd.rd_data_q",
              "tap_rev_rd": "u_dut.u_rev.rd_data_q",
              "tap_pm_rd": "u_dut.u_plane_map.u_map.rd_data_q"},
        mem_taps={"tap_fwd": ("u_dut.u_fwd.mem_q", 4, 3),
                  "tap_rev": ("u_dut.u_rev.mem_q", 6, 5),
                  "tap_pm": ("u_dut.u_plane_map.u_map.mem_q", 2, 3)},
        maxsteps=8,
        bmc_steps=18,  # each check sets its own: reset, the 6-cycle sweep, an Alloc, a Commit
        needs_cfg=True,
        defer=True,
        breaks=[
            Break("prop_all_free", "property: claims every block not mapped is Free (in the "
                  "pool), which a reservation refutes", define="BREAK_PROP", steps=12),
            Break("no_reset", "assumption dropped: no reset in the first cycle",
                  drop_assume="DROP_RESET_ASSUME", steps=4),
            Break("design_commit_no_rev", "design: Commit forgets the reverse write of its "
                  "destination (it stays Reserved)",
                  edit=("rtl/ftl/flint_reloc_table.sv",
                        "        rev_wr_en   = 1'b1;\n"
                        "        rev_wr_addr = rev_addr(die_q, plane_q, block_q);\n"
                        "        rev_wr_data = rev_word(flint_pkg::BlkMapped, l_q, b_q);",
                        "        rev_wr_en   = 1'b0;\n"
                        "        rev_wr_addr = rev_addr(die_q, plane_q, block_q);\n"
                        "        rev_wr_data = rev_word(flint_pkg::BlkMapped, l_q, b_q);"),
                  steps=18),
            Break("design_release_keeps", "design: Release does not return the block to the "
                  "pool (no reverse write)",
                  edit=("rtl/ftl/flint_reloc_table.sv",
                        "            if (rev_state == flint_pkg::BlkReserved || "
                        "rev_state == flint_pkg::BlkVacated) begin\n"
                        "              rev_wr_en   = 1'b1;",
                        "            if (rev_state == flint_pkg::BlkReserved || "
                        "rev_state == flint_pkg::BlkVacated) begin\n"
                        "              rev_wr_en   = 1'b0;"), steps=16),
            Break("design_lk_stale", "design: a lookup answers the previous lookup's word "
                  "(the held copy, not the fresh read)",
                  edit=("rtl/ftl/flint_reloc_table.sv",
                        "assign lk_word          = lk_fresh_q ? {fwd_rd_data, pm_rd_phantom} : "
                        "lk_hold_q;",
                        "assign lk_word          = lk_hold_q;"), steps=10),
            Break("design_no_vacate", "design: Commit skips its second write (the source "
                  "block stays Mapped)",
                  edit=("rtl/ftl/flint_reloc_table.sv",
                        "        st_d = StVacate;",
                        "        st_d = StIdle;"), steps=18),
        ],
    ),
]


def find(name):
    for p in PROOFS:
        if p.name == name:
            return p
    raise SystemExit(f"formal.py: no proof named {name!r} (--list lists them)")


def sources(proof, gen, config, workdir, brk, with_fix=False):
    """The source list. A break that edits the design, and with with_fix the proof's fix, are
    applied to a copy of the RTL file in workdir; the file itself is never touched."""
    edits = []
    if with_fix and proof.fix:
        edits.append(("fixed_", "fix", proof.fix))
    if brk is not None and brk.edit:
        edits.append(("broken_", f"break {brk.name}", brk.edit))
    files = []
    if proof.needs_cfg:
        files.append(pathlib.Path(gen) / config / "flint_cfg_pkg.sv")
    files.append(ROOT / "rtl" / "flint_pkg.sv")
    for f in proof.files:
        path = ROOT / f
        text, prefix = None, ""
        for pre, what, (ef, old, new) in edits:
            if ef != f:
                continue
            text = path.read_text() if text is None else text
            if text.count(old) != 1:
                raise SystemExit(f"formal.py: {proof.name}, {what}: the text to replace is not "
                                 f"found exactly once in {f} (the RTL changed: update it)")
            text, prefix = text.replace(old, new), prefix + pre
        if text is not None:
            path = workdir / (prefix + path.name)
            path.write_text(text)
        files.append(path)
    return files


def script(proof, files, defines, mode, vcd, steps=0):
    """The Yosys script: mode 'induct' (the proof) or 'bmc' (a break must fail)."""
    defs = " ".join(f"-D{d}" for d in defines)
    inc = f"-I{ROOT / 'rtl' / 'common'}"
    defer = "-defer " if proof.defer else ""
    lines = [f"read_verilog {defer}-sv -formal {defs} {inc} {' '.join(str(f) for f in files)}"]
    params = " ".join(f"-set {k} {v}" for k, v in proof.params.items())
    if params:
        lines.append(f"chparam {params} {proof.top}")
    lines += [f"prep -top {proof.top} -flatten", "memory"]
    # A tap may be a slice of a wrapper input ("tap_x[7:0]"): the port is its name.
    taps = sorted({t.split("[")[0] for t in list(proof.taps) + list(proof.mem_taps)})
    if taps:
        lines.append("delete -port " + " ".join(f"{proof.top}/{t}" for t in taps))
        for tap, sig in proof.taps.items():
            lines.append(f"connect -set {tap} {sig}")
        for tap, (mem, words, width) in proof.mem_taps.items():
            # Word i at [i*W +: W] of the tap (memory words are wires after `memory`).
            for i in range(words):
                lines.append(f"connect -set {tap}[{(i + 1) * width - 1}:{i * width}] {mem}[{i}]")
    lines += ["async2sync", "chformal -cover -remove", "opt_clean"]
    # Two-valued: no -set-init-undef / -set-def-inputs. Those turn on sat's modelling of x
    # bits, and an induction step may then start from x-valued flops that no reset leaves,
    # which fails the step for ever (docs/formal.md, "Flow"). The base case still starts from
    # reset: the wrapper's f_init_q (init attribute 1) assumes rst_ni low in the first cycle,
    # and every other flop and memory word starts at an arbitrary (defined) value.
    # -show-inputs -show-regs: without them the VCD holds the first step only.
    common = "-prove-asserts -set-assumes -verify -show-inputs -show-regs"
    if mode == "induct":
        lines.append(f"sat -tempinduct {common} -maxsteps {proof.maxsteps} -dump_vcd {vcd}")
    else:
        lines.append(f"sat -seq {steps or proof.bmc_steps} {common} -dump_vcd {vcd}")
    return "\n".join(lines) + "\n"


def run_yosys(text, ys, log):
    ys.write_text(text)
    t0 = time.monotonic()
    with open(log, "w") as f:
        rc = subprocess.run(["yosys", "-q", "-l", str(log.with_suffix(".full.log")), str(ys)],
                            stdout=f, stderr=subprocess.STDOUT).returncode
    return rc, time.monotonic() - t0


def induction_depth(full_log):
    """k of the induction step that closed, from sat's log."""
    text = full_log.read_text(errors="replace")
    if "Induction step proven" not in text:
        return None
    ks = re.findall(r"Trying induction with length (\d+)", text)
    return int(ks[-1]) if ks else None


def lint(proof, args, work):
    """Verilator -Wall on the wrapper and its RTL (the wrappers stay lint-clean too)."""
    if shutil.which("verilator") is None:
        return True, 0.0, "verilator not found: lint skipped"
    files = [str(f) for f in sources(proof, args.gen, args.config, work, None)]
    cmd = ["verilator", "--lint-only", "-Wall", "--assert", f"-I{ROOT / 'rtl' / 'common'}",
           str(ROOT / "rtl" / "flint.vlt")] + files + ["--top-module", proof.top]
    cmd += [f"-G{k}={v}" for k, v in proof.params.items()]
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=work)
    (work / "lint.log").write_text(r.stdout + r.stderr)
    ok = r.returncode == 0
    return ok, time.monotonic() - t0, "" if ok else f"log: {work / 'lint.log'}"


def run_proof(proof, args):
    work = pathlib.Path(args.out) / proof.name
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    rows = []
    ok, secs, note = lint(proof, args, work)
    rows.append((proof.name, "verilator_lint", ok, None, secs, "clean" if ok else "FAILED", note))
    # The proof.
    vcd = work / "proof_cex.vcd"
    text = script(proof, sources(proof, args.gen, args.config, work, None, args.with_fix), [],
                  "induct", vcd)
    rc, secs = run_yosys(text, work / "proof.ys", work / "proof.log")
    k = induction_depth(work / "proof.full.log")
    ok = rc == 0 and k is not None
    note = "" if ok else (f"counterexample: {vcd}" if vcd.exists() else f"log: {work/'proof.full.log'}")
    rows.append((proof.name, "proof", ok, k, secs, "proven" if ok else "FAILED", note))
    # The non-vacuity checks.
    for brk in proof.breaks:
        vcd = work / f"{brk.name}_cex.vcd"
        defines = [d for d in (brk.define, brk.drop_assume) if d]
        text = script(proof, sources(proof, args.gen, args.config, work, brk, args.with_fix),
                      defines, "bmc", vcd, brk.steps)
        rc, secs = run_yosys(text, work / f"{brk.name}.ys", work / f"{brk.name}.log")
        full = (work / f"{brk.name}.full.log").read_text(errors="replace")
        refuted = rc != 0 and "SAT proof finished - model found: FAIL!" in full
        note = f"refuted, trace {vcd}" if refuted else f"NOT refuted: log {work/brk.name}.full.log"
        rows.append((proof.name, brk.name, refuted, None, secs,
                     "refuted" if refuted else "FAILED", note))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("proofs", nargs="*", help="proofs to run (default: all)")
    ap.add_argument("--gen", default=str(ROOT / "build" / "gen"),
                    help="generated config packages (cmake writes build/gen)")
    ap.add_argument("--config", default="small", help="config whose package the RTL reads for "
                    "its default parameters (the proofs override them)")
    ap.add_argument("--out", default=str(ROOT / "build" / "formal"), help="work directory")
    ap.add_argument("--list", action="store_true", help="list the proofs and exit")
    ap.add_argument("--with-fix", action="store_true", help="run a blocked proof on a copy of "
                    "the RTL with its proposed fix applied (the RTL itself is not touched)")
    args = ap.parse_args()
    # Absolute: the tools run in work directories of their own.
    args.gen = str(pathlib.Path(args.gen).resolve())
    args.out = str(pathlib.Path(args.out).resolve())
    if args.list:
        for p in PROOFS:
            params = ", ".join(f"{k}={v}" for k, v in p.params.items())
            print(f"{p.name:12} {p.block:22} {params}\n{'':12} {p.prop}")
            for b in p.breaks:
                print(f"{'':12}   break {b.name}: {b.what}")
            if p.blocked:
                print(f"{'':12}   BLOCKED (not in the default run): {p.blocked}")
        return 0
    if shutil.which("yosys") is None:
        print("formal.py: yosys not found (make setup installs it)", file=sys.stderr)
        return 1
    chosen = [find(n) for n in args.proofs] if args.proofs else [p for p in PROOFS
                                                                 if not p.blocked]
    for p in PROOFS:
        if p.blocked and p not in chosen:
            print(f"  {p.name:12} {'(blocked)':20} skipped: {p.blocked}")
    rows = []
    for p in chosen:
        if p.needs_cfg and not (pathlib.Path(args.gen) / args.config / "flint_cfg_pkg.sv").exists():
            print(f"formal.py: {args.gen}/{args.config}/flint_cfg_pkg.sv missing (run cmake "
                  "or make configure first)", file=sys.stderr)
            return 1
        for r in run_proof(p, args):
            rows.append((p,) + r)
            print(f"  {r[0]:12} {r[1]:20} {r[5]:8} {r[4]:6.2f} s  {r[6]}", flush=True)
    print()
    print(f"| proof | block | parameters | check | k | time (s) | result |")
    print(f"|---|---|---|---|---|---|---|")
    for p, name, check, ok, k, secs, result, note in rows:
        params = ", ".join(f"{a}={b}" for a, b in p.params.items())
        print(f"| {name} | {p.block} | {params} | {check} | {k if k is not None else '-'} "
              f"| {secs:.2f} | {result} |")
    failed = [r for r in rows if not r[3]]
    for p, name, check, ok, k, secs, result, note in failed:
        print(f"FAIL {name}/{check}: {note}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
