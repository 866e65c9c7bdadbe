"""The paper's Table 3 structures: where each lives in the RTL, how to size it from the config
while its RTL is pending, and the SRAM organisation its area is priced at.

Each structure:
  key, name          row label
  paper              size text, mm^2 at 22 nm in the paper's Table 3
  cacti_match        the CACTI organisation that reproduces the paper's figure
                     (reference/README.md), as (count, Macro kwargs)
  parts              the tables it is made of: name, regexes of the RTL module names whose
                     flint_sram instances are that table, and from_config(cfg) -> ([(depth,
                     width)], layout text) sizing one copy from config.json while that RTL is
                     pending (the assumed entry layout is spelled out in the function)
  org                banks / objective / cell / ECC used to price its macros; ports come from
                     the RTL (flint_sram is 1R1W) or, while the RTL is pending, from the paper
  per                how many copies the stack has while flint_top is pending ("1" or "dies")
Changing a module name in the RTL means changing its regex here; an SRAM found in a module
no structure claims is reported on its own row ("other"), never dropped.
"""


def _c(cfg, key):
    if key in cfg["config"]:
        return cfg["config"][key]
    return cfg["derived"][key]


def _clog2(n):
    return max(1, (n - 1).bit_length()) if n > 1 else 1


def btt_config(cfg):
    # entry = {valid, block, page}: the BTT maps a burst to the (block, page) sensed on every
    # plane; the per-plane block is the relocation table's job.
    width = 1 + _c(cfg, "block_bits") + _c(cfg, "page_bits")
    return [(_c(cfg, "btt_entries"), width)], "btt_entries x {valid, block, page}"


def crq_config(cfg):
    # CRQ entry: request id, cache-line address, lane, next-in-group pointer.
    idx = _c(cfg, "crq_idx_bits")
    line = _c(cfg, "addr_bits") - _c(cfg, "cl_offset_bits")
    width = _c(cfg, "req_id_bits") + line + _clog2(_c(cfg, "lanes")) + idx
    return [(_c(cfg, "crq_entries"), width)], "crq_entries x {id, line, lane, next}"


def cl_to_page_config(cfg):
    # One group per CRQ slot at worst (every line in a different burst): burst index, head and
    # tail of its request list, valid.
    idx = _c(cfg, "crq_idx_bits")
    width = _c(cfg, "burst_idx_bits") + 2 * idx + 1
    return [(_c(cfg, "crq_entries"), width)], "crq_entries x {burst, head, tail, valid}"


def bitmap_config(cfg):
    bits = _c(cfg, "bitmap_bits_per_die")
    word = min(64, bits)  # 8 B words, the organisation the paper's CACTI run used
    return [(bits // word, word)], "bitmap_bits_per_die (blocks x pages) per die"


def progq_config(cfg):
    # Word = one die's share of the link per cycle (64 B at paper): a page streams in and out
    # at the link rate.
    word = 8 * _c(cfg, "die_io_bytes_per_cycle")
    depth = _c(cfg, "progq_pages") * _c(cfg, "page_bytes") * 8 // word
    return [(depth, word)], "progq_pages x page_bytes per die"


def counters_config(cfg):
    # One disturb counter per physical block: the phantom plane's blocks serve reads too once
    # remapped.
    n = _c(cfg, "dies") * _c(cfg, "phys_planes") * _c(cfg, "blocks")
    return [(n, _c(cfg, "disturb_count_bits"))], \
        "dies x phys_planes x blocks x disturb_count_bits"


def reloc_config(cfg):
    # Logical (die, plane, block) -> physical (plane, block) on the same die.
    n = _c(cfg, "dies") * _c(cfg, "planes") * _c(cfg, "blocks")
    return [(n, _c(cfg, "phys_plane_bits") + _c(cfg, "block_bits"))], \
        "dies x planes x blocks x {phys plane, block}"


LSTP_ECC = {"cell": "lstp", "ecc": True}

STRUCTURES = [
    {
        "key": "btt", "name": "Burst translation table",
        "paper": {"size": "1 MB", "mm2": 1.29},
        "cacti_match": (1, dict(size_bytes=1 << 20, word_bits=512, banks=1, objective="ed2")),
        "parts": [{"name": "btt", "modules": [r"flint_btt"], "from_config": btt_config}],
        "org": dict(banks=1, objective="ed2", **LSTP_ECC),
        "paper_ports": dict(rw=1, r=0, w=0),
        "per": "1",
    },
    {
        "key": "crq", "name": "Cache-request queue + cl-to-page map",
        "paper": {"size": "256 kB", "mm2": 0.35},
        "cacti_match": (1, dict(size_bytes=1 << 18, word_bits=512, banks=4, objective="ed2")),
        "parts": [{"name": "crq", "modules": [r"flint_crq\w*"], "from_config": crq_config},
                  {"name": "cl_to_page", "modules": [r"flint_cl_?(to_?)?page\w*",
                                                     r"flint_cl2page\w*"],
                   "from_config": cl_to_page_config}],
        "org": dict(banks=4, objective="ed2", **LSTP_ECC),
        "paper_ports": dict(rw=1, r=0, w=0),
        "per": "1",
    },
    {
        "key": "bitmap", "name": "Migration bitmaps",
        "paper": {"size": "16 x 32 kB", "mm2": 0.71},
        # 0.725 = 16 x 0.0453 is the itrs-hp, ECC-off, delay row of the ports file; with lstp
        # and ECC like the other rows it is 16 x 0.0594 = 0.950 (docs/area.md says so).
        "cacti_match": (16, dict(size_bytes=32768, word_bits=64, banks=1, rw=0, r=1, w=1,
                                 ecc=False, cell="hp", objective="delay")),
        "parts": [{"name": "bitmap", "modules": [r"flint_(mig\w*_)?bitmap\w*",
                                                 r"flint_migration\w*"],
                   "from_config": bitmap_config}],
        "org": dict(banks=1, objective="delay", **LSTP_ECC),
        "paper_ports": dict(rw=0, r=1, w=1),
        "per": "dies",
    },
    {
        "key": "progq", "name": "Program queues",
        "paper": {"size": "16 x 0.5 MB", "mm2": 10.5},
        "cacti_match": (16, dict(size_bytes=1 << 19, word_bits=512, banks=2, objective="ed2")),
        "parts": [{"name": "progq", "modules": [r"flint_prog_?q\w*", r"flint_program_queue\w*"],
                   "from_config": progq_config}],
        "org": dict(banks=2, objective="ed2", **LSTP_ECC),
        "paper_ports": dict(rw=1, r=0, w=0),
        "per": "dies",
    },
    {
        "key": "counters_reloc", "name": "Read counters + relocation table",
        "paper": {"size": "0.83 MB", "mm2": 1.15},
        "cacti_match": (1, dict(size_bytes=917504, word_bits=512, banks=1, objective="delay")),
        "parts": [{"name": "read_counters", "modules": [r"flint_read_counters\w*"],
                   "from_config": counters_config},
                  {"name": "reloc", "modules": [r"flint_reloc\w*"], "from_config": reloc_config}],
        "org": dict(banks=1, objective="delay", **LSTP_ECC),
        "paper_ports": dict(rw=1, r=0, w=0),
        "per": "1",
    },
]

# Organisation of an SRAM that no structure claims.
DEFAULT_ORG = dict(banks=1, objective="ed2", **LSTP_ECC)
