"""The paper's Table 3 structures: where each lives in the RTL, how to size it from the config
while its RTL is pending, and the SRAM organisation its area is priced at.

Each structure:
  key, name          row label
  paper              size text, mm^2 at 22 nm in the paper's Table 3
  cacti_match        the CACTI organisation that reproduces the paper's figure
                     (reference/README.md), as (count, Macro kwargs)
  parts              the tables it is made of: name, regexes of the RTL module names whose
                     flint_sram instances are that table, from_config(cfg) -> ([(rows, width,
                     copies)], layout text) sizing it from config.json while that RTL is
                     pending (the assumed entry layout is spelled out in the function), and
                     copies(cfg, srams) -> how many copies of one RTL root's macros the stack
                     has while flint_top is pending (srams: that root's flint_sram instances of
                     this part, as synth.py lists them). A part whose from_config gives no
                     macro is held in flops: its RTL modules' area is in the logic row.
  org                banks / objective / cell / ECC used to price its macros; ports come from
                     the RTL (flint_sram is 1R1W) or, while the RTL is pending, from the paper
  paper_ports        the ports the paper's CACTI run priced
Every macro is priced as `copies` identical macros: 128 small banks cost 128 times one small
bank, not one array of 128 times the bits (a small array pays more periphery per bit; how much
of that the SRAM model sees is said in docs/area.md).
Changing a module name in the RTL means changing its regex here; an SRAM found in a module
no structure claims is reported on its own row ("other"), never dropped.
"""


class StructureError(Exception):
    pass


def _c(cfg, key):
    if key in cfg["config"]:
        return cfg["config"][key]
    return cfg["derived"][key]


def _clog2(n):
    return max(1, (n - 1).bit_length()) if n > 1 else 1


def once(cfg, srams):
    """One copy a stack (a stack-wide table)."""
    return 1


def per_die(cfg, srams):
    """One copy a die."""
    return _c(cfg, "dies")


def btt_config(cfg):
    # entry = {valid, block, page}: the BTT maps a burst to the (block, page) sensed on every
    # plane; the per-plane block is the relocation table's job.
    width = 1 + _c(cfg, "block_bits") + _c(cfg, "page_bits")
    return [(_c(cfg, "btt_entries"), width, 1)], "btt_entries x {valid, block, page}"


def crq_banks(cfg):
    """Sub-banks of the cache request queue a stack has: one per (die, lane), a line's
    sub-bank being its address / CL_BYTES mod LANES on the die that holds it (docs/bbc.md)."""
    return _c(cfg, "dies") * _c(cfg, "lanes")


def crq_bank_layout(cfg, entries, banks):
    """The macros of `banks` flint_bbc_crq_bank instances sharing `entries` queue entries: per
    bank a payload {request id, plane, line in page}, a next-entry pointer and a FIFO of free
    indices, each Entries deep. Head, tail and count per slot are flops (logic row)."""
    if entries % banks:
        raise StructureError(f"{entries} CRQ entries do not split into {banks} banks")
    per = entries // banks
    idx = _clog2(per)
    payload = _c(cfg, "req_id_bits") + _c(cfg, "plane_bits") + _c(cfg, "cl_in_page_bits")
    return [(per, payload, banks), (per, idx, banks), (per, idx, banks)]


def crq_held(cfg):
    """Entries the CRQ's banks hold in all: crq_die_slack shares of crq_entries on every die
    (a die may hold that many of the crq_entries queued; docs/bbc.md, "Queue banks a die")."""
    return _c(cfg, "crq_die_slack") * _c(cfg, "crq_entries")


def crq_banks_of(cfg, macros):
    """Banks a priced CRQ part stands for: the entries held over the entries one bank holds."""
    return crq_held(cfg) // macros[0]["depth"]


def crq_config(cfg):
    banks = crq_banks(cfg)
    return crq_bank_layout(cfg, crq_held(cfg), banks), \
        ("dies x lanes banks of crq_die_slack x crq_entries / (dies x lanes) x {payload "
         "{id, plane, line}, next, free index}")


def crq_copies(cfg, srams):
    """Copies of one RTL root's CRQ macros: as many as it takes to hold crq_held(cfg). A root
    that is one bank (Entries deep) is held / Entries copies; a root holding every bank is
    one. Each of its macros (payload, next, free: grouped by instance name) must hold the
    same number of entries, and that number must divide the entries held."""
    if not srams:
        return 1
    held = {}
    for s in srams:
        leaf = s["inst"].split(".")[-1]
        held[leaf] = held.get(leaf, 0) + s["depth"]
    entries = crq_held(cfg)
    if len(set(held.values())) != 1 or entries % next(iter(held.values())):
        raise StructureError(f"CRQ macros {held} do not split the {entries} entries held "
                             "(crq_die_slack x crq_entries) into banks")
    return entries // next(iter(held.values()))


def cl_to_page_config(cfg):
    # The grouping is the scheduler's Slots flop entries (one per burst with queued or resident
    # requests) plus each bank's per-slot head/tail/count flops and next pointers (in the CRQ
    # part): no table of its own.
    return [], "Slots flop entries of flint_bbc_sched + per-slot lists of the CRQ banks (no SRAM)"


def bitmap_config(cfg):
    bits = _c(cfg, "bitmap_bits_per_die")
    word = min(64, bits)  # 8 B words, the organisation the paper's CACTI run used
    return [(bits // word, word, _c(cfg, "dies"))], "bitmap_bits_per_die (blocks x pages) per die"


def progq_config(cfg):
    # Word = one die's share of the link per cycle (64 B at paper): a page streams in and out
    # at the link rate.
    word = 8 * _c(cfg, "die_io_bytes_per_cycle")
    depth = _c(cfg, "progq_pages") * _c(cfg, "page_bytes") * 8 // word
    return [(depth, word, _c(cfg, "dies"))], "progq_pages x page_bytes per die"


def counters_config(cfg):
    # One disturb counter per physical block: the phantom plane's blocks serve reads too once
    # remapped.
    n = _c(cfg, "dies") * _c(cfg, "phys_planes") * _c(cfg, "blocks")
    return [(n, _c(cfg, "disturb_count_bits"), 1)], \
        "dies x phys_planes x blocks x disturb_count_bits"


def reloc_config(cfg):
    # Logical (die, plane, block) -> physical (plane, block) on the same die.
    n = _c(cfg, "dies") * _c(cfg, "planes") * _c(cfg, "blocks")
    return [(n, _c(cfg, "phys_plane_bits") + _c(cfg, "block_bits"), 1)], \
        "dies x planes x blocks x {phys plane, block}"


def stripe_config(cfg):
    # The stripe table of flint_xlat: the forward map again, one column per (die, logical
    # plane) so that a burst's whole stripe is read in one cycle.
    return [(_c(cfg, "blocks"), _c(cfg, "phys_plane_bits") + _c(cfg, "block_bits"),
             _c(cfg, "dies") * _c(cfg, "planes"))], \
        "dies x planes columns of blocks x {phys plane, block}"


LSTP_ECC = {"cell": "lstp", "ecc": True}

STRUCTURES = [
    {
        "key": "btt", "name": "Burst translation table",
        "paper": {"size": "1 MB", "mm2": 1.29},
        "cacti_match": (1, dict(size_bytes=1 << 20, word_bits=512, banks=1, objective="ed2")),
        "parts": [{"name": "btt", "modules": [r"flint_btt"], "from_config": btt_config,
                   "copies": once}],
        "org": dict(banks=1, objective="ed2", **LSTP_ECC),
        "paper_ports": dict(rw=1, r=0, w=0),
    },
    {
        "key": "crq", "name": "Cache-request queue + cl-to-page map",
        "paper": {"size": "256 kB", "mm2": 0.35},
        "cacti_match": (1, dict(size_bytes=1 << 18, word_bits=512, banks=4, objective="ed2")),
        "parts": [{"name": "crq", "modules": [r"flint_bbc_crq\w*", r"flint_crq\w*"],
                   "from_config": crq_config, "copies": crq_copies},
                  {"name": "cl_to_page", "modules": [r"flint_bbc_sched",
                                                     r"flint_cl_?(to_?)?page\w*",
                                                     r"flint_cl2page\w*"],
                   "from_config": cl_to_page_config, "copies": once}],
        # One bank a macro: the queue is DIES x LANES small sub-bank macros (flint_bbc_crq_bank),
        # each its own array, not the paper's one 256 kB array in 4 banks.
        "org": dict(banks=1, objective="ed2", **LSTP_ECC),
        "paper_ports": dict(rw=1, r=0, w=0),
    },
    {
        "key": "bitmap", "name": "Migration bitmaps",
        "paper": {"size": "16 x 32 kB", "mm2": 0.71},
        # 0.725 = 16 x 0.0453 is the itrs-hp, ECC-off, delay row of the ports file; with lstp
        # and ECC like the other rows it is 16 x 0.0594 = 0.950 (docs/area.md says so).
        "cacti_match": (16, dict(size_bytes=32768, word_bits=64, banks=1, rw=0, r=1, w=1,
                                 ecc=False, cell="hp", objective="delay")),
        # As built, the rotation keeps a next-page pointer a block, not a bitmap, beside the
        # source and target block of each logical block (flint_refresh_die's own tables;
        # docs/refresh.md "Pages reach the phantom in page order"). Its program queue is the
        # progq row. from_config prices the paper's bitmap while no such RTL is synthesized.
        "parts": [{"name": "bitmap", "modules": [r"flint_refresh_die"],
                   "from_config": bitmap_config, "copies": per_die}],
        "org": dict(banks=1, objective="delay", **LSTP_ECC),
        "paper_ports": dict(rw=0, r=1, w=1),
    },
    {
        "key": "progq", "name": "Program queues",
        "paper": {"size": "16 x 0.5 MB", "mm2": 10.5},
        "cacti_match": (16, dict(size_bytes=1 << 19, word_bits=512, banks=2, objective="ed2")),
        "parts": [{"name": "progq", "modules": [r"flint_prog_?q\w*", r"flint_program_queue\w*"],
                   "from_config": progq_config, "copies": per_die}],
        "org": dict(banks=2, objective="ed2", **LSTP_ECC),
        "paper_ports": dict(rw=1, r=0, w=0),
    },
    {
        "key": "counters_reloc", "name": "Read counters + relocation table",
        "paper": {"size": "0.83 MB", "mm2": 1.15},
        "cacti_match": (1, dict(size_bytes=917504, word_bits=512, banks=1, objective="delay")),
        "parts": [{"name": "read_counters", "modules": [r"flint_read_counters\w*"],
                   "from_config": counters_config, "copies": once},
                  {"name": "reloc", "modules": [r"flint_reloc\w*"], "from_config": reloc_config,
                   "copies": once},
                  # Not in the paper: the translation's one-cycle copy of the forward map
                  # (docs/top.md, "Translation"); a production die would keep the map once.
                  {"name": "stripe", "modules": [r"flint_xlat"], "from_config": stripe_config,
                   "copies": once}],
        "org": dict(banks=1, objective="delay", **LSTP_ECC),
        "paper_ports": dict(rw=1, r=0, w=0),
    },
]

# Modules of rtl/ that are not part of FLINT's base die as built: synthesized and priced on
# their own, outside the rows and totals, with the reason.
NOT_IN_DESIGN = {
    "flint_refresh_inplace_die": "the in-place refresh baseline (flint_top Mode 1 and 3), one a "
                                 "die; its block buffer is what the baseline costs",
    "flint_bch_enc": "the NAND-grade line code's encoder (BCH t=11, docs/ecc.md), built and "
                     "tested but not yet on the write paths (issue #26)",
    "flint_bch_syn": "the NAND-grade line code's syndrome unit, not yet on the read path "
                     "(issue #26)",
    "flint_bch_bm": "the NAND-grade line code's Berlekamp-Massey unit (the decoder's slow path), "
                    "not yet on the read path (issue #26)",
    "flint_bch_chien": "the NAND-grade line code's Chien search (P = 8), not yet on the read path "
                       "(issue #26)",
    "flint_bch_dec": "the NAND-grade line decoder (syndromes, Berlekamp-Massey, Chien search), "
                     "not yet on the read path (issue #26)",
    "flint_bch_single": "the NAND-grade line decoder's single-error test (power checks, log "
                        "table), not yet on the read path (issue #26)",
    "flint_bch_line_dec": "the NAND-grade multi-path line decoder (clean, single, Units slow-path "
                          "units, in-order buffer), not yet on the read path (issue #26)",
}

# Logic blocks without SRAMs that flint_top instantiates once a die (its maintenance path: the
# sequencer, its arbiter between the rotation and the loader, the die port): priced once a die.
PER_DIE_LOGIC = {"flint_maint_seq", "flint_maint_arb", "flint_die_port"}

# Organisation of an SRAM that no structure claims.
DEFAULT_ORG = dict(banks=1, objective="ed2", **LSTP_ECC)
