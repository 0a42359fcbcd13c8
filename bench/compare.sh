#!/bin/sh
# Before/after in the same hour (docs/PERFORMANCE.md, "Before and after"): builds the `refreshkit` of a base
# revision into .build-compare/<commit>/ (once; later runs reuse it), then runs refreshkit-bench's server stage
# against that server and against this tree's in turn, RUNS times each, alternating, with this tree's load
# generator and lws-echo for both, and prints each run's median round beside its own echo.
#
#   bench/compare.sh BASE                      # or: make bench-compare BASE=<rev>
#   LEVELS=500,1000 ROUNDS=3 RUNS=2 bench/compare.sh HEAD~3
#   INSTRUCTIONS=1 bench/compare.sh main       # the callgrind counts too (about 2 minutes per run)
#
# Each run's JSON goes to .build-compare/results/<label>-<n>.json (label: the base's commit, or "now"). A first build of
# the base takes as long as a fresh `swift build -c release` (5–15 minutes on a shared 2-core machine).
set -eu

BASE=${1:?usage: bench/compare.sh BASE-REVISION}
LEVELS=${LEVELS:-1000}
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-2}
INSTRUCTIONS=${INSTRUCTIONS:-}

cd "$(dirname "$0")/.."
root=$(pwd)
base=$(git rev-parse --short "$BASE^{commit}")
now=$(git rev-parse --short HEAD)
dir=$root/.build-compare/$base

if [ ! -x "$dir/bin/refreshkit" ]; then
    echo "[compare] building refreshkit at $base into $dir (once)…" >&2
    rm -rf "$dir/src"
    mkdir -p "$dir/src" "$dir/bin"
    git archive "$base" | tar -x -C "$dir/src"
    # The same dependency versions as this tree's build, when it has resolved them (no network needed then).
    if [ -f Package.resolved ] && [ ! -f "$dir/src/Package.resolved" ]; then cp Package.resolved "$dir/src/"; fi
    swift build -c release --package-path "$dir/src" --product refreshkit
    cp "$dir/src/.build/release/refreshkit" "$dir/bin/refreshkit"
fi

echo "[compare] building this tree ($now$(git status --porcelain --untracked-files=no | grep -q . && echo ', with uncommitted changes'))…" >&2
swift build -c release
ulimit -n 20000 2>/dev/null || true
mkdir -p .build-compare/results

skip="--skip-engine --skip-idle --skip-page --skip-lag --skip-feed --skip-take-over"
[ -n "$INSTRUCTIONS" ] || skip="$skip --skip-instructions"

outputs=""
run=1
while [ "$run" -le "$RUNS" ]; do
    for label in "$base" now; do
        if [ "$label" = now ]; then server=$root/.build/release/refreshkit; else server=$dir/bin/refreshkit; fi
        out=.build-compare/results/$label-$run.json
        echo "[compare] run $run of $RUNS: $label ($server), levels $LEVELS, $ROUNDS rounds…" >&2
        # 3: a target did not hold; the figures are written all the same.
        # shellcheck disable=SC2086
        .build/release/refreshkit-bench $skip --levels "$LEVELS" --rounds "$ROUNDS" --refreshkit "$server" \
            --out "$out" >/dev/null || [ $? -eq 3 ]
        outputs="$outputs $out"
    done
    run=$((run + 1))
done

python3 - "$base" "$now" $outputs <<'EOF'
import json, sys

base, now, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
print(f"before ({base}) and after ({now}, this tree), each run the median round by p99, beside its own echo")
print(f"{'run':<5}{'build':<10}{'sessions':<10}{'p99 ms (echo)':<24}{'p99 ÷ echo':<12}"
      f"{'CPU µs/input (echo)':<22}{'CPU ÷ echo':<12}{'instr/input (echo)':<20}")


def shown(value):
    return "–" if value is None else f"{value:g}"


for path in paths:
    results = json.load(open(path))
    label = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    build, run = label.rsplit("-", 1)
    server = results.get("server", {})
    counts = results.get("server_instructions", {})
    ours = (counts.get("refreshkit") or {}).get("instructions_per_input")
    echo = (counts.get("echo") or {}).get("instructions_per_input")
    instructions = f"{ours:.0f} ({echo:.0f})" if ours and echo else "–"
    for level in sorted(server.get("latency_ms", {}), key=int):
        p99 = (server["latency_ms"].get(level) or {}).get("p99")
        echo_p99 = (server.get("echo_latency_ms", {}).get(level) or {}).get("p99")
        cpu = server.get("cpu_us_per_input", {}).get(level)
        echo_cpu = server.get("echo_cpu_us_per_input", {}).get(level)
        ratio = f"{p99 / echo_p99:.2f}" if p99 and echo_p99 else "–"
        cpu_ratio = f"{cpu / echo_cpu:.2f}" if cpu and echo_cpu else "–"
        saturated = " *" if server.get("floor_saturated", {}).get(level) else ""
        print(f"{run:<5}{build:<10}{level:<10}{f'{shown(p99)} ({shown(echo_p99)})':<24}{ratio + saturated:<12}"
              f"{f'{shown(cpu)} ({shown(echo_cpu)})':<22}{cpu_ratio:<12}{instructions:<20}")
print("* the floor saturated in that run's median round: its ratio compares two queues")
EOF
