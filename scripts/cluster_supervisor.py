#!/usr/bin/env python3
"""Writes what `make cluster` runs (docs/SCALING.md): a supervisord configuration with Redis, N `refreshkit serve`
processes and HAProxy, and HAProxy's own configuration (scripts/cluster_config.py), into a run directory.

    scripts/cluster_supervisor.py --bin BIN --processes N --port PORT --run DIR [--tls-cert PEM --tls-key PEM]
                                  [-- serve options…]

The balancer listens on PORT (every interface), the processes on loopback PORT+1…PORT+N, Redis on PORT+100.
Redis wants a password, made at random into DIR/store.password (mode 0600): Redis reads it from a configuration
file (DIR/redis-auth.conf, `requirepass`, mode 0600), the servers from the password file
(`--store-password-file`), never from a command line, which `ps` shows every user (docs/SCALING.md, "The store's
password"); `redis-cli` takes it from REDISCLI_AUTH (`redis_cli` below).
supervisord (Debian's `supervisor`) starts them in that order (Redis, the servers, HAProxy) and starts again
any that exits (`autorestart`): a process killed is back within a second, and HAProxy's health check sends it
new sessions once it answers. SIGINT or SIGTERM to supervisord stops them all, in the reverse order (the
servers with SIGTERM: each writes its sessions and ends its lease first). Then prints the addresses.
With `--tls-cert` and `--tls-key` (`make cluster TLS=1`), HAProxy serves https and wss on PORT from one file of both
(DIR/balancer.pem, mode 0600), and the servers know their pages come over https there (`--public-tls`).
"""
from __future__ import annotations

import argparse
import os
import secrets
import shlex
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import cluster_config

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Layout:
    """Where everything of one cluster listens, and where its files go."""
    bin: Path
    processes: int
    port: int
    run: Path
    bind: str = "0.0.0.0"
    redis_port: int | None = None  # PORT+100 unless given
    node_ports: tuple[int, ...] = ()  # PORT+1…PORT+N unless given
    tls: tuple[Path, Path] | None = None  # the balancer's certificate and key (https on PORT)

    @property
    def scheme(self) -> str:
        return "https" if self.tls else "http"

    @property
    def balancer_pem(self) -> Path:
        return self.run / "balancer.pem"

    def redis(self) -> int:
        return self.redis_port or self.port + 100

    def nodes(self) -> list[tuple[str, int]]:
        ports = self.node_ports or tuple(self.port + k for k in range(1, self.processes + 1))
        if len(ports) != self.processes:
            raise ValueError(f"{self.processes} processes but {len(ports)} node ports")
        return [(f"n{k}", port) for k, port in enumerate(ports, start=1)]


PASSWORD_FILE = "store.password"
REDIS_AUTH_CONF = "redis-auth.conf"


def write_secret(path: Path, text: str) -> None:
    """Writes `text` into a new file `path` that only its owner may read (mode 0600 from its creation, whatever the
    umask: never readable by others, not even for a moment)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(descriptor, "w") as out:
        os.fchmod(out.fileno(), 0o600)
        out.write(text)


def store_password(run: Path) -> str:
    """The cluster's Redis password (DIR/store.password, made by `write`)."""
    return (run / PASSWORD_FILE).read_text().splitlines()[0]


def redis_cli(run: Path, port: int, *args: str) -> str:
    """`redis-cli -p PORT ARGS…` against the cluster's Redis, the password given in REDISCLI_AUTH (not argv)."""
    env = {**os.environ, "REDISCLI_AUTH": store_password(run)}
    return subprocess.run(["redis-cli", "-p", str(port), *args], capture_output=True, text=True, timeout=5,
                          env=env).stdout


def accepts(port: int, host: str = "127.0.0.1") -> bool:
    """Whether something listens on `port` of `host` (loopback)."""
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def haproxy(socket_path: Path, command: str) -> str:
    """One command to HAProxy's runtime API (the admin socket `config` names, `RUN/haproxy.sock`): its answer."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(5)
        sock.connect(str(socket_path))
        sock.sendall(command.encode() + b"\n")
        out = b""
        while chunk := sock.recv(65536):
            out += chunk
    return out.decode()


def server_state(socket_path: Path, node: str) -> str:
    """HAProxy's view of `node` in its own backend: `UP`, `DOWN`, … (from `show stat`); "" when not listed."""
    for line in haproxy(socket_path, "show stat").splitlines():
        parts = line.split(",")
        if len(parts) > 17 and parts[0] == f"node_{node}" and parts[1] == node:
            return parts[17]
    return ""


def free_base_port(processes: int) -> int:
    """A PORT whose PORT+1…PORT+N (the servers) and PORT+100 (Redis) are free too, on loopback.

    Below the kernel's range of ephemeral ports (`net.ipv4.ip_local_port_range`): a port from that range that is free
    now can become the local end of anyone's outgoing connection before supervisord starts the process meant to
    listen on it, which then cannot bind; below it only another listener can take it."""
    def free(port: int) -> bool:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
                return True
            except OSError:
                return False
    lowest_ephemeral = ephemeral_ports()[0]
    for _ in range(50):
        port = secrets.randbelow(lowest_ephemeral - 100 - 10_000) + 10_000
        if all(free(port + k) for k in (0, *range(1, processes + 1), 100)):
            return port
    raise RuntimeError("no free port range for the cluster")


def ephemeral_ports() -> tuple[int, int]:
    """The kernel's range of local ports for outgoing connections (Linux's default when it cannot be read)."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999


def program(name: str, command: list[str], run: Path, priority: int, stop_seconds: int = 5) -> list[str]:
    """One `[program:NAME]` section: restarted whenever it exits, its output in DIR/NAME.log."""
    return [
        f"[program:{name}]",
        "command=" + " ".join(shlex.quote(part) for part in command),
        f"directory={ROOT}",
        f"priority={priority}",
        "autostart=true",
        "autorestart=true",  # whatever the exit: a crash, a SIGKILL, an OOM kill
        "startsecs=1",  # up for a second: started (sooner exits are retried with a growing pause)
        "startretries=10",
        "stopsignal=TERM",
        f"stopwaitsecs={stop_seconds}",  # then SIGKILL
        "stopasgroup=true",
        "killasgroup=true",
        "redirect_stderr=true",
        f"stdout_logfile={run / (name + '.log')}",
        "stdout_logfile_maxbytes=10MB",
        "stdout_logfile_backups=1",
        "",
    ]


def supervisord_conf(layout: Layout, serve_args: list[str]) -> str:
    """The supervisord configuration: supervisord itself in the foreground, its control socket in the run
    directory (`supervisorctl -c DIR/supervisord.conf status`), then Redis, the servers and HAProxy."""
    run = layout.run
    redis = layout.redis()
    out = [
        "[supervisord]",
        "nodaemon=true",  # in the foreground: the launcher's Ctrl-C reaches it
        f"logfile={run / 'supervisord.log'}",
        f"pidfile={run / 'supervisord.pid'}",
        f"childlogdir={run}",
        "loglevel=info",
        "",
        "[unix_http_server]",
        f"file={run / 'supervisor.sock'}",
        "chmod=0700",
        "",
        "[rpcinterface:supervisor]",
        "supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface",
        "",
        "[supervisorctl]",
        f"serverurl=unix://{run / 'supervisor.sock'}",
        "",
    ]
    # The password in a file Redis includes (`requirepass`), and in the file the servers read: nothing secret on
    # a command line.
    out += program("redis", ["redis-server", "--port", str(redis), "--bind", "127.0.0.1", "--save", "",
                              "--appendonly", "no", "--dir", str(run), "--include", str(run / REDIS_AUTH_CONF)],
                   run, priority=10)
    for name, port in layout.nodes():
        out += program(name, [str(layout.bin), "serve", "--host", "127.0.0.1", "--port", str(port), "--node", name,
                              "--store", f"redis://127.0.0.1:{redis}",
                              "--store-password-file", str(run / PASSWORD_FILE), "--public-port", str(layout.port),
                              "--trusted-proxy", "127.0.0.1", *(["--public-tls"] if layout.tls else []),
                              "--qr", "never", *serve_args], run, priority=20, stop_seconds=10)
    out += program("haproxy", ["haproxy", "-db", "-f", str(run / "haproxy.cfg")], run, priority=30)
    return "\n".join(out)


def haproxy_cfg(layout: Layout) -> str:
    return cluster_config.config(f"{layout.bind}:{layout.port}",
                                 [(name, f"127.0.0.1:{port}") for name, port in layout.nodes()],
                                 admin_socket=str(layout.run / "haproxy.sock"),
                                 tls_pem=str(layout.balancer_pem) if layout.tls else None)


def write(layout: Layout, serve_args: list[str]) -> Path:
    """Writes both configurations into the run directory, with the store's password (a new random one, unless the
    directory has one already) and Redis's file that requires it; returns supervisord's configuration."""
    layout.run.mkdir(parents=True, exist_ok=True)
    if not (layout.run / PASSWORD_FILE).exists():
        write_secret(layout.run / PASSWORD_FILE, secrets.token_hex(32) + "\n")
    if not (layout.run / REDIS_AUTH_CONF).exists():
        write_secret(layout.run / REDIS_AUTH_CONF, f"requirepass {store_password(layout.run)}\n")
    if layout.tls:
        certificate, key = layout.tls
        layout.balancer_pem.unlink(missing_ok=True)
        write_secret(layout.balancer_pem, certificate.read_text().rstrip("\n") + "\n" + key.read_text())
    (layout.run / "haproxy.cfg").write_text(haproxy_cfg(layout))
    conf = layout.run / "supervisord.conf"
    conf.write_text(supervisord_conf(layout, serve_args))
    return conf


def banner(layout: Layout, conf: Path) -> str:
    lines = [f"RefreshKit cluster: {layout.processes} processes behind HAProxy, sessions in Redis "
             f"(127.0.0.1:{layout.redis()}), run by supervisord",
             f"  open      {layout.scheme}://localhost:{layout.port}/"]
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
    except OSError:
        addresses = set()
    for address in sorted(addresses - {"127.0.0.1", "127.0.1.1"}):
        lines.append(f"  network   {layout.scheme}://{address}:{layout.port}/")
    for name, port in layout.nodes():
        lines.append(f"  node {name:<4} http://127.0.0.1:{port}/   log {layout.run / (name + '.log')}")
    lines.append(f"  balancer  log {layout.run / 'haproxy.log'}")
    lines.append(f"  store     password in {layout.run / PASSWORD_FILE} (mode 0600); redis-cli: "
                 f"REDISCLI_AUTH=\"$(cat {layout.run / PASSWORD_FILE})\" redis-cli -p {layout.redis()}")
    lines.append(f"  control   supervisorctl -c {conf} status   (restart n1, stop n2, …)")
    lines.append("A process that exits is started again. Ctrl-C stops them all.")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, type=Path, help="the refreshkit binary")
    parser.add_argument("--processes", required=True, help="how many servers (N)")
    parser.add_argument("--port", required=True, help="the balancer's port (PORT)")
    parser.add_argument("--run", required=True, type=Path, help="the directory for configurations and logs")
    parser.add_argument("--tls-cert", type=Path, help="HAProxy serves https with this PEM certificate (and chain)")
    parser.add_argument("--tls-key", type=Path, help="the key of --tls-cert")
    parser.add_argument("serve_args", nargs="*", help="more `refreshkit serve` options (after --)")
    args = parser.parse_args(argv)
    if not args.processes.isdigit() or int(args.processes) < 1:
        sys.exit(f"error: PROCESSES must be a positive number, not {args.processes!r}")
    if not args.port.isdigit() or not 1 <= int(args.port) <= 65435:
        sys.exit(f"error: PORT must be a port number from 1 to 65435 (Redis takes PORT+100), not {args.port!r}")
    if (args.tls_cert is None) != (args.tls_key is None):
        sys.exit("error: --tls-cert and --tls-key go together")
    for path in (args.tls_cert, args.tls_key):
        if path is not None and not path.is_file():
            sys.exit(f"error: cannot read {path}")
    tls = (args.tls_cert, args.tls_key) if args.tls_cert else None
    layout = Layout(bin=args.bin.absolute(), processes=int(args.processes), port=int(args.port), run=args.run,
                    tls=tls)
    if int(args.processes) >= 100:
        sys.exit("error: PROCESSES must be below 100 (Redis listens on PORT+100)")
    conf = write(layout, args.serve_args)
    sys.stdout.write(banner(layout, conf))


if __name__ == "__main__":
    main()
