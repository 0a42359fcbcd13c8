#!/usr/bin/env bash
# `make cluster`: N `refreshkit serve` processes behind HAProxy on one address, sharing their sessions through
# Redis (docs/SCALING.md). Ctrl-C stops them all.
#   scripts/cluster.sh BIN PROCESSES PORT [serve options…]
# The balancer listens on PORT (every interface), the processes on loopback PORT+1…PORT+N, Redis on PORT+100.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1 processes=$2 port=$3
shift 3
case "$processes" in ''|*[!0-9]*|0) echo "error: PROCESSES must be a positive number" >&2; exit 2 ;; esac

run=$(mktemp -d "${TMPDIR:-/tmp}/refreshkit-cluster.XXXXXX")
pids=()
stop() {
    trap - INT TERM EXIT
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$run"
}
trap stop INT TERM EXIT

redis_port=$((port + 100))
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$run" \
    --logfile "$run/redis.log" &
pids+=($!)

nodes=()
for k in $(seq 1 "$processes"); do
    node_port=$((port + k))
    "$bin" serve --host 127.0.0.1 --port "$node_port" --node "n$k" --store "redis://127.0.0.1:$redis_port" \
        --public-port "$port" --qr never "$@" > "$run/n$k.log" 2>&1 &
    pids+=($!)
    nodes+=("n$k=127.0.0.1:$node_port")
done

python3 scripts/cluster_config.py --bind "0.0.0.0:$port" "${nodes[@]}" > "$run/haproxy.cfg"
haproxy -db -f "$run/haproxy.cfg" > "$run/haproxy.log" 2>&1 &
pids+=($!)

echo "RefreshKit cluster: $processes processes behind HAProxy, sessions in Redis (127.0.0.1:$redis_port)"
echo "  open      http://localhost:$port/"
for address in $(hostname -I 2>/dev/null); do
    case "$address" in *:*) ;; *) echo "  network   http://$address:$port/" ;; esac
done
for k in $(seq 1 "$processes"); do echo "  node n$k   http://127.0.0.1:$((port + k))/   log $run/n$k.log"; done
echo "  balancer  log $run/haproxy.log"
echo "Ctrl-C stops them all."
stopping=""
trap 'stopping=1; stop' INT TERM
wait -n "${pids[@]}" || true
[ -n "$stopping" ] || echo "a process of the cluster exited; stopping the others" >&2
