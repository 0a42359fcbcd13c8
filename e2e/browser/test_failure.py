"""A failed refresh is visible: the message over the top of the list with Retry, and Retry refreshes (the real page in
headless Chromium against the real server, whose simulated feed is told to fail). The message is laid over the list,
not above it: the row being read stays where it is when it comes and when it goes."""
from __future__ import annotations

from browser_support import configure_feed, edge, frame, publish_image, save_screenshot, top_id, wait_until


def top_state(page):
    return (edge(frame(page), "top") or {}).get("state")


# the list's canvas on the page, and row `id` on the screen as the canvas drew it last (its top: the canvas's top plus
# the row's place on the canvas, js/feed/rowPainter.js), CSS px
WHERE = """(id) => {
    const c = document.getElementById('list').getBoundingClientRect();
    const r = window.refreshkit.rows().find((row) => row.id === id);
    return {canvas: {x: c.x, y: c.y, w: c.width, h: c.height}, row: r ? c.y + r.y : null};
}"""
# two animation frames: the page has drawn after what just changed (a state of the page, not a pause)
DRAWN = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
# the drawn offset is the server's latest frame's (nothing predicted or blended away still)
AT_REST = """() => { const f = window.refreshkit.frame, d = window.refreshkit.displayedOffset();
    return !!f && !f.segment && Math.abs(d.y - f.offset.y) < 0.01; }"""


def where(page, row_id) -> dict:
    page.wait_for_function(AT_REST)
    page.evaluate(DRAWN)
    return page.evaluate(WHERE, row_id)


def test_the_banner_is_laid_over_the_list_and_the_row_being_read_stays_put(phone):
    """Scrolled to a row in the middle of the screen, a failed refresh's banner comes over the top of the list and
    goes (Retry by keyboard, then by touch): the canvas keeps its box and the row moves by at most 1 px each time."""
    page = phone
    banner = page.locator("#refresh-failure")
    wait_until(page, lambda p: len(p.evaluate("() => window.refreshkit.rows()")) > 3 and frame(p)["phase"] == "idle",
               10, what="rows drawn at rest")
    estimate = page.evaluate("() => window.refreshkit.rowLayout().estimate")
    page.evaluate("(a) => window.refreshkit.send({type: 'command', name: 'scrollBy', amount: a})", 6 * estimate)
    wait_until(page, lambda p: frame(p)["offset"]["y"] > 2 * estimate and frame(p)["phase"] == "idle", 10,
               what="the scroll to end")
    # the row being read: the first whose top is in the middle third of the canvas
    read = page.evaluate("""() => { const h = document.getElementById('list').getBoundingClientRect().height;
        return window.refreshkit.rows().find((r) => r.y > h / 3 && r.y < 2 * h / 3)?.id ?? null; }""")
    assert read is not None
    before = where(page, read)

    # slow failures, so that the banner goes (Retry) while the next refresh still runs and comes again when it fails
    configure_feed(page, failureRate=1, latencyMs=1000)
    page.click("#refresh")
    banner.wait_for(state="visible", timeout=10_000)
    shown = where(page, read)
    assert shown["canvas"] == before["canvas"], (before, shown)
    assert abs(shown["row"] - before["row"]) <= 1, (before, shown)
    # over the list's top, inside the stage, not above it
    box = page.evaluate("() => { const b = document.getElementById('refresh-failure').getBoundingClientRect();"
                        " return {x: b.x, y: b.y, w: b.width, h: b.height}; }")
    c = before["canvas"]
    assert c["y"] <= box["y"] and box["y"] + box["h"] < c["y"] + c["h"], (c, box)
    assert 0 <= box["x"] and box["x"] + box["w"] <= c["w"], (c, box)

    # Retry by keyboard: the banner goes as the new refresh starts
    wait_until(page, lambda p: top_state(p) == "idle", 10, what="the failed refresh to end")
    page.focus("#refresh-retry")
    page.keyboard.press("Enter")
    banner.wait_for(state="hidden", timeout=5_000)
    gone = where(page, read)
    assert gone["canvas"] == before["canvas"], (before, gone)
    assert abs(gone["row"] - shown["row"]) <= 1, (shown, gone)

    # the retried refresh fails too: the banner comes again, and a tap on Retry takes it away
    banner.wait_for(state="visible", timeout=10_000)
    again = where(page, read)
    assert again["canvas"] == before["canvas"] and abs(again["row"] - gone["row"]) <= 1, (gone, again)
    wait_until(page, lambda p: top_state(p) == "idle", 10, what="the second failed refresh to end")
    # this retry succeeds: the banner stays gone (one that failed again would show it a second later, and a busy
    # machine may look only after that)
    configure_feed(page, failureRate=0, latencyMs=1000)
    page.locator("#refresh-retry").tap()
    banner.wait_for(state="hidden", timeout=5_000)
    last = where(page, read)
    assert last["canvas"] == before["canvas"] and abs(last["row"] - again["row"]) <= 1, (again, last)
    events = page.evaluate("() => window.refreshkit.events.filter(e => e.edge === 'top').map(e => e.name)")
    assert events.count("didStart") == 3, events
    assert page.errors == []


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
