"""`examples/hummingbird-notes` in Chromium (docs/EMBEDDING.md, "In a Hummingbird app"): the same page, served by a
Hummingbird 2 app. The page shows the app's notes newest first; a note posted to the app's own route while the page is
open comes on top with a pull of a real finger. Every wait is for a state the page says (`window.refreshkit.feed()`,
the frame). Run apart from the rest of e2e/browser, once the example is built (`make e2e-hummingbird`)."""
from __future__ import annotations

import json
import urllib.request

import pytest

from browser_support import canvas_point, rows_loaded, top_at_rest, touch_drag, wait_until
from conftest import PHONE, open_page, start_server, stop_server
from hummingbird_support import hummingbird_command

NOTES = 45  # the example's board starts with 45 notes


@pytest.fixture(scope="module")
def notes_server():
    srv = start_server(program=hummingbird_command())
    yield srv
    assert stop_server(srv) == 0, "\n".join(srv.log[-30:])


def test_a_pull_brings_a_posted_note_on_top(browser, notes_server):
    context, page = open_page(browser, notes_server, PHONE)
    try:
        f = wait_until(page, rows_loaded, 20, what="the notes in the rows")
        assert f["kind"] == "custom" and f["source"] == "notes:memory", f
        titles = [item["title"] for item in f["items"]]
        assert titles == [f"Note {n}" for n in range(NOTES, NOTES - len(titles), -1)], titles

        posted = urllib.request.Request(notes_server.url + "/notes", data=json.dumps({"text": "Meet at the station"})
                                        .encode(), headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(posted, timeout=5) as answer:
            assert answer.status == 201
        wait_until(page, top_at_rest, 10, what="the list at rest")
        touch_drag(page, canvas_point(page, 0.5, 0.15), dy=350, steps=20, interval=0.016)
        f = wait_until(page, lambda p: (g := rows_loaded(p)) and g["items"][0]["text"] == "Meet at the station"
                       and top_at_rest(p) and g, 15, what="the pulled refresh to put the posted note on top")
        assert [item["title"] for item in f["items"][:2]] == [f"Note {NOTES + 1}", f"Note {NOTES}"]
        assert f["requests"][0]["kind"] == "refresh" and f["requests"][0]["error"] is None, f["requests"]
        assert page.errors == []
    finally:
        context.close()
