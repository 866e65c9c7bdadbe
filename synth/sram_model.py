#!/usr/bin/env python3
"""FLINT's SRAM macro model: area, access/cycle time, read/write energy and leakage of an SRAM
array at 22 nm from (capacity, word width, ports, banks, ECC, cell type, CACTI objective),
fitted to the CACTI 7 runs in synth/reference/cacti7-22nm-sram*.csv. Standard library
only (no numpy): the fits are small non-negative least-squares problems.

The model (docs/synth.md explains each term):
  bits   = capacity * 8 * (1 + ecc_overhead(word))     ECC: SEC-DED per 64-bit segment
  A_cell = bits * 0.0707 um^2                          the 146 F^2 22 nm cell (reference/)
  W      = word * (1 + ecc_overhead(word))             bits read per access, incl. check bits
  area   = ports(P) * ( c_cell*A_cell + c_colw*W*A_cell + c_edge*sqrt(B*A_cell)
                        + c_bank*(B-1)*W + c_tree*(B-1)*W*sqrt(A_cell) + c_wio*W*sqrt(B*A_cell) )
  ports(P) = 1 + k_port*(P-1) + k_rw*(rw-1 if rw else -1)     (1 for a single port)
c_cell is 1/(array efficiency) of a narrow-word array; c_colw makes the efficiency fall with the
word width (wider words cost more sense amplifiers and drivers per subarray); c_edge is the
decoder/driver strip along each bank's edge; c_bank and c_tree are the data path and H-tree each
extra bank adds. Coefficients are fitted per CACTI objective (area / delay / ed2): the objective
changes how CACTI organises the array, which is the largest effect in the table after capacity.
Times and energies are fitted per cell type (hp / lstp) and objective on features of the
predicted area (wire lengths ~ sqrt(area)), so they too extend to shapes outside the table.

CLI: sram_model.py [--points CSV] [--query SIZE WORD BANKS PORTS]  prints the fit error table.
"""
import argparse
import csv
import math
import operator
import pathlib
import sys

REFERENCE = pathlib.Path(__file__).resolve().parent / "reference"
CELL_UM2 = 0.0707          # 22 nm 6T cell in CACTI 7 (reference/README.md: 146 F^2)
OBJECTIVES = ("area", "delay", "ed2")
CELLS = ("lstp", "hp")
METRICS = ("area_mm2", "access_ns", "cycle_ns", "read_nj", "write_nj", "leak_mw")
# Errors the fit must stay within (mean %, max %) over the CSV points it is fitted on, per
# group; checked by scripts/synth.py --check so a change to the model or the data cannot
# silently degrade it. Times under CACTI's "area" objective are its own outliers (it picks
# very slow organisations, 1 MB at 6.6 ns): bounded on their own, loosely.
ERROR_BOUNDS = {
    "area_mm2": {"all": (8.0, 35.0)},
    "access_ns": {"delay": (5.0, 50.0), "ed2": (6.0, 50.0), "area": (25.0, 75.0)},
    "cycle_ns": {"all": (25.0, 170.0)},
    "read_nj": {"all": (16.0, 65.0)},
    "write_nj": {"all": (16.0, 70.0)},
    "leak_mw": {"all": (7.0, 45.0)},
}


class ModelError(Exception):
    pass


def secded_bits(k):
    """Check bits of a SEC-DED (extended Hamming) code over k data bits."""
    r = 1
    while (1 << r) < k + r + 1:
        r += 1
    return r + 1


def ecc_factor(word_bits, ecc):
    """Stored bits per data bit. CACTI's ECC adds 8 bits per 64 (12.5 %), i.e. SEC-DED per
    64-bit segment; narrower words pay the code's higher rate (19 bits: 6 check bits)."""
    if not ecc:
        return 1.0
    seg = min(word_bits, 64)
    return (seg + secded_bits(seg)) / seg


class Macro:
    """One SRAM array. size_bytes and word_bits count data bits only (ECC is added here)."""

    def __init__(self, size_bytes, word_bits, banks=1, rw=1, r=0, w=0, ecc=True, cell="lstp",
                 objective="ed2"):
        if size_bytes <= 0 or word_bits <= 0:
            raise ModelError(f"SRAM macro needs a positive size and word ({size_bytes} B, "
                             f"{word_bits} b)")
        if banks < 1 or rw < 0 or r < 0 or w < 0 or rw + r + w < 1:
            raise ModelError(f"bad organisation: banks={banks} rw={rw} r={r} w={w}")
        if rw + r < 1 or rw + w < 1:
            raise ModelError(f"SRAM macro with no read or no write port: rw={rw} r={r} w={w}")
        if cell not in CELLS or objective not in OBJECTIVES:
            raise ModelError(f"cell {cell!r} / objective {objective!r} unknown")
        self.size_bytes, self.word_bits, self.banks = size_bytes, word_bits, banks
        self.rw, self.r, self.w = rw, r, w
        self.ecc, self.cell, self.objective = ecc, cell, objective

    @property
    def ports(self):
        return self.rw + self.r + self.w

    def port_str(self):
        parts = [f"{n}{k}" for n, k in ((self.rw, "RW"), (self.r, "R"), (self.w, "W")) if n]
        return "".join(parts)

    def describe(self):
        return (f"{self.size_bytes / 1024:g} KiB x{self.word_bits}b {self.port_str()} "
                f"{self.banks}bank {self.cell}{' ecc' if self.ecc else ''} {self.objective}")

    def key(self):
        return (self.size_bytes, self.word_bits, self.banks, self.rw, self.r, self.w, self.ecc,
                self.cell, self.objective)


# ---------------------------------------------------------------------------------------------
# Features


def _geometry(m):
    e = ecc_factor(m.word_bits, m.ecc)
    a_cell = m.size_bytes * 8 * e * CELL_UM2 * 1e-6  # mm^2 of bit cells
    width = m.word_bits * e
    return a_cell, width


def port_factor(m, k_port, k_rw):
    if m.ports == 1:
        return 1.0
    rw_term = (m.rw - 1) if m.rw >= 1 else -1
    return 1.0 + k_port * (m.ports - 1) + k_rw * rw_term


AREA_TERMS = ("cell", "colw", "edge", "bank", "tree", "wio")


def area_features(m):
    a, wb = _geometry(m)
    b = m.banks
    w = wb * 1e-3  # kbit, to keep the coefficients near 1
    return [a, w * a, math.sqrt(b * a), (b - 1) * w, (b - 1) * w * math.sqrt(a),
            w * math.sqrt(b * a)]


def time_features(m, area):
    _, wb = _geometry(m)
    bank_area = area / m.banks
    bank_bits = m.size_bytes * 8 / m.banks
    return [1.0, math.sqrt(bank_area), math.log2(max(bank_bits / wb, 2.0)),
            math.sqrt(area) * (m.banks > 1), bank_area]


def energy_features(m, area):
    _, wb = _geometry(m)
    w = wb * 1e-3
    bank_area = area / m.banks
    bank_bits = m.size_bytes * 8 / m.banks
    return [1e-3, w * math.sqrt(bank_area), w * math.sqrt(area) * (m.banks > 1),
            math.sqrt(bank_area), w * math.log2(max(bank_bits, 2.0)), bank_area, w * bank_area]


def leak_features(m, area):
    a, _ = _geometry(m)
    return [a, area]


# ---------------------------------------------------------------------------------------------
# Least squares (standard library)


def _solve(gram, vec):
    """Solve gram x = vec (the normal equations of a least-squares fit), Gauss-Jordan with
    partial pivoting."""
    n = len(vec)
    mat = [list(r) for r in gram]
    vec = list(vec)
    for i in range(n):
        piv = max(range(i, n), key=lambda k: abs(mat[k][i]))
        mat[i], mat[piv] = mat[piv], mat[i]
        vec[i], vec[piv] = vec[piv], vec[i]
        if abs(mat[i][i]) < 1e-300:
            raise ModelError("singular fit")
        for k in range(n):
            if k != i:
                f = mat[k][i] / mat[i][i]
                for c in range(i, n):
                    mat[k][c] -= f * mat[i][c]
                vec[k] -= f * vec[i]
    return [vec[i] / mat[i][i] for i in range(n)]


def nnls(rows, rhs, max_iter=100):
    """Non-negative least squares (Lawson-Hanson active set): every term of the model is a
    physical cost, so no coefficient may go negative to cancel another. Works on the normal
    equations (A'A, A'b), formed once: a step costs O(n^3) in the n features, not O(m n^2) in
    the m points."""
    n = len(rows[0])
    cols = list(zip(*rows))
    gram = [[sum(map(operator.mul, cols[i], cols[j])) for j in range(n)] for i in range(n)]
    atb = [sum(map(operator.mul, cols[i], rhs)) for i in range(n)]
    x = [0.0] * n
    active = set()
    for _ in range(max_iter):
        # A'(b - A x) = A'b - A'A x
        grad = [atb[j] - sum(gram[j][k] * x[k] for k in range(n)) for j in range(n)]
        cand = [j for j in range(n) if j not in active and grad[j] > 1e-12]
        if not cand:
            break
        active.add(max(cand, key=lambda j: grad[j]))
        while True:
            idx = sorted(active)
            z = _solve([[gram[i][j] for j in idx] for i in idx], [atb[i] for i in idx])
            full = [0.0] * n
            for i, j in enumerate(idx):
                full[j] = z[i]
            if all(full[j] > 0 for j in idx):
                x = full
                break
            alpha = min(x[j] / (x[j] - full[j]) for j in idx if full[j] <= 0)
            x = [x[j] + alpha * (full[j] - x[j]) for j in range(n)]
            active = {j for j in active if x[j] > 1e-15}
            if not active:
                break
    return x


def _fit_relative(points, feats, metric):
    """Minimise the sum of squared relative errors (every point counts the same)."""
    rows = [[v / p["y"][metric] for v in feats(p)] for p in points]
    return nnls(rows, [1.0] * len(points))


# ---------------------------------------------------------------------------------------------
# Data


def load_points(reference=REFERENCE):
    """Both CACTI files as one list: {'macro': Macro, 'y': {metric: value}, 'src': file}."""
    pts = []
    f1 = reference / "cacti7-22nm-sram.csv"
    f2 = reference / "cacti7-22nm-sram-ports.csv"
    for f in (f1, f2):
        if not f.exists():
            raise ModelError(f"CACTI reference data missing: {f}")
    with open(f1) as fh:
        for row in csv.DictReader(fh):
            if row["cell"] != row["periphery"]:
                raise ModelError(f"{f1}: mixed cell/periphery rows are not modelled")
            banks = int(row["banks"])
            m = Macro(int(row["size_bytes"]), 512, banks=banks, rw=1, ecc=row["ecc"] == "1",
                      cell=row["cell"].replace("itrs-", ""), objective=row["objective"])
            pts.append({"macro": m, "src": f1.name, "y": _metrics(row, banks)})
    with open(f2) as fh:
        for row in csv.DictReader(fh):
            m = Macro(int(row["size_bytes"]), 8 * int(row["block_bytes"]), banks=1,
                      rw=int(row["rw_ports"]), r=int(row["read_ports"]),
                      w=int(row["write_ports"]), ecc=row["ecc"] == "1",
                      cell=row["cell"].replace("itrs-", ""), objective=row["objective"])
            pts.append({"macro": m, "src": f2.name, "y": _metrics(row, 1)})
    return pts


def _metrics(row, banks):
    return {
        "area_mm2": float(row["area_mm2"]),
        "access_ns": float(row["access_ns"]),
        "cycle_ns": float(row["cycle_ns"]),
        "read_nj": float(row["read_nJ"]),
        "write_nj": float(row["write_nJ"]),
        # CACTI prints one bank's leakage plus routing: the whole array leaks banks times that.
        "leak_mw": float(row["leak_mW"]) * banks,
    }


# ---------------------------------------------------------------------------------------------
# The fitted model


class SramModel:
    """Fitted once from the CACTI points; predict() works for any Macro."""

    PORT_GRID = [0.8 + 0.05 * i for i in range(13)]   # k_port 0.8 .. 1.4
    RW_GRID = [0.025 * i for i in range(11)]          # k_rw   0 .. 0.25

    def __init__(self, reference=REFERENCE):
        self.points = load_points(reference)
        self._fit()

    def _fit(self):
        pts = self.points
        by_obj = {o: [p for p in pts if p["macro"].objective == o] for o in OBJECTIVES}
        # Port factors: grid search on the objectives that have multi-port data (delay, ed2);
        # the area objective (banks file only, one port) borrows them.
        best = None
        for kp in self.PORT_GRID:
            for kr in self.RW_GRID:
                sse = 0.0
                for o in ("delay", "ed2"):
                    c = self._fit_area(by_obj[o], kp, kr)
                    sse += sum(self._rel_err(self._area(p["macro"], c, kp, kr), p)[0] ** 2
                               for p in by_obj[o])
                if best is None or sse < best[0]:
                    best = (sse, kp, kr)
        _, self.k_port, self.k_rw = best
        self.area_coef = {o: self._fit_area(by_obj[o], self.k_port, self.k_rw)
                          for o in OBJECTIVES}
        self.other_coef = {}
        for metric, feats in (("access_ns", time_features), ("cycle_ns", time_features),
                              ("read_nj", energy_features), ("write_nj", energy_features),
                              ("leak_mw", leak_features)):
            for cell in CELLS:
                for o in OBJECTIVES:
                    sub = [p for p in by_obj[o] if p["macro"].cell == cell]
                    f = lambda p, feats=feats: feats(p["macro"], self.area(p["macro"]))
                    self.other_coef[(metric, cell, o)] = _fit_relative(sub, f, metric)

    def _fit_area(self, sub, kp, kr):
        f = lambda p: [v * port_factor(p["macro"], kp, kr) for v in area_features(p["macro"])]
        return _fit_relative(sub, f, "area_mm2")

    @staticmethod
    def _area(m, coef, kp, kr):
        return port_factor(m, kp, kr) * sum(c * v for c, v in zip(coef, area_features(m)))

    @staticmethod
    def _rel_err(pred, p, metric="area_mm2"):
        y = p["y"][metric]
        return ((pred - y) / y, y)

    def area(self, m):
        return self._area(m, self.area_coef[m.objective], self.k_port, self.k_rw)

    def predict(self, m):
        a = self.area(m)
        out = {"area_mm2": a}
        for metric, feats in (("access_ns", time_features), ("cycle_ns", time_features),
                              ("read_nj", energy_features), ("write_nj", energy_features),
                              ("leak_mw", leak_features)):
            coef = self.other_coef[(metric, m.cell, m.objective)]
            out[metric] = sum(c * v for c, v in zip(coef, feats(m, a)))
        return out

    def efficiency(self, m):
        """Data-bit cell area over macro area (array efficiency seen by the user)."""
        return m.size_bytes * 8 * CELL_UM2 * 1e-6 / self.area(m)

    # -- error report ---------------------------------------------------------------------

    def errors(self):
        """Per point and metric: (point, metric, predicted, cacti, relative error)."""
        rows = []
        for p in self.points:
            pred = self.predict(p["macro"])
            for metric in METRICS:
                y = p["y"][metric]
                rows.append((p, metric, pred[metric], y, (pred[metric] - y) / y))
        return rows

    def error_summary(self):
        """{metric: {group: (n, mean %, max %)}} with groups 'all' and per objective."""
        out = {}
        errs = self.errors()
        for metric in METRICS:
            groups = {"all": []}
            for p, mt, _, _, e in errs:
                if mt != metric:
                    continue
                groups["all"].append(abs(e))
                groups.setdefault(p["macro"].objective, []).append(abs(e))
                groups.setdefault(p["macro"].cell, []).append(abs(e))
            out[metric] = {g: (len(v), 100 * sum(v) / len(v), 100 * max(v))
                           for g, v in groups.items()}
        return out

    def coefficients(self):
        return {
            "k_port": self.k_port, "k_rw": self.k_rw,
            "area": {o: dict(zip(AREA_TERMS, c)) for o, c in self.area_coef.items()},
            "other": {"%s/%s/%s" % k: c for k, c in self.other_coef.items()},
        }

    def calibration(self):
        """The range of the CACTI points the model is fitted on: array capacity and capacity
        per bank (bytes), word width (data bits) and bank count."""
        if getattr(self, "_calibration", None):
            return self._calibration
        ms = [p["macro"] for p in self.points]
        per_bank = [m.size_bytes / m.banks for m in ms]
        self._calibration = {"array_bytes": (min(m.size_bytes for m in ms),
                                             max(m.size_bytes for m in ms)),
                             "bank_bytes": (min(per_bank), max(per_bank)),
                             "word_bits": (min(m.word_bits for m in ms),
                                           max(m.word_bits for m in ms)),
                             "banks": (min(m.banks for m in ms), max(m.banks for m in ms))}
        return self._calibration

    def outside_calibration(self, m):
        """How macro `m` lies outside the fitted points: a list of short reasons, empty when
        its capacity, capacity per bank, word width and bank count are all within the data's
        range. The model still predicts such a macro, but the figure is an extrapolation.
        Below the smallest point it is likely low: a fixed cost per macro (decoders, sense
        amplifiers and control of a tiny array) is only in the fit as far as the edge and
        column-I/O terms carry it, and those are fitted on arrays of 32 KiB and more."""
        c = self.calibration()
        out = []
        for what, v, (lo, hi) in (("array", m.size_bytes, c["array_bytes"]),
                                  ("bank", m.size_bytes / m.banks, c["bank_bytes"])):
            if what == "bank" and m.banks == 1:
                continue  # the array's own range says it
            if v < lo:
                out.append(f"{_bytes_text(v)} {what}, below the smallest ({_bytes_text(lo)})")
            elif v > hi:
                out.append(f"{_bytes_text(v)} {what}, above the largest ({_bytes_text(hi)})")
        lo, hi = c["word_bits"]
        if not lo <= m.word_bits <= hi:
            out.append(f"{m.word_bits}-bit word, outside {lo}..{hi}")
        lo, hi = c["banks"]
        if not lo <= m.banks <= hi:
            out.append(f"{m.banks} banks, outside {lo}..{hi}")
        return out

    def below_calibration(self, m):
        """True when `m`, or a bank of it, is smaller than any fitted point's."""
        c = self.calibration()
        return (m.size_bytes < c["array_bytes"][0] or
                m.size_bytes / m.banks < c["bank_bytes"][0])

    def cacti_point(self, m):
        """The CACTI row for exactly this organisation, or None."""
        for p in self.points:
            if p["macro"].key() == m.key():
                return p["y"]
        return None

    def sanity(self):
        """Checks on shapes outside the table; returns a list of failures (empty = sane)."""
        bad = []
        sizes = [2 ** k for k in range(10, 31)]  # 1 KiB .. 1 GiB
        for o in OBJECTIVES:
            for word in (8, 19, 64, 512, 1024):
                for ports in ((1, 0, 0), (0, 1, 1), (2, 0, 0)):
                    for banks in (1, 4, 64):
                        prev = None
                        for s in sizes:
                            m = Macro(s, word, banks, *ports, ecc=True, objective=o)
                            pr = self.predict(m)
                            eff = self.efficiency(m)
                            if eff >= 1.0 or eff <= 0.0:
                                bad.append(f"{m.describe()}: efficiency {eff:.2f}")
                            if any(v <= 0 for v in pr.values()):
                                bad.append(f"{m.describe()}: non-positive {pr}")
                            if prev and (pr["area_mm2"] <= prev["area_mm2"] or
                                         pr["access_ns"] < prev["access_ns"] * 0.999):
                                bad.append(f"{m.describe()}: not monotone in capacity")
                            prev = pr
        for s in (32768, 1 << 20, 1 << 26):
            one = self.area(Macro(s, 64, 1, 1, 0, 0))
            two = self.area(Macro(s, 64, 1, 0, 1, 1))
            if not 1.5 < two / one < 3.0:
                bad.append(f"{s} B: 1R1W/1RW area ratio {two / one:.2f} outside 1.5..3")
        return bad


def _bytes_text(b):
    if b >= 1 << 20:
        return f"{b / (1 << 20):g} MiB"
    if b >= 1024:
        return f"{b / 1024:g} KiB"
    return f"{b:g} B"


_MODEL = None


def model():
    """The fitted model (fitted on first use, about a second)."""
    global _MODEL
    if _MODEL is None:
        _MODEL = SramModel()
    return _MODEL


def write_points_csv(path, mdl):
    """Every CACTI point with the model's prediction and error, one row per point."""
    errs = mdl.errors()
    by_point = {}
    for p, metric, pred, y, e in errs:
        by_point.setdefault(id(p), (p, {}))[1][metric] = (pred, y, e)
    with open(path, "w", newline="") as fh:
        wr = csv.writer(fh)
        wr.writerow(["file", "size_bytes", "word_bits", "banks", "rw", "r", "w", "ecc", "cell",
                     "objective"] + [f"{m}_{k}" for m in METRICS for k in ("cacti", "model",
                                                                              "err_pct")])
        for p, d in by_point.values():
            m = p["macro"]
            row = [p["src"], m.size_bytes, m.word_bits, m.banks, m.rw, m.r, m.w, int(m.ecc),
                   m.cell, m.objective]
            for metric in METRICS:
                pred, y, e = d[metric]
                row += [y, "%.4g" % pred, "%.1f" % (100 * e)]
            wr.writerow(row)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--points", type=pathlib.Path, help="write every point's error to this CSV")
    ap.add_argument("--query", nargs=4, type=int, metavar=("BYTES", "WORD", "BANKS", "PORTS"),
                    help="predict one lstp ECC ED^2 macro (PORTS 1 = 1RW, 2 = 1R1W)")
    args = ap.parse_args()
    mdl = model()
    summ = mdl.error_summary()
    print("metric      group  n    mean%   max%")
    for metric, groups in summ.items():
        for g, (n, mean, mx) in groups.items():
            print(f"{metric:11s} {g:6s} {n:4d} {mean:6.1f} {mx:7.1f}")
    if args.points:
        write_points_csv(args.points, mdl)
    if args.query:
        s, w, b, p = args.query
        m = Macro(s, w, b, *((1, 0, 0) if p == 1 else (0, 1, 1)))
        print(m.describe(), {k: round(v, 4) for k, v in mdl.predict(m).items()})
    bad = mdl.sanity()
    for b in bad[:20]:
        print("SANITY:", b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
