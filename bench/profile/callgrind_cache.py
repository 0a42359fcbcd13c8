#!/usr/bin/env python3
"""Cache lines the session host misses per input when its sessions are cold (docs/PERFORMANCE.md, "Profile").

At 1 000 sessions the server's own code runs at a third of the speed it runs at in a loop with one session:
between two inputs of a session, 999 others and the kernel's network work pass through the core's caches,
and the session's state is gone from L2 when its next input comes. This counts what that costs, exactly and
without a clock: `refreshkit-bench --profile-host N --profile-session-host` takes its N sessions in turn
under callgrind's cache simulation, with a last level the size of this host's L2 (2 MiB, 16-way), an L1d of
its L1d (48 KiB, 12-way) and an L1i of its L1i (32 KiB, 8-way). A miss in that last level is a cache line of
the session's state (or the code's data) that the input had to bring back from L3 or memory. `--code
2048,2,64` keeps almost no code between inputs, so its L1i misses count the code lines an input runs
through, as when the kernel's work between two inputs has evicted them. As in callgrind_host.py, a short and
a long run are subtracted, so set-up and the sessions' first touches cancel out.

    bench/profile/callgrind_cache.py --bin-dir .build/release --sessions 1000 --short 20000 --long 40000
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from callgrind_host import run, stripped_bench  # noqa: E402
from callgrind_server import calls, demangled  # noqa: E402

EVENTS = ["Ir", "I1mr", "D1mr", "D1mw", "DLmr", "DLmw"]


def totals(profile):
    """Event name → count over the run, from the profile's `events:` and `totals:`/`summary:` lines."""
    names, values = None, None
    with open(profile) as f:
        for line in f:
            if line.startswith("events:"):
                names = line.split()[1:]
            elif line.startswith("summary:") or line.startswith("totals:"):
                values = [int(v) for v in line.split()[1:]]
    if not names or not values:
        sys.exit(f"no totals in {profile}")
    return dict(zip(names, values, strict=False))


ROW = re.compile(r"^\s*([\d,.]+)\s+\(\s*[\d.]+%\)\s+([\d,.]+)\s+\(\s*[\d.]+%\)\s+(.+?)(?:\s+\[[^\]]*\])?$")


def misses_by_function(profile):
    """Function → last-level misses (read + write), exclusive, from callgrind_annotate."""
    text = subprocess.run(["callgrind_annotate", "--sort=DLmr", "--show=DLmr,DLmw", "--threshold=100", profile],
                          capture_output=True, text=True, check=True).stdout
    counts = {}
    for line in text.splitlines():
        cells = line.split()
        if "file:function" in line or len(cells) < 3:
            continue
        numbers = []
        rest = cells
        while rest and re.fullmatch(r"[\d,]+|\.|\([\s\d.]+%\)|\(|[\d.]+%\)", rest[0]):
            if re.fullmatch(r"[\d,]+|\.", rest[0]):
                numbers.append(0 if rest[0] == "." else int(rest[0].replace(",", "")))
            rest = rest[1:]
        if len(numbers) != 2 or not rest:
            continue
        name = rest[0].split(":", 1)[1] if ":" in rest[0] else rest[0]
        counts[name] = counts.get(name, 0) + sum(numbers)
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin-dir", default=".build/release")
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--short", type=int, default=20000)
    parser.add_argument("--long", type=int, default=40000)
    parser.add_argument("--l1", default="49152,12,64", help="the simulated L1d: size,ways,line")
    parser.add_argument("--last", default="2097152,16,64", help="the simulated last level: size,ways,line")
    parser.add_argument("--code", default="32768,8,64",
                        help="the simulated L1i: size,ways,line (2048,2,64 keeps almost nothing between inputs, so "
                             "its misses count the code lines an input runs through)")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--keep", help="a folder to keep the profiles in")
    args = parser.parse_args()
    work = args.keep or tempfile.mkdtemp(prefix="callgrind-cache-")
    binary = stripped_bench(args.bin_dir, work)
    options = ["--cache-sim=yes", f"--I1={args.code}", f"--D1={args.l1}", f"--LL={args.last}"]
    short = run(binary, args.sessions, args.short, work, "short", options=options)
    long = run(binary, args.sessions, args.long, work, "long", options=options)
    handler = r"SessionHostC8received_6binary6isLast"
    inputs = calls(long, handler) - calls(short, handler)
    before, after = totals(short), totals(long)
    per = {e: (after.get(e, 0) - before.get(e, 0)) / inputs for e in EVENTS}
    print(f"session host, {args.sessions} sessions in turn, {inputs} inputs between the runs; per input:")
    print(f"  instructions {per['Ir']:,.0f}; L1 misses {per['D1mr']:.1f} read + {per['D1mw']:.1f} write; "
          f"last-level ({args.last}) misses {per['DLmr']:.1f} read + {per['DLmw']:.1f} write "
          f"= {per['DLmr'] + per['DLmw']:.1f} lines; L1i ({args.code}) misses {per['I1mr']:.1f}")
    short_counts, long_counts = misses_by_function(short), misses_by_function(long)
    rows = sorted((((long_counts[n] - short_counts.get(n, 0)) / inputs, n) for n in long_counts), reverse=True)
    rows = [r for r in rows if r[0] >= 0.05 and r[1] != "PROGRAM"][:args.top]
    print("\nlast-level misses per input, by function (exclusive):")
    for (value, _), name in zip(rows, demangled([n for _, n in rows]), strict=True):
        print(f"{value:6.1f}  {name[:150]}")
    print(f"\nprofiles in {work}")


if __name__ == "__main__":
    main()
