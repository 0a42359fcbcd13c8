#!/usr/bin/env bash
# `make run LINK=wifi` (docs/LINK.md): the server on a loopback port of its own, and `refreshkit link` with
# that profile on HOST:PORT in front of it, so every page goes through the simulated link. Ctrl-C (or either
# process ending) stops both.
# Usage: scripts/run-with-link.sh BINARY HOST PORT PROFILE [serve options...]
set -euo pipefail
bin=$1 host=$2 port=$3 profile=$4
shift 4
out=$(mktemp)
server= link=
stop() {
    trap - INT TERM EXIT
    for pid in $link $server; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -f "$out"
}
trap stop INT TERM EXIT

# The server accepts pages whose origin is the link's port (--public-port): they reach it through the link. It trusts
# the link to name each client (--trusted-proxy, docs/HARDENING.md "Proxies"): a LAN page through the link is not local.
"$bin" serve --host 127.0.0.1 --port 0 --public-port "$port" --trusted-proxy 127.0.0.1 "$@" >"$out" &
server=$!
internal=
for _ in $(seq 400); do  # until it says where it listens (or exits)
    internal=$(sed -n 's|^listening on http://127\.0\.0\.1:\([0-9]*\)$|\1|p' "$out")
    [ -n "$internal" ] && break
    kill -0 "$server" 2>/dev/null || { echo "the server did not start" >&2; exit 1; }
    sleep 0.05
done
[ -n "$internal" ] || { echo "the server did not say where it listens" >&2; exit 1; }
echo "server on http://127.0.0.1:$internal (internal: open the link's address below)"
"$bin" link --listen "$host:$port" --upstream "127.0.0.1:$internal" --profile "$profile" &
link=$!
wait -n "$server" "$link"
