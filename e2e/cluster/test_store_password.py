"""The session store's password (docs/SCALING.md, "The store's password"): never on a command line, which
`ps` and /proc/PID/cmdline show to every user of the machine.

The attack: a local user reads the password off a command line (`--store redis://:PASSWORD@…`, a
`redis-server --requirepass`) and then reads or rewrites every session in Redis. `refreshkit serve` refuses a password
in `--store`, and a password file others may read, at start, with a message that says where to give it and never shows
it. `make cluster` (scripts/cluster.sh) makes a random password in its run directory (mode 0600); its Redis refuses
a client without it (NOAUTH) or with another (WRONGPASS); no process on the machine has it on its command line; and
the cluster serves sessions, which the servers write to the store with it. A server given a wrong password, or none,
logs one clear error without any password and serves on, its sessions not shared, as in a store outage."""
from __future__ import annotations

import asyncio
import os
import re
import socket
import stat
import subprocess
from pathlib import Path

from cluster_support import RunningRedis, RunningServer, server_support, wait_for
from test_cluster import connect_to
from test_supervised import launched, stop_and_check_nothing_is_left, tail  # noqa: F401  (launched: a fixture)

hello, recv_until, send_json, run = (server_support.hello, server_support.recv_until, server_support.send_json,
                                     server_support.run)


def serve(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`refreshkit serve ARGS` that is expected to stop at start (bounded), its environment `env` (else the tests')."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("REFRESHKIT_STORE_")}
    return subprocess.run([str(server_support.server_binary()), "serve", "--host", "127.0.0.1", "--port", "0", *args],
                          capture_output=True, text=True, timeout=20, env={**base, **(env or {})},
                          cwd=server_support.ROOT)


def secret_file(folder: Path, text: str, mode: int = 0o600) -> Path:
    path = folder / "store.password"
    path.write_text(text)
    path.chmod(mode)
    return path


def answer(port: int, *commands: bytes) -> list[bytes]:
    """Redis's first reply line to each of `commands` (inline commands) on one raw connection: what any local
    client that has no password gets."""
    replies = []
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        reader = sock.makefile("rb")
        for command in commands:
            sock.sendall(command + b"\r\n")
            replies.append(reader.readline().rstrip(b"\r\n"))
    return replies


def command_lines() -> dict[int, bytes]:
    """Every process's command line that this user can read (/proc/PID/cmdline: any user can read any of them)."""
    lines = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                lines[int(entry.name)] = (entry / "cmdline").read_bytes()
            except OSError:
                pass  # gone meanwhile
    return lines


async def drag_gives_frames(url: str) -> dict:
    """A page's session through `url`: hello → welcome, a drag → frames that moved. Returns the welcome."""
    async with connect_to(url) as ws:
        welcome, _ = await hello(ws)
        await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": 1, "id": 1})
        for step in range(1, 5):
            await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": -10, "t": 1 + 16 * step, "id": 1})
        await recv_until(ws, lambda m: m["type"] == "frame" and m["offset"]["y"] > 0)
        return welcome


# -- The attack: a password on a command line, refused at start


def test_a_password_in_the_store_url_is_refused_at_start_without_showing_it():
    for url in ("redis://:hunter2@127.0.0.1:6379", "redis://alice:hunter2@127.0.0.1:6379/2"):
        done = serve("--store", url)
        assert done.returncode != 0 and "listening on" not in done.stdout, done
        assert "a password in --store is shown to every user of this machine" in done.stderr, done.stderr
        assert "REFRESHKIT_STORE_PASSWORD" in done.stderr and "--store-password-file" in done.stderr, done.stderr
        assert "hunter2" not in done.stderr + done.stdout


def test_a_password_file_others_can_read_is_refused_and_so_is_one_given_twice(tmp_path):
    readable = secret_file(tmp_path, "hunter2\n", 0o644)
    done = serve("--store", "redis://127.0.0.1:6379", "--store-password-file", str(readable))
    assert done.returncode != 0, done
    assert "may be read by every user of this machine (mode 0644)" in done.stderr, done.stderr
    assert f"chmod 600 '{readable}'" in done.stderr and "hunter2" not in done.stderr + done.stdout
    readable.chmod(0o600)
    twice = serve("--store", "redis://127.0.0.1:6379",
                  env={"REFRESHKIT_STORE_PASSWORD": "hunter2", "REFRESHKIT_STORE_PASSWORD_FILE": str(readable)})
    assert twice.returncode != 0 and "given twice" in twice.stderr and "hunter2" not in twice.stderr, twice.stderr
    alone = serve("--store-password-file", str(readable))
    assert alone.returncode != 0 and "--store-password-file needs --store" in alone.stderr, alone.stderr


# -- make cluster's configuration


def test_make_cluster_redis_wants_its_random_password_which_no_command_line_holds(launched):  # noqa: F811
    c = launched(2)
    password_file = c.run_dir / "store.password"
    password = password_file.read_text().strip()
    assert re.fullmatch(r"[0-9a-f]{64}", password), "a random password, 256 bits"
    for name in ("store.password", "redis-auth.conf"):
        assert stat.S_IMODE((c.run_dir / name).stat().st_mode) == 0o600, name
    assert stat.S_IMODE(c.run_dir.stat().st_mode) == 0o700
    # A local client without the password gets nothing; with another one, WRONGPASS; with it, an answer.
    redis_port = c.port + 100
    no_password = answer(redis_port, b"PING", b"KEYS *", b"AUTH wrong-password")
    assert no_password[0].startswith(b"-NOAUTH") and no_password[1].startswith(b"-NOAUTH"), no_password
    assert no_password[2].startswith(b"-WRONGPASS"), no_password
    assert answer(redis_port, b"AUTH " + password.encode(), b"PING") == [b"+OK", b"+PONG"]

    # The cluster serves a session, and the servers write it to the store (with the password).
    async def scenario():
        return await drag_gives_frames(c.url())
    welcome = run(scenario)
    wait_for(lambda: c.redis("EXISTS", f"rk:session:{welcome['session']}").strip() == "1",
             what="the session in the store")

    # No process on this machine holds the password on its command line: Redis, supervisord, the servers, HAProxy,
    # the launcher, nor any other (each of the cluster's among them).
    lines = command_lines()
    ours = [pid for pid in c.every_pid() if pid]
    names = ["launcher", "redis", "haproxy", *c.nodes]
    gone = {name: pid for name, pid in zip(names, c.every_pid(), strict=True) if pid not in lines}
    assert len(ours) == 5 and not gone, (gone, {name: tail(c.run_dir / f"{name}.log") for name in gone},
                                         tail(c.run_dir / "supervisord.log"))
    holding = {pid: line for pid, line in lines.items() if password.encode() in line}
    assert not holding, holding
    server = lines[c.pid("n1")].split(b"\0")
    assert server[server.index(b"--store-password-file") + 1] == str(password_file).encode(), server
    # Nor do the logs or the launcher's banner.
    assert password not in "\n".join(c.stdout)
    for log in c.run_dir.glob("*.log"):
        assert password not in log.read_text(errors="replace"), log
    stop_and_check_nothing_is_left(c, "sigterm")  # the run directory, the password with it, removed


# -- A server given the store's password from the environment, a wrong one, or none


def test_the_password_from_the_environment_and_a_wrong_one_logged_clearly_as_a_store_outage(tmp_path, monkeypatch):
    redis = RunningRedis()  # wants this pytest process's password
    servers: dict[str, RunningServer] = {}
    try:
        # From the environment (a systemd EnvironmentFile, supervisord's environment=): the sessions are stored.
        monkeypatch.setenv("REFRESHKIT_STORE_PASSWORD", redis.password)
        servers["env"] = RunningServer("--store", redis.url, "--node", "env", "--log-level", "info")
        monkeypatch.delenv("REFRESHKIT_STORE_PASSWORD")
        stored = run(lambda: drag_gives_frames(servers["env"].ws_url))
        wait_for(lambda: redis.cli("EXISTS", f"rk:session:{stored['session']}").strip() == "1",
                 what="the session in the store")
        assert not servers["env"].error_lines(), servers["env"].error_lines()
        # A wrong password (from a file) and none at all: one clear error each, without any password; the server
        # serves on as when the store is down (docs/SCALING.md, "The store going away"): a page is welcomed, its
        # inputs taken, its frames held (the serving lease), and nothing is stored.
        wrong = secret_file(tmp_path, "hunter2-not-it\n")
        said = {"wrong": ("the session store refused this server's credentials", "WRONGPASS"),
                "none": ("the session store wants a password and this server has none", "NOAUTH")}
        servers["wrong"] = RunningServer("--store", redis.url, "--node", "wrong", "--log-level", "info",
                                         "--store-password-file", str(wrong))
        servers["none"] = RunningServer("--store", redis.url, "--node", "none", "--log-level", "info")

        async def scenario():
            pages = {}
            for node in ("wrong", "none"):
                ws = pages[node] = await connect_to(servers[node].ws_url)
                await send_json(ws, {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3})
                welcome, _ = await recv_until(ws, lambda m: m["type"] == "welcome")
                assert welcome["node"] == node, welcome
                pages[node].session = welcome["session"]
                await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": 1, "id": 1})
                await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": -40, "t": 17, "id": 1})
                message, what = said[node]
                refused = await asyncio.to_thread(
                    wait_for, lambda s=servers[node], m=message: [x for x in s.error_lines() if m in x],
                    what=f"{node}: the server to say {message!r}")
                assert len(refused) == 1 and what in refused[0], refused
                assert "REFRESHKIT_STORE_PASSWORD" in refused[0], refused
                assert redis.cli("EXISTS", f"rk:session:{welcome['session']}").strip() == "0"
            # The store's password becomes the one the server was given (the operator fixes either side): the
            # server's next attempt is accepted, said once, its session stored and its page drawn, where it was.
            fixed = wrong.read_text().strip()
            assert redis.cli("CONFIG", "SET", "requirepass", fixed).strip() == "OK"
            await recv_until(pages["wrong"], lambda m: m["type"] == "frame" and m["offset"]["y"] > 0, timeout=10)
            await asyncio.to_thread(
                wait_for, lambda: redis.cli("EXISTS", f"rk:session:{pages['wrong'].session}",
                                            password=fixed).strip() == "1", what="the session in the store")
            assert any("accepted this server's credentials" in line for line in servers["wrong"].stderr)
            for ws in pages.values():
                await ws.close()
        run(scenario)
        for node, srv in servers.items():
            assert srv.proc.poll() is None, srv.output()
            shown = "\n".join(srv.stdout + srv.stderr)
            assert "hunter2" not in shown and redis.password not in shown, shown
            assert len([x for x in srv.error_lines() if "credentials" in x or "wants a password" in x]) == (
                0 if node == "env" else 1), srv.error_lines()
    finally:
        for srv in servers.values():
            srv.kill()
        redis.kill()
