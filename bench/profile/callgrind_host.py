#!/usr/bin/env python3
"""Instructions per input of the session host alone, counted by callgrind (docs/PERFORMANCE.md, "Profile").

`refreshkit-bench --profile-host N --profile-session-host` drives a real `SessionHost` the way the lws adapter
does (a message received, the read's end, the frame written to a transport that takes every byte), with no
sockets and no clock: its counts are exact and repeat from run to run, where the whole server's
(callgrind_server.py) move with the machine's load. It runs twice, for a short and a long count of inputs; the
difference of the two runs, divided by the difference of the inputs, leaves the set-up out (and only the
drive itself is collected: not the texts' making). The key
functions are given per call, then the top of the inclusive and exclusive profiles per input.

    bench/profile/callgrind_host.py --bin-dir .build/release --sessions 5 --short 2000 --long 6000 --top 40
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from callgrind_server import calls, compare, total  # noqa: E402

# (label, pattern of the mangled name): inclusive instructions per call.
PER_CALL = [
    ("SessionHost.received, per message", r"^\$s15RefreshSessions11SessionHostC8received_6binary6isLast2on2at.*F$"),
    ("SessionHost.writeable, per write", r"^\$s15RefreshSessions11SessionHostC9writeable_2at5write.*F$"),
    ("SessionHost.flushHeldFrame, per call", r"^\$s15RefreshSessions11SessionHostC14flushHeldFrameyyF$"),
    ("MessageDecoder.decode, per call", r"^\$s11RefreshWire14MessageDecoderV6decodeyAA06ClientC0OSWAA0B5ErrorVYKF$"),
    ("TracedListModel.apply, per call", r"^\$s15RefreshSessions15TracedListModelV5apply_6member2aty.*F$"),
    ("ListModel.apply, per call", r"^\$s10RefreshKit9ListModelV5apply_2atyAA5InputO_AA9TimestampVtAA0cD5ErrorVYKF$"),
    ("TracedListModel.frame, per frame made",
     r"^\$s15RefreshSessions15TracedListModelV5frame17appendingUpdateTo0A4Wire11SharedFrameCAF13MessageBufferVz_tF$"),
    ("Session.withFrameMessage, per write", r"^\$s15RefreshSessions7SessionC16withFrameMessage.*F$"),
]


def run(binary, sessions, inputs, work, label, real_clock=False, options=()):
    """One callgrind run of the drive; `options` go to valgrind (callgrind_cache.py's cache simulation)."""
    out = os.path.join(work, f"cg.{label}.out")
    # Only the drive counts (the set-up and the texts' making are left out).
    subprocess.run(["valgrind", "--tool=callgrind", *options, f"--callgrind-out-file={out}",
                    "--toggle-collect=*SessionHostBench*Transport*drive*", binary, "--profile-host",
                    str(sessions), "--profile-session-host", "--profile-inputs", str(inputs)]
                   + (["--profile-real-clock"] if real_clock else []),
                   check=True, capture_output=True)
    return out


def stripped_bench(bin_dir, work):
    """A copy of `bin_dir`'s refreshkit-bench in `work` without its debug information, which valgrind 3.19 cannot
    read (see callgrind_server.py)."""
    os.makedirs(work, exist_ok=True)
    binary = os.path.join(work, "refreshkit-bench")
    shutil.copy(os.path.join(bin_dir, "refreshkit-bench"), binary)
    subprocess.run(["strip", "-g", binary], check=True)
    return binary


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin-dir", default=".build/release")
    parser.add_argument("--sessions", type=int, default=5)
    parser.add_argument("--short", type=int, default=2000)
    parser.add_argument("--long", type=int, default=6000)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--keep", help="a folder to keep the profiles in")
    parser.add_argument("--real-clock", action="store_true",
                        help="the server's clock counting from 1970, as serve's (13-digit times), not from 1 s")
    args = parser.parse_args()
    work = args.keep or tempfile.mkdtemp(prefix="callgrind-host-")
    binary = stripped_bench(args.bin_dir, work)
    short = run(binary, args.sessions, args.short, work, "short", args.real_clock)
    long = run(binary, args.sessions, args.long, work, "long", args.real_clock)
    handler = r"SessionHostC8received_6binary6isLast"
    inputs = calls(long, handler) - calls(short, handler)
    print(f"session host: {args.sessions} sessions, {inputs} inputs between the runs: "
          f"{(total(long) - total(short)) / inputs:,.0f} instructions per input")
    compare(short, long, inputs, PER_CALL, args.top)
    print(f"\nprofiles in {work}")


if __name__ == "__main__":
    main()
