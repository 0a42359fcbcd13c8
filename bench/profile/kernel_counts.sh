#!/usr/bin/env bash
# What the kernel does per input for a server or the echo under the bench's load (docs/PERFORMANCE.md, "What limits
# it on this host"): over RECORD seconds of SESSIONS sessions at 60 Hz, the system calls of the process measured
# (perf's syscall tracepoints: epoll_wait and the events it returned, sendto, recvfrom, epoll_ctl, io_uring_enter),
# the TCP segments the host sent (nstat: both directions of loopback), and the function-call interrupts (IPIs) both
# CPUs took (/proc/interrupts), each per input (the last two over the wall time around the recording).
#
#   bench/profile/kernel_counts.sh SERVER|echo        e.g. .build/release/refreshkit, or echo (lws-echo)
#   BIN=DIR (the generator and the echo; default .build/release), SESSIONS (1000), RECORD (3)
set -euo pipefail
SERVER=${1:?SERVER or echo}; BIN=${BIN:-.build/release}; SESSIONS=${SESSIONS:-1000}; RECORD=${RECORD:-3}
WORK=$(mktemp -d /tmp/rk-kernel-XXXXXX); trap 'rm -rf "$WORK"' EXIT
ulimit -n 20000
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
if [ "$SERVER" = echo ]; then
    "$BIN/lws-echo" --port "$PORT" --protocol refreshkit.v1 >/dev/null 2>&1 & MODE=echo
else
    "$SERVER" serve --host 127.0.0.1 --port "$PORT" --log-level warning --web-root web >/dev/null 2>&1 & MODE=frames
fi
PID=$!
for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/"$PORT") 2>/dev/null && break; sleep 0.1; done
"$BIN/refreshkit-load" --url "ws://127.0.0.1:$PORT/" --sessions "$SESSIONS" --warmup 2 --duration $((RECORD + 3)) \
    --mode "$MODE" --server-pid "$PID" >"$WORK/load.json" 2>/dev/null &
LOAD=$!
sleep 3
grep -E '^ *CAL:' /proc/interrupts >"$WORK/irq.before"; nstat -n; date +%s.%N >"$WORK/start"
perf record -q -e syscalls:sys_exit_epoll_wait -e syscalls:sys_enter_sendto -e syscalls:sys_enter_recvfrom \
    -e syscalls:sys_enter_epoll_ctl -e syscalls:sys_enter_io_uring_enter -p "$PID" -o "$WORK/perf.data" \
    -- sleep "$RECORD" 2>/dev/null
grep -E '^ *CAL:' /proc/interrupts >"$WORK/irq.after"; nstat >"$WORK/nstat.txt"; date +%s.%N >"$WORK/end"
wait "$LOAD" || true
kill -9 "$PID"; wait "$PID" 2>/dev/null || true
perf script -i "$WORK/perf.data" -F event,trace >"$WORK/calls.txt" 2>/dev/null
python3 - "$WORK" "$SESSIONS" <<'PY'
import sys
work, sessions = sys.argv[1], int(sys.argv[2])
# The segments and interrupts are counted over the wall time between the two snapshots, which is longer than
# perf's window: per input, they are divided by the inputs the generator sent in that time (60 Hz a session).
elapsed = float(open(f"{work}/end").read()) - float(open(f"{work}/start").read())
sent = 60 * sessions * elapsed
waits = events = sends = receives = ctls = rings = 0
for line in open(f"{work}/calls.txt"):
    if "exit_epoll_wait" in line:
        waits += 1
        value = int(line.split()[-1], 16)
        events += value if value < 1 << 31 else 0
    elif "sendto" in line: sends += 1
    elif "recvfrom" in line: receives += 1
    elif "epoll_ctl" in line: ctls += 1
    elif "io_uring" in line: rings += 1
inputs = max(receives, 1)  # one recvfrom per input at this load (one message a read)
segments = next((int(l.split()[1]) for l in open(f"{work}/nstat.txt") if l.startswith("TcpOutSegs")), 0)
cal = lambda f: sum(int(x) for x in open(f).read().split()[1:] if x.isdigit())
ipis = cal(f"{work}/irq.after") - cal(f"{work}/irq.before")
print(f"recvfrom {receives}, sendto {sends}, epoll_wait {waits} ({events / max(waits, 1):.1f} events a wait), "
      f"epoll_ctl {ctls}, io_uring_enter {rings}")
print(f"per input: epoll events {events / inputs:.2f}; over {elapsed:.1f} s, TCP segments sent {segments / sent:.2f}, "
      f"function-call interrupts {ipis / sent:.4f} ({ipis} in all)")
PY
