#!/usr/bin/env python3
"""The two transports under the same load (docs/PERFORMANCE.md, "Transports"): `refreshkit serve` (libwebsockets)
and `examples/hummingbird-notes` (Hummingbird 2), release builds, each a fresh process on a loopback port, driven by
`refreshkit-load` at each level (sessions dragging at 60 Hz, as `make bench` drives the server), one after the other
in alternating order each round. For each: the server's CPU per input (its CPU time over the window ÷ inputs sent),
p99 input → frame, RSS per connected session (the RSS at the end of the window, less the RSS before any session
connected, ÷ sessions), and the process's context switches per input, over its threads. The lws server runs with the
simulated feed, the Hummingbird app with its notes board: the load never asks either for a page.

    .venv/bin/python bench/transports_bench.py --bin-dir .build/release \\
        --hummingbird-bin .build/release/refreshkit-hummingbird --out bench/transports.json
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LISTENING = re.compile(r"listening on http://[^:]+:(\d+)")


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def context_switches(pid: int) -> int:
    """The process's context switches so far, voluntary and not, summed over its threads."""
    total = 0
    for status in Path(f"/proc/{pid}/task").glob("*/status"):
        try:
            for line in status.read_text().splitlines():
                if "ctxt_switches:" in line:
                    total += int(line.split()[1])
        except (FileNotFoundError, ProcessLookupError):
            continue  # a thread that ended meanwhile
    return total


def start(command: list[str]) -> tuple[subprocess.Popen, int]:
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    port: list[int] = []
    ready = threading.Event()

    def drain() -> None:
        for line in process.stdout:
            match = LISTENING.search(line)
            if match and not ready.is_set():
                port.append(int(match.group(1)))
                ready.set()
        ready.set()

    threading.Thread(target=drain, daemon=True).start()
    if not ready.wait(30) or not port:
        process.kill()
        raise SystemExit(f"{command[0]} did not print its address")
    return process, port[0]


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def run_level(kind: str, command: list[str], load: Path, sessions: int, args: argparse.Namespace) -> dict:
    process, port = start(command)
    try:
        time.sleep(0.5)  # the process's own start-up allocations settle before the baseline
        baseline = rss_bytes(process.pid)
        switches = context_switches(process.pid)
        generator = subprocess.run(
            [str(load), "--url", f"ws://127.0.0.1:{port}/", "--protocol", "refreshkit.v1",
             "--sessions", str(sessions), "--rate", "60", "--warmup", str(args.warmup), "--duration",
             str(args.duration), "--mode", "frames", "--frames", "delta", "--server-pid", str(process.pid)],
            cwd=ROOT, capture_output=True, text=True, timeout=args.warmup + args.duration + 180)
        lines = generator.stdout.strip().splitlines()
        if not lines:
            raise SystemExit(f"refreshkit-load printed nothing against {kind}:\n{generator.stderr[-2000:]}")
        report = json.loads(lines[-1])
        switches = context_switches(process.pid) - switches
    finally:
        stop(process)
    inputs = report["inputs_sent"] or 1
    return {
        "transport": kind, "sessions": sessions, "ready_sessions": report["ready_sessions"],
        "inputs_sent": report["inputs_sent"], "inputs_unanswered": report["inputs_unanswered"],
        "cpu_us_per_input": round(1e6 * report["server_cpu_seconds"] / inputs, 2),
        "server_cpu_percent": report["server_cpu_percent"],
        "p99_ms": report["latency_p99_ms"], "p50_ms": report["latency_p50_ms"],
        "rss_bytes_per_session": round((report["server_rss_bytes"] - baseline) / sessions),
        "threads": report["server_threads"],
        # over the warm-up and the window: the inputs of both are about (warm-up + window) ÷ window of those sent
        "context_switches_per_input": round(
            switches / (inputs * (args.warmup + args.duration) / args.duration), 3),
        "errors": report["errors"], "closed_early": report["closed_early"], "failure": report["failure"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin-dir", default=".build/release", help="refreshkit and refreshkit-load (release)")
    parser.add_argument("--hummingbird-bin",
                        default=".build/release/refreshkit-hummingbird")
    parser.add_argument("--levels", default="100,1000", help="sessions, comma-separated")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each transport at each level, alternating")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--out", default="bench/transports.json")
    args = parser.parse_args()
    bin_dir = (ROOT / args.bin_dir).resolve()
    commands = {
        "libwebsockets": [str(bin_dir / "refreshkit"), "serve", "--host", "127.0.0.1", "--port", "0",
                          "--web-root", "web", "--log-level", "warning", "--feed", "simulated"],
        "hummingbird": [str((ROOT / args.hummingbird_bin).resolve()), "--host", "127.0.0.1", "--port", "0",
                        "--web-root", "web"],
    }
    for command in commands.values():
        if not Path(command[0]).exists():
            raise SystemExit(f"{command[0]} not found (make bench builds both)")
    runs = []
    for sessions in (int(level) for level in args.levels.split(",")):
        for round_number in range(args.rounds):
            order = list(commands) if round_number % 2 == 0 else list(reversed(commands))
            for kind in order:
                result = run_level(kind, commands[kind], bin_dir / "refreshkit-load", sessions, args)
                result["round"] = round_number
                runs.append(result)
                print(f"{kind:>13} {sessions:>5} sessions: {result['cpu_us_per_input']:6.2f} µs CPU/input, "
                      f"p99 {result['p99_ms']:7.2f} ms, {result['rss_bytes_per_session']:>7} B RSS/session, "
                      f"{result['context_switches_per_input']:.2f} switches/input, {result['threads']} threads, "
                      f"{result['inputs_unanswered']} unanswered, {result['errors']} errors", flush=True)
    summary = {}
    for sessions in sorted({run["sessions"] for run in runs}):
        for kind in commands:
            mine = [run for run in runs if run["sessions"] == sessions and run["transport"] == kind]
            mine.sort(key=lambda run: run["cpu_us_per_input"])
            median = mine[len(mine) // 2]
            summary[f"{kind}.{sessions}"] = {key: median[key] for key in
                                             ("cpu_us_per_input", "p99_ms", "rss_bytes_per_session",
                                                          "context_switches_per_input")}
        lws, hb = summary[f"libwebsockets.{sessions}"], summary[f"hummingbird.{sessions}"]
        print(f"{sessions} sessions, Hummingbird ÷ libwebsockets: CPU/input "
              f"{hb['cpu_us_per_input'] / lws['cpu_us_per_input']:.2f}×, p99 {hb['p99_ms'] / lws['p99_ms']:.2f}×, "
              f"RSS/session {hb['rss_bytes_per_session'] / max(1, lws['rss_bytes_per_session']):.2f}×")

    def git(*words: str) -> str:
        return subprocess.run(["git", *words], cwd=ROOT, capture_output=True, text=True).stdout.strip()

    dirty = " (with uncommitted changes)" if git("status", "--porcelain", "--untracked-files=no") else ""
    stamp = {"git_commit": (git("rev-parse", "--short", "HEAD") or "unknown") + dirty,
             "generated_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
             "load_average_at_end": os.getloadavg()[0]}
    Path(args.out).write_text(json.dumps({**stamp, "runs": runs, "summary": summary}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
