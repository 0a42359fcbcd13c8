"""Images in rows, late, in Chromium (docs/PAGE.md "Images", docs/FEEDS.md "Images"): the tests' local JSON Feed
(e2e/jsonfeed: items with PNG images of sizes JSON Feed does not state, so each row reserves 16:9 until its image
comes, and a gate that holds images back), the REAL server fetching them for the page (`GET /feed/image`), and the
real page drawing them.

Scrolled to the middle with the images around it held: the images of the visible rows and those below are let
through and draw (a pixel of each image's box has the image's colour); then the images of the rows above the first
visible row are let through: they load, those rows take their images' real shapes (each taller than 16:9), the page
measures them again, the engine's anchoring moves the offset by what they grew, and the first visible row stays
where it was on screen, within 1 px. Every wait is for a state the page, the frame or the feed server says."""
from __future__ import annotations

import pytest

from browser_support import wait_until
from conftest import start_server, stop_server
from jsonfeed import images as feed_images
from jsonfeed.feed_server import JSONFeedServer
from test_rows_anchor import first_visible, layout, open_loaded, rows, settled, why_not_settled

ITEMS = 400
PAGE_SIZE = 40
EVERY = 3  # items whose id is a multiple of 3 have an image
TARGET = 30  # the row scrolled to the top of the screen, in the middle of the first two pages
HELD = (16, 60)  # the rows (indexes) whose images are held back at first: around TARGET, below the first screen's
VIEW_H = 844  # the phone's viewport
# The least a row grows when its image comes (16:9 in a 306 px column is 172 px high; the feed's shapes give
# 230 or 240 px, docs/PAGE.md "Images").
GROWTH = 58


@pytest.fixture(scope="module")
def jsonfeed():
    with JSONFeedServer(ITEMS, page_size=PAGE_SIZE, images_every=EVERY) as feed:
        yield feed


@pytest.fixture(scope="module")
def feed_server(jsonfeed):
    # held images wait at the source for as long as the test needs: the server's time limit must not answer first
    srv = start_server("--feed", f"jsonfeed:{jsonfeed.url}", "--feed-poll-ms", "0", "--image-timeout-ms", "60000")
    yield srv
    jsonfeed.release_images()
    assert stop_server(srv) == 0, "\n".join(srv.log[-30:])


def images(page) -> dict:
    return page.evaluate("() => window.refreshkit.images()")


def pixel(page, x: float, y: float) -> list[int]:
    """The canvas's colour at (x, y) CSS px."""
    return page.evaluate("""([x, y]) => {
        const c = document.querySelector('#list'), dpr = c.width / c.getBoundingClientRect().width;
        return Array.from(c.getContext('2d').getImageData(Math.round(x * dpr), Math.round(y * dpr), 1, 1).data);
    }""", [x, y])


def probe(row: dict) -> tuple[float, float]:
    """A point inside the row's image box: 30 px into it from the text's left edge (68 px) and from the box's
    bottom (12 px over the row's end)."""
    return row["x"] + 68 + 30, row["y"] + row["h"] - 12 - 30


def in_view(row: dict) -> bool:
    return 0 <= probe(row)[1] < VIEW_H


def image_drawn(page, row: dict) -> bool:
    """Whether the canvas at `probe(row)` has the row's image's colour."""
    want = feed_images.colour_of(row["id"])
    got = pixel(page, *probe(row))
    return all(abs(a - b) <= 3 for a, b in zip(got[:3], want, strict=True))


def to_row(page, target: int) -> dict:
    """Loads a second page of rows, then jumps (no frames between) so that row
    `target` is at the top of the screen; returns the settled frame. The jump reaches the list's end: the engine
    loads a page more and its window drops the top page, and a `measure` the page sent before it heard of the
    drop may cross it: its other rows apply, and the server announces them in a `heights`, which the page waits
    for (SessionHostHeightsTests, `aBatchThatCrossedADropOfTheWindowHasItsOtherRowsAnnounced`)."""
    # the first screen's images may still be coming (each one measured again): wait for the list at rest
    f = wait_until(page, settled, 15, what="the first screen settled")
    page.evaluate("() => window.refreshkit.send({type: 'command', name: 'loadMore', edge: 'bottom'})")
    count = f["feed"]["count"]
    f = wait_until(page, lambda p: (s := settled(p)) and s["feed"]["count"] > count and s, 15, what="a second page")
    amount = page.evaluate("(i) => window.refreshkit.rowTop(i)", target) - f["offset"]["y"]
    page.evaluate("(a) => window.refreshkit.send({type: 'command', name: 'scrollBy', amount: a, animated: false})",
                  amount)
    try:
        return wait_until(page, lambda p: (s := settled(p)) and s["offset"]["y"] > 200 and s, 15, what="the jump")
    except AssertionError as error:  # say which of settled()'s conditions did not hold, and what the page had
        errors = page.evaluate("() => window.refreshkit.errors")
        raise AssertionError(f"{error}; amount {amount}; {why_not_settled(page)}; errors {errors}") from error


def test_images_above_the_visible_row_load_late_and_it_stays_still(browser, feed_server, jsonfeed):
    # the images of the rows around the middle of two pages are held back; those at the top come at once
    band = [item["id"] for item in jsonfeed.items[HELD[0]:HELD[1]] if "image" in item]
    jsonfeed.hold_images(band)
    context, page = open_loaded(browser, feed_server)
    try:
        to_row(page, TARGET)
        drawn = rows(page)
        top = first_visible(page)
        # rows of pages the window dropped are placeholders (null): the top page once scrolled to row TARGET
        # (docs/LAYOUT.md, "The window's size")
        ids = [item["id"] if item else None for item in page.evaluate("() => window.refreshkit.feed(100000).items")]
        assert HELD[0] < top["index"] < HELD[1], f"row {top['index']} is not in the held band {HELD}"
        margin = len(drawn)  # the page lays out (and asks for the images of) a screen's worth of rows each side
        above = {i for i in ids[max(0, top["index"] - margin):top["index"]] if i in band}
        assert above, f"no image rows above row {top['index']}"
        # the visible rows' images and those below come through, and draw
        jsonfeed.release_images([i for i in band if i not in above])
        shown_ids = {r["id"] for r in drawn if int(r["id"]) % EVERY == 0}
        assert shown_ids, "no row with an image on screen"

        def visible_drawn(p):
            s = settled(p)
            if not s:
                return None
            probed = [r for r in rows(p) if r["id"] in shown_ids and in_view(r)]
            return s if probed and all(image_drawn(p, r) for r in probed) else None

        wait_until(page, visible_drawn, 20, what="the visible rows' images drawn")
        jsonfeed.image_gate.wait_for_waiting(lambda w: bool(w) and set(w) <= above)
        before_rows = {r["id"]: r for r in rows(page)}
        anchor = first_visible(page)
        offset = page.evaluate("() => window.refreshkit.frame.offset.y")
        above_urls = [jsonfeed.image_url(i) for i in sorted(above)]
        assert not any(page.evaluate("(u) => u.map((x) => window.refreshkit.imageSize(x))", above_urls))

        # now the rows above get their images
        jsonfeed.release_images(sorted(above))
        grown = GROWTH * len(above)

        def above_applied(p):
            # loaded, their rows laid out again and measured, the engine's heights and its anchoring applied: at
            # rest, with the offset moved by what the rows grew (one frame after a load the page has not measured
            # yet, and looks settled)
            s = all(p.evaluate("(u) => u.map((x) => window.refreshkit.imageSize(x))", above_urls)) and settled(p)
            return s and s["offset"]["y"] - offset >= grown and s

        wait_until(page, above_applied, 30, what=f"the {len(above)} images above loaded, their rows {grown} px taller")
        after = next((r for r in rows(page) if r["id"] == anchor["id"]), None)
        assert after is not None, f"row {anchor['id']} is no longer drawn"
        assert abs(after["y"] - anchor["y"]) <= 1, f"the visible row moved {after['y'] - anchor['y']:.2f} px"
        moved = page.evaluate("() => window.refreshkit.frame.offset.y") - offset
        assert moved >= grown, f"the offset moved {moved:.1f} px for {len(above)} rows that grew"
        # every row on screen is where it was, the images drawn still
        for r in rows(page):
            if r["id"] in before_rows:
                assert abs(r["y"] - before_rows[r["id"]]["y"]) <= 1, (r, before_rows[r["id"]])
        probed = [r for r in rows(page) if r["id"] in shown_ids and in_view(r)]
        assert probed and all(image_drawn(page, r) for r in probed), probed
        # the feed mirror names each image for a screen reader
        names = page.evaluate("() => Array.from(document.querySelectorAll('#feed [role=img]:not([hidden])'))"
                              ".map((e) => e.getAttribute('aria-label'))")
        assert names and all(names), names
        assert layout(page)["awaiting"] == 0
        assert images(page)["failed"] == 0, images(page)
        assert not page.errors, page.errors
    finally:
        context.close()
