#!/usr/bin/env python3
"""Instructions per input of a whole WebSocket server under load, counted by callgrind (docs/PERFORMANCE.md,
"Profile").

The server (`refreshkit serve`, or `lws-echo` with --echo) runs under callgrind driven by `refreshkit-load`, and
callgrind counts only the generator's measured window, as `refreshkit-bench` counts (docs/PERFORMANCE.md, "What is
measured, and how"): it starts with counting off, and `callgrind_control` switches it on when the generator says
`window open` on stderr and off when it says `window closed`. The totals, function by function (inclusive and
exclusive, from `callgrind_annotate`), are divided by the inputs the server handled in that time, so the table
shows where each input's instructions go; start-up, the handshakes and the shutdown are not counted. With
--subtract (or --short / --long) it runs twice instead, a short and a long window counted whole, and takes the
difference of the two (the method before 49329e6, whose start-up did not cancel exactly: up to 2.7 million
instructions apart).

valgrind 3.19 cannot read the debug information of `refreshkit` (swift-prometheus' sections), so the binary
runs as a copy without it (`strip -g`): the instructions are the same, only file and line names go; function
names stay (demangled with `swift demangle --simplified`).

Per input is what the inputs cost together with the frames they made; a busy machine makes the server
fall behind and answer several inputs with one frame, so the key functions are also given per call.

    bench/profile/callgrind_server.py --bin-dir .build/release --sessions 20 --window 12 --top 30
    bench/profile/callgrind_server.py --bin-dir .build/release --echo ...
    bench/profile/callgrind_server.py --bin-dir .build/release --subtract --short 4 --long 16
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


def one_run(args, binary, duration, work, label, windowed=False):
    """One run under callgrind with the generator measuring `duration` s; `windowed`: counting only that window."""
    port = free_port()
    out = os.path.join(work, f"cg.{label}.out")
    log = os.path.join(work, f"cg.{label}.log")
    if args.echo:
        command = [binary, "--port", str(port)]
    else:
        command = [binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
                   "--web-root", args.web_root] + args.server_arg
    valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + args.valgrind_arg
    if windowed:
        valgrind.append("--instr-atstart=no")
    with open(log, "w") as log_file:
        server = subprocess.Popen(valgrind + command, stdout=log_file, stderr=subprocess.STDOUT)
        wait_listening(port, server, log)
        load = subprocess.Popen(
            [os.path.join(args.bin_dir, "refreshkit-load"), "--url", f"ws://127.0.0.1:{port}/",
             "--sessions", str(args.sessions), "--rate", str(args.rate), "--warmup", str(args.warmup),
             "--duration", str(duration), "--mode", "echo" if args.echo else "frames"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for line in load.stderr:  # the generator's progress: its window's edges switch callgrind's counting
            # (the lines RK_LOAD_WINDOW_OPENED and RK_LOAD_WINDOW_CLOSED of Sources/CLibWebSockets/load_shim.h)
            switch = {"refreshkit-load: window open": "on", "refreshkit-load: window closed": "off"}.get(line.strip())
            if windowed and switch:
                subprocess.run(["callgrind_control", "-i", switch, str(server.pid)], capture_output=True, check=True)
        stdout = load.stdout.read()
        if load.wait() != 0:
            sys.exit(f"refreshkit-load failed: {stdout}")
        server.send_signal(signal.SIGINT)
        server.wait(timeout=120)
    report = json.loads(stdout.strip().splitlines()[-1])
    inputs = report.get("inputs_sent") or report.get("inputsSent")
    if inputs is None:
        sys.exit(f"no inputs_sent in the generator's report: {stdout}")
    return out, int(inputs), report


def calls(profile, pattern):
    """How many times the functions whose (mangled) names match `pattern` were called in the run (0 for no profile:
    the window alone has no short run to subtract)."""
    if profile is None:
        return 0
    names = {}
    count = 0
    target = None
    with open(profile) as f:
        for line in f:
            if line.startswith("cfn="):
                match = re.match(r"cfn=\((\d+)\)(?: (.*))?", line.strip())
                if match.group(2):
                    names[match.group(1)] = match.group(2)
                target = names.get(match.group(1), "")
            elif line.startswith("fn="):
                match = re.match(r"fn=\((\d+)\)(?: (.*))?", line.strip())
                if match and match.group(2):
                    names[match.group(1)] = match.group(2)
            elif line.startswith("calls=") and target is not None and re.search(pattern, target):
                count += int(line.split("=")[1].split()[0])
    return count


def total(profile):
    """The instructions a profile counted: its `totals:` line (its `summary:` says 0 when counting started off); 0
    for no profile."""
    if profile is None:
        return 0
    found = {}
    with open(profile) as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                found[line.split(":")[0]] = int(line.split()[1])
    if not found:
        sys.exit(f"no summary in {profile}")
    return found.get("totals", found.get("summary"))


LINE = re.compile(r"^\s*([\d,]+)\s+(?:\(\s*[\d.]+%\)\s+)?(?:\*\s+)?(.+?)(?:\s+\[[^\]]*\])?$")


def functions(profile, inclusive):
    """Function name (as the profile names it) → instructions, from callgrind_annotate; none for no profile."""
    if profile is None:
        return {}
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
    return counts


def demangled(names):
    if not shutil.which("swift"):
        return names
    out = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(names),
                         capture_output=True, text=True).stdout.splitlines()
    return out if len(out) == len(names) else names


# Functions whose cost per call is printed (inclusive ÷ calls): exact per call, however many frames the
# inputs made or how far a busy machine let the server fall behind.
PER_CALL = [
    ("SessionHost.received, per message", r"^\$s15RefreshSessions11SessionHostC8received_6binary6isLast2on2at.*F$"),
    ("SessionHost.writeable, per write", r"^\$s15RefreshSessions11SessionHostC9writeable_2at5write.*F$"),
    ("Session.prepareFrame, per call", r"^\$s15RefreshSessions7SessionC12prepareFrameyyF$"),
    ("TracedListModel.frame, per frame made",
     r"^\$s15RefreshSessions15TracedListModelV5frame17appendingUpdateTo0A4Wire11SharedFrameCAF13MessageBufferVz_tF$"),
    ("lws_write, per call", r"^lws_write$"),
    ("the echo's receive, per message", r"^\$s7LWSEcho14EchoConnectionC7receive.*F$"),
]


def compare(short_profile, long_profile, inputs, per_call, top):
    """Prints what the long run did beyond the short one (`short_profile` None: the long one's window, all of it): each
    `per_call` pattern's inclusive count per call, then the top functions per input, inclusive and exclusive;
    returns them as figures (`per_call`, `functions`)."""
    figures = {"per_call": {}, "functions": {}}
    for inclusive in (True, False):
        kind = "inclusive" if inclusive else "exclusive"
        short_counts = functions(short_profile, inclusive)
        long_counts = functions(long_profile, inclusive)
        differences = {n: long_counts[n] - short_counts.get(n, 0) for n in long_counts}
        if inclusive:
            print("\ninclusive instructions per call:")
            for label, pattern in per_call:
                for name in (n for n in differences if re.search(pattern, n)):
                    made = calls(long_profile, pattern) - calls(short_profile, pattern)
                    if made > 0:
                        figures["per_call"][label] = round(differences[name] / made, 1)
                        print(f"{differences[name] / made:10,.0f}  {label} ({made} calls)")
        rows = sorted(((value / inputs, n) for n, value in differences.items()), reverse=True)[:max(200, top)]
        names = demangled([n for _, n in rows])
        figures["functions"][kind] = {d: round(v, 1) for (v, _), d in zip(rows, names, strict=True)}
        print(f"\n{kind}, instructions per input:")
        for (value, _), name in list(zip(rows, names, strict=True))[:top]:
            print(f"{value:10,.0f}  {name[:150]}")
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin-dir", default=".build/release")
    parser.add_argument("--echo", action="store_true", help="profile lws-echo (the floor) instead")
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--rate", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--window", type=float, default=12.0, help="seconds of the window counted")
    parser.add_argument("--subtract", action="store_true",
                        help="two runs counted whole, --long less --short (implied by either)")
    parser.add_argument("--short", type=float, help="with --subtract: the short run's window (4 s)")
    parser.add_argument("--long", type=float, help="with --subtract: the long run's window (16 s)")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--web-root", default="web")
    parser.add_argument("--server-arg", action="append", default=[])
    parser.add_argument("--valgrind-arg", action="append", default=[])
    parser.add_argument("--keep", help="a folder to keep the profiles in")
    parser.add_argument("--handler", help="a regular expression naming the function called once per input")
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()
    args.subtract = args.subtract or args.short is not None or args.long is not None
    args.short = 4.0 if args.short is None else args.short
    args.long = 16.0 if args.long is None else args.long

    work = args.keep or tempfile.mkdtemp(prefix="rk-callgrind-")
    os.makedirs(work, exist_ok=True)
    name = "lws-echo" if args.echo else "refreshkit"
    binary = os.path.join(work, name)
    shutil.copy(os.path.join(args.bin_dir, name), binary)
    subprocess.run(["strip", "-g", binary], check=True)

    if args.subtract:
        short_profile, short_inputs, _ = one_run(args, binary, args.short, work, "short")
        long_profile, long_inputs, long_report = one_run(args, binary, args.long, work, "long")
    else:  # the window alone: nothing to subtract
        long_profile, long_inputs, long_report = one_run(args, binary, args.window, work, "window", windowed=True)
        short_profile, short_inputs = None, 0
    sent = long_inputs - short_inputs
    # What the server handled, not what the generator sent: a server that falls behind under callgrind (on a
    # busy machine) leaves a backlog, and coalesces. Counted by the calls of the function that takes one
    # message (the host's `received`; the echo's `receive`), and the frames written (the host's `writeable`).
    handler = args.handler or ("EchoConnectionC7receive" if args.echo else "SessionHostC8received")
    inputs = calls(long_profile, handler) - calls(short_profile, handler)
    per_input = (total(long_profile) - total(short_profile)) / inputs
    where = "between the runs" if short_profile else "in the window"
    print(f"{name}: {args.sessions} sessions at {args.rate:g} Hz, {sent} inputs sent and {inputs} handled "
          f"{where}: {per_input:,.0f} instructions per input handled")
    if not args.echo:
        frames = calls(long_profile, "SessionHostC9writeable") - calls(short_profile, "SessionHostC9writeable")
        print(f"writes (frames and other messages) per input handled: {frames / inputs:.3f}")
    figures = {"binary": name, "sessions": args.sessions, "rate": args.rate, "inputs": inputs, "sent": sent,
               "instructions_per_input": per_input, "functions": {}}
    figures.update(compare(short_profile, long_profile, inputs, PER_CALL, args.top))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=1)
    print(f"\nprofiles in {work}; the long run's generator: p99 "
          f"{long_report.get('latency_p99_ms')} ms, frames {long_report.get('frames')}")


if __name__ == "__main__":
    main()
