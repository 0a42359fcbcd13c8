#!/usr/bin/env python3
"""Inclusive instructions per call of the functions a callgrind profile names (docs/PERFORMANCE.md, "Profile").

callgrind_annotate gives a function's inclusive total but not how often it ran; this reads the profile itself:
a function's inclusive cost is its own plus that of every call it made (recursive calls into itself left out),
its calls are the `calls=` lines that name it as the callee. Names are demangled (`swift demangle --simplified`)
and matched against the patterns (Python regular expressions) given.

    valgrind --tool=callgrind --callgrind-out-file=host.out \\
        .build/release/refreshkit-bench --profile-host 1 --profile-inputs 2000 --profile-seq
    bench/profile/callgrind_calls.py host.out '^TracedListModel\\.(apply|frame)' '^ListModel\\.(apply|frame)\\('
"""

import re
import subprocess
import sys
from collections import defaultdict


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    profile, patterns = sys.argv[1], sys.argv[2:]
    names = {}
    own = defaultdict(int)
    called = defaultdict(int)
    calls = defaultdict(int)
    function = callee = None
    after_call = False

    def name(kind, line):
        match = re.match(kind + r"=\((\d+)\)(?: (.*))?", line)
        if match.group(2):
            names[match.group(1)] = match.group(2)
        return match.group(1)

    with open(profile) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("fn="):
                function = name("fn", line)
            elif line.startswith("cfn="):
                callee = name("cfn", line)
            elif line.startswith("calls="):
                calls[callee] += int(line.split("=")[1].split()[0])
                after_call = True
            elif line and (line[0].isdigit() or line[0] in "+-*"):
                parts = line.split()
                if len(parts) < 2:
                    continue
                cost = int(parts[-1])  # the last column: Ir (positions come first)
                if after_call:
                    if callee != function:
                        called[function] += cost
                    after_call = False
                else:
                    own[function] += cost
    ids = list(names)
    demangled = subprocess.run(
        ["swift", "demangle", "--simplified"], input="\n".join(names[i] for i in ids),
        capture_output=True, text=True, check=True).stdout.split("\n")
    rows = []
    for index, key in enumerate(ids):
        text = demangled[index]
        if any(re.search(pattern, text) for pattern in patterns) and calls[key]:
            inclusive = own[key] + called[key]
            rows.append((inclusive, calls[key], text))
    print(f"{'inclusive':>12} {'calls':>8} {'per call':>9}  function")
    for inclusive, count, text in sorted(rows, reverse=True):
        print(f"{inclusive:>12,} {count:>8} {inclusive / count:>9,.0f}  {text[:110]}")


if __name__ == "__main__":
    main()
