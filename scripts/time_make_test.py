#!/usr/bin/env python3
"""`make test` on a fresh clone of HEAD, as CI runs it (`bash .ci/run`), timed phase by phase: writes
`bench/make-test.json`, from which `scripts/figures.py` renders the README's table ("The two commands").

    .venv/bin/python scripts/time_make_test.py [--keep DIR]

The clone goes to a temporary folder (or DIR, kept afterwards). Each line of the run is stamped as it comes; the
phases are told apart by the commands `make test` prints when it starts each suite. The machine's busy CPU time
(/proc/stat) over the run is written too: `make test` keeps both cores busy nearly throughout, so its time is the
CPU its steps take. Nothing else should run meanwhile. Exits with `make test`'s status.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A phase starts at the first line matching its pattern; the phases in the order `make test` runs them.
PHASES = [
    ("builds and the page's checks", None),
    ("the server's suites and the Swift tests", re.compile(r"RefreshKitPackageTests\.xctest .*beside the server")),
    ("the timed load slices", re.compile(r"pytest -q e2e/server/test_load_turn_by_turn\.py")),
    ("the cluster's suite", re.compile(r"pytest .* e2e/cluster")),
    ("the browser's suite", re.compile(r"pytest .* e2e/browser")),
]


def busy_seconds() -> float:
    with open("/proc/stat") as f:
        fields = [int(v) for v in f.readline().split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="clone into this folder and keep it")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "make-test.json")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="refreshkit-make-test-"))
    if folder.exists():
        shutil.rmtree(folder)
    subprocess.run(["git", "clone", "-q", str(ROOT), str(folder)], check=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=folder, capture_output=True,
                            text=True).stdout.strip()
    log_path = folder.parent / f"{folder.name}.log"
    started, cpu_started = time.monotonic(), busy_seconds()
    starts: dict[str, float] = {PHASES[0][0]: 0.0}
    with subprocess.Popen(["bash", ".ci/run"], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, bufsize=1) as run, open(log_path, "w") as log:
        assert run.stdout is not None
        for line in run.stdout:
            at = time.monotonic() - started
            log.write(f"{at:8.1f} {line}")
            for name, pattern in PHASES[1:]:
                if name not in starts and pattern.search(line):
                    starts[name] = at
        status = run.wait()
    total = time.monotonic() - started
    cpu = busy_seconds() - cpu_started
    names = [name for name, _ in PHASES if name in starts]
    phases = {name: round((starts[names[i + 1]] if i + 1 < len(names) else total) - starts[name], 1)
              for i, name in enumerate(names)}
    results = {
        "git_commit": commit, "generated_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "status": status, "total_s": round(total, 1), "machine_busy_cpu_s": round(cpu, 1), "cores": os.cpu_count(),
        "phases_s": phases,
    }
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))
    print(f"the run's output, each line stamped: {log_path}")
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
