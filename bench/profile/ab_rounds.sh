#!/usr/bin/env bash
# Two or more servers' CPU per input under the bench's load, in alternating rounds (A, B, A, B ... or A, B, C, A,
# B, C ...), so that the host's drift falls on all alike (docs/PERFORMANCE.md, "What limits it on this host"): each
# round a fresh process driven by refreshkit-load with SESSIONS sessions at 60 Hz (2 s warm-up, DURATION s
# measured). Prints each round's user and total µs per input and the p99 from input to answer (ms), the medians,
# and each server − A round by round; for a RefreshKit server also its own p99 from reading an input to writing its
# frame (`refreshkit_input_to_frame_seconds` at /metrics, the bound of the histogram's bucket that holds it: the part
# of the latency the server's loop adds, without the sockets' and the generator's). Any server may be `echo`
# (lws-echo, the floor) or `echo:PATH` (another lws-echo, or a script that runs one).
#
#   bench/profile/ab_rounds.sh ROUNDS A B [C ...]   e.g. 6 .build/release/refreshkit /tmp/other/refreshkit
#   BIN=DIR (the generator and the echo; default .build/release), SESSIONS (1000), DURATION (4), PIN=1 (each server
#   on the last CPU, the generator on the others: docs/PERFORMANCE.md, "What limits it on this host")
set -euo pipefail
ROUNDS=${1:?ROUNDS}; shift; SERVERS=("$@"); [ ${#SERVERS[@]} -ge 2 ] || { echo "usage: $0 ROUNDS A B [C ...]"; exit 2; }
BIN=${BIN:-.build/release}; SESSIONS=${SESSIONS:-1000}; DURATION=${DURATION:-4}
ulimit -n 20000
SERVER_CPUS=() LOAD_CPUS=()
if [ "${PIN:-0}" = 1 ]; then
    LAST=$(($(nproc) - 1)); SERVER_CPUS=(taskset -c "$LAST"); LOAD_CPUS=(taskset -c "0-$((LAST > 0 ? LAST - 1 : 0))")
fi
OUT=$(mktemp /tmp/ab-rounds-XXXXXX.json); ROWS=$(mktemp /tmp/ab-rounds-XXXXXX.txt)
METRICS=$(mktemp /tmp/ab-rounds-XXXXXX.metrics)
trap 'rm -f "$OUT" "$ROWS" "$METRICS"' EXIT

one() { # SERVER → "user total" µs per input, the p99 in ms, and the server's own p99 in ms (-1: the echo)
    local server=$1 port mode
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    if [ "$server" = echo ] || [ "${server%%:*}" = echo ]; then
        local echo_bin="$BIN/lws-echo"; [ "$server" = echo ] || echo_bin=${server#echo:}
        "${SERVER_CPUS[@]}" "$echo_bin" --port "$port" --protocol refreshkit.v1 >/dev/null 2>&1 & mode=echo
    else
        "${SERVER_CPUS[@]}" "$server" serve --host 127.0.0.1 --port "$port" --log-level warning --web-root web >/dev/null 2>&1 & mode=frames
    fi
    local pid=$!
    for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break; sleep 0.1; done
    "${LOAD_CPUS[@]}" "$BIN/refreshkit-load" --url "ws://127.0.0.1:$port/" --sessions "$SESSIONS" --warmup 2 --duration "$DURATION" \
        --mode "$mode" --server-pid "$pid" >"$OUT" 2>/dev/null
    : >"$METRICS"
    [ "$mode" = frames ] && { curl -s --max-time 5 "http://127.0.0.1:$port/metrics" >"$METRICS" || true; }
    kill -INT "$pid"; (sleep 2; kill -9 "$pid" 2>/dev/null) & wait "$pid" 2>/dev/null || true
    python3 - "$OUT" "$METRICS" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
per_second = d["inputs_sent"] / d["window_s"]
cpu, kernel = d["server_cpu_percent"], d["server_sys_cpu_percent"]
# The server's own p99 (the histogram counts from the server's start: the warm-up is in it too).
buckets = [(float("inf") if bound == "+Inf" else float(bound), float(count)) for bound, count in re.findall(
    r'refreshkit_input_to_frame_seconds_bucket\{le="([^"]+)"\} (\S+)', open(sys.argv[2]).read())]
own = -1.0
if buckets and buckets[-1][1] > 0:
    own = next(bound for bound, count in buckets if count >= 0.99 * buckets[-1][1]) * 1000
print(f"{(cpu - kernel) / 100 * 1e6 / per_second:.3f} {cpu / 100 * 1e6 / per_second:.3f} {d['latency_p99_ms']:.2f} "
      f"{own:.2f}")
PY
}

NAMES=(A B C D E F G H)
for round in $(seq "$ROUNDS"); do
    row="" line="round $round "
    for index in "${!SERVERS[@]}"; do
        read -r user total p99 own <<<"$(one "${SERVERS[$index]}")"
        row="$row $user $total $p99 $own" line="$line   ${NAMES[$index]} user $user total $total p99 $p99"
        [ "$own" = -1.00 ] || line="$line (own $own)"
    done
    echo "$row" >>"$ROWS"
    echo "$line"
done
for index in "${!SERVERS[@]}"; do echo "${NAMES[$index]}: ${SERVERS[$index]}"; done
python3 - "$ROWS" <<'PY'
import statistics, sys
rows = [[float(v) for v in line.split()] for line in open(sys.argv[1])]
names, width = "ABCDEFGH", 4  # per server: user, total, p99, own p99 (-1: the echo)
for index in range(len(rows[0]) // width):
    own = [r[width * index + 3] for r in rows]
    print(f"{names[index]} median: user {statistics.median(r[width * index] for r in rows):.2f}, "
          f"total {statistics.median(r[width * index + 1] for r in rows):.2f} µs per input, "
          f"p99 {statistics.median(r[width * index + 2] for r in rows):.2f} ms"
          + (f", own p99 {statistics.median(own):.2f} ms (each round: {' '.join(f'{v:g}' for v in own)})"
             if min(own) >= 0 else ""))
for index in range(1, len(rows[0]) // width):
    for name, column in (("user", 0), ("total", 1), ("p99", 2)):
        print(f"{names[index]} - A, {name}: "
              + " ".join(f"{r[width * index + column] - r[column]:+.2f}" for r in rows))
PY
