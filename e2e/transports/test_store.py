"""One session store, two transports (docs/EMBEDDING.md, "In a Hummingbird app"; docs/SCALING.md): a session made on
`refreshkit serve --store` and handed to Redis when that process stops is taken over by the Hummingbird example on
the same store, where the page resumes it with its token, and back again. Real Redis (with a password, given to
each server apart from its command line), real processes; every wait is for a message or a close."""
from __future__ import annotations

import signal
import sys

import pytest

from hummingbird_support import hummingbird_command
from wire_support import ROOT, RunningServer, drag, hello, recv_until, run, wait_closed, ws_connect

sys.path.append(str(ROOT / "e2e" / "cluster"))
from cluster_support import RunningRedis  # noqa: E402  (after the path it lives on)


@pytest.fixture
def redis():
    store = RunningRedis()
    yield store
    store.kill()


def serve(transport: str, store: RunningRedis, node: str) -> RunningServer:
    """A server on `store`, which wants a password: `refreshkit serve` is given its file (--store-password-file), the
    Hummingbird example its environment (REFRESHKIT_STORE_PASSWORD_FILE); neither has the password on its argv."""
    if transport == "hummingbird":
        given = [f"{name}={value}" for name, value in store.store_env.items()]
        return RunningServer(program=["env", *given, *hummingbird_command(), "--store", store.url, "--node", node])
    return RunningServer(*store.store_args, "--node", node, "--log-level", "info")


@pytest.mark.parametrize("first,second", [("libwebsockets", "hummingbird"), ("hummingbird", "libwebsockets")])
def test_a_session_stopped_on_one_transport_is_taken_over_on_the_other(redis, first, second):
    a, b = serve(first, redis, "a"), serve(second, redis, "b")

    async def scenario():
        async with ws_connect(a) as ws:
            welcome, _ = await hello(ws)
            assert welcome["session"].startswith("a."), welcome
            await drag(ws, 4, -40)
            moved, _ = await recv_until(ws, lambda m: m["type"] == "frame" and m["offset"]["y"] > 0)
            a.proc.send_signal(signal.SIGTERM)  # every session goes to the store before the pages are closed
            assert await wait_closed(ws) == 1001
        async with ws_connect(b) as ws:
            again, frame = await hello(ws, session=welcome["session"], token=welcome["token"])
            assert again["session"] == welcome["session"] and again["resumed"] is True, again
            assert again["node"] == "b" and again["takeover"]["from"] == "a", again
            assert frame["offset"]["y"] > 0, frame
    try:
        run(scenario)
        assert a.proc.wait(10) == 0, a.output()
    finally:
        for srv in (a, b):
            srv.kill()
    assert not b.error_lines(), b.error_lines()
