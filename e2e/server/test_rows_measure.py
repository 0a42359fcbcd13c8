"""Rows of measured heights over a real WebSocket (docs/PROTOCOL.md, "measure, heights"; docs/LAYOUT.md,
"Wiring"): `refreshkit serve --feed sqlite:…`, two pages in one session. A page's `measure` is acknowledged by its
`seq`, its accepted heights reach both pages as `heights`, the frames' content height follows them; a stale batch
is ignored without an error, a bad one is a `bad_message` naming the row while the session goes on, and a page
that joins gets every measured height after its `rows` `replace`. Every wait is for a message."""
from __future__ import annotations

from conftest import join, recv_until, run, send_json, ws_connect

HELLO = {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3}


def is_replace(m: dict) -> bool:
    return m["type"] == "rows" and m["op"] == "replace" and len(m["items"]) > 0


def test_measured_heights_reach_every_page_and_set_the_content_size(tmp_path, fresh_server):
    srv = fresh_server("--feed", f"sqlite:{tmp_path / 'feed.db'}", "--feed-poll-ms", "0")

    async def scenario():
        async with ws_connect(srv) as first, ws_connect(srv) as second:
            await send_json(first, HELLO)
            welcome, _ = await recv_until(first, lambda m: m["type"] == "welcome")
            rows, _ = await recv_until(first, is_replace)
            ids = [item["id"] for item in rows["items"]]
            row_height = welcome["config"]["feed"]["rowHeight"]
            await send_json(second, {**HELLO, **join(welcome)})
            await recv_until(second, is_replace)

            await send_json(first, {"type": "measure", "seq": 7, "width": 390,
                                    "rows": [[ids[0], 120.5], [ids[1], 40]]})
            for page in (first, second):
                heights, _ = await recv_until(page, lambda m: m["type"] == "heights")
                assert heights["rows"] == [[ids[0], 120.5], [ids[1], 40]], heights
            expected = len(ids) * row_height + (120.5 - row_height) + (40 - row_height)
            frame, _ = await recv_until(
                first, lambda m: m["type"] == "frame" and m["contentSize"]["h"] == expected
                and (m.get("ack") or {}).get(str(welcome["member"])) == 7)

            # Stale (another width): no error, no heights; the next accepted batch is what comes.
            await send_json(second, {"type": "measure", "seq": 1, "width": 400, "rows": [[ids[2], 10]]})
            # Bad: a height of 0 refuses the batch, naming the row.
            await send_json(second, {"type": "measure", "seq": 2, "width": 390,
                                     "rows": [[ids[2], 50], [ids[3], 0]]})
            error, before = await recv_until(second, lambda m: m["type"] == "error")
            assert error["code"] == "bad_message" and error["ref"] == "measure" and error["seq"] == 2, error
            assert f"row {ids[3]}" in error["message"], error
            assert not [m for m in before if m["type"] in ("heights", "error")], before
            await send_json(second, {"type": "measure", "seq": 3, "width": 390, "rows": [[ids[2], 50]]})
            heights, _ = await recv_until(second, lambda m: m["type"] == "heights")
            assert heights["rows"] == [[ids[2], 50]], heights

        async with ws_connect(srv) as third:
            await send_json(third, {**HELLO, **join(welcome)})
            joined, before = await recv_until(third, lambda m: m["type"] == "heights")
            replaces = [m for m in before if m["type"] == "rows"]
            assert replaces and replaces[0]["op"] == "replace", before
            assert joined["rows"] == [[ids[0], 120.5], [ids[1], 40], [ids[2], 50]], joined
    run(scenario)
