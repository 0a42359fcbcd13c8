"""Shared sessions, resume and traces in real Chromium against the real server: two pages in one session (one
driven by touch, the other follows), a WebSocket cut mid-refresh that resumes and finishes, a reload that
resumes, a stale token and an expired link, and a trace exported by the page, replayed by `refreshkit
replay` (same transitions, same frames) and played back by the page."""
from __future__ import annotations

import json
import re
import subprocess

from browser_support import (
    ROOT,
    canvas_point,
    configure_feed,
    drive_query,
    edge,
    frame,
    save_screenshot,
    top_id,
    touch_drag,
    touch_end,
    transitions,
    wait_connected,
    wait_until,
)
from conftest import PHONE, PHONE_2X, open_page, server_binary

HEX128 = re.compile(r"^[0-9a-f]{32}$")


def session(page) -> dict:
    return page.evaluate("() => window.refreshkit.session")


def top_state(page):
    e = edge(frame(page), "top")
    return e and e.get("state")


def slow_feed(page, ms: int):
    configure_feed(page, latencyMs=ms)


def all_transitions(page) -> list[tuple]:
    return [(e.get("edge"), e.get("from"), e.get("to"), e.get("cause")) for e in page.evaluate(
        "() => window.refreshkit.events.filter(e => e.name === 'transition')")]


def test_two_pages_share_a_session_and_the_second_follows_touch(browser, server):
    ctx_a, a = open_page(browser, server, PHONE)
    ctx_b = None
    try:
        sid = session(a)["id"]
        assert HEX128.match(sid), sid
        assert a.url.endswith(f"/?s={sid}"), a.url  # a reload rejoins; the address is the share link
        a.click("#share-toggle")
        assert a.locator("#share").is_visible()
        # the owner's two links (docs/PROTOCOL.md, "Roles"): the session and a key of its own each
        drive = a.locator("#share-link-drive").inner_text()
        watch = a.locator("#share-link-watch").inner_text()
        assert re.match(rf"^{re.escape(server.url)}/\?s={sid}&k=[0-9a-f]{{32}}$", drive), drive
        assert re.match(rf"^{re.escape(server.url)}/\?s={sid}&k=[0-9a-f]{{32}}$", watch), watch
        assert drive != watch and session(a)["links"] == {"drive": drive, "watch": watch}
        a.keyboard.press("Escape")
        assert not a.locator("#share").is_visible()

        ctx_b, b = open_page(browser, server, PHONE, drive_query(a))
        assert session(b)["id"] == sid and session(b)["member"] == 1 and session(b)["role"] == "drive"
        wait_until(a, lambda p: session(p)["members"] == 2, 3, what="A to see two devices")
        assert session(b)["members"] == 2
        assert a.get_attribute("#share-toggle", "data-members") == "2"

        slow_feed(a, 1500)
        newest_before = top_id(b)
        # A's finger pulls down and holds: B's list follows it
        finger = touch_drag(a, canvas_point(a, 0.5, 0.15), dy=300, steps=20, interval=0.016, release=False)
        wait_until(b, lambda p: frame(p)["phase"] == "dragging" and frame(p)["offset"]["y"] < -40, 3,
                   what="B to follow A's finger")
        assert frame(b)["offset"]["y"] == frame(a)["offset"]["y"] or abs(frame(b)["seq"] - frame(a)["seq"]) <= 2
        touch_end(finger)
        # B's events, not its state at one look: on a loaded machine the 1.5 s refresh can start late, and a look
        # can come after it (twice in fresh-clone runs with 5 s on the state)
        wait_until(b, lambda p: any(t["to"] == "refreshing" for t in transitions(p, "top")), 15,
                   what="B to show the refresh A started")
        if top_state(b) == "refreshing":
            save_screenshot(b, "shared-follower-refreshing.png")
        wait_until(b, lambda p: top_state(p) == "idle" and top_id(p) > newest_before, 10,
                   what="the refresh to finish on B")
        wait_until(a, lambda p: top_state(p) == "idle", 3, what="the refresh to finish on A")
        # both got every event: the same transitions, in the same order
        assert transitions(b, "top") == transitions(a, "top")
        assert [t["to"] for t in transitions(b, "top")][-4:] == ["armed", "refreshing", "finishing", "idle"]
        assert top_id(b) == top_id(a)
        assert a.errors == [] and b.errors == []
    finally:
        ctx_a.close()
        if ctx_b:
            ctx_b.close()


def test_websocket_cut_mid_refresh_resumes_and_finishes(browser, server):
    context = browser.new_context(**PHONE)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    sockets = []

    def route(ws):  # every WebSocket goes through here, so the test can cut it like a network would
        server_side = ws.connect_to_server()
        sockets.append((ws, server_side))

    page.route_web_socket(re.compile(r"^ws://"), route)
    try:
        page.goto(server.url + "/")
        wait_connected(page)
        first = page.evaluate("() => window.refreshkit.welcome")
        slow_feed(page, 2500)
        newest_before = top_id(page)
        touch_drag(page, canvas_point(page, 0.5, 0.15), dy=320, steps=20, interval=0.016)
        wait_until(page, lambda p: top_state(p) == "refreshing", 5, what="refreshing")

        # cut: both directions at once, mid-refresh
        ws, server_side = sockets[-1]
        server_side.close()
        ws.close()
        wait_until(page, lambda p: not p.evaluate("() => window.refreshkit.state.connected"), 3,
                   what="the page to notice the cut")
        # (evaluate first: Playwright's sync API runs the route handler only while it is called)
        wait_until(page, lambda p: p.evaluate("() => window.refreshkit.state.connected") and len(sockets) >= 2, 10,
                   what="the page to reconnect")
        again = page.evaluate("() => window.refreshkit.welcome")
        assert again["session"] == first["session"] and again["token"] == first["token"]
        assert again.get("resumed") is True and again["member"] == 0
        # the refresh that was running goes on and finishes, with new rows
        wait_until(page, lambda p: top_state(p) == "idle" and top_id(p) > newest_before, 10,
                   what="the resumed refresh to finish")
        states = [t["to"] for t in transitions(page, "top")]
        assert states.count("refreshing") == 1 and states[-2:] == ["finishing", "idle"], states
        assert page.errors == []
    finally:
        context.close()


def test_reload_resumes_the_same_member(browser, server):
    context, page = open_page(browser, server, PHONE)
    try:
        before = page.evaluate("() => window.refreshkit.welcome")
        page.reload()
        wait_connected(page)
        after = page.evaluate("() => window.refreshkit.welcome")
        assert after["session"] == before["session"] and after["token"] == before["token"]
        assert after.get("resumed") is True and after["member"] == 0
    finally:
        context.close()


def test_a_stale_token_rejoins_and_an_expired_link_starts_fresh(browser, server):
    ctx_a, a = open_page(browser, server, PHONE)
    ctx_b = ctx_c = None
    try:
        sid = session(a)["id"]
        ctx_b = browser.new_context(**PHONE)
        ctx_b.add_init_script(f"sessionStorage.setItem('refreshkit.token.{sid}', '{'0' * 32}')")
        b = ctx_b.new_page()
        b.goto(f"{server.url}/{drive_query(a)}")
        wait_connected(b)
        assert session(b)["id"] == sid and session(b)["member"] == 1
        assert any(e["code"] == "bad_token" for e in b.evaluate("() => window.refreshkit.errors"))
        assert b.locator("#notice").is_visible() and "new device" in b.locator("#notice").inner_text()

        gone = "f" * 32
        ctx_c, c = open_page(browser, server, PHONE, f"?s={gone}")
        fresh = c.evaluate("() => window.refreshkit.welcome")
        assert fresh["notice"] == "session_expired" and fresh["session"] != gone
        assert c.locator("#notice").is_visible() and "ended" in c.locator("#notice").inner_text()
        assert c.url.endswith(f"/?s={fresh['session']}")
    finally:
        for ctx in (ctx_a, ctx_b, ctx_c):
            if ctx:
                ctx.close()


def test_exported_trace_replays_with_the_same_transitions_and_plays_back(browser, server, tmp_path):
    context, page = open_page(browser, server, PHONE_2X)
    try:
        sid = session(page)["id"]
        slow_feed(page, 600)
        newest_before = top_id(page)
        touch_drag(page, canvas_point(page, 0.5, 0.15), dy=320, steps=20, interval=0.016)
        wait_until(page, lambda p: top_state(p) == "idle" and top_id(p) > newest_before, 8,
                   what="the refresh to finish")
        wait_until(page, lambda p: frame(p)["phase"] == "idle", 5, what="settled")
        touch_drag(page, canvas_point(page, 0.5, 0.8), dy=-250, steps=8, interval=0.008)  # and a fling
        wait_until(page, lambda p: frame(p)["phase"] == "idle" and not frame(p)["feed"]["loading"]
                   and all(e["state"] in ("idle", "noMoreData") for e in frame(p)["edges"]), 8,
                   what="the fling (and any load-more it started) to settle")

        page.click("#share-toggle")
        with page.expect_download(timeout=10_000) as info:
            page.click("#trace-export")
        download = info.value
        name = download.suggested_filename
        assert re.match(rf"^refreshkit-trace-{sid[:8]}-[0-9T-]+\.json$", name), name
        assert sid not in name
        path = tmp_path / name
        download.save_as(path)
        trace = json.loads(path.read_text())
        assert trace["format"] == "refreshkit.trace.v2" and trace["dpr"] == 2 and not trace["truncated"]

        result = subprocess.run([str(server_binary()), "replay", str(path)], cwd=ROOT, capture_output=True,
                                text=True, timeout=30)
        assert result.returncode == 0, result.stderr + result.stdout
        assert f"frames {trace['frames']} digest {trace['digest']} — matches the recording" in result.stdout
        replayed = re.findall(r"^t=[-\d.]+ms (\w+) (\w+)→(\w+) (\w+)$", result.stdout, re.MULTILINE)
        assert replayed == all_transitions(page), result.stdout
        assert any(t[:3] == ("top", "armed", "refreshing") for t in replayed), replayed

        # playback: a fresh session with the trace's start, the same messages at their times
        page.keyboard.press("Escape")
        page.set_input_files("#trace-file", str(path))
        wait_until(page, lambda p: session(p)["id"] not in (None, sid), 5, what="a new session for the playback")
        wait_until(page, lambda p: (p.evaluate("() => window.refreshkit.playback") or {}).get("done"), 15,
                   what="the playback to send every message")
        played = page.evaluate("() => window.refreshkit.playback")
        assert played["sent"] == played["messages"] > 0
        # (the played refresh runs its feed's latency, its minimum time and its exit at the trace's own times, and
        # a machine running three browsers on two cores may be seconds late: a wide bound on the state waited for)
        try:
            wait_until(page, lambda p: top_state(p) == "idle" and frame(p)["phase"] == "idle", 30, what="settled")
        except AssertionError as timeout:  # say where it stood: the edge, the phase, the last transitions, refusals
            f = frame(page)
            errors = page.evaluate("() => window.refreshkit.errors")
            raise AssertionError(f"{timeout}: top {top_state(page)}, phase {f['phase']}, offset {f.get('offset')}, "
                                 f"transitions {all_transitions(page)[-3:]}, errors {errors[-5:]}") from None
        after = [t for t in all_transitions(page)][len(replayed):]
        assert any(t[:3] == ("top", "armed", "refreshing") for t in after), after
        assert page.errors == []
    finally:
        context.close()
