#!/usr/bin/env python3
"""Writes the HAProxy configuration of a RefreshKit cluster (docs/SCALING.md).

    scripts/cluster_config.py --bind 0.0.0.0:8080 n1=127.0.0.1:8081 n2=127.0.0.1:8082 …

Routing: a WebSocket upgrade (`/ws`) names its session in the URL: `n` (the node that holds it, from the
welcome) or else the node prefix of `s` (`n2.<hex>`: the process that made it). It goes to that node's
backend, whose other servers are backups, in a fixed order: while the node is up every connection of the
session reaches it; once it is down, every connection of the session reaches the same first healthy backup,
which takes the session over from the store. A node's backend names itself to the server in the header
`X-RefreshKit-Backend` (removed from what clients send): a server that gets a page through another node's
backend knows that the balancer found that node down, and only then takes a session over from a process
whose lease is still current (docs/SCALING.md, "Who holds a session"). Anything else (a new session, static
files) goes to the node with the fewest connections.

The client: HAProxy drops any `X-Forwarded-For` or `Forwarded` a client sent and names the client it saw in
`X-Forwarded-For` (`option forwardfor`), which the servers read because they trust the balancer
(`serve --trusted-proxy 127.0.0.1`, docs/HARDENING.md, "Proxies"). The access log leaves the query out: a URL's
`s=` is a session id, which lets whoever reads it in (docs/HARDENING.md); it logs the node asked for and whether
the page named one (`n=`, a reconnection) instead.
"""
import argparse
import re
import sys

NODE = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


def config(bind: str, nodes: list[tuple[str, str]], log: str = "stdout", admin_socket: str | None = None,
           tls_pem: str | None = None) -> str:
    """`admin_socket`: a path for HAProxy's runtime API (`show servers state`, `set server …`), level admin.
    `tls_pem`: a file with the certificate (its chain after it) and its key: HAProxy terminates TLS on `bind`, and
    the servers behind it speak plain http on loopback (`serve --public-tls`, docs/HTTPS.md, "Behind a balancer")."""
    names = [name for name, _ in nodes]
    # A failed connection marks the node down at once (observe layer4), and the retry goes to a backup
    # (redispatch); a health check every 500 ms brings it back after two good ones.
    check = "check inter 500ms fall 2 rise 2 observe layer4 error-limit 1 on-error mark-down"
    out = [
        "global",
        f"    log {log} format raw local0 info",
        "    maxconn 4000",  # within a default descriptor limit (HAProxy needs two per connection)
    ]
    if admin_socket:
        out.append(f"    stats socket {admin_socket} mode 600 level admin")
    out += [
        "",
        "defaults",
        "    mode http",
        "    log global",
        # httplog's format without the URL's query (a session id): the path, the node asked for, and whether the page
        # named one (a reconnection; bench/cluster_bench.py counts them)
        '    log-format "%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc %ac/%fc/%bc/%sc/%rc '
        '%sq/%bq %hr %hs \\"%HM %HP %HV\\" node=%[var(txn.node)] named=%[var(txn.named)]"',
        "    option forwardfor",
        "    timeout connect 250ms",  # also the pause before a retry after a refused connection
        "    timeout client 1h",
        "    timeout server 1h",
        "    timeout tunnel 1h",
        "    timeout http-request 10s",
        "    retries 3",
        "    option redispatch 1",
        "",
        "frontend refreshkit",
        # HTTP/1.1 alone in ALPN, as `serve --tls-cert` offers (docs/HTTPS.md, "HTTP/1.1 only")
        f"    bind {bind} ssl crt {tls_pem} alpn http/1.1" if tls_pem else f"    bind {bind}",
        "    http-request del-header X-RefreshKit-Backend",  # only the balancer says which backend it chose
        "    http-request del-header X-Forwarded-For",  # only the balancer says who the client is
        "    http-request del-header Forwarded",
        "    http-request set-var(txn.named) str(1) if { url_param(n) -m found }",
        "    http-request set-var(txn.node) url_param(n) if { url_param(n) -m found }",
        "    http-request set-var(txn.node) url_param(s),field(1,.) if !{ var(txn.node) -m found } "
        "{ url_param(s) -m reg ^[A-Za-z0-9_-]+[.] }",
    ]
    for name in names:
        out.append(f"    use_backend node_{name} if {{ var(txn.node) -m str {name} }}")
    out += ["    default_backend any", "", "backend any", "    balance leastconn"]
    for name, address in nodes:
        out.append(f"    server {name} {address} track node_{name}/{name}")
    for index, (name, address) in enumerate(nodes):
        out += ["", f"backend node_{name}", f"    http-request set-header X-RefreshKit-Backend {name}",
                f"    server {name} {address} {check}"]
        for other in nodes[index + 1:] + nodes[:index]:  # the next nodes first: spreads the take-overs
            out.append(f"    server {other[0]} {other[1]} track node_{other[0]}/{other[0]} backup")
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bind", required=True, help="HOST:PORT the balancer listens on")
    parser.add_argument("--log", default="stdout", help="where HAProxy logs (stdout, or an address)")
    parser.add_argument("nodes", nargs="+", help="NAME=HOST:PORT of each refreshkit serve")
    args = parser.parse_args()
    nodes = []
    for spec in args.nodes:
        name, _, address = spec.partition("=")
        if not NODE.match(name) or ":" not in address:
            sys.exit(f"error: a node is NAME=HOST:PORT (NAME: letters, digits, - or _), not {spec!r}")
        nodes.append((name, address))
    sys.stdout.write(config(args.bind, nodes, args.log))


if __name__ == "__main__":
    main()
