#!/usr/bin/env bash
# The server's CPU per input beside the bare echo's, split into user and kernel time (docs/PERFORMANCE.md, "What
# limits it on this host"): ROUNDS rounds, each a fresh `refreshkit serve` then a fresh `lws-echo`, both driven by
# refreshkit-load with SESSIONS sessions at 60 Hz (2 s warm-up, 5 s measured: the bench's load stage, with each
# round printed whole). Extra arguments go to `refreshkit serve` (e.g. --trace-limit 0).
#
#   bench/profile/cpu_rounds.sh ROUNDS SESSIONS [serve arguments...]
#   BIN=DIR (the generator and the echo; default .build/release), RK=PATH (the server; default $BIN/refreshkit)
set -euo pipefail
ROUNDS=${1:?ROUNDS}; SESSIONS=${2:?SESSIONS}; shift 2
BIN=${BIN:-.build/release}; RK=${RK:-$BIN/refreshkit}
ulimit -n 20000
OUT=$(mktemp /tmp/cpu-rounds-XXXXXX.json)
trap 'rm -f "$OUT"' EXIT

one() { # MODE [serve arguments...]
    local mode=$1; shift
    local port
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    if [ "$mode" = echo ]; then
        "$BIN/lws-echo" --port "$port" --protocol refreshkit.v1 >/dev/null 2>&1 &
    else
        "$RK" serve --host 127.0.0.1 --port "$port" --log-level warning --web-root web "$@" >/dev/null 2>&1 &
    fi
    local server=$!
    for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break; sleep 0.1; done
    "$BIN/refreshkit-load" --url "ws://127.0.0.1:$port/" --sessions "$SESSIONS" --warmup 2 --duration 5 \
        --mode "$mode" --server-pid "$server" >"$OUT" 2>/dev/null
    kill -INT "$server"; (sleep 2; kill -9 "$server" 2>/dev/null) & wait "$server" 2>/dev/null || true
    python3 - "$OUT" "$mode" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
per_second = d["inputs_sent"] / d["window_s"]
cpu, kernel = d["server_cpu_percent"], d["server_sys_cpu_percent"]
def us(percent): return percent / 100 * 1e6 / per_second
print(f"{sys.argv[2]:6} µs per input {us(cpu):5.2f} = user {us(cpu - kernel):4.2f} + kernel {us(kernel):4.2f}"
      f"   ({cpu:4.1f} % of a core)   p99 {d['latency_p99_ms']:.2f} ms   generator {d['client_cpu_percent']:.0f} %")
PY
}

for _ in $(seq "$ROUNDS"); do one frames "$@"; one echo; done
