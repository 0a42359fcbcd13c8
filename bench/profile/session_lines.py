#!/usr/bin/env python3
"""Which cache lines of a session's object an input touches (docs/PERFORMANCE.md, "Fetched from where the last input
left its addresses").

The session host's drive (`refreshkit-bench --profile-host 1 --profile-session-host`, one session, a drag's
moves and their frames, no sockets) runs under `valgrind --tool=lackey --trace-mem=yes`, which reports every load
and store. A small preloaded `malloc` (compiled here with `cc`) reports the address of each block of `--min` to
`--max` bytes; the accesses that fall in one are counted by the block's 64-byte line. A line counted about once
per input or more is taken to be touched by every input (the counts are per input: a line touched twice by every
other input looks the same); one counted a few times only at set-up is not. A session object is
one block of ~3.3 KB (`malloc_usable_size` of a `Session`); any other block in the range that an input reads is
reported too, by its size.

    bench/profile/session_lines.py --bin-dir .build/release --inputs 2000

lackey is slow (about a minute for 2 000 inputs). valgrind 3.19 cannot read the binary's debug information, so a
copy without it runs (callgrind_server.py says why).
"""

import argparse
import collections
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from callgrind_host import stripped_bench  # noqa: E402

SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static void *(*next_malloc)(size_t);
void *malloc(size_t size) {
    if (!next_malloc) next_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    void *block = next_malloc(size);
    if (size >= MIN_BYTES && size <= MAX_BYTES) {
        char line[64];
        int count = snprintf(line, sizeof line, "BLOCK %lx %zu\n", (unsigned long)block, size);
        if (write(2, line, count) < 0) {}
    }
    return block;
}
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin-dir", default=".build/release")
    parser.add_argument("--inputs", type=int, default=2000)
    parser.add_argument("--min", type=int, default=3000, help="the smallest block reported, bytes")
    parser.add_argument("--max", type=int, default=3600, help="the largest block reported, bytes")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="session-lines-") as work:
        blocks, counts = trace(args, work)
    report(blocks, counts, args.inputs)


def trace(args, work):
    """Runs the drive under lackey in `work`: the blocks reported, in the order allocated, as (start, end, size),
    and for each block's index its accesses by (line, kind)."""
    source = os.path.join(work, "shim.c")
    with open(source, "w") as f:
        f.write(SHIM)
    shim = os.path.join(work, "shim.so")
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", f"-DMIN_BYTES={args.min}", f"-DMAX_BYTES={args.max}",
                    "-o", shim, source, "-ldl"], check=True)
    binary = stripped_bench(args.bin_dir, work)
    command = ["valgrind", "--tool=lackey", "--trace-mem=yes", binary, "--profile-host", "1",
               "--profile-session-host", "--profile-inputs", str(args.inputs)]
    environment = dict(os.environ, LD_PRELOAD=shim)
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               env=environment)
    blocks = []  # (start, end, size), in the order allocated
    live = []  # indices of the blocks not overlapped by a later one (which was given the freed memory)
    counts = collections.defaultdict(collections.Counter)  # block index -> (line, kind) -> accesses
    for line in process.stderr:
        if line.startswith("BLOCK "):
            _, start, size = line.split()
            start, size = int(start, 16), int(size)
            live = [i for i in live if blocks[i][1] <= start or blocks[i][0] >= start + size]
            live.append(len(blocks))
            blocks.append((start, start + size, size))
            continue
        if not live or len(line) < 4 or line[0] != " " or line[1] not in "LSM":
            continue
        address = int(line[3:].split(",", 1)[0], 16)
        for index in live:
            start, end, _ = blocks[index]
            if start <= address < end:
                counts[index][((address - start) // 64, line[1])] += 1
                break
    if process.wait() != 0:
        sys.exit("the drive failed under lackey")
    return blocks, counts


def report(blocks, counts, inputs):
    for index, (_, _, size) in enumerate(blocks):
        lines = counts[index]
        per_line = collections.Counter()
        for (number, _), accesses in lines.items():
            per_line[number] += accesses
        if not per_line or max(per_line.values()) < 0.9 * inputs:
            continue  # a block no input reads (a set-up's, or one freed early)
        print(f"block {index}, {size} bytes; accesses per input by line (L load, S store, M both):")
        touched = 0
        for number in range((size + 63) // 64):
            load, store, both = (lines[(number, kind)] / inputs for kind in "LSM")
            every = load + store + both >= 0.9
            touched += every
            print(f"  {number:3d} +0x{number * 64:04x}  L {load:6.2f}  S {store:6.2f}  M {both:6.2f}"
                  f"{'  every input' if every else ''}")
        print(f"  {touched} of {(size + 63) // 64} lines touched by about every input")


if __name__ == "__main__":
    main()
