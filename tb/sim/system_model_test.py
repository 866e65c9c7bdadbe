#!/usr/bin/env python3
"""Arithmetic of the system model (system/, docs/system.md) against hand-computed cases.

Run: python3 tb/sim/system_model_test.py [REPO]   (ctest: system_model). Standard library only.
"""
import json
import math
import pathlib
import sys
import tempfile
import unittest

ROOT = pathlib.Path(sys.argv[1]).resolve() if len(sys.argv) > 1 and not sys.argv[1].startswith(
    "-") else pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
    del sys.argv[1]

from system import deploy, lifetime, measured, params as P, routing, shapes as SH  # noqa: E402
from system import model as sm  # noqa: E402

GB = 1e9


def toy_dense(layers=2, hidden=100, inter=300, vocab=50):
    """A dense BF16 GQA model small enough to compute by hand."""
    return {"name": "toy", "display": "toy", "layers": layers, "hidden": hidden, "vocab": vocab,
            "precision": "bf16", "expert_precision": "bf16", "router_precision": "bf16",
            "embed_precision": "bf16",
            "attention": {"kind": "gqa", "heads": 4, "kv_heads": 2, "head_dim": 25},
            "ffn": {"dense_intermediate": inter, "experts": 0, "first_dense_layers": layers,
                    "moe_layer_step": 1, "top_k": 0, "shared_experts": 0,
                    "expert_intermediate": 0, "shared_intermediate": 0}}


class Shapes(unittest.TestCase):
    def test_public_models_reproduce_their_cards(self):
        shapes = SH.load()
        self.assertEqual(len(shapes), 6)
        for name, s in shapes.items():
            doc = next(m for m in __import__("tomllib").loads(SH.MODELS_TOML.read_text())["models"]
                       if m["name"] == name)
            # the same tolerance as docs/workloads.md's table (MTP layers left out)
            self.assertLess(abs(s.params / 1e9 - doc["published_params_b"])
                            / doc["published_params_b"], 0.03, name)
            self.assertLess(abs(s.active_params / 1e9 - doc["published_active_b"])
                            / doc["published_active_b"], 0.06, name)

    def test_toy_by_hand(self):
        s = SH.build(toy_dense())
        attn = 100 * 100 + 2 * 50 * 100 + 100 * 100       # q, k, v, o
        mlp = 3 * 300 * 100
        self.assertEqual(s.layers[0].attn_params, attn)
        self.assertEqual(s.layers[0].dense_params, mlp)
        self.assertEqual(s.weight_bytes, 2 * (2 * (attn + mlp) + 2 * 50 * 100))
        self.assertEqual(s.kv_bytes_per_token, 2 * 2 * 25 * 2 * 2)   # k+v, 2 heads, 2 layers, BF16
        self.assertEqual(s.attn_flops_per_ctx, 2 * 2 * 4 * 25 * 2)

    def test_mla_kv_is_the_latent(self):
        s = SH.load()["deepseek-v3"]
        self.assertEqual(s.kv_bytes_per_token, (512 + 64) * 61 * 2)


class MinFit(unittest.TestCase):
    def test_min_fit_by_hand(self):
        # weights / (192 - 20 GB), rounded up to an even split of experts (or KV heads):
        # Maverick 402.8/172 = 2.3 -> 3 -> 4 (128 experts); Qwen3 470.2/172 = 2.7 -> 4;
        # DSv4-Pro 800.1/172 = 4.7 -> 6 (384); Llama 811.7/172 = 4.7 -> 8 (8 KV heads);
        # Kimi K2 1028.9/172 = 5.98 -> 6; DSv3 673.0/172 = 3.9 -> 4.
        want = {"llama-4-maverick": 4, "qwen3-235b-a22b": 4, "deepseek-v4-pro": 6,
                "llama-3.1-405b": 8, "kimi-k2": 6, "deepseek-v3": 4}
        shapes = SH.load()
        for name, n in want.items():
            self.assertEqual(sm.min_fit_packages(shapes[name], P.PAPER), n, name)
        # the paper's N (section 3.1) on request
        self.assertEqual(sm.min_fit_packages(shapes["deepseek-v3"], P.variant("paper-N")), 8)


class Routing(unittest.TestCase):
    def test_one_token_reads_top_k_experts(self):
        per_layer, touched = routing.package_load(256, 8, 10, 1, 4, 0.5, steps=3)
        self.assertEqual(touched, 8)
        for layer in per_layer:
            self.assertAlmostEqual(sum(a for a, _ in layer), 8)
            self.assertAlmostEqual(sum(t for _, t in layer), 8)

    def test_batch_bounds_and_balance(self):
        per_layer, touched = routing.package_load(64, 4, 20, 64, 4, 0.0, steps=2)
        self.assertLessEqual(touched, 64)
        self.assertGreater(touched, 60)   # uniform, 256 draws over 64 experts: nearly all
        for layer in per_layer:
            self.assertAlmostEqual(sum(t for _, t in layer), 64 * 4)


class StepModel(unittest.TestCase):
    def setUp(self):
        self.shape = SH.build(toy_dense())
        self.p = P.PAPER
        self.m = sm.StepModel({"toy": self.shape}, self.p)

    def test_one_package_hbm_by_hand(self):
        b, ctx = 2, 1000
        st = self.m.step("toy", "hbm", b, ctx, 1)
        s = self.shape
        weights = s.weight_bytes - s.embed_bytes
        kv = b * ctx * s.kv_bytes_per_token
        flops = 2 * b * (s.params - s.head_params) + b * ctx * s.attn_flops_per_ctx
        self.assertAlmostEqual(st.memory_s, (weights + kv) / (8e12 * 0.70), delta=1e-15)
        self.assertAlmostEqual(st.compute_s, flops / (2 * 148 * 2.5e9 * 11000 * 0.5),
                               delta=1e-15)
        self.assertEqual(st.sync_s, 0)
        self.assertEqual(st.comm_s, 0)
        self.assertAlmostEqual(st.tpot_s, st.memory_s + st.compute_s, delta=1e-15)

    def test_two_shards_collectives_by_hand(self):
        st = self.m.step("toy", "hbm", 1, 0, 2)
        act = 1 * 100 * 2.0
        per_layer = 2 * (2 * 0.5 * act / self.p.nvlink_bps + 2 * 800e-9)   # two all-reduces
        self.assertAlmostEqual(st.comm_s, 2 * per_layer, delta=1e-15)
        self.assertAlmostEqual(st.nvlink_bytes, 2 * 2 * (2 * 0.5 * act * 2))
        self.assertAlmostEqual(st.sync_s, 0.0, delta=1e-18)   # dense: every shard alike

    def test_hbf_overlaps_weights_and_kv(self):
        bw = 1e12
        st = self.m.step("toy", "hbf", 1, 10, 1, hbf_bps=bw)
        s = self.shape
        per_layer_w = s.layers[0].attn_bytes + s.layers[0].dense_bytes
        per_layer_kv = 10 * s.kv_bytes_per_token / 2
        want = 2 * max(per_layer_w / bw, per_layer_kv / self.p.hbm_bps) + s.head_bytes / bw
        self.assertAlmostEqual(st.memory_s, want, delta=1e-15)

    def test_moe_imbalance_makes_barrier_wait(self):
        shapes = SH.load()
        m = sm.StepModel(shapes, self.p)
        st = m.step("deepseek-v3", "hbm", 1, 2048, 8)
        self.assertGreater(st.imbalance, 1.0)
        self.assertGreater(st.sync_s, 0.0)
        self.assertAlmostEqual(st.tpot_s, st.compute_s + st.memory_s + st.sync_s + st.comm_s,
                               delta=1e-12)
        self.assertEqual(len(st.traffic_spread), 8)
        self.assertAlmostEqual(sum(st.traffic_spread), 0.0, delta=1e-9)   # about the mean
        self.assertGreater(max(st.traffic_spread), 0.0)
        dense = m.step("llama-3.1-405b", "hbm", 1, 2048, 8)
        self.assertLess(max(abs(x) for x in dense.traffic_spread), 1e-9)   # dense: even


def fake_results(tmp, model="toy", rates=None):
    rates = rates or {1: (800.0, 0.8, 0.1), 16: (400.0, 0.4, 0.5)}
    runs = []
    for b, (useful, frac, refetch) in rates.items():
        res = []
        for eng, scale in (("flint", 1.0), ("h3", 0.5)):
            res.append({"engine": eng, "useful_gbps": useful * scale,
                        "fetched_gbps": useful * scale / frac, "useful_fraction": frac,
                        "refetch_share": refetch, "cycles": 1000, "useful_bytes": 1,
                        "fetched_bytes": 1})
        runs.append({"model": model, "batch": b, "stacks": 8, "commit": "x", "results": res})
    path = pathlib.Path(tmp) / "results.json"
    path.write_text(json.dumps(runs))
    return path


class Measured(unittest.TestCase):
    def test_lookup_measured_interpolated_nearest_missing(self):
        with tempfile.TemporaryDirectory() as tmp:
            t = measured.HbfTable(json.loads(fake_results(tmp).read_text()))
        rec, how = t.lookup("toy", "flint", 1)
        self.assertEqual(how, "measured")
        self.assertAlmostEqual(rec["useful_bps"], 800e9 * 8)
        rec, how = t.lookup("toy", "flint", 4)        # half way in log batch between 1 and 16
        self.assertTrue(how.startswith("interpolated"))
        self.assertAlmostEqual(rec["useful_bps"], 600e9 * 8)
        rec, how = t.lookup("toy", "flint", 64)
        self.assertIn("nearest", how)
        self.assertAlmostEqual(rec["useful_bps"], 400e9 * 8)
        self.assertEqual(t.lookup("other", "flint", 1), (None, "missing"))

    def test_project_inputs_parse(self):
        steal = measured.refresh_steal()
        self.assertEqual(len(steal), 6)
        for r in steal.values():
            self.assertGreater(r["stall_fraction"], 0)
            self.assertLess(r["stall_fraction"], 0.2)
        self.assertIsNotNone(measured.rtl_steal_factor())
        self.assertEqual(len(measured.disturb()), 6)


class Deployments(unittest.TestCase):
    def make(self, tmp, prm=P.PAPER):
        shapes = {"toy": SH.build(toy_dense())}
        table = measured.HbfTable(json.loads(fake_results(tmp).read_text()))
        refresh = {"toy": {"stall_fraction": 0.02, "prog_pages_per_s": 1000.0,
                           "scrub_pages_per_s": 500.0, "erase_blocks_per_s": 1.0,
                           "keeps_up": True}}
        return deploy.System(shapes, prm, table, refresh, measured.nand_config(),
                             steal_factor=1.5)

    def test_flint_r_is_flint_stretched_by_the_steal(self):
        with tempfile.TemporaryDirectory() as tmp:
            sy = self.make(tmp)
        f, r = sy.cell("toy", "flint", 1, 0), sy.cell("toy", "flint-r", 1, 0)
        self.assertAlmostEqual(r.step.memory_s, f.step.memory_s * (1 + 0.02 * 1.5), delta=1e-15)
        self.assertGreater(r.energy["refresh"], 0)

    def test_energy_by_hand(self):
        with tempfile.TemporaryDirectory() as tmp:
            sy = self.make(tmp)
        c = sy.cell("toy", "flint", 1, 0)
        st = c.step
        fetched = st.weight_bytes / 0.8
        self.assertAlmostEqual(c.energy["hbf read"], fetched * 20 * 8e-12, delta=1e-18)
        self.assertAlmostEqual(c.energy["d2d"], st.weight_bytes * 1 * 8e-12, delta=1e-18)
        self.assertAlmostEqual(c.energy["gpu busy"], st.tpot_s * 1000, delta=1e-12)
        h = sy.cell("toy", "h3", 1, 0)
        self.assertAlmostEqual(h.energy["d2d"], h.step.weight_bytes / 0.8 * 8e-12, delta=1e-18)
        o = sy.cell("toy", "oracle", 1, 0)
        self.assertAlmostEqual(o.energy["hbm"], o.step.weight_bytes * 4 * 8e-12, delta=1e-18)

    def test_ssd_spill_and_capacity(self):
        with tempfile.TemporaryDirectory() as tmp:
            sy = self.make(tmp, P.variant("paper", hbm_bytes=0.5 * SH.build(toy_dense())
                                          .weight_bytes))
        c = sy.cell("toy", "hbm-ssd", 1, 0)
        self.assertAlmostEqual(c.step.ssd_bytes / (c.step.weight_bytes), 0.5, places=6)
        self.assertGreater(c.step.ssd_s, c.step.ssd_bytes / 14e9)   # plus read latencies
        self.assertFalse(sm.kv_fits(sy.shapes["toy"], sy.p, 1, 0, 1, True))

    def test_slo_search_is_minimal(self):
        with tempfile.TemporaryDirectory() as tmp:
            sy = self.make(tmp, P.variant("paper", slo_tpot_s=1.0))
        n, c = sy.best_for_slo("toy", "flint", 4, 0)
        self.assertEqual(n, 1)
        with tempfile.TemporaryDirectory() as tmp:
            sy = self.make(tmp, P.variant("paper", slo_tpot_s=1e-12))
        self.assertEqual(sy.best_for_slo("toy", "flint", 4, 0), (None, None))

    def test_tr_projection(self):
        with tempfile.TemporaryDirectory() as tmp:
            sy = self.make(tmp, P.variant("tr-12us"))
        rec, how = sy.hbf_point("flint", "toy", 1)
        # fetched 1000 GB/s a stack; one 2 MiB burst a 12 us at most
        self.assertAlmostEqual(rec["fetched_bps"] / 8, 2 * 1024 * 1024 / 12e-6, delta=1.0)
        self.assertIn("tR projection", how)
        # H3 fetched 500 GB/s a stack: the same NAND bound (its 2 LHB slots allow 298 GB/s)
        rec, how = sy.hbf_point("h3", "toy", 1)
        self.assertAlmostEqual(rec["fetched_bps"] / 8, 2 * 1024 * 1024 / 12e-6, delta=1.0)


class Lifetime(unittest.TestCase):
    def test_first_fit_concentrates_next_fit_spreads(self):
        nf = lifetime.pool_wear(16, 4, 5, passes=20)
        ff = lifetime.pool_wear(16, 4, 5, passes=20, policy="first-fit")
        self.assertEqual(ff[0], 1.0)         # the same 4 blocks a plane, once a pass
        self.assertAlmostEqual(ff[2], 4 / 16)
        self.assertLess(nf[0], 0.5)
        self.assertEqual(nf[2], 1.0)

    def test_lifetime_by_hand(self):
        nand = {"planes": 32, "pages": 1024, "t_prog_s": 50e-6, "disturb_limit": 1e6}
        rows = lifetime.lifetimes({"m": {"senses_per_step": 100.0, "live_blocks": 40}},
                                  {"m": {"flint": 1.0, "h3": 2.0}}, nand, [1e5], 50.0,
                                  {"m": 0.25})
        r = rows["m"]
        self.assertAlmostEqual(r["pass_s"], 33 * 40 * 1024 * 50e-6)
        self.assertAlmostEqual(r["corrupt_s"]["flint"], 1e6 / 100 / 50)
        self.assertAlmostEqual(r["due"]["flint"][1e5], 1e5 * 1e4 / 0.25)
        self.assertAlmostEqual(r["due"]["h3"][1e5], 1e5 * 5e3 / 0.25)
        # counter every 1e6 / (100 x 50) = 200 s, pass 67.6 s: the pass sets the erase rate
        self.assertAlmostEqual(r["built"][1e5], 1e5 * r["pass_s"] / 0.25 * 50)
        hot = lifetime.lifetimes({"m": {"senses_per_step": 1000.0, "live_blocks": 40}},
                                 {"m": {"flint": 2.0}}, nand, [1e5], 50.0, {"m": 0.25})["m"]
        # counter every 1e6 / (1000 x 2 x 50) = 10 s, sooner than the pass: it sets the rate
        self.assertAlmostEqual(hot["built_interval_s"], 10.0)
        self.assertAlmostEqual(hot["built"][1e5], 1e5 * 10.0 / 0.25 * 50)


class Params(unittest.TestCase):
    def test_table2_derived(self):
        self.assertAlmostEqual(P.PAPER.peak_flops, 8.14e15, delta=1e12)
        self.assertAlmostEqual(P.PAPER.hbm_bps, 5.6e12)
        self.assertAlmostEqual(P.PAPER.peak_flops / P.variant("public-macs").peak_flops,
                               11000 / P.PUBLIC_MACS)
        self.assertAlmostEqual(P.variant("public-nvlink").nvlink_bps, 900e9)
        with self.assertRaises(KeyError):
            P.variant("nope")


class PublishedMeasurement(unittest.TestCase):
    """The HBM-only path against a published measured decode latency
    (system/reference_measured.toml: Llama-3.3-70B FP8 on 2 x H100, TP2)."""

    def test_inter_token_latency_within_25_percent(self):
        import tomllib
        ref = tomllib.loads((ROOT / "system" / "reference_measured.toml").read_text())
        shape = SH.build(ref["model"])
        self.assertAlmostEqual(shape.params / 1e9, ref["model"]["published_params_b"], delta=0.5)
        h = ref["hardware"]
        prm = P.variant("paper", sms=h["sms"], clock_hz=h["clock_hz"],
                        macs_per_sm_cycle=h["macs_per_sm_cycle"], hbm_bytes=h["hbm_bytes"],
                        hbm_peak_bps=h["hbm_peak_bps"], nvlink_bps=h["nvlink_bps"])
        m = sm.StepModel({shape.name: shape}, prm)
        meas = ref["measurement"]
        got = {}
        for batch, itl_ms in meas["itl_ms"].items():
            st = m.step(shape.name, "hbm", int(batch), meas["context"], meas["packages"])
            got[int(batch)] = st.tpot_s * 1e3
            self.assertLess(abs(got[int(batch)] - itl_ms) / itl_ms, 0.25,
                            f"batch {batch}: model {got[int(batch)]:.2f} ms, measured {itl_ms} ms")
        self.assertGreater(got[5], got[1])   # more users, more KV and arithmetic: slower


class Cli(unittest.TestCase):
    """`python3 -m system` end to end on two models, without plots or variants."""

    def test_quick_run_writes_the_headline_table(self):
        import subprocess
        with tempfile.TemporaryDirectory() as tmp:
            r = subprocess.run([sys.executable, "-m", "system", "--out", tmp, "--no-plots",
                                "--models", "deepseek-v3,llama-4-maverick", "--batches", "1,4",
                                "--no-variants"], cwd=ROOT, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            md = (pathlib.Path(tmp) / "system.md").read_text()
            js = json.loads((pathlib.Path(tmp) / "system.json").read_text())
        for paper in ("1,205x", "2.20x", "6.20x", "408x", "1.10x", "6.80x", "3.10x"):
            self.assertIn(f"| {paper} |", md)
        self.assertIn("--models deepseek-v3,llama-4-maverick", md)     # traceable command
        self.assertIn("docs/results.json", md)
        self.assertEqual(len(js["cells"]), 2 * 6 * 2 * 4)   # models x deployments x batches x ctx
        for c in js["cells"]:
            parts = c["compute_s"] + c["memory_s"] + c["comm_s"] + c["sync_s"] + c["ssd_s"]
            self.assertAlmostEqual(parts, c["tpot_s"], delta=1e-5 * c["tpot_s"])   # 6 digits

    def test_a_missing_point_is_reported_not_invented(self):
        import subprocess
        runs = json.loads((ROOT / "docs" / "results.json").read_text())
        kept = [r for r in runs if r["model"] == "deepseek-v3"]
        self.assertTrue(kept)
        with tempfile.TemporaryDirectory() as tmp:
            res = pathlib.Path(tmp) / "partial.json"
            res.write_text(json.dumps(kept))
            r = subprocess.run([sys.executable, "-m", "system", "--out", tmp, "--no-plots",
                                "--models", "deepseek-v3,kimi-k2", "--batches", "1",
                                "--no-variants", "--results", str(res)],
                               cwd=ROOT, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            md = (pathlib.Path(tmp) / "system.md").read_text()
            js = json.loads((pathlib.Path(tmp) / "system.json").read_text())
        self.assertIn("**Missing measured points**", md)
        self.assertIn("kimi-k2/flint", md)
        self.assertIn("| kimi-k2 | 1 | flint | - |", md)
        hbf = {(c["model"], c["deployment"]) for c in js["cells"]}
        self.assertIn(("deepseek-v3", "flint"), hbf)
        self.assertNotIn(("kimi-k2", "flint"), hbf)
        self.assertNotIn(("kimi-k2", "h3"), hbf)

    def test_unknown_model_is_refused(self):
        import subprocess
        r = subprocess.run([sys.executable, "-m", "system", "--out", "/nonexistent", "--models",
                            "nope", "--no-plots"], cwd=ROOT, capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("unknown model", r.stderr)

    def test_a_missing_compare_file_is_refused(self):
        import subprocess
        r = subprocess.run([sys.executable, "-m", "system", "--out", "/nonexistent", "--compare",
                            "/nonexistent/results.json", "--no-plots"], cwd=ROOT,
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("--compare: no such file", r.stderr)

    def test_a_compare_file_gets_its_own_column(self):
        import subprocess
        with tempfile.TemporaryDirectory() as tmp:
            r = subprocess.run([sys.executable, "-m", "system", "--out", tmp, "--no-plots",
                                "--models", "deepseek-v3", "--batches", "1", "--no-variants",
                                "--compare", str(ROOT / "docs" / "results.json")],
                               cwd=ROOT, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            md = (pathlib.Path(tmp) / "system.md").read_text()
        self.assertIn("| ours, paper-queue | ours, results |", md)


if __name__ == "__main__":
    unittest.main(verbosity=1)
