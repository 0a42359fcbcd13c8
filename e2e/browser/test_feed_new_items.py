"""A real feed behind the list, in Chromium: the REAL server with `--feed sqlite:TMP` (docs/FEEDS.md), a database
the server creates and fills from Debian's fortunes on its first start. The first screen shows the source's own
text with ages that follow the order (newest first, youngest first); an item posted from one device (`POST
/feed/items`, and `refreshkit post` on the same file) comes to a second device of the session as "1 new", which a
tap turns into the item at the top of the list. Every wait is for a state the page says (`window.refreshkit.feed()`,
the feed mirror's articles, the frame), never for a duration."""
from __future__ import annotations

import json
import re
import subprocess
import urllib.request

from browser_support import drive_query, wait_until
from conftest import PHONE, open_page, server_binary

AGE = re.compile(r"^(now|\d+[mhdy])$")
UNIT_MINUTES = {"m": 1, "h": 60, "d": 1440, "y": 525600}


def feed(page, limit: int = 50) -> dict:
    return page.evaluate("(n) => window.refreshkit.feed(n)", limit)


def articles(page) -> list[dict]:
    """The feed mirror's articles (what a screen reader reads), top first: title, subtitle (the text), age."""
    return page.evaluate("""() => [...document.querySelectorAll('#feed article')]
        .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
        .map((a) => ({index: Number(a.dataset.index), title: a.querySelector('.feed-row-title').textContent,
                      subtitle: a.querySelector('.feed-row-text').textContent,
                      age: a.querySelector('.feed-row-time').textContent}))""")


def minutes(age: str) -> int:
    return 0 if age == "now" else int(age[:-1]) * UNIT_MINUTES[age[-1]]


def loaded(page) -> dict | None:
    """The feed once the source's first page is in: rows mirrored, at the frame's count."""
    f = feed(page)
    frame_count = page.evaluate("() => window.refreshkit.frame?.feed?.count ?? -1")
    return f if f["kind"] != "simulated" and f["count"] > 0 and f["count"] == frame_count else None


def post(server, text: str, author: str) -> dict:
    body = json.dumps({"text": text, "author": author}).encode()
    req = urllib.request.Request(server.url + "/feed/items", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as res:
        assert res.status == 201, res.status
        return json.loads(res.read())


def test_the_first_screen_shows_the_sources_text_with_ages_in_order(browser, feed_server):
    context, page = open_page(browser, feed_server, PHONE)
    try:
        f = wait_until(page, loaded, 15, what="the SQLite source's first page in the rows")
        assert f["kind"] == "sqlite" and f["source"].startswith("sqlite:"), f
        items = f["items"]
        texts = [i["text"] for i in items]
        assert all(t.strip() for t in texts), texts
        assert len(set(texts)) == len(texts), "every row its own item"
        assert len({len(t) // 40 for t in texts}) > 1, "short and long items (a real corpus, not made-up rows)"
        # the simulated feed's texts vary in length too, but its items are by "Item N" (SimulatedText)
        assert not any(re.fullmatch(r"Item \d+", i.get("author") or "") for i in items), "not the simulated feed's"
        times = [i["time"] for i in items]
        assert times == sorted(times, reverse=True), "newest first"
        # what a screen reader reads: the items' own words, and ages that read youngest first
        arts = wait_until(page, lambda p: [a for a in articles(p) if a["age"]] or None, 5,
                          what="the feed mirror's articles")
        for a in arts:
            item = items[a["index"]]
            assert item["text"] in (a["title"], a["subtitle"]), (a, item)
            assert AGE.match(a["age"]), a
        ages = [minutes(a["age"]) for a in arts]
        assert ages == sorted(ages), f"ages follow the order: {[a['age'] for a in arts]}"
        # the debug panel (a drawer on a phone: `d` opens it) names the source and lists the first request
        page.keyboard.press("d")
        pane = page.locator("[data-panel-feed]")
        wait_until(page, lambda p: "sqlite:" in (pane.text_content() or ""), 5, what="the Feed section's source")
        first_request = re.compile(r"#\d+ (refresh|newer) · \d+ items · [\d.]+ ms")
        wait_until(page, lambda p: first_request.search(pane.text_content() or ""), 5,
                   what="the first request in the Feed section")
        assert "idle / idle" in pane.text_content(), pane.text_content()
        assert page.errors == [], page.errors
    finally:
        context.close()


def test_a_post_from_device_a_comes_to_device_b_as_one_new_which_a_tap_shows(browser, feed_server):
    context_a, a = open_page(browser, feed_server, PHONE)
    context_b = None
    try:
        context_b, b = open_page(browser, feed_server, PHONE, drive_query(a))
        wait_until(a, lambda p: p.evaluate("() => window.refreshkit.session.members") == 2, 5, what="two devices")
        for page in (a, b):
            wait_until(page, loaded, 15, what="the first page on both devices")
        top_before = feed(b, 1)["items"][0]["id"]
        pill = b.locator("#new-items")
        assert pill.is_hidden()

        text = "Posted from device A: the harbour is open again after the storm."
        posted = post(feed_server, text, "device A")
        assert posted["text"] == text and posted.get("author") == "device A", posted

        # device B is told there is one newer item than its top: "1 new"
        wait_until(b, lambda p: feed(p, 1)["newItems"]["pill"], 10, what='"1 new" on device B')
        assert pill.inner_text() == "1 new"
        assert pill.get_attribute("aria-label") == "Show 1 new item"
        assert feed(b, 1)["items"][0]["id"] == top_before, "nothing came in before the tap"

        pill.tap()
        # the tap scrolled to the top and refreshed: the posted item is the top row, in the rows and the mirror
        wait_until(b, lambda p: feed(p, 1)["items"][0]["text"] == text, 10, what="the posted item at the top on B")
        wait_until(b, lambda p: (arts := articles(p)) and arts[0]["index"] == 0 and arts[0]["subtitle"] == text
                   and arts[0]["title"] == "device A" and arts[0]["age"] in ("now", "1m"), 5,
                   what="the feed mirror's first article to say the posted item")
        wait_until(b, lambda p: not feed(p, 1)["newItems"]["pill"] and pill.is_hidden(), 5, what="the pill to go")
        assert b.evaluate("() => window.refreshkit.frame.offset.y") <= 0.5
        f = feed(b)
        assert f["count"] == b.evaluate("() => window.refreshkit.frame.feed.count") and f["problem"] is None, f
        reported = wait_until(b, lambda p: (r := feed(p, 0)["requests"]) and r[0]["kind"] in ("refresh", "newer") and r,
                              10, what="the pill's request reported")
        assert reported[0]["error"] is None, reported
        # the session's rows are one: device A shows the item too, and its pill has gone
        wait_until(a, lambda p: feed(p, 1)["items"][0]["text"] == text and not feed(p, 1)["newItems"]["pill"], 10,
                   what="device A to show the item")

        # posting with the command line on the same file: the server's poll finds it
        cli = subprocess.run([str(server_binary()), "post", "--feed", f"sqlite:{feed_server.feed_path}",
                              "--author", "the command line", "A second post, from refreshkit post."],
                             capture_output=True, text=True, timeout=20)
        assert cli.returncode == 0, cli.stderr
        wait_until(b, lambda p: feed(p, 1)["newItems"]["pill"], 10, what='"1 new" after refreshkit post')
        assert pill.inner_text() == "1 new"
        for page in (a, b):
            assert page.errors == [], page.errors
    finally:
        if context_b is not None:
            context_b.close()
        context_a.close()
