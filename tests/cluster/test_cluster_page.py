"""The real page in headless Chromium through the balancer: two pages share a session on one process; that
process is killed mid-refresh; both pages reconnect by themselves (the socket URL names the session and its
node), land on the same other process, which took the session over, show it in the debug panel, and the
refresh finishes where it was."""
from __future__ import annotations

import signal
import sys

import pytest
from playwright.sync_api import sync_playwright

from cluster_support import ROOT

sys.path.append(str(ROOT / "tests" / "browser"))
from browser_support import configure_feed, edge, frame, wait_until  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


def open_page(browser, base: str, query: str = ""):
    context = browser.new_context(**PHONE)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(base + "/" + query)
    page.wait_for_function("() => window.refreshkit && window.refreshkit.frame && window.refreshkit.state.connected")
    return context, page


def welcome(page) -> dict:
    return page.evaluate("() => window.refreshkit.welcome")


def test_pages_follow_their_session_to_the_process_that_takes_it_over(browser, cluster):
    c = cluster(2)
    base = f"http://127.0.0.1:{c.balancer.port}"
    ctx_a, a = open_page(browser, base)
    sid = a.evaluate("() => window.refreshkit.session.id")
    ctx_b, b = open_page(browser, base, f"?s={sid}")
    try:
        node = welcome(a)["node"]
        assert sid.startswith(node + ".") and welcome(b)["node"] == node and welcome(b)["session"] == sid
        assert a.locator("[data-panel-node]").inner_text() == f"node {node}"
        configure_feed(a, latencyMs=3000)
        a.evaluate("() => window.refreshkit.send({type: 'command', name: 'refresh', edge: 'top'})")
        settled = wait_until(a, lambda p: (f := frame(p)) and edge(f, "top")["state"] == "refreshing"
                             and f["phase"] == "idle" and f, 5, what="the refresh to hold its indicator")
        sessions_key = f"rk:session:{sid}:ops"
        wait_until(a, lambda _: '"refresh"' in c.redis.cli("LRANGE", sessions_key, "0", "-1"), 5,
                   what="the refresh in the store")
        c.servers[node].proc.send_signal(signal.SIGKILL)
        for page in (a, b):  # each page reconnects by itself, through the balancer
            wait_until(page, lambda p: (w := welcome(p)) and (w.get("takeover") or {}).get("from") == node
                       and p.evaluate("() => window.refreshkit.state.connected"), 15,
                       what="the page to be welcomed by the process that took its session over")
        for page in (a, b):
            w = welcome(page)
            assert w["session"] == sid and w["resumed"] is True and "notice" not in w, w
            assert w["node"] != node
            assert f"taken over from {node}" in page.locator("[data-panel-node]").inner_text()
        assert welcome(a)["node"] == welcome(b)["node"], "both pages reach the same process"
        assert abs(frame(a)["offset"]["y"] - settled["offset"]["y"]) <= 1, (frame(a)["offset"], settled["offset"])
        wait_until(b, lambda p: edge(frame(p), "top")["state"] == "idle", 10, what="the refresh to finish")
    finally:
        ctx_a.close()
        ctx_b.close()
