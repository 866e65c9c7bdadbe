#!/usr/bin/env python3
"""FuseSoC generator (flint:flint:cfg_gen): the config package flint_cfg_pkg for one of
configs/*.toml, made by scripts/gen_config.py (the one source of truth), and the BCH matrices'
package flint_bch_pkg (scripts/gen_bch.py), as a generated core.

usage: fusesoc_cfg.py INPUT.yml
FuseSoC calls it so, in the generator's work folder; INPUT.yml names the core to write (vlnv)
and the parameters ({config: small}). Writes <config>/flint_cfg_pkg.sv, flint_bch_pkg.sv and flint_cfg.core there.
"""
import pathlib
import subprocess
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(sys.argv) == 2 else 2
    gin = yaml.safe_load(pathlib.Path(sys.argv[1]).read_text())
    config = gin.get("parameters", {}).get("config", "small")
    if not (ROOT / "configs" / f"{config}.toml").exists():
        print(f"fusesoc_cfg: no config named {config!r} in configs/", file=sys.stderr)
        return 1
    out = pathlib.Path.cwd()
    subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_config.py"), "--configs",
                    str(ROOT / "configs"), "--out", str(out)], check=True,
                   stdout=subprocess.DEVNULL)
    # The BCH line code's matrices (scripts/gen_bch.py), the other generated package: the same
    # at every config, so it rides in this core rather than in one of its own.
    subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_bch.py"), "--out", str(out)],
                   check=True, stdout=subprocess.DEVNULL)
    core = {"name": gin["vlnv"],
            "description": f"flint_cfg_pkg for configs/{config}.toml and flint_bch_pkg "
                           "(generated)",
            "filesets": {"rtl": {"files": [f"{config}/flint_cfg_pkg.sv", "flint_bch_pkg.sv"],
                                 "file_type": "systemVerilogSource"}},
            "targets": {"default": {"filesets": ["rtl"]}}}
    (out / "flint_cfg.core").write_text("CAPI=2:\n" + yaml.safe_dump(core, sort_keys=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
