"""Shared by waves.py and regress.py: find the Catch2 test executables of a build and ask them
which test cases they hold."""
import pathlib
import subprocess


def executables(build):
    """Every test_* executable under <build>/tb."""
    return sorted(p for p in (pathlib.Path(build) / "tb").rglob("test_*")
                  if p.is_file() and p.stat().st_mode & 0o111)


def test_names(exe, spec=None):
    """Test case names of `exe`, optionally filtered by a Catch2 test spec (e.g. "[random]")."""
    cmd = [str(exe), "--list-test-names-only"] + ([spec] if spec else [])
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    return [line.strip() for line in out.splitlines() if line.strip()]


def catch_spec(name):
    """A Catch2 filter that matches exactly this test name (commas and brackets escaped)."""
    return name.replace("\\", "\\\\").replace(",", "\\,").replace("[", "\\[")
