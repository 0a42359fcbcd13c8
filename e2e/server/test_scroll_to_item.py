"""`scrollToItem` over the real WebSocket (docs/PROTOCOL.md, "scrollToItem"): the row lands at its alignment in the
frame's offset, stays where it landed on screen while rows above it are measured (docs/LAYOUT.md, "Anchoring"), and an
id the session has not loaded is refused with `unknown_item`, the session going on. Every wait is for a message."""
from __future__ import annotations

from conftest import recv_until, run, send_json, ws_connect

HELLO = {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3}


def is_replace(m: dict) -> bool:
    return m["type"] == "rows" and m["op"] == "replace" and len(m["items"]) > 0


async def welcomed(ws) -> tuple[dict, list[str]]:
    """Sends hello; returns the welcome and the ids of the rows that come with it (`rows` `replace`)."""
    await send_json(ws, HELLO)
    welcome, _ = await recv_until(ws, lambda m: m["type"] == "welcome")
    rows, _ = await recv_until(ws, is_replace)
    return welcome, [item["id"] for item in rows["items"]]


def landing(frame: dict, top: float, height: float, align: str) -> float:
    """The offset that puts a row (`top`, `height` in the content) at `align` of the frame's viewport less its
    insets, within the offset's bounds."""
    insets, viewport = frame["insets"], frame["viewport"]["h"]
    visible = viewport - insets["top"] - insets["bottom"]
    y = {"start": top - insets["top"], "center": top + height / 2 - insets["top"] - visible / 2,
         "end": top + height - insets["top"] - visible}[align]
    return min(max(y, -insets["top"]), frame["contentSize"]["h"] + insets["bottom"] - viewport)


def test_a_row_lands_at_its_alignment_and_stays_while_rows_above_it_are_measured(server):
    async def scenario():
        async with ws_connect(server) as ws:
            welcome, ids = await welcomed(ws)
            h = welcome["config"]["feed"]["rowHeight"]
            target = 12
            assert len(ids) > target + 4, len(ids)

            await send_json(ws, {"type": "command", "name": "scrollToItem", "id": ids[target], "align": "end",
                                 "animated": False})
            frame, _ = await recv_until(ws, lambda m: m["type"] == "frame" and m["offset"]["y"] > 0)
            assert abs(frame["offset"]["y"] - landing(frame, target * h, h, "end")) < 1e-6, frame["offset"]
            on_screen = target * h - frame["offset"]["y"]

            # Rows above it on screen measured taller, as a page lays them out: the offset follows the held row.
            grown = [[ids[i], h + 13.25] for i in range(target - 4, target)]
            await send_json(ws, {"type": "measure", "seq": 1, "width": 390, "rows": grown})
            frame, _ = await recv_until(
                ws, lambda m: m["type"] == "frame" and abs(m["offset"]["y"] - frame["offset"]["y"] - 4 * 13.25) < 1e-6)
            assert abs(target * h + 4 * 13.25 - frame["offset"]["y"] - on_screen) < 1e-6

            # By index, centred, animated: the frames move, then rest with the row centred.
            await send_json(ws, {"type": "command", "name": "scrollToItem", "index": 3, "align": "center"})
            rest, _ = await recv_until(ws, lambda m: m["type"] == "frame" and m["phase"] == "idle"
                                       and m["offset"]["y"] < frame["offset"]["y"])
            assert abs(rest["offset"]["y"] - landing(rest, 3 * h, h, "center")) <= 0.5, rest["offset"]
    run(scenario)


def test_an_id_not_loaded_is_refused_and_the_session_goes_on(server):
    async def scenario():
        async with ws_connect(server) as ws:
            _, ids = await welcomed(ws)
            await send_json(ws, {"type": "command", "name": "scrollToItem", "id": "not-an-item"})
            error, _ = await recv_until(ws, lambda m: m["type"] == "error")
            assert error["code"] == "unknown_item" and error["ref"] == "command", error
            assert "no item 'not-an-item' among the" in error["message"], error
            for bad, code in ((({"index": -1}), "out_of_range"), ({}, "missing_field"),
                              ({"id": ids[0], "index": 0}, "bad_field"),
                              ({"index": 10**6}, "out_of_range")):
                await send_json(ws, {"type": "command", "name": "scrollToItem", **bad})
                error, _ = await recv_until(ws, lambda m: m["type"] == "error")
                assert error["code"] == code, (bad, error)
            # The session goes on: a row it holds is scrolled to.
            await send_json(ws, {"type": "command", "name": "scrollToItem", "index": 8, "animated": False})
            await recv_until(ws, lambda m: m["type"] == "frame" and m["offset"]["y"] > 0)
    run(scenario)


def sqlite_server(tmp_path, fresh_server):
    return fresh_server("--feed", f"sqlite:{tmp_path / 'feed.db'}")


def test_an_item_not_loaded_is_fetched_with_the_rows_around_it_and_lands(tmp_path, fresh_server):
    """A jump (docs/LAYOUT.md, "A jump"): the page around the item replaces the rows, placed as many rows down as
    the source says are above it; the item lands at its alignment; scrolled up, the rows above it come back."""
    srv = sqlite_server(tmp_path, fresh_server)

    async def scenario():
        async with ws_connect(srv) as ws:
            welcome, ids = await welcomed(ws)
            h = welcome["config"]["feed"]["rowHeight"]
            target = str(int(ids[0]) - 3000)  # a new file's ids grow with time: 3 000 items below the top
            assert target not in ids
            await send_json(ws, {"type": "command", "name": "scrollToItem", "id": target, "align": "start",
                                 "animated": False})
            rows, _ = await recv_until(ws, lambda m: m["type"] == "rows" and m["op"] == "replace")
            request, _ = await recv_until(ws, lambda m: m["type"] == "feed_request" and m["kind"] == "around")
            assert request["cursor"] == target and request["error"] is None and request["items"] > 0, request
            page = [item["id"] for item in rows["items"]]
            assert target in page and rows["above"] == 3000 - page.index(target), (rows["above"], page.index(target))
            row = rows["above"] + page.index(target)
            # at rest, exactly there (a page with too few rows below it would have it land again as they come)
            await recv_until(ws, lambda m: m["type"] == "frame" and not m["feed"]["loading"]
                             and abs(m["offset"]["y"] - landing(m, row * h, h, "start")) < 1e-6)

            # scrolled up past the page's top: the window loads the rows above back, newer than the page's first
            await send_json(ws, {"type": "command", "name": "scrollBy", "amount": -3 * h * len(page),
                                 "animated": False})
            # (the first may have come while it landed: the window's prefetch reaches a few rows above the page)
            reload, _ = await recv_until(ws, lambda m: m["type"] == "rows" and m["op"] == "reload")
            newer = [int(item["id"]) for item in reload["items"]]
            assert reload["at"] == "top" and newer == sorted(newer, reverse=True) and newer[-1] > int(page[0]), newer
    run(scenario)


def test_an_id_the_feed_does_not_have_is_said_and_the_session_goes_on(tmp_path, fresh_server):
    srv = sqlite_server(tmp_path, fresh_server)

    async def scenario():
        async with ws_connect(srv) as ws:
            _, ids = await welcomed(ws)
            await send_json(ws, {"type": "command", "name": "scrollToItem", "id": "999999"})
            request, _ = await recv_until(ws, lambda m: m["type"] == "feed_request" and m["kind"] == "around")
            assert request["error"] == {"code": "unknown_item", "message": 'The feed has no item "999999".'}, request
            # nothing moved, and a row it holds is scrolled to
            await send_json(ws, {"type": "command", "name": "scrollToItem", "id": ids[8], "animated": False})
            await recv_until(ws, lambda m: m["type"] == "frame" and m["offset"]["y"] > 0)
    run(scenario)


def test_a_new_session_starts_where_its_reader_was(tmp_path, fresh_server):
    """Your place, kept (docs/PROTOCOL.md): a hello with `position` that starts a session (its old one is gone) asks
    for the page around that item instead of the newest page, and the first frames put the item's row at the top,
    `offset` px into it. A position the feed no longer has starts at the newest page, as before."""
    srv = sqlite_server(tmp_path, fresh_server)

    async def scenario():
        async with ws_connect(srv) as ws:
            await send_json(ws, {**HELLO, "position": {"id": "5000", "offset": 30.25}})
            welcome, _ = await recv_until(ws, lambda m: m["type"] == "welcome")
            assert not welcome.get("resumed")
            h = welcome["config"]["feed"]["rowHeight"]
            rows, _ = await recv_until(ws, lambda m: m["type"] == "rows" and m["op"] == "replace" and m["items"])
            page = [item["id"] for item in rows["items"]]
            row = rows["above"] + page.index("5000")
            # at rest, exactly there
            await recv_until(ws, lambda m: m["type"] == "frame" and not m["feed"]["loading"]
                             and abs(m["offset"]["y"] - (row * h + 30.25 - m["insets"]["top"])) < 1e-6)
        async with ws_connect(srv) as ws:
            await send_json(ws, {**HELLO, "position": {"id": "no-such-item", "offset": 3}})
            request, _ = await recv_until(ws, lambda m: m["type"] == "feed_request" and m["kind"] == "around")
            assert request["error"]["code"] == "unknown_item", request
            rows, _ = await recv_until(ws, lambda m: m["type"] == "rows" and m["op"] == "replace" and m["items"])
            assert rows["items"][0]["id"] == "7137" and not rows.get("above"), rows["items"][0]
    run(scenario)
