#!/usr/bin/env bash
# The bench's turn-by-turn round with the same program on both sides: two lws-echo floors, each driven by its own
# refreshkit-load in every other slice of one window, as `refreshkit-bench` drives the server and the echo
# (docs/PERFORMANCE.md, "Two targets measured turn by turn"). Whatever the two echoes' ratios show is the method's
# own spread, which any server ÷ echo ratio carries too ("The echo's pings" found the floor's own stall this way).
#
#   bench/profile/pair_rounds.sh ROUNDS
#   PORT_A, PORT_B (9351, 9352: fixed, so that a pattern can be followed to a port), SESSIONS (1000), WINDOW (22.2:
#   seconds of the window, half of them each echo's own slices; the bench's at 1 000 sessions), SLICE (0.05), LEAD
#   (0.005: a tenth of the slice, as the bench's), LINGER (1.1, the bench's for its slices), BIN (.build/release),
#   PIN=1 (both echoes on the last CPU, both generators on the others), KEEP=DIR (each round's two reports kept
#   there), FIRST=A (A's echo and generator start first in every round). The slice parity alternates from round to
#   round (A takes the even slices in even rounds), and the echo that takes the even slices starts first, and its
#   generator too, as the bench alternates the server and the echo.
#
# Prints, per round, A's and B's CPU per input and p99 (ms), A ÷ B for both, and for each echo where its tail was
# (refreshkit-load's `tail_bins`, "Where in a slice the tail is"): the share of its inputs answered later than 2 ms
# by tenth of a second into its slices (one figure for slices of 0.1 s or less), and its worst tenth of the window.
set -euo pipefail
ROUNDS=${1:?ROUNDS}
PORT_A=${PORT_A:-9351} PORT_B=${PORT_B:-9352} SESSIONS=${SESSIONS:-1000} WINDOW=${WINDOW:-22.2}
SLICE=${SLICE:-0.05} LEAD=${LEAD:-0.005} LINGER=${LINGER:-1.1} BIN=${BIN:-.build/release}
ulimit -n 20000
TARGET_CPUS=() LOAD_CPUS=()
if [ "${PIN:-0}" = 1 ]; then  # both echoes on the last CPU, both generators on the others (as ab_rounds.sh's PIN)
    LAST=$(($(nproc) - 1)); TARGET_CPUS=(taskset -c "$LAST"); LOAD_CPUS=(taskset -c "0-$((LAST > 0 ? LAST - 1 : 0))")
fi
DIR=$(mktemp -d /tmp/pair-rounds-XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$DIR"' EXIT

common=(--sessions "$SESSIONS" --mode echo --duration "$WINDOW" --slice "$SLICE" --slice-lead "$LEAD" --linger "$LINGER")
start_echo() { # NAME PORT: starts an echo, its pid in echo_NAME
    "${TARGET_CPUS[@]}" "$BIN/lws-echo" --port "$2" --max-seconds 300 >/dev/null 2>&1 & printf -v "echo_$1" %s $!
}
start_load() { # NAME PORT PHASE: starts a generator against echo_NAME, its pid in load_NAME
    local pid_var="echo_$1"
    "${LOAD_CPUS[@]}" "$BIN/refreshkit-load" --url "ws://127.0.0.1:$2/" "${common[@]}" --slice-phase "$3" \
        --server-pid "${!pid_var}" >"$DIR/$1.json" 2>"$DIR/$1.err" & printf -v "load_$1" %s $!
}

for round in $(seq "$ROUNDS"); do
    phase_a=$((round % 2)) phase_b=$(((round + 1) % 2))
    # The echo that takes the even slices starts first, and its generator too, as the bench starts the server and the
    # echo; FIRST=A starts A first in every round (the start order's own effect, "How long a slice the p99 needs").
    order=(a b)
    [ "${FIRST:-}" = A ] || [ "$phase_a" = 0 ] || order=(b a)
    for name in "${order[@]}"; do
        if [ "$name" = a ]; then start_echo a "$PORT_A"; else start_echo b "$PORT_B"; fi
    done
    for port in "$PORT_A" "$PORT_B"; do
        for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break; sleep 0.1; done
    done
    for name in "${order[@]}"; do
        if [ "$name" = a ]; then start_load a "$PORT_A" "$phase_a"; else start_load b "$PORT_B" "$phase_b"; fi
    done
    wait "$load_a" "$load_b" || { cat "$DIR/a.err" "$DIR/b.err" >&2; exit 1; }
    [ -z "${KEEP:-}" ] || { mkdir -p "$KEEP"; cp "$DIR/a.json" "$KEEP/a-$round.json"; cp "$DIR/b.json" "$KEEP/b-$round.json"; }
    kill "$echo_a" "$echo_b"; wait "$echo_a" "$echo_b" 2>/dev/null || true
    python3 - "$round" "$DIR/a.json" "$DIR/b.json" "$PORT_A" "$PORT_B" <<'PY'
import json, sys
round_, a, b = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
cpu = [d["server_cpu_seconds"] * 1e6 / d["inputs_sent"] for d in (a, b)]
p99 = [d["latency_p99_ms"] for d in (a, b)]
print(f"round {round_}: A (port {sys.argv[4]}) {cpu[0]:.2f} µs, p99 {p99[0]:.2f} ms; B (port {sys.argv[5]}) "
      f"{cpu[1]:.2f} µs, p99 {p99[1]:.2f} ms; A ÷ B: CPU {cpu[0] / cpu[1]:.2f}, p99 {p99[0] / p99[1]:.2f}")
for name, d in (("A", a), ("B", b)):
    # Its measured inputs answered later than 2 ms, by tenth of a second into its slices (the slices are SLICE long,
    # its own every other one from the window's start), then its worst tenth.
    slice_s, bin_s = d["slice_s"] or 1, d["tail_bin_s"]
    tenths = max(1, round(slice_s / bin_s))
    late, sent = [0] * tenths, [0] * tenths
    for start, inputs, count, _ in d["tail_bins"]:
        tenth = int(round(start / bin_s)) % len(late)
        late[tenth] += count
        sent[tenth] += inputs
    worst = max(d["tail_bins"], key=lambda b: b[2], default=[0, 0, 0, 0])
    shares = " ".join(f"{100 * l / s:.1f}" if s else "-" for l, s in zip(late, sent))
    print(f"  {name}: late by tenth of its slices (%) {shares}; worst tenth at {worst[0]:g} s: {worst[2]} of "
          f"{worst[1]} late, the slowest {worst[3]:g} ms")
PY
done
