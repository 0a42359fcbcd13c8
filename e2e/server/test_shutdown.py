"""SIGTERM/SIGINT: open WebSockets are closed with 1001 (going away) and the process exits 0."""
from __future__ import annotations

import asyncio
import signal
import time

from conftest import hello, run, wait_closed, ws_connect


def test_sigterm_closes_clients_with_1001_and_exits_0(fresh_server):
    srv = fresh_server()

    async def scenario():
        async with ws_connect(srv) as a, ws_connect(srv) as b:
            await hello(a)
            await hello(b)
            started = time.monotonic()
            srv.proc.send_signal(signal.SIGTERM)
            codes = await asyncio.gather(wait_closed(a), wait_closed(b))
            assert codes == [1001, 1001], codes
            return time.monotonic() - started

    elapsed = run(scenario)
    assert elapsed < 2.0, f"clients closed only after {elapsed:.2f} s"
    assert srv.terminate() == 0, srv.output()


def test_sigint_with_idle_client_exits_0(fresh_server):
    srv = fresh_server()

    async def scenario():
        async with ws_connect(srv) as ws:  # connected, never said hello
            srv.proc.send_signal(signal.SIGINT)
            assert await wait_closed(ws) == 1001

    run(scenario)
    assert srv.proc.wait(10) == 0, srv.output()


def test_sigterm_without_clients_exits_0_quickly(fresh_server):
    srv = fresh_server()
    started = time.monotonic()
    assert srv.terminate() == 0, srv.output()
    assert time.monotonic() - started < 2.0
