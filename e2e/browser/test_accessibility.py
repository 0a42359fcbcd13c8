"""Accessibility (README.md, "Using the demo"): an axe-core audit of the phone and desktop pages, the feed
mirror of the canvas's rows
(the WAI-ARIA feed pattern, https://www.w3.org/WAI/ARIA/apg/patterns/feed/) read from the accessibility tree,
reached and walked by keyboard, and busy while a refresh runs. The real page in headless Chromium against the real
server; every wait is for a state."""
from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from browser_support import configure_feed, frame, top_id, wait_until

SERIOUS = {"serious", "critical"}


def article_name(item: dict) -> str:
    """An article's name: its row's title, the item's author, or its text when it has none (js/feedMirror.js)."""
    return item.get("author") or item["text"]


def set_panel(page, open_: bool):
    want = "true" if open_ else "false"
    if page.get_attribute("#debug-toggle", "aria-pressed") != want:
        page.click("#debug-toggle")
    page.wait_for_function("(w) => document.getElementById('debug-toggle').getAttribute('aria-pressed') === w",
                           arg=want)
    page.wait_for_function("(open) => document.getElementById('panel').hidden === !open", arg=open_)


@pytest.mark.parametrize("device", ["phone", "desktop"])
@pytest.mark.parametrize("panel_open", [False, True], ids=["panel-closed", "panel-open"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation(request, device, panel_open, scheme):
    page = request.getfixturevalue(device)
    page.emulate_media(color_scheme=scheme)
    page.wait_for_function("(s) => matchMedia(`(prefers-color-scheme: ${s})`).matches", arg=scheme)
    set_panel(page, panel_open)
    page.wait_for_function("() => document.querySelectorAll('#feed article').length > 0")
    results = Axe().run(page)
    serious = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:5], v["nodes"][0]["failureSummary"])
               for v in results.response["violations"] if v["impact"] in SERIOUS]
    assert serious == [], serious
    assert page.errors == []


# What the page shows of the feed: the frame's offset and feed, the rows the canvas drew last (`rows()`: index,
# id and rect on the canvas, placed by the row layout at their measured heights, js/feed/rowLayout.js), and the
# loaded items (newest first), so that a test reads rows where the page puts them, never at `i × rowHeight`.
VIEW = """() => { const k = window.refreshkit, f = k.frame;
    return {y: f.offset.y, shown: k.displayedOffset().y, vh: f.viewport.h, phase: f.phase, count: f.feed.count,
            hasMore: f.feed.hasMore, rows: k.rows(), items: k.feed(1000).items}; }"""


def view(page) -> dict:
    return page.evaluate(VIEW)


def in_view(v: dict) -> list[dict]:
    """The drawn rows that show at least in part."""
    return [r for r in v["rows"] if r["y"] < v["vh"] and r["y"] + r["h"] > 0]


def drawn_row(v: dict, index: int) -> dict | None:
    return next((r for r in v["rows"] if r["index"] == index), None)


def rows_measured(page) -> bool:
    """Rows drawn, the list at rest, every height the page measured accepted by the engine (the rows placed by it)."""
    lay = page.evaluate("() => window.refreshkit.rowLayout()")
    v = view(page)
    return bool(in_view(v)) and v["phase"] == "idle" and lay["accepted"] > 0 and lay["awaiting"] == 0


def first_visible_index(page) -> int:
    """The first row wholly in view from the top (its top at or below the list's top), as the canvas drew it."""
    return next(r["index"] for r in view(page)["rows"] if r["y"] >= -0.5)


def test_rows_are_read_from_the_accessibility_tree(desktop):
    page = desktop
    feed_el = page.get_by_role("feed")
    feed_el.wait_for()
    wait_until(page, rows_measured, 10, what="rows drawn at their accepted heights")
    v = view(page)
    items, count = v["items"], v["count"]
    visible = in_view(v)
    articles = page.get_by_role("article")
    assert articles.count() >= len(visible)
    assert articles.count() <= len(visible) + 2 * 5 + 1  # the visible rows and a few beyond, not the whole feed
    for r in visible:
        item = items[r["index"]]
        assert r["id"] == item["id"], (r, item["id"])
        # named by its row's title: the item's author (the simulated feed's "Item N"), else its text
        row = page.get_by_role("article", name=article_name(item), exact=True)
        assert row.get_attribute("aria-posinset") == str(r["index"] + 1)
        assert row.get_attribute("aria-setsize") == ("-1" if v["hasMore"] else str(count))
        assert row.get_attribute("tabindex") == "0"
    # the rows' heights vary (measured, js/feed/rowLayout.js): the check below is not one of `i × rowHeight`
    assert len({r["h"] for r in visible}) > 1, visible
    # each article lies over its row as the canvas drew it, at its height (touch exploration finds a row where the
    # canvas shows it); rows mirrored beyond the drawn ones lie where the layout puts them
    page.wait_for_function("""() => {
        const k = window.refreshkit, c = document.getElementById('list').getBoundingClientRect();
        const drawn = new Map(k.rows().map((r) => [r.index, r])), y = k.displayedOffset().y;
        return [...document.querySelectorAll('#feed article')].every((a) => {
            const i = Number(a.getAttribute('aria-posinset')) - 1, box = a.getBoundingClientRect(), r = drawn.get(i);
            if (!r) return Math.abs(box.top - c.top - (k.rowTop(i) - y)) < 1;
            return Math.abs(box.top - c.top - r.y) < 1 && Math.abs(box.height - r.h) < 1;
        });
    }""")
    # the accessibility tree itself (Chromium's, through CDP): a feed whose articles are named by their titles
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    roles = {n.get("role", {}).get("value") for n in nodes}
    assert "feed" in roles
    names = [n.get("name", {}).get("value") for n in nodes if n.get("role", {}).get("value") == "article"]
    assert article_name(items[0]) in names and article_name(items[1]) in names, names[:5]
    assert page.errors == []


def focused_index(page):
    return page.evaluate("() => { const a = document.activeElement;"
                         " return a && a.tagName === 'ARTICLE' ? Number(a.getAttribute('aria-posinset')) - 1 : null; }")


def row_in_view(page, index: int) -> bool:
    """Row `index` drawn wholly in the viewport, the list at rest (the page draws the frame's offset then)."""
    v = view(page)
    r = drawn_row(v, index)
    return (r is not None and r["y"] >= -0.5 and r["y"] + r["h"] <= v["vh"] + 0.5 and v["phase"] == "idle"
            and abs(v["shown"] - v["y"]) < 0.5)


def test_the_feed_is_reached_by_tab_and_page_down_moves_row_by_row(desktop):
    page = desktop
    page.get_by_role("feed").wait_for()
    page.focus("#refresh")
    for _ in range(6):  # the canvas, then the feed
        page.keyboard.press("Tab")
        if focused_index(page) is not None:
            break
    start = focused_index(page)
    assert start is not None, "Tab never reached the feed"
    assert start == first_visible_index(page), "Tab lands on the first visible row"
    v = view(page)
    rows_in_view = sum(1 for r in in_view(v) if r["y"] >= -0.5 and r["y"] + r["h"] <= v["vh"] + 0.5)
    steps = rows_in_view + 3  # past the bottom of the viewport: the list has to scroll
    for k in range(1, steps + 1):
        page.keyboard.press("PageDown")
        page.wait_for_function("(i) => Number(document.activeElement?.getAttribute('aria-posinset')) === i + 1",
                               arg=start + k)
        wait_until(page, lambda p, row=start + k: row_in_view(p, row), 10, what=f"row {start + k} scrolled into view")
    assert frame(page)["offset"]["y"] > 0, "the list scrolled to follow the focus"
    # the focus is visible: the focused article sits over its row, with an outline

    def focused_box(p):
        return p.evaluate("() => { const a = document.activeElement, s = getComputedStyle(a),"
                          " r = a.getBoundingClientRect();"
                          " const c = document.getElementById('list').getBoundingClientRect();"
                          " return {opacity: s.opacity, outline: s.outlineStyle, top: r.top - c.top, h: r.height}; }")

    def over_its_row(p):  # the scroll animates to the row: the state is the article over it once it rests
        v = view(p)
        box = focused_box(p)
        row = drawn_row(v, start + steps)  # where the canvas drew the focused row
        return (v["phase"] == "idle" and row is not None and abs(box["top"] - row["y"]) <= 1
                and abs(box["h"] - row["h"]) <= 1)
    wait_until(page, over_its_row, 10, what="the focused article over its row once the list rests")
    box = focused_box(page)
    assert box["opacity"] == "1" and box["outline"] == "solid"
    # Page Up goes back one row
    page.keyboard.press("PageUp")
    page.wait_for_function("(i) => Number(document.activeElement?.getAttribute('aria-posinset')) === i + 1",
                           arg=start + steps - 1)
    assert page.errors == []


def test_the_feed_is_busy_while_a_refresh_runs(phone):
    page = phone
    feed_el = page.get_by_role("feed")
    feed_el.wait_for()
    assert feed_el.get_attribute("aria-busy") == "false"
    configure_feed(page, latencyMs=800, failureRate=0)
    newest = top_id(page)
    page.click("#refresh")
    page.wait_for_function("() => document.getElementById('feed').getAttribute('aria-busy') === 'true'")
    page.wait_for_function("() => document.getElementById('feed').getAttribute('aria-busy') === 'false'")
    wait_until(page, lambda p: top_id(p) > newest, 10, what="the refresh's new rows")
    newest = article_name(view(page)["items"][0])  # the refresh's newest item, named as its row's title
    page.get_by_role("article", name=newest, exact=True).wait_for(state="attached")
    assert page.errors == []


def record_announcements(page):
    """Every text the polite live region takes from now on (window.__announced)."""
    page.evaluate("""() => {
        window.__announced = [];
        if (window.__announcerObserved) return;
        window.__announcerObserved = true;
        const el = document.getElementById('announcer');
        new MutationObserver(() => { if (el.textContent) window.__announced.push(el.textContent); })
            .observe(el, {childList: true, characterData: true, subtree: true});
    }""")


def announced(page) -> list[str]:
    return page.evaluate("() => window.__announced.slice()")


def settled(page) -> bool:
    f = frame(page)
    return f["phase"] == "idle" and all(e["state"] in ("idle", "noMoreData") for e in f.get("edges", []))


def test_refresh_start_end_failure_and_the_end_of_the_feed_are_announced_once(phone):
    page = phone
    record_announcements(page)
    # a refresh: its start, then its end with what it brought
    configure_feed(page, latencyMs=300, failureRate=0)
    page.click("#refresh")
    wait_until(page, lambda p: any("new item" in a for a in announced(p)), 10, what="the refresh's end announced")
    said = " | ".join(announced(page))
    assert said.count("Refreshing") == 1 and said.count("new item") == 1, said
    assert said.index("Refreshing") < said.index("new item"), said

    # a failed refresh: announced by the banner (role=alert), not a second time by the live region
    wait_until(page, settled, 10, what="the refresh to end")  # a refresh asked for while one finishes is ignored
    record_announcements(page)
    configure_feed(page, failureRate=1)
    page.click("#refresh")
    page.locator("#refresh-failure").wait_for(state="visible")
    wait_until(page, lambda p: any("Refreshing" in a for a in announced(p)), 5, what="the refresh's start announced")
    said = " | ".join(announced(page))
    assert said.count("Refreshing") == 1 and "Couldn" not in said, said

    # the end of the feed: "No more items", once
    wait_until(page, settled, 10, what="the failed refresh to end")
    record_announcements(page)
    configure_feed(page, failureRate=0, latencyMs=0, totalItems=frame(page)["feed"]["count"])
    page.evaluate("() => window.refreshkit.send({type: 'command', name: 'loadMore', edge: 'bottom'})")
    wait_until(page, lambda p: any("No more items" in a for a in announced(p)), 10, what="no more items announced")
    assert " | ".join(announced(page)).count("No more items") == 1, announced(page)
    assert page.errors == []


def test_the_mirror_changes_the_dom_only_when_the_rows_change(desktop):
    """Costless while nothing uses it: a scroll over several rows draws many frames but rebuilds the mirror about
    once a row that comes into or leaves the view, not once a frame."""
    page = desktop
    page.get_by_role("feed").wait_for()
    wait_until(page, rows_measured, 10, what="rows drawn at their accepted heights")
    before = view(page)
    estimate = page.evaluate("() => window.refreshkit.rowLayout().estimate")
    updates = page.evaluate("() => window.refreshkit.mirror.updates")
    draws = len(page.evaluate("() => window.refreshkit.drawLog()"))
    page.evaluate("(a) => window.refreshkit.send({type: 'command', name: 'scrollBy', amount: a})", 10 * estimate)
    wait_until(page, lambda p: frame(p)["offset"]["y"] > before["y"] + estimate and frame(p)["phase"] == "idle",
               10, what="the scroll to end")
    y = frame(page)["offset"]["y"]
    page.wait_for_function("(y) => Math.abs(window.refreshkit.displayedOffset().y - y) < 0.5", arg=y)
    after = view(page)
    first = [in_view(v)[0]["index"] for v in (before, after)]
    last = [in_view(v)[-1]["index"] for v in (before, after)]
    crossed = (first[1] - first[0]) + (last[1] - last[0])  # rows that left the view at the top, came in at the bottom
    drawn = len(page.evaluate("() => window.refreshkit.drawLog()")) - draws
    rebuilt = page.evaluate("() => window.refreshkit.mirror.updates") - updates
    print(f"scrolled {y - before['y']:.0f} px, {crossed} rows in or out of view: {drawn} draws, "
          f"{rebuilt} mirror rebuilds")
    assert crossed >= 2, (first, last)
    assert 1 <= rebuilt <= crossed + 2, (crossed, rebuilt, drawn)  # a row boundary at the top or the bottom, at most
    assert drawn > rebuilt, (crossed, rebuilt, drawn)
    assert page.errors == []
