#!/usr/bin/env python3
"""Job lists on Dask distributed: the one way FLINT's large runs (regressions, sweeps) execute.

A job is a command and the file it produces. A job is finished when its output file exists, so a
rerun skips it (resumable); the file appears only when the command exits 0, written whole (never
half a file after an interrupt). The command names its output `{out}` in its arguments, or, with
"stdout": true, its standard output is the output. Results come back to the caller, which merges
them as before (regress.py's table, evaluate_rtl.py's JSON).

Where the jobs run is one setting:
  --workers N            a Dask LocalCluster of N worker processes on this machine (default 2)
  --scheduler ADDRESS    a running Dask scheduler (tcp://host:8786, or $FLINT_SCHEDULER): the
                         same jobs on a cluster's workers (`dask worker ADDRESS --nthreads 1`;
                         docs/jobs.md). Outputs come back through the scheduler: the workers need
                         the build at the same path, not a shared output folder.
  --workers 0            serially in this process, without Dask (the reference the tests use)

Progress goes to stderr: jobs done, running, failed, and an estimate of the time left.

  scripts/jobs.py run JOBS.json [--workers N | --scheduler ADDRESS] [--quiet]

JOBS.json is a list of {"name": ..., "cmd": [...], "out": PATH, "stdout": false, "cwd": null,
"env": {}}. From Python: jobs.run([jobs.Job(...), ...], workers=2) returns one Result per job.
"""
import argparse
import dataclasses
import json
import logging
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time


@dataclasses.dataclass
class Job:
    name: str                      # unique within a list; the Dask key and the progress label
    cmd: list                      # argv; "{out}" in an argument is replaced by the output path
    out: str                       # the output file (finished when it exists)
    stdout: bool = False           # the command's standard output is the output
    cwd: str = None                # working directory on the worker (default: the caller's)
    env: dict = dataclasses.field(default_factory=dict)  # added to the worker's environment


@dataclasses.dataclass
class Result:
    name: str
    out: str
    rc: int                        # 0: finished; a skipped (already finished) job has rc 0
    seconds: float
    skipped: bool = False          # finished by an earlier run (resume)
    host: str = ""                 # the worker that ran it (Dask address, or the host name)
    stderr: str = ""               # the last lines of stderr (a failed job's diagnosis)

    @property
    def ok(self):
        return self.rc == 0


def execute(job):
    """Runs one job where it is called (on a Dask worker, or in-process) and returns
    (rc, seconds, host, stderr tail, output bytes or None). Writes nothing outside a temp dir:
    the caller writes the output, so workers need no shared folder for results."""
    tmp = tempfile.mkdtemp(prefix="flint-job-")
    try:
        out_tmp = os.path.join(tmp, os.path.basename(job.out) or "out")
        cmd = [str(c).replace("{out}", out_tmp) for c in job.cmd]
        env = dict(os.environ, **{k: str(v) for k, v in job.env.items()})
        t0 = time.time()
        try:
            p = subprocess.run(cmd, cwd=job.cwd, env=env, capture_output=True)
            rc, so, se = p.returncode, p.stdout, p.stderr
        except OSError as e:  # not found, not executable
            rc, so, se = 127, b"", str(e).encode()
        seconds = time.time() - t0
        data = None
        if rc == 0:
            if job.stdout:
                data = so
            elif os.path.exists(out_tmp):
                with open(out_tmp, "rb") as f:
                    data = f.read()
            else:
                rc, se = 1, se + f"jobs: {job.name} exited 0 but wrote no {{out}}\n".encode()
        tail = "\n".join(se.decode(errors="replace").splitlines()[-20:])
        return rc, seconds, _where(), tail, data
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _where():
    """Which worker ran a job: the Dask worker's address, or the host for a serial run."""
    try:
        import distributed
        return distributed.get_worker().address
    except (ImportError, ValueError):
        return socket.gethostname()


def _store(job, outcome):
    rc, seconds, host, tail, data = outcome
    if rc == 0:
        out = pathlib.Path(job.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        part = out.with_name(out.name + ".part")
        part.write_bytes(data)
        os.replace(part, out)  # whole or absent
    return Result(job.name, job.out, rc, seconds, host=host, stderr=tail)


class Progress:
    """One line on stderr: done, running, failed, time left. Rewritten in place on a terminal;
    elsewhere (CI logs, make's pipes) a line every `every` seconds and at the end."""

    def __init__(self, label, total, slots, quiet=False, every=10.0):
        self.label, self.total, self.slots = label, total, slots
        self.quiet, self.every = quiet, every
        self.done = self.failed = self.running = 0
        self.t0 = time.time()
        self.last = 0.0
        self.tty = sys.stderr.isatty()

    def line(self):
        el = time.time() - self.t0
        left = "?"
        if self.done:
            left = _dur(el / self.done * (self.total - self.done))
        return (f"{self.label}: {self.done}/{self.total} done, {self.running} running, "
                f"{self.failed} failed, {_dur(el)} elapsed, ~{left} left")

    def due(self):
        """Whether show() would print now (so a caller asks the scheduler only then)."""
        return not self.quiet and (self.tty or time.time() - self.last >= self.every)

    def show(self, final=False):
        if self.quiet:
            return
        now = time.time()
        if self.tty:
            print("\r" + self.line() + "\033[K", end="\n" if final else "", file=sys.stderr,
                  flush=True)
        elif final or now - self.last >= self.every:
            print(self.line(), file=sys.stderr, flush=True)
            self.last = now


def _dur(s):
    s = int(round(s))
    return f"{s // 3600}h{s % 3600 // 60:02d}m" if s >= 3600 else (
        f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s")


def run(jobs, workers=2, scheduler=None, resume=True, label="jobs", quiet=False):
    """Runs `jobs` (a list of Job) and returns a list of Result in the same order.

    resume: a job whose output exists is not run again (Result.skipped). workers: local worker
    processes (0: serially in this process). scheduler: a Dask scheduler address (default
    $FLINT_SCHEDULER); when given, `workers` is ignored and the cluster's workers run the jobs."""
    names = [j.name for j in jobs]
    if len(set(names)) != len(names):
        raise ValueError("jobs: job names must be unique")
    scheduler = scheduler or os.environ.get("FLINT_SCHEDULER") or None
    results = {}
    todo = []
    for j in jobs:
        if resume and pathlib.Path(j.out).exists():
            results[j.name] = Result(j.name, j.out, 0, 0.0, skipped=True)
        else:
            todo.append(j)
    if not quiet and len(todo) < len(jobs):
        print(f"{label}: {len(jobs) - len(todo)} of {len(jobs)} jobs already finished "
              f"(their outputs exist), not run again", file=sys.stderr)
    if todo:
        if scheduler is None and workers <= 0:
            _run_serial(todo, results, label, quiet)
        else:
            _run_dask(todo, results, workers, scheduler, label, quiet)
    return [results[n] for n in names]


def _run_serial(todo, results, label, quiet):
    prog = Progress(label, len(todo), 1, quiet)
    for j in todo:
        prog.running = 1
        prog.show()
        r = _store(j, execute(j))
        results[j.name] = r
        prog.done += 1
        prog.failed += not r.ok
        prog.running = 0
    prog.show(final=True)


def _run_dask(todo, results, workers, scheduler, label, quiet):
    try:
        import distributed
    except ImportError:
        sys.exit("jobs: Dask is not installed (scripts/setup.sh installs dask[distributed] from "
                 "PyPI); --workers 0 runs the jobs serially without it")
    cluster = None
    if scheduler:
        client = distributed.Client(scheduler, timeout="30s")
    else:
        # One thread a worker: a job is a process that keeps a core busy.
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                           processes=True, dashboard_address=None,
                                           silence_logs=logging.ERROR)
        client = distributed.Client(cluster)
    try:
        if scheduler:
            # A cluster's workers need nothing of FLINT installed: this module goes to each of
            # them (and to any that joins later), so the tasks below unpickle there. Local
            # workers inherit this process's import path; there the scheduler runs in this
            # process, and an upload would reload this very module.
            client.upload_file(__file__)
        slots = sum(w.get("nthreads", 1)
                    for w in client.scheduler_info()["workers"].values()) or 1
        prog = Progress(label, len(todo), slots, quiet)
        by_key = {}
        futures = []
        for j in todo:
            f = client.submit(execute, j, key=f"flint-job-{j.name}-{id(j)}", pure=False)
            by_key[f.key] = j
            futures.append(f)
        pending = set(futures)
        for f in distributed.as_completed(futures):
            j = by_key[f.key]
            pending.discard(f)
            try:
                r = _store(j, f.result())
            except Exception as e:  # noqa: BLE001 (a lost worker, an unpicklable result)
                r = Result(j.name, j.out, 1, 0.0, stderr=f"jobs: {type(e).__name__}: {e}")
            results[j.name] = r
            prog.done += 1
            prog.failed += not r.ok
            if prog.due():
                try:  # tasks the workers hold now (a worker may hold one queued beside its own)
                    held = sum(len(v) for v in client.processing().values())
                    prog.slots = sum(client.nthreads().values()) or prog.slots  # workers join
                    prog.running = min(held, prog.slots)
                except Exception:  # noqa: BLE001 (a progress line is not worth a failure)
                    prog.running = min(slots, len(pending))
            prog.show()
        prog.running = 0
        prog.show(final=True)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def load(path):
    """A job list from JSON: [{"name", "cmd", "out", "stdout"?, "cwd"?, "env"?}, ...]."""
    return [Job(**d) for d in json.loads(pathlib.Path(path).read_text())]


def dump(jobs, path):
    pathlib.Path(path).write_text(json.dumps([dataclasses.asdict(j) for j in jobs], indent=1)
                                  + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Run a job list (JSON) on Dask: locally with N workers or on a cluster.",
        epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="verb", required=True)
    rp = sub.add_parser("run", help="run the jobs of a JSON list; exit 1 when one fails")
    rp.add_argument("jobs", help="JSON list of jobs")
    rp.add_argument("--workers", type=int, default=2, help="local workers (0: serial, no Dask)")
    rp.add_argument("--scheduler", default=None,
                    help="Dask scheduler address (default $FLINT_SCHEDULER): run on a cluster")
    rp.add_argument("--no-resume", action="store_true", help="run finished jobs again")
    rp.add_argument("--quiet", action="store_true", help="no progress line")
    args = ap.parse_args(argv)
    res = run(load(args.jobs), workers=args.workers, scheduler=args.scheduler,
              resume=not args.no_resume, quiet=args.quiet)
    for r in res:
        if not r.ok:
            print(f"jobs: {r.name} failed (exit {r.rc}) on {r.host}:\n{r.stderr}", file=sys.stderr)
    failed = sum(not r.ok for r in res)
    print(f"jobs: {len(res) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
