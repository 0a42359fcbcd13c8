#!/usr/bin/env bash
# Where a server's CPU goes under load, kernel included (docs/PERFORMANCE.md, "Profile"): `perf record` of the
# server's threads (cpu-clock samples: this VM has no hardware counters) while refreshkit-load drives N sessions,
# then the share of each library (dso), the top symbols and the hottest instructions of its own code (leaf samples).
# The same for lws-echo with ECHO=1.
#
#   bench/profile/perf_server.sh BIN_DIR [SESSIONS] [SECONDS]        e.g. .build/release 1000 5
set -euo pipefail
BIN=${1:?BIN_DIR}; SESSIONS=${2:-1000}; SECONDS_RECORDED=${3:-5}
WORK=$(mktemp -d /tmp/rk-perf-XXXXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
ulimit -n 20000
if [ "${ECHO:-0}" = 1 ]; then
    "$BIN/lws-echo" --port "$PORT" --protocol refreshkit.v1 >"$WORK/server.log" 2>&1 & MODE=echo
else
    "$BIN/refreshkit" serve --host 127.0.0.1 --port "$PORT" --log-level warning --web-root web >"$WORK/server.log" 2>&1 &
    MODE=frames
fi
SERVER=$!
for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/"$PORT") 2>/dev/null && break; sleep 0.1; done
"$BIN/refreshkit-load" --url "ws://127.0.0.1:$PORT/" --sessions "$SESSIONS" --warmup 3 \
    --duration $((SECONDS_RECORDED + 3)) --mode "$MODE" >"$WORK/load.json" 2>"$WORK/load.log" &
LOAD=$!
for _ in $(seq 600); do
    [ "$(ss -Htn state established "( sport = :$PORT )" | wc -l)" -ge "$SESSIONS" ] && break; sleep 0.2
done
sleep 2
perf record -q -e cpu-clock -g -p "$SERVER" -o "$WORK/perf.data" -- sleep "$SECONDS_RECORDED" 2>/dev/null
wait "$LOAD" || true
# lws-echo under load does not always end on SIGINT (why is not investigated): killed after 2 s, as ab_rounds.sh
# does.
kill -INT "$SERVER"; (sleep 2; kill -9 "$SERVER" 2>/dev/null) & wait "$SERVER" || true
set +o pipefail  # `head` closes the reports' pipes early
echo "== shares by library ($WORK/perf.data)"
perf report -i "$WORK/perf.data" --no-children --sort dso --stdio -g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -12
echo "== top symbols"
perf report -i "$WORK/perf.data" --no-children --sort dso,sym --stdio -g none 2>/dev/null | grep -v '^#' \
    | grep -v '^$' | head -25
echo "== hottest instructions of the process's own code (leaf samples: a load of a cold line shows here)"
OWN=$([ "$MODE" = echo ] && echo lws-echo || echo refreshkit)
perf script -i "$WORK/perf.data" -G -F ip,sym,dso 2>/dev/null | grep "($(realpath "$BIN/$OWN"))" \
    | awk '{print $1, $2}' | sort | uniq -c | sort -rn | head -25 | (swift demangle --simplified 2>/dev/null || cat)
