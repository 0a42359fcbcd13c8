#!/usr/bin/env bash
# `make cluster`: N `refreshkit serve` processes behind HAProxy on one address, sharing their sessions through
# Redis, all run by supervisord, which starts again any process that exits (docs/SCALING.md).
#   scripts/cluster.sh [--tls-cert PEM --tls-key PEM] BIN PROCESSES PORT [serve options…]
# The configurations come from scripts/cluster_supervisor.py (the balancer on PORT, the processes on loopback
# PORT+1…PORT+N, Redis on PORT+100), written into a temporary directory (mode 0700) with the logs and Redis's random
# password (store.password, mode 0600: Redis includes it from a file, the servers read it with
# --store-password-file; no command line holds it). Ctrl-C (or SIGTERM to this script) stops everything, then
# removes the directory, the password with it.
set -euo pipefail
cd "$(dirname "$0")/.."
# https and wss on PORT (`make cluster TLS=1`): HAProxy terminates TLS (docs/HTTPS.md, "Behind a balancer")
tls=()
while [ "${1:-}" = --tls-cert ] || [ "${1:-}" = --tls-key ]; do
    tls+=("$1" "$2")
    shift 2
done
bin=$1 processes=$2 port=$3
shift 3

run=$(mktemp -d "${TMPDIR:-/tmp}/refreshkit-cluster.XXXXXX")
trap 'rm -rf "$run"' EXIT
python3 scripts/cluster_supervisor.py --bin "$bin" --processes "$processes" --port "$port" --run "$run" "${tls[@]}" \
    -- "$@"

supervisord -c "$run/supervisord.conf" &
supervisor=$!
# supervisord stops its programs (in reverse order, the servers with SIGTERM) and exits on SIGINT or SIGTERM.
trap 'kill -TERM "$supervisor" 2>/dev/null || true' INT TERM
# `wait` returns early when a signal's trap runs: wait again until supervisord has stopped everything.
while kill -0 "$supervisor" 2>/dev/null; do wait "$supervisor" || true; done
