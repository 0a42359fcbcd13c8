"""The real page in headless Chromium through the balancer: two pages share a session on one process; that
process is killed mid-refresh; both pages reconnect by themselves (the socket URL names the session and its
node), land on the same other process, which took the session over, show it in the debug panel, and the
refresh finishes where it was."""
from __future__ import annotations

import contextlib
import re
import signal
import sys

import pytest

from cluster_support import ROOT

sys.path.append(str(ROOT / "e2e" / "browser"))
from browser_support import chromium, configure_feed, edge, frame, wait_connected, wait_until  # noqa: E402

PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def open_page(browser, base: str, query: str = ""):
    context = browser.new_context(**PHONE)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(base + "/" + query)
    wait_connected(page)
    return context, page


def welcome(page) -> dict:
    return page.evaluate("() => window.refreshkit.welcome")


@contextlib.contextmanager
def two_pages_of_one_session(browser, c):
    """Two phones on one session through the balancer: (a, b, the session's id)."""
    base = f"http://127.0.0.1:{c.balancer.port}"
    ctx_a, a = open_page(browser, base)
    sid = a.evaluate("() => window.refreshkit.session.id")
    drive = welcome(a)["links"]["drive"]  # the owner's Drive link, `/?s=ID&k=KEY` (docs/PROTOCOL.md, "Roles")
    ctx_b, b = open_page(browser, base, drive.removeprefix("/"))
    try:
        yield a, b, sid
    finally:
        ctx_a.close()
        ctx_b.close()


def prediction(page) -> dict:
    return page.evaluate("() => window.refreshkit.prediction()")


def all_acknowledged(page) -> bool:
    """Every input the page numbered is acknowledged, and there was one."""
    p = prediction(page)
    return p["pending"] == 0 and p["lastAck"] == p["nextSeq"] - 1 and p["lastAck"] > 0


def wait_for_takeover(page, node: str):
    wait_until(page, lambda p: ((welcome(p).get("takeover") or {}).get("from") == node
                                and p.evaluate("() => window.refreshkit.state.connected")), 15,
               what="the page to be welcomed by the process that took its session over")


def stored_seqs(c, sid: str) -> dict[int, list[int]]:
    """Each member's input `seq`s in the store's record of the session (its trace's operations), in order."""
    seqs: dict[int, list[int]] = {}
    for op in c.redis.cli("LRANGE", f"rk:session:{sid}:ops", "0", "-1").splitlines():
        member = re.search(r'\\?"member\\?":(-?\d+)', op)
        seq = re.search(r'\\?"seq\\?":(\d+)', op)
        if member and seq:
            seqs.setdefault(int(member.group(1)), []).append(int(seq.group(1)))
    return seqs


def test_pages_follow_their_session_to_the_process_that_takes_it_over(browser, cluster):
    c = cluster(2)
    with two_pages_of_one_session(browser, c) as (a, b, sid):
        node = welcome(a)["node"]
        assert sid.startswith(node + ".") and welcome(b)["node"] == node and welcome(b)["session"] == sid
        assert a.locator("[data-panel-node]").inner_text() == f"node {node}"
        # the refresh must still be waiting for the feed when the other process takes over: long enough for a
        # take-over on a loaded machine (3 s was not, beside the browser suite)
        configure_feed(a, latencyMs=8000)
        a.evaluate("() => window.refreshkit.send({type: 'command', name: 'refresh', edge: 'top'})")
        settled = wait_until(a, lambda p: (f := frame(p)) and edge(f, "top")["state"] == "refreshing"
                             and f["phase"] == "idle" and f, 5, what="the refresh to hold its indicator")
        sessions_key = f"rk:session:{sid}:ops"
        wait_until(a, lambda _: '"refresh"' in c.redis.cli("LRANGE", sessions_key, "0", "-1"), 5,
                   what="the refresh in the store")
        c.servers[node].proc.send_signal(signal.SIGKILL)
        for page in (a, b):  # each page reconnects by itself, through the balancer
            wait_for_takeover(page, node)
        for page in (a, b):
            w = welcome(page)
            assert w["session"] == sid and w["resumed"] is True and "notice" not in w, w
            assert w["node"] != node
            assert f"taken over from {node}" in page.locator("[data-panel-node]").inner_text()
        assert welcome(a)["node"] == welcome(b)["node"], "both pages reach the same process"
        assert abs(frame(a)["offset"]["y"] - settled["offset"]["y"]) <= 1, (frame(a)["offset"], settled["offset"])
        wait_until(b, lambda p: edge(frame(p), "top")["state"] == "idle", 15, what="the refresh to finish")


def test_inputs_the_killed_process_never_stored_are_sent_again(browser, cluster):
    """A finger drags while its session's process is killed between two store writes: the page sends again
    what the store does not have (welcome.ack), keeps what the finger does while it reconnects, and the
    process that takes the session over ends up with every input, once each, and the content under the
    finger (docs/SCALING.md, "Resending")."""
    c = cluster(2)
    ctx, page = open_page(browser, f"http://127.0.0.1:{c.balancer.port}")
    try:
        sid = page.evaluate("() => window.refreshkit.session.id")
        node = welcome(page)["node"]
        server = c.servers[node].proc
        assert frame(page)["offset"]["y"] == 0
        cdp = page.context.new_cdp_session(page)
        x, y0 = 195.0, 700.0
        step = {"k": 0}

        def touch(kind: str, finger_y: float | None = None):
            step["k"] += 1
            points = [] if finger_y is None else [{"x": x, "y": finger_y, "id": 1}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points,
                                                  "timestamp": 1000.0 + step["k"] * 0.016})

        finger = {"y": y0}

        def moves(count: int):  # the finger goes up 6 px a move: the content scrolls down, linearly
            for _ in range(count):
                finger["y"] -= 6
                touch("touchMove", finger["y"])

        def stored() -> list[int]:
            return stored_seqs(c, sid).get(welcome(page)["member"], [])

        touch("touchStart", finger["y"])
        moves(10)
        # Freeze the process once its frames acknowledged every input but its store write did not yet carry
        # the last one (the write period is 100 ms: a few tries at most).
        for _ in range(20):
            moves(3)
            wait_until(page, all_acknowledged, 10, what="the process to acknowledge every input")
            server.send_signal(signal.SIGSTOP)
            last = prediction(page)["lastAck"]
            if last not in stored():
                break
            server.send_signal(signal.SIGCONT)
        else:
            pytest.fail("every store write carried the last input: no window to lose inputs in")
        lost = [s for s in range(1, last + 1) if s not in stored()]
        assert lost, "the store is missing the last inputs"
        server.send_signal(signal.SIGKILL)
        moves(5)  # the finger goes on while the page reconnects
        wait_for_takeover(page, node)
        moves(5)
        wait_until(page, all_acknowledged, 10, what="the new process to acknowledge every input")
        p = prediction(page)
        assert p["resent"] >= len(lost), (p, lost)
        moved = y0 - finger["y"]
        assert abs(frame(page)["offset"]["y"] - moved) <= 1, (frame(page)["offset"], moved)
        # every input, once each, in order, in what the new process writes
        wait_until(page, lambda _: p["lastAck"] in stored(), 5, what="the new process's store write")
        seqs = stored()
        assert seqs == list(range(1, p["lastAck"] + 1)), seqs
        touch("touchEnd")
        cdp.detach()
    finally:
        ctx.close()


def test_two_pages_dragging_through_a_holders_death_have_every_input_applied_once(browser, cluster):
    """Two devices of one session each drag a finger while the process holding it is killed (SIGKILL, between
    store writes or not): each page keeps what the session may lack, goes on numbering and keeping while it
    reconnects, and sends again what the new holder's welcome says it lacks (docs/SCALING.md, "Resending").
    The store's record of the session (its trace) then has every input of both pages, each once, in order."""
    c = cluster(2)
    with two_pages_of_one_session(browser, c) as (a, b, sid):
        node = welcome(a)["node"]
        assert welcome(b)["node"] == node and welcome(b)["session"] == sid
        members = {page: welcome(page)["member"] for page in (a, b)}
        assert members[a] != members[b]
        fingers = {}
        for index, page in enumerate((a, b)):
            fingers[page] = {"cdp": page.context.new_cdp_session(page), "x": 120.0 + 150 * index, "y": 700.0,
                             "k": 0}

        def touch(page, kind: str):
            f = fingers[page]
            f["k"] += 1
            points = [] if kind == "touchEnd" else [{"x": f["x"], "y": f["y"], "id": 1}]
            f["cdp"].send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points,
                                                       "timestamp": 1000.0 + f["k"] * 0.016})

        def moves(count: int):  # both fingers, in turn
            for _ in range(count):
                for page in (a, b):
                    fingers[page]["y"] -= 3
                    touch(page, "touchMove")

        for page in (a, b):
            touch(page, "touchStart")
        moves(10)
        wait_until(a, lambda _: all(all_acknowledged(p) for p in (a, b)), 10, what="both pages acknowledged")
        moves(8)  # not waited for: some of these may be applied and not yet stored, or not applied at all
        c.servers[node].proc.send_signal(signal.SIGKILL)
        moves(6)  # the fingers go on while the pages reconnect
        for page in (a, b):
            wait_for_takeover(page, node)
        moves(6)
        for page in (a, b):
            wait_until(page, all_acknowledged, 10, what="the new holder to acknowledge every input of the page")
            assert prediction(page)["missed"] == 0
        last = {page: prediction(page)["lastAck"] for page in (a, b)}

        wait_until(a, lambda _: all(stored_seqs(c, sid).get(members[p], [])[-1:] == [last[p]] for p in (a, b)), 5,
                   what="the new holder's store write of both pages' last inputs")
        seqs = stored_seqs(c, sid)
        for page in (a, b):
            # every input the page numbered, once each, in order
            assert seqs[members[page]] == list(range(1, last[page] + 1)), (members[page], seqs[members[page]])
        for page in (a, b):
            touch(page, "touchEnd")
            fingers[page]["cdp"].detach()
