"""Titles and links in rows, in Chromium (docs/PAGE.md, "Titles and links"): the REAL server on a SQLite
feed made before it starts with `refreshkit post --title --url` (the file is created, filled from Debian's
fortunes, and the posts put on top), the real page laying the rows out, drawing them and mirroring them.

- The titled row draws its title above its text (the row's layout as the page hook reads it) and is taller than
  the row of the same author and text without a title, at the height the engine accepted.
- A tap on it (a touch, then a mouse click) opens its link in a new page; a pull, a sideways drag and a fling
  across it open nothing; a row whose link is `javascript:` opens nothing either.
- The mirror's article is named by the title, its heading a real link (`href`, `target=_blank`, `rel=noopener`)
  that the keyboard reaches and follows.

Every wait is for a state (the page's, the frame's, a new page's), never for a duration."""
from __future__ import annotations

import subprocess

import pytest

from browser_support import ROOT, touch_drag, wait_until
from conftest import serve_sqlite_feed, server_binary
from test_rows_anchor import open_loaded, settled, why_not_settled

TITLE = "A title for the row"
TEXT = "Same text"
AUTHOR = "Ann"
URL = "https://example.test/a"
UNSAFE_TITLE = "A link that is no page"
# newest first on the page: TITLED (row 0), UNTITLED (row 1), UNSAFE (row 2), then the fortunes
POSTS = [
    ["Its link runs script", "--title", UNSAFE_TITLE, "--url", "javascript:alert(1)"],
    [TEXT, "--author", AUTHOR],
    [TEXT, "--author", AUTHOR, "--title", TITLE, "--url", URL],
]
TITLED, UNTITLED, UNSAFE = 0, 1, 2

# Records every `window.open` (the page's default link opener calls it), then opens as the browser would.
SPY_OPEN = """() => {
    if (window.__opened) return;
    window.__opened = [];
    const open = window.open.bind(window);
    window.open = (...args) => { window.__opened.push(args[0]); return open(...args); };
}"""


@pytest.fixture(scope="module")
def feed_server(tmp_path_factory):
    path = tmp_path_factory.mktemp("links") / "feed.sqlite"
    for args in POSTS:
        subprocess.run([str(server_binary()), "post", "--feed", f"sqlite:{path}", *args], cwd=ROOT, check=True,
                       capture_output=True, text=True, timeout=60)
    yield from serve_sqlite_feed(path)


@pytest.fixture
def page(browser, feed_server):
    context, page = open_loaded(browser, feed_server)
    # the example's pages are the test's own: a new tab at the link loads this, not the network
    context.route("https://example.test/**", lambda route: route.fulfill(
        status=200, content_type="text/html", body="<!doctype html><title>The linked page</title>"))
    page.evaluate(SPY_OPEN)
    yield page
    context.close()


def drawn(page, index: int) -> dict | None:
    return next((r for r in page.evaluate("() => window.refreshkit.rows()") if r["index"] == index), None)


def at_rest_on_top(page) -> dict | None:
    """The list settled (heights accepted, nothing moving) at its top: the frame, else None."""
    f = settled(page)
    return f if f and abs(f["offset"]["y"]) < 0.5 else None


def point_in(page, index: int) -> tuple[float, float]:
    """A point on row `index` as drawn, away from its avatar, in page coordinates."""
    r = drawn(page, index)
    assert r is not None, f"row {index} not drawn"
    box = page.evaluate("() => { const b = document.getElementById('list').getBoundingClientRect();"
                        " return {x: b.x, y: b.y}; }")
    return box["x"] + r["x"] + r["w"] / 2, box["y"] + r["y"] + r["h"] / 2


def opened(page) -> list[str]:
    return page.evaluate("() => window.__opened")


def test_the_title_is_drawn_above_the_text_and_makes_the_row_taller(page):
    items = page.evaluate("() => window.refreshkit.feed(3).items")
    assert [i.get("title") for i in items] == [TITLE, None, UNSAFE_TITLE], items
    titled = wait_until(page, lambda p: p.evaluate("(i) => window.refreshkit.rowContent(i)", TITLED), 10,
                        what="the titled row laid out")
    untitled = page.evaluate("(i) => window.refreshkit.rowContent(i)", UNTITLED)
    assert titled["byline"] == AUTHOR and titled["heading"] == [TITLE] and titled["lines"] == [TEXT], titled
    assert titled["headingY"] < titled["textY"], "the title above the text"
    assert untitled["heading"] == [] and untitled["lines"] == [TEXT], untitled
    assert titled["height"] > untitled["height"], (titled, untitled)
    # drawn at the heights the engine accepted: the page's own
    wait_until(page, at_rest_on_top, 15, what="the rows settled")
    assert drawn(page, TITLED)["h"] == titled["height"], why_not_settled(page)
    assert drawn(page, UNTITLED)["h"] == untitled["height"]
    assert page.errors == []


def test_a_tap_or_a_click_opens_the_link_a_drag_does_not(page):
    wait_until(page, at_rest_on_top, 15, what="the rows settled")
    context = page.context
    # a touch tap on the titled row: a new page at its link
    with context.expect_page() as new:
        page.touchscreen.tap(*point_in(page, TITLED))
    new.value.wait_for_url(URL)
    new.value.close()
    assert opened(page) == [URL]

    # a pull down from the row (under the refresh's trigger), a sideways drag across it, a fling up over it
    x, y = point_in(page, TITLED)
    touch_drag(page, (x, y), dy=30, steps=6)
    wait_until(page, at_rest_on_top, 15, what="the list back at rest after the pull")
    touch_drag(page, (x - 120, y), dy=0, dx=240, steps=8)
    wait_until(page, at_rest_on_top, 15, what="the list at rest after the sideways drag")
    touch_drag(page, (x, y + 40), dy=-160, steps=4, interval=0.008)
    wait_until(page, lambda p: (f := settled(p)) and f["offset"]["y"] > 20, 15, what="the fling's end")
    page.evaluate("() => window.refreshkit.send({type: 'command', name: 'scrollToEdge', edge: 'top', animated: false})")
    wait_until(page, at_rest_on_top, 15, what="the list back at its top")
    # a tap on a row whose link is javascript: opens nothing
    page.touchscreen.tap(*point_in(page, UNSAFE))
    # a mouse click does what a tap does; every event before it was handled first, so nothing opened in between
    with context.expect_page() as new:
        page.mouse.click(*point_in(page, TITLED))
    new.value.wait_for_url(URL)
    assert opened(page) == [URL, URL], "only the tap and the click opened the link"
    assert len(context.pages) == 2
    assert page.errors == []


def test_the_mirror_names_the_article_by_its_title_and_its_link_is_a_real_link(page):
    article = page.get_by_role("article", name=TITLE, exact=True)
    article.wait_for(state="attached")
    link = article.get_by_role("link", name=TITLE, exact=True)
    assert link.get_attribute("href") == URL
    assert link.get_attribute("target") == "_blank"
    assert link.get_attribute("rel") == "noopener"
    # the row without a title keeps its name (its author); the javascript: one is named by its title, no link
    untitled = page.locator(f"#feed article[aria-posinset='{UNTITLED + 1}']")
    assert untitled.get_attribute("aria-labelledby") and untitled.locator("a").count() == 0
    unsafe = page.get_by_role("article", name=UNSAFE_TITLE, exact=True)
    assert unsafe.locator("a").count() == 0
    # the keyboard reaches the link (Tab from its article) and follows it (Enter)
    article.focus()
    page.keyboard.press("Tab")
    page.wait_for_function("(url) => document.activeElement?.getAttribute('href') === url", arg=URL)
    with page.context.expect_page() as new:
        page.keyboard.press("Enter")
    new.value.wait_for_url(URL)
    assert page.errors == []
