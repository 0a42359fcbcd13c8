#!/usr/bin/env python3
"""How long the service loop's turns take under load: the stalls behind a p99 (docs/PERFORMANCE.md, "Profile").

A turn of the event loop is everything between `epoll_wait` returning and the next `epoll_wait`: every callback
lws and libuv run for the sockets and timers that were ready, and the server's own work after it. The script
starts the server (or `lws-echo` with --echo), drives it with `refreshkit-load`, and once every session is
connected records the service thread's `epoll_wait`/`epoll_pwait` entries and exits and its `sched_switch`es
with `perf record` (kernel tracepoints: the server is not changed or slowed). Each turn's wall time is split
into time on the CPU and time the thread was switched out in the middle of it (another process ran: the
machine's, not the server's). Printed: a histogram of the turns, the longest ones, and how many sockets each
woke for (epoll_wait's return value).

With --stall-ms the server is stopped (SIGSTOP) for that long every --stall-every seconds while the turns are
recorded, as a host that takes the CPU away would stop it: the inputs sent meanwhile wait in the sockets, and the
turns after it show how fast the server drains a burst, one input per socket, and the generator's p99 what that
costs the inputs (docs/PERFORMANCE.md, "Draining a burst"). Turns are also summed by how many sockets they woke
for: µs of the turn per socket, for turns not switched out.

    bench/profile/loop_turns.py --bin-dir .build/release --sessions 1000 --seconds 6
    bench/profile/loop_turns.py --bin-dir .build/release --sessions 1000 --seconds 6 --echo
    bench/profile/loop_turns.py --bin-dir .build/release --sessions 1000 --seconds 6 --stall-ms 10
"""

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

BUCKETS_US = [100, 250, 500, 1000, 2000, 4000, 8000, 16000, 32000, 64000]
SOCKET_CLASSES = [(1, 19), (20, 99), (100, 299), (300, 1024)]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def established(port):
    out = subprocess.run(["ss", "-Htn", "state", "established", f"( sport = :{port} )"], capture_output=True,
                         text=True).stdout
    return sum(1 for line in out.splitlines() if line.strip())


def service_thread(pid, work):
    """The thread that calls epoll_wait most: a short perf sample of the syscalls, by thread."""
    threads = os.listdir(f"/proc/{pid}/task")
    if len(threads) == 1:
        return int(threads[0])
    data = os.path.join(work, "probe.data")
    subprocess.run(["perf", "record", "-q", "-o", data, "-e", "raw_syscalls:sys_enter", "-p", str(pid), "--",
                    "sleep", "0.5"], capture_output=True, check=True)
    out = subprocess.run(["perf", "script", "-i", data, "-F", "tid"], capture_output=True, text=True).stdout
    counts = {}
    for line in out.split():
        counts[int(line)] = counts.get(int(line), 0) + 1
    return max(counts, key=counts.get)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin-dir", default=".build/release")
    parser.add_argument("--echo", action="store_true")
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=60.0)
    parser.add_argument("--seconds", type=float, default=6.0, help="seconds recorded")
    parser.add_argument("--web-root", default="web")
    parser.add_argument("--server-arg", action="append", default=[])
    parser.add_argument("--longest", type=int, default=12)
    parser.add_argument("--stall-ms", type=float, default=0,
                        help="stop the server this long (ms) every --stall-every s")
    parser.add_argument("--stall-every", type=float, default=0.4)
    parser.add_argument("--json")
    args = parser.parse_args()
    if args.stall_ms < 0 or args.stall_every <= 0 or args.stall_ms / 1000 >= args.stall_every:
        parser.error("--stall-ms must be 0 or more and shorter than --stall-every, which must be over 0")

    work = tempfile.mkdtemp(prefix="rk-turns-")
    port = free_port()
    if args.echo:
        command = [os.path.join(args.bin_dir, "lws-echo"), "--port", str(port), "--protocol", "refreshkit.v1"]
    else:
        command = [os.path.join(args.bin_dir, "refreshkit"), "serve", "--host", "127.0.0.1", "--port", str(port),
                   "--log-level", "warning", "--web-root", args.web_root] + args.server_arg
    log = open(os.path.join(work, "server.log"), "w")
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                sys.exit("the server did not start")
            time.sleep(0.1)
    load = subprocess.Popen(
        [os.path.join(args.bin_dir, "refreshkit-load"), "--url", f"ws://127.0.0.1:{port}/", "--sessions",
         str(args.sessions), "--rate", str(args.rate), "--warmup", "2", "--duration", str(args.seconds + 4),
         "--mode", "echo" if args.echo else "frames"], stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 90
    while established(port) < args.sessions:  # every session connected (a state, bounded)
        if time.monotonic() > deadline:
            sys.exit(f"only {established(port)} of {args.sessions} sessions connected")
        time.sleep(0.2)
    tid = service_thread(server.pid, work)
    time.sleep(1.0)  # past the handshakes' turns, into the steady drag
    data = os.path.join(work, "turns.data")
    events = ["syscalls:sys_enter_epoll_wait", "syscalls:sys_exit_epoll_wait", "syscalls:sys_enter_epoll_pwait",
              "syscalls:sys_exit_epoll_pwait", "sched:sched_switch"]
    # System-wide: the switch that brings the thread back in is recorded in the context of the task it replaces.
    record = ["perf", "record", "-q", "-a", "-o", data]
    for event in events:
        record += ["-e", event]
    recording = subprocess.Popen(record + ["--", "sleep", str(args.seconds)], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
    stalls = 0
    if args.stall_ms > 0:
        ends = time.monotonic() + args.seconds - args.stall_every
        while time.monotonic() < ends:
            time.sleep(args.stall_every)
            server.send_signal(signal.SIGSTOP)
            try:
                time.sleep(args.stall_ms / 1000)
            finally:
                server.send_signal(signal.SIGCONT)  # never left stopped, even on Ctrl-C
            stalls += 1
    if recording.wait() != 0:
        sys.exit("perf record failed: " + recording.stderr.read())
    output = load.communicate()[0].strip().splitlines()
    ended = output[-1] if output else ""
    report = json.loads(ended) if ended.startswith("{") else {"latency_p99_ms": f"none (exit {load.returncode})"}
    server.send_signal(signal.SIGINT)
    server.wait(timeout=30)

    script = subprocess.run(["perf", "script", "-i", data, "-F", "tid,time,event,trace"], capture_output=True,
                            text=True).stdout
    turns = []  # (wall µs, off-CPU µs, sockets ready, start time)
    started = None
    woke = 0
    off = 0.0
    switched_out = None
    for line in script.splitlines():
        match = re.match(r"\s*(\d+)\s+([\d.]+):\s+(\S+):\s*(.*)", line)
        if not match:
            continue
        when = float(match.group(2))
        event = match.group(3)
        trace = match.group(4)
        if int(match.group(1)) != tid and event != "sched:sched_switch":
            continue
        if event.startswith("syscalls:sys_exit_epoll"):
            started, off = when, 0.0
            ret = re.search(r"0x([0-9a-f]+)", trace)
            woke = int(ret.group(1), 16) if ret else 0
            if woke >= 1 << 63:
                woke = 0  # an error (-EINTR: a signal, the stall's stop and continue, woke the wait)
        elif event.startswith("syscalls:sys_enter_epoll"):
            if started is not None:
                turns.append(((when - started) * 1e6, off * 1e6, woke, started))
            started = None
        elif event == "sched:sched_switch":
            if f" prev_pid={tid} " in trace:
                switched_out = when
            elif f" next_pid={tid} " in trace and switched_out is not None:
                if started is not None:
                    off += when - switched_out
                switched_out = None
    if not turns:
        sys.exit("no turns recorded")
    name = "lws-echo" if args.echo else "refreshkit"
    busy = sum(t[0] for t in turns)
    print(f"{name}: {args.sessions} sessions, {len(turns)} turns in {args.seconds:g} s, "
          f"{busy / 1e6 / args.seconds * 100:.1f} % of the time in turns; the generator's p99 "
          f"{report.get('latency_p99_ms')} ms")
    counts = [0] * (len(BUCKETS_US) + 1)
    for wall, _, _, _ in turns:
        index = next((i for i, b in enumerate(BUCKETS_US) if wall <= b), len(BUCKETS_US))
        counts[index] += 1
    labels = [f"≤{b / 1000:g} ms" for b in BUCKETS_US] + [f">{BUCKETS_US[-1] / 1000:g} ms"]
    shown = [f"{label} {count}" for label, count in zip(labels, counts, strict=True) if count]
    print("turns by wall time: " + ", ".join(shown))
    print(f"\nthe {args.longest} longest turns: wall ms, of it switched out ms, sockets ready")
    longest = sorted(turns, reverse=True)[:args.longest]
    for wall, off_cpu, woke, _ in longest:
        print(f"  {wall / 1000:7.2f}  {off_cpu / 1000:7.2f}  {woke}")
    on_cpu = sorted(t[0] - t[1] for t in turns)
    print(f"longest on the CPU (wall minus switched out): {on_cpu[-1] / 1000:.2f} ms; "
          f"p99 of turns {on_cpu[int(len(on_cpu) * 0.99)] / 1000:.2f} ms on the CPU")
    if stalls:
        print(f"the server was stopped {stalls} times for {args.stall_ms:g} ms")
    print("by sockets woken for (turns not switched out): turns, µs of the turn per socket")
    per_socket = {}
    for low, high in SOCKET_CLASSES:
        chosen = [t for t in turns if low <= t[2] <= high and t[1] == 0]
        if chosen:
            per_socket[f"{low}-{high}"] = sum(t[0] for t in chosen) / sum(t[2] for t in chosen)
            print(f"  {low:4d}–{high:<4d} {len(chosen):6d}  {per_socket[f'{low}-{high}']:6.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"binary": name, "sessions": args.sessions, "turns": len(turns),
                       "histogram": dict(zip(labels, counts, strict=True)), "longest": longest, "report": report,
                       "stalls": stalls, "per_socket_us": per_socket}, f, indent=1)


if __name__ == "__main__":
    main()
