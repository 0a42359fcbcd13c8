"""A failed refresh is visible: the message under the bar with Retry, and Retry refreshes (the real page in headless
Chromium against the real server, whose simulated feed is told to fail)."""
from __future__ import annotations

from browser_support import configure_feed, edge, frame, publish_image, save_screenshot, top_id, wait_until


def top_state(page):
    return (edge(frame(page), "top") or {}).get("state")


def test_a_failed_refresh_says_so_and_retry_refreshes(phone):
    page = phone
    banner = page.locator("#refresh-failure")
    configure_feed(page, failureRate=1, latencyMs=200)
    newest_before = top_id(page)
    page.click("#refresh")  # the bar's Refresh button: a refresh of the top edge
    banner.wait_for(state="visible", timeout=10_000)
    assert banner.get_attribute("role") == "alert"  # read out by screen readers as it appears
    assert "Couldn't refresh" in banner.inner_text()
    assert top_id(page) == newest_before
    wait_until(page, lambda p: top_state(p) == "idle" and frame(p)["phase"] == "idle", 10,
               what="the failed refresh to end")
    shot = save_screenshot(page, "refresh-failed.png")
    publish_image(shot, "docs/images/refresh-failed.png")
    assert banner.is_visible()

    configure_feed(page, failureRate=0)
    page.click("#refresh-retry")
    banner.wait_for(state="hidden", timeout=5_000)  # a new refresh takes the message away
    wait_until(page, lambda p: top_id(p) > newest_before and top_state(p) == "idle", 10,
               what="the retried refresh to bring new rows")
    events = page.evaluate("() => window.refreshkit.events.filter(e => e.edge === 'top').map(e => e.name)")
    assert events.count("didStart") >= 2 and "feedFailed" in events and "feedLoaded" in events, events
    assert not banner.is_visible()
    assert page.errors == []


def test_retry_pressed_while_the_failed_refresh_still_shows_refreshes_once_it_has_ended(phone):
    """The banner shows from the failure on, but the failed refresh stays on screen for its minimum visible time and
    then plays its exit, and the engine ignores a refresh asked for until then: Retry waits for the edge to settle
    and asks then (js/session/refreshAsks.js), instead of doing nothing."""
    page = phone
    banner = page.locator("#refresh-failure")
    page.evaluate("() => window.refreshkit.send({type: 'configure', edges: {top: {minimumVisibleDuration: 4}}})")
    wait_until(page, lambda p: p.evaluate("() => window.refreshkit.config?.edges?.top?.minimumVisibleDuration") == 4,
               5, what="the server to take the longer minimum visible time")
    configure_feed(page, failureRate=1, latencyMs=100)
    newest_before = top_id(page)
    page.click("#refresh")
    banner.wait_for(state="visible", timeout=10_000)
    assert top_state(page) == "refreshing", "the failed refresh still shows (its minimum visible time)"
    configure_feed(page, failureRate=0)
    page.click("#refresh-retry")
    wait_until(page, lambda p: top_id(p) > newest_before and top_state(p) == "idle", 15,
               what="the retried refresh, once the failed one ended, to bring new rows")
    events = page.evaluate("() => window.refreshkit.events.filter(e => e.edge === 'top').map(e => e.name)")
    assert events.count("didStart") == 2 and events.count("feedFailed") == 1, events
    assert page.errors == []
