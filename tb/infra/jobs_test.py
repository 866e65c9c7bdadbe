#!/usr/bin/env python3
"""scripts/jobs.py on Dask with 2 local workers, for real: a small sweep (flint-trace-gen over
models x batches x seeds) and a small regression (scripts/regress.py over test_common's [random]
cases and a stand-in test binary that fails one seed) give the same merged results as a serial
run; the jobs spread over both workers; a rerun skips finished jobs and reruns failed ones; a
failing command leaves no output.

  jobs_test.py SOURCE_DIR FLINT_TRACE_GEN TEST_COMMON
"""
import hashlib
import json
import os
import pathlib
import stat
import subprocess
import sys
import tempfile
import time

SRC = pathlib.Path(sys.argv[1])
TRACE_GEN = pathlib.Path(sys.argv[2])
TEST_COMMON = pathlib.Path(sys.argv[3])
sys.path.insert(0, str(SRC / "scripts"))
import jobs  # noqa: E402
import testbins  # noqa: E402

FAILS = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILS.append(what)


def sweep_jobs(root):
    out = []
    for model in ("tiny-small", "tiny-dense"):
        for batch in (1, 2):
            for seed in (1, 2):
                name = f"{model}-b{batch}-s{seed}"
                out.append(jobs.Job(name, [str(TRACE_GEN), "--model", model, "--config", "small",
                                           "--batch", str(batch), "--tokens", "1", "--seed",
                                           str(seed), "--out", "{out}"],
                                    str(root / f"{name}.trace")))
    return out


def merged(results):
    """What a sweep script keeps: each job's output, by name (here its digest)."""
    return {r.name: hashlib.sha256(pathlib.Path(r.out).read_bytes()).hexdigest()
            for r in results if r.ok}


def sweep(tmp):
    t0 = time.time()
    serial = jobs.run(sweep_jobs(tmp / "serial"), workers=0, quiet=True)
    t_serial = time.time() - t0
    t0 = time.time()
    par = jobs.run(sweep_jobs(tmp / "dask"), workers=2)
    t_par = time.time() - t0
    check(all(r.ok for r in serial) and all(r.ok for r in par), "sweep: every job finished")
    check(len(merged(par)) == 8 and merged(par) == merged(serial),
          "sweep: 8 traces from 2 Dask workers equal the serial run's, byte for byte")
    print(f"     sweep: serial {t_serial:.1f} s, 2 workers {t_par:.1f} s (with cluster start)")


def cluster(tmp):
    """The same job list on a running Dask scheduler with workers of its own (what a cluster is),
    all on 127.0.0.1 and stopped at the end: the one setting is the scheduler's address."""
    sfile = tmp / "scheduler.json"
    dask = [sys.executable, "-m", "dask"]  # not a `dask` on PATH: pip's script may sit outside it
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    procs = [subprocess.Popen(dask + ["scheduler", "--host", "127.0.0.1", "--port", "0",
                                      "--no-dashboard", "--scheduler-file", str(sfile)], **quiet)]
    try:
        for _ in range(300):
            if sfile.exists() and sfile.stat().st_size > 0:
                break
            time.sleep(0.1)
        address = json.loads(sfile.read_text())["address"]
        procs.append(subprocess.Popen(dask + ["worker", "--scheduler-file", str(sfile),
                                              "--nworkers", "2", "--nthreads", "1",
                                              "--no-dashboard", "--host", "127.0.0.1"], **quiet))
        import distributed
        with distributed.Client(address, timeout="30s") as c:
            c.wait_for_workers(2, timeout=60)
        serial = jobs.run(sweep_jobs(tmp / "serial"), workers=0, quiet=True)
        os.environ["FLINT_SCHEDULER"] = address
        try:
            remote = jobs.run(sweep_jobs(tmp / "remote"), quiet=True)
        finally:
            del os.environ["FLINT_SCHEDULER"]
        hosts = {r.host for r in remote}
        check(all(r.ok for r in remote) and merged(remote) == merged(serial)
              and len(merged(remote)) == 8,
              f"cluster: FLINT_SCHEDULER={address} runs the same sweep on the scheduler's "
              f"workers ({len(hosts)} used), equal to the serial run")
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def fake_exe(path):
    """A stand-in Catch2 binary: two [random] cases; 'fake: b' fails at seed 2."""
    path.write_text("#!/usr/bin/env python3\nimport os, sys, time\n"
                    "if '--list-test-names-only' in sys.argv:\n"
                    "    print('fake: a\\nfake: b'); sys.exit(0)\n"
                    "time.sleep(0.3)\n"
                    "sys.exit(1 if sys.argv[1] == 'fake: b' and os.environ['FLINT_SEED'] == '2'"
                    " else 0)\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def regress(tmp, workers, extra=()):
    cmd = [sys.executable, str(SRC / "scripts" / "regress.py"), "--build", str(tmp),
           "--seeds", "3", "--workers", str(workers), *extra]
    p = subprocess.run(cmd, capture_output=True, text=True)
    res = json.loads((tmp / "regress" / "results.json").read_text())
    return p, res


def regression(tmp):
    build = tmp / "build"
    (build / "tb" / "common").mkdir(parents=True)
    (build / "tb" / "fake").mkdir(parents=True)
    os.symlink(TEST_COMMON.resolve(), build / "tb" / "common" / "test_common")
    fake_exe(build / "tb" / "fake" / "test_fake")
    p0, serial = regress(build, 0)
    p2, par = regress(build, 2)
    check(p0.returncode == 1 and p2.returncode == 1,
          "regress: a failing seed fails the regression, serial and on Dask")
    # Every [random] case of test_common and both fakes, each at seeds 1..3: no job lost.
    cases = len(testbins.test_names(TEST_COMMON, "[random]"))
    check(cases >= 4 and len(par) == 3 * (cases + 2) and par == serial,
          f"regress: {len(par)} runs ({cases} [random] cases of test_common and 2 fakes, 3 "
          f"seeds) on 2 Dask workers merge to the serial results")
    failed = [(r["test"], r["seed"]) for r in par if not r["passed"]]
    check(failed == [("fake: b", 2)], f"regress: exactly the planted failure is reported: {failed}")
    check("make waves TEST='fake: b' SEED=2" in p2.stdout, "regress: the replay command is printed")
    check("regress:" in p2.stderr and "done" in p2.stderr and "left" in p2.stderr,
          "regress: a progress line (done, running, failed, left) on stderr")
    # Resume: the passing runs are kept, the failing one runs again (and fails again).
    p3, again = regress(build, 2, ["--resume"])
    check(again == serial and f"{len(par) - 1} of {len(par)} jobs already finished" in p3.stderr,
          "regress --resume: only the failed run runs again, same merged results")


def resume(tmp):
    counter = tmp / "count"
    mk = lambda i: jobs.Job(f"j{i}", ["sh", "-c", f"echo x >> {counter}; sleep 0.3; "  # noqa: E731
                                      f"echo {i} > {{out}}"], str(tmp / "o" / f"{i}.txt"))
    bad = jobs.Job("bad", ["sh", "-c", "echo half > {out}; echo boom >&2; exit 3"],
                   str(tmp / "o" / "bad.txt"))
    lst = [mk(i) for i in range(6)] + [bad]
    first = jobs.run(lst, workers=2, quiet=True)
    hosts = {r.host for r in first if r.ok}
    check(len(hosts) >= 2, f"resume: jobs ran on {len(hosts)} distinct Dask workers (want >= 2)")
    check(not first[-1].ok and first[-1].rc == 3 and "boom" in first[-1].stderr
          and not pathlib.Path(bad.out).exists(),
          "a failing job is reported with its exit and stderr, and leaves no output")
    (tmp / "o" / "4.txt").unlink()
    second = jobs.run(lst, workers=2, quiet=True)
    skipped = [r.name for r in second if r.skipped]
    check(skipped == ["j0", "j1", "j2", "j3", "j5"], f"resume: finished jobs skipped: {skipped}")
    check(counter.read_text().count("x") == 7, "resume: only the deleted job's command ran again")
    check((tmp / "o" / "4.txt").read_text() == "4\n", "resume: the rerun job's output is back")
    try:
        jobs.run([mk(1), mk(1)], workers=0, quiet=True)
        check(False, "duplicate job names are refused")
    except ValueError:
        check(True, "duplicate job names are refused")


def cli(tmp):
    lst = [jobs.Job("a", ["echo", "hello"], str(tmp / "a.txt"), stdout=True)]
    jobs.dump(lst, tmp / "jobs.json")
    p = subprocess.run([sys.executable, str(SRC / "scripts" / "jobs.py"), "run",
                        str(tmp / "jobs.json"), "--workers", "0"], capture_output=True, text=True)
    check(p.returncode == 0 and (tmp / "a.txt").read_text() == "hello\n"
          and "1 passed, 0 failed" in p.stdout, "jobs.py run JOBS.json: a job list from a file")
    h = subprocess.run([sys.executable, str(SRC / "scripts" / "jobs.py"), "--help"],
                       capture_output=True, text=True)
    check(h.returncode == 0 and "--scheduler" in h.stdout and "run" in h.stdout,
          "jobs.py --help")


def main():
    with tempfile.TemporaryDirectory(prefix="flint-jobs-test-") as t:
        tmp = pathlib.Path(t)
        for part in (sweep, regression, resume, cluster, cli):
            d = tmp / part.__name__
            d.mkdir()
            part(d)
    print(f"jobs_test: {len(FAILS)} failed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
