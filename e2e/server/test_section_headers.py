"""Section headers over the real WebSocket (docs/LAYOUT.md, "Section headers"; docs/PROTOCOL.md, "frame"): items
posted with a `section` come with it in `rows`; the frame's `pinned` names the section at the viewport's top, at the
top inset, pushed up by the next section's first row; a delta carries only what of it changed; a post's bad
`section` is refused with a clear error and posts go on. A new SQLite file's items are in the section of their day.
Every wait is for a message."""
from __future__ import annotations

import re

from conftest import recv_until, run, send_json, ws_connect
from test_feed_serve import post

HELLO = {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3}


def is_replace(m: dict) -> bool:
    return m["type"] == "rows" and m["op"] == "replace" and len(m["items"]) > 0


def sectioned_server(tmp_path, fresh_server):
    """A server on a new SQLite file with five posts on top: three in "Later", under them two in "Earlier"."""
    srv = fresh_server("--feed", f"sqlite:{tmp_path / 'feed.db'}")
    for n, section in enumerate(["Earlier", "Earlier", "Later", "Later", "Later"]):
        status, item = post(srv, {"text": f"post {n}", "section": section})
        assert status == 201 and item["section"] == section, item
    return srv


def test_the_frame_pins_the_section_at_the_top_and_the_next_one_pushes_it(tmp_path, fresh_server):
    srv = sectioned_server(tmp_path, fresh_server)

    async def scenario():
        async with ws_connect(srv) as ws:
            await send_json(ws, {**HELLO, "frames": "delta"})
            welcome, _ = await recv_until(ws, lambda m: m["type"] == "welcome")
            band = welcome["config"]["feed"]["sectionHeaderHeight"]
            h = welcome["config"]["feed"]["rowHeight"]
            assert band == 28 and h == 72
            rows, _ = await recv_until(ws, is_replace)
            assert [item.get("section") for item in rows["items"][:5]] == ["Later"] * 3 + ["Earlier"] * 2
            # a new file's own items: each in the section of its day ("Sunday 29 November")
            assert all(re.fullmatch(r"[A-Z][a-z]+day \d{1,2} [A-Z][a-z]+", item["section"])
                       for item in rows["items"][5:]), rows["items"][5:]
            frame, _ = await recv_until(ws, lambda m: m["type"] == "frame" and m["feed"]["count"] > 0)
            assert frame["pinned"] == {"section": "Later", "y": 0}, frame.get("pinned")

            # "Earlier" starts at 3 rows down (216): 16 px below the line it pushes "Later" up by 12 px
            await send_json(ws, {"type": "command", "name": "scrollBy", "amount": 3 * h - 16, "animated": False})
            delta, _ = await recv_until(ws, lambda m: m["type"] == "delta" and "pinned" in m)
            assert delta["pinned"] == {"y": -(band - 16)}, delta
            # the line reaches it: its own header, at the top
            await send_json(ws, {"type": "command", "name": "scrollBy", "amount": 16, "animated": False})
            delta, _ = await recv_until(ws, lambda m: m["type"] == "delta" and "pinned" in m)
            assert delta["pinned"] == {"section": "Earlier", "y": 0}, delta
    run(scenario)


def test_a_bad_section_is_refused_and_posts_go_on(tmp_path, fresh_server):
    srv = fresh_server("--feed", f"sqlite:{tmp_path / 'feed.db'}")
    status, answer = post(srv, {"text": "hi", "section": 7})
    assert (status, answer["error"]["code"]) == (400, "bad_field"), answer
    assert answer["error"]["message"] == "section must be a string"
    status, answer = post(srv, {"text": "hi", "section": "x" * 3000})
    assert (status, answer["error"]["code"]) == (413, "oversized"), answer
    status, item = post(srv, {"text": "after the refusals", "section": "  Today  "})
    assert status == 201 and item["section"] == "Today", item
    assert srv.terminate() == 0
    assert not srv.error_lines()
