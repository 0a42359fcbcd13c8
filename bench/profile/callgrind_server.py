#!/usr/bin/env python3
"""Instructions per input of a whole WebSocket server under load, counted by callgrind (docs/PERFORMANCE.md,
"Profile").

The server (`refreshkit serve`, or `lws-echo` with --echo) runs under callgrind twice, each time driven by
`refreshkit-load` with the same sessions and rate, for a short and a long measured window. The difference of
the two runs' totals, divided by the difference of the inputs the generator sent, leaves start-up, the
handshakes and the shutdown out. The same difference is taken function by function (inclusive and exclusive,
from `callgrind_annotate`), so the table shows where each input's instructions go.

valgrind 3.19 cannot read the debug information of `refreshkit` (swift-prometheus' sections), so the binary
runs as a copy without it (`strip -g`): the instructions are the same, only file and line names go; function
names stay (demangled with `swift demangle --simplified`).

    bench/profile/callgrind_server.py --bin-dir .build/release --sessions 20 --short 4 --long 8 --top 30
    bench/profile/callgrind_server.py --bin-dir .build/release --echo ...
"""

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, process, log, bound=300.0):
    """Polls until the server accepts a TCP connection (valgrind starts slowly)."""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"the server exited early; see {log}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"the server did not listen within {bound} s; see {log}")


def one_run(args, binary, duration, work, label):
    port = free_port()
    out = os.path.join(work, f"cg.{label}.out")
    log = os.path.join(work, f"cg.{label}.log")
    if args.echo:
        command = [binary, "--port", str(port)]
    else:
        command = [binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
                   "--web-root", args.web_root] + args.server_arg
    valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + args.valgrind_arg
    with open(log, "w") as log_file:
        server = subprocess.Popen(valgrind + command, stdout=log_file, stderr=subprocess.STDOUT)
        wait_listening(port, server, log)
        load = subprocess.run(
            [os.path.join(args.bin_dir, "refreshkit-load"), "--url", f"ws://127.0.0.1:{port}/",
             "--sessions", str(args.sessions), "--rate", str(args.rate), "--warmup", str(args.warmup),
             "--duration", str(duration), "--mode", "echo" if args.echo else "frames"],
            capture_output=True, text=True, check=True)
        server.send_signal(signal.SIGINT)
        server.wait(timeout=120)
    report = json.loads(load.stdout.strip().splitlines()[-1])
    inputs = report.get("inputs_sent") or report.get("inputsSent")
    if inputs is None:
        sys.exit(f"no inputs_sent in the generator's report: {load.stdout}")
    return out, int(inputs), report


def total(profile):
    with open(profile) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    sys.exit(f"no summary in {profile}")


LINE = re.compile(r"^\s*([\d,]+)\s+(?:\(\s*[\d.]+%\)\s+)?(?:\*\s+)?(.+?)(?:\s+\[[^\]]*\])?$")


def functions(profile, inclusive):
    """Function name → instructions, from callgrind_annotate (names demangled)."""
    text = subprocess.run(
        ["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}", "--threshold=100", profile],
        capture_output=True, text=True, check=True).stdout
    counts = {}
    started = False
    for line in text.splitlines():
        if not started:
            started = "file:function" in line
            continue
        match = LINE.match(line)
        if not match:
            continue
        name = match.group(2)
        if ":" in name:
            name = name.split(":", 1)[1]
        counts[name] = counts.get(name, 0) + int(match.group(1).replace(",", ""))
    names = list(counts)
    if shutil.which("swift"):
        demangled = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(names),
                                   capture_output=True, text=True).stdout.splitlines()
        if len(demangled) == len(names):
            counts = {d: counts[n] for n, d in zip(names, demangled)}
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin-dir", default=".build/release")
    parser.add_argument("--echo", action="store_true", help="profile lws-echo (the floor) instead")
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--rate", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--short", type=float, default=4.0)
    parser.add_argument("--long", type=float, default=8.0)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--web-root", default="web")
    parser.add_argument("--server-arg", action="append", default=[])
    parser.add_argument("--valgrind-arg", action="append", default=[])
    parser.add_argument("--keep", help="a folder to keep the profiles in")
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()

    work = args.keep or tempfile.mkdtemp(prefix="rk-callgrind-")
    os.makedirs(work, exist_ok=True)
    name = "lws-echo" if args.echo else "refreshkit"
    binary = os.path.join(work, name)
    shutil.copy(os.path.join(args.bin_dir, name), binary)
    subprocess.run(["strip", "-g", binary], check=True)

    short_profile, short_inputs, _ = one_run(args, binary, args.short, work, "short")
    long_profile, long_inputs, long_report = one_run(args, binary, args.long, work, "long")
    inputs = long_inputs - short_inputs
    per_input = (total(long_profile) - total(short_profile)) / inputs
    print(f"{name}: {args.sessions} sessions at {args.rate:g} Hz, {inputs} inputs between the runs: "
          f"{per_input:,.0f} instructions per input")
    figures = {"binary": name, "sessions": args.sessions, "rate": args.rate, "inputs": inputs,
               "instructions_per_input": per_input, "functions": {}}
    for inclusive in (True, False):
        kind = "inclusive" if inclusive else "exclusive"
        short_counts = functions(short_profile, inclusive)
        long_counts = functions(long_profile, inclusive)
        rows = sorted(((long_counts[n] - short_counts.get(n, 0)) / inputs, n) for n in long_counts)
        rows.reverse()
        figures["functions"][kind] = {n: round(v, 1) for v, n in rows[:200]}
        print(f"\n{kind}, instructions per input:")
        for value, fn in rows[:args.top]:
            print(f"{value:10,.0f}  {fn[:150]}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=1)
    print(f"\nprofiles in {work}; the long run's generator: p99 "
          f"{long_report.get('latency_p99_ms')} ms, frames {long_report.get('frames')}")


if __name__ == "__main__":
    main()
