#!/usr/bin/env python3
"""The XOR matrices of FLINT's NAND-grade line code, as an SV package (docs/ecc.md, "The BCH
engine in RTL: encoder and syndromes"; issue #26 item 2).

The code: binary BCH over GF(2^m), correcting t errors, shortened to k data bits (the line code:
m = 11, t = 11, k = 1024). Derived here from GF(2^m) arithmetic alone, not from the C++ model
(model/ecc/bch), so that the lock-step test (tb/ecc/bch_rtl_test.cpp) compares two independent
derivations:

- GF(2^m) from the primitive polynomial docs/ecc.md names for m (x^11 + x^2 + 1 for the line
  code); this script checks it is primitive (alpha = x has order 2^m - 1).
- g(x): the product of the minimal polynomials of alpha^1 .. alpha^2t, one per cyclotomic
  coset. r = deg g parity bits (121 for the line code).
- Code bit i is the coefficient of x^i: bits [0, r) are the parity, [r, r + k) the data (data
  bit j at code bit r + j), as in the model and docs/ecc.md.
- Encoder: the parity is the remainder of x^r d(x) by g(x), linear in d: data bit j alone
  contributes x^(r+j) mod g(x). Row i of the encoder matrix (k bits) marks the data bits whose
  remainder has x^i.
- Log table: log(a) for each nonzero field element a (the single-error path finds an error's
  position as log S_1).
- Syndromes: S_j = c(alpha^j) = sum over set code bits i of alpha^(i j), for odd j = 1, 3, ..,
  2t-1 (the even ones are squares). Row (s, b), s = (j - 1) / 2, b = 0..m-1 (n bits) marks the
  code bits i whose alpha^(i j) has bit b set (polynomial basis, bit b = coefficient of
  alpha^b).

Output: <out>/flint_bch_pkg.sv, package flint_bch_pkg (rewritten only when it changes, so the
build does not Verilate again). CMake runs this at configure time, beside gen_config.py.
  gen_bch.py --out build/gen             the line code
  gen_bch.py --out DIR --m 5 --t 3 --k 16   another code (same package and names)
Standard library only.
"""
import argparse
import pathlib

# Primitive polynomials (bit i = coefficient of x^i), the ones docs/ecc.md names for the
# model's fields; checked primitive below, so a wrong entry cannot pass.
PRIMITIVE = {3: 0xB, 4: 0x13, 5: 0x25, 6: 0x43, 7: 0x89, 8: 0x11D, 9: 0x211, 10: 0x409,
             11: 0x805, 12: 0x1053, 13: 0x201B, 14: 0x4443, 15: 0x8003, 16: 0x1100B}


class Field:
    """GF(2^m) in the polynomial basis, elements as m-bit integers."""

    def __init__(self, m):
        self.m = m
        self.order = (1 << m) - 1
        self.poly = PRIMITIVE[m]
        self.antilog = []
        x = 1
        for _ in range(self.order):
            self.antilog.append(x)
            x = self.times_x(x)
        if x != 1 or len(set(self.antilog)) != self.order:
            raise SystemExit(f"gen_bch: {self.poly:#x} is not primitive for m = {m}")

    def times_x(self, a):
        a <<= 1
        return a ^ self.poly if a >> self.m else a

    def mul(self, a, b):
        """Shift-and-add product (no tables)."""
        acc = 0
        while b:
            if b & 1:
                acc ^= a
            a = self.times_x(a)
            b >>= 1
        return acc

    def power(self, e):
        return self.antilog[e % self.order]


def generator(field, t):
    """Coefficients of g(x) over GF(2) as an int (bit i = x^i)."""
    done = set()
    g = 1
    for i in range(1, 2 * t + 1):
        if i in done:
            continue
        coset = []
        c = i
        while c not in coset:
            coset.append(c)
            c = 2 * c % field.order
        done.update(coset)
        # Minimal polynomial: prod over the coset of (x + alpha^c), coefficients in GF(2^m).
        mp = [1]
        for c in coset:
            root = field.power(c)
            nxt = [0] * (len(mp) + 1)
            for d, coef in enumerate(mp):
                nxt[d + 1] ^= coef
                nxt[d] ^= field.mul(coef, root)
            mp = nxt
        if any(coef > 1 for coef in mp):
            raise SystemExit("gen_bch: a minimal polynomial with non-binary coefficients")
        mp_bits = sum(coef << d for d, coef in enumerate(mp))
        g = clmul(g, mp_bits)
    return g


def clmul(a, b):
    """Product of two GF(2) polynomials."""
    acc = 0
    while b:
        if b & 1:
            acc ^= a
        a <<= 1
        b >>= 1
    return acc


def code(m, t, k):
    field = Field(m)
    g = generator(field, t)
    r = g.bit_length() - 1
    n = r + k
    if n > field.order:
        raise SystemExit(f"gen_bch: k + r = {n} exceeds 2^m - 1 = {field.order}")
    # x^(r+j) mod g for j = 0..k-1, by multiplying by x one step at a time.
    rem = 1
    for _ in range(r):
        rem = polymod_times_x(rem, g, r)
    enc_rows = [0] * r
    for j in range(k):
        for i in range(r):
            if rem >> i & 1:
                enc_rows[i] |= 1 << j
        rem = polymod_times_x(rem, g, r)
    syn_rows = []
    for s in range(t):
        j = 2 * s + 1
        rows = [0] * m
        for i in range(n):
            a = field.power(i * j)
            for b in range(m):
                if a >> b & 1:
                    rows[b] |= 1 << i
        syn_rows += rows
    return field, g, r, n, enc_rows, syn_rows


def polymod_times_x(rem, g, r):
    rem <<= 1
    return rem ^ g if rem >> r & 1 else rem


def literal(name, rows, width, indent="  "):
    """A localparam holding `rows` (row 0 at the LSB) as a concatenation of one literal a row,
    the last row first."""
    total = len(rows) * width
    digits = (width + 3) // 4
    lines = [f"{indent}localparam logic [{total - 1}:0] {name} = {{"]
    for idx in reversed(range(len(rows))):
        sep = "," if idx else ""
        lines.append(f"{indent}    {width}'h{rows[idx]:0{digits}x}{sep}  // row {idx}")
    lines.append(f"{indent}}};")
    return "\n".join(lines)


def log_rows(field):
    """log(a) for every element a (row a), from the antilog table; row 0 (no log) is 0."""
    rows = [0] * (field.order + 1)
    for e, a in enumerate(field.antilog):
        rows[a] = e
    return rows


def emit(m, t, k):
    field, g, r, n, enc_rows, syn_rows = code(m, t, k)
    weights_enc = [bin(x).count("1") for x in enc_rows]
    weights_syn = [bin(x).count("1") for x in syn_rows]
    out = [
        "// Generated by scripts/gen_bch.py (do not edit by hand): the XOR matrices of the binary",
        f"// BCH code over GF(2^{m}), t = {t}, shortened to {k} data bits (docs/ecc.md).",
        "// Code bit i = coefficient of x^i: parity at [0, R), data bit j at code bit R + j.",
        f"// Encoder rows: {min(weights_enc)}..{max(weights_enc)} ones of {k} "
        f"({sum(weights_enc)} in all); syndrome rows: {min(weights_syn)}..{max(weights_syn)} "
        f"of {n} ({sum(weights_syn)}).",
        "package flint_bch_pkg;",
        f"  localparam int unsigned BchM = {m};  // GF(2^M)",
        f"  localparam int unsigned BchT = {t};  // errors corrected",
        f"  localparam int unsigned BchK = {k};  // data bits",
        f"  localparam int unsigned BchR = {r};  // parity bits = deg g",
        f"  localparam int unsigned BchN = {n};  // code bits",
        f"  localparam logic [{m}:0] BchPrimPoly = {m + 1}'h{field.poly:x};",
        f"  // g_0 .. g_R (bit i = coefficient of x^i)",
        f"  localparam logic [{r}:0] BchGen = {r + 1}'h{g:x};",
        "  // Parity bit i = ^(data & BchEncRows[i*BchK +: BchK]).",
        literal("BchEncRows", enc_rows, k),
        "  // Bit b of S_(2s+1) = ^(code & BchSynRows[(s*BchM + b)*BchN +: BchN]).",
        literal("BchSynRows", syn_rows, n),
        "  // The field's log table (the single-error path, flint_bch_single): entry a at",
        "  // BchLog[a*BchM +: BchM] is e with alpha^e = a, 0 <= e < 2^M - 1 (entry 0, log 0, is 0).",
        literal("BchLog", log_rows(field), m),
        "endpackage",
        "",
    ]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", required=True, type=pathlib.Path, help="folder for flint_bch_pkg.sv")
    ap.add_argument("--m", type=int, default=11)
    ap.add_argument("--t", type=int, default=11)
    ap.add_argument("--k", type=int, default=1024)
    args = ap.parse_args()
    if args.m not in PRIMITIVE:
        raise SystemExit(f"gen_bch: m must be in {min(PRIMITIVE)}..{max(PRIMITIVE)}")
    text = emit(args.m, args.t, args.k)
    path = args.out / "flint_bch_pkg.sv"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
