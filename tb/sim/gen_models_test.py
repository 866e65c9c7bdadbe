#!/usr/bin/env python3
"""sim/workload/gen_models.py: the real models.toml passes, and each broken copy of it is
rejected with a message naming the model and the field. Usage: gen_models_test.py SRC_DIR"""
import pathlib
import re
import subprocess
import sys
import tempfile

SRC = pathlib.Path(sys.argv[1])
GEN = SRC / "sim/workload/gen_models.py"
TOML = (SRC / "sim/workload/models.toml").read_text()
passed = failed = 0


def gen(text, d):
    path = d / "m.toml"
    path.write_text(text)
    p = subprocess.run([sys.executable, GEN, "--models", path, "--out", d / "m.inc"],
                       capture_output=True, text=True)
    return p.returncode, p.stderr


def expect(name, cond, detail):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


def broken(name, old, new, pattern, count=1):
    assert old in TOML, old
    with tempfile.TemporaryDirectory() as d:
        rc, err = gen(TOML.replace(old, new, count), pathlib.Path(d))
    expect(name, rc == 1 and re.search(pattern, err) is not None, f"rc {rc}: {err}")


def main():
    with tempfile.TemporaryDirectory() as d:
        rc, err = gen(TOML, pathlib.Path(d))
        inc = (pathlib.Path(d) / "m.inc").read_text() if rc == 0 else ""
    entries = len(re.findall(r"^\[\[models\]\]$", TOML, re.M))
    expect("real file", rc == 0 and inc.count("out->push_back") == entries, err)
    expect("precision transcribed", 's.expert_precision = Precision::kFp4;' in inc, "no fp4")
    broken("zero layers", "layers = 61\n", "layers = 0\n", r"deepseek-v3\): layers = 0")
    broken("top_k above experts", "top_k = 8\n", "top_k = 999\n", r"top_k must be in 1..experts")
    broken("unknown key", 'vocab = 64\n', 'vocab = 64\nbogus = 1\n', r"unknown key\(s\): bogus")
    broken("missing key", 'hidden = 7168\n', '', r"missing key\(s\): hidden")
    broken("bad precision", 'precision = "bf16"\n', 'precision = "int3"\n', r"precision = 'int3'")
    broken("bad attention kind", 'kind = "gqa"\n', 'kind = "mha"\n', r"attention.kind must be")
    broken("gqa heads", 'kv_heads = 8\n', 'kv_heads = 7\n', r"multiple of kv_heads")
    broken("field of another kind", 'kind = "gqa"\n', 'kind = "gqa"\nq_lora_rank = 4\n',
           r"takes no q_lora_rank")
    first_sources = re.search(r"sources = \[.*?\n\]\n", TOML, re.S).group(0)
    broken("public model without source", first_sources, "sources = []\n",
           r"llama-3.1-405b\): a public model needs at least one source")
    broken("duplicate name", 'name = "tiny-dense"', 'name = "tiny-small"', r"duplicate name")
    broken("dense model with experts", "top_k = 0\n", "top_k = 2\n", r"a dense model has top_k = 0")
    broken("not toml", "[[models]]\n", "[[models]\n", r"m.toml")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
