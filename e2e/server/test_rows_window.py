"""The window of pages over a real WebSocket (docs/LAYOUT.md, "The window"; docs/PROTOCOL.md, "rows"): `refreshkit
serve --feed sqlite:…` (a new file: the fortunes, about 7 000 items), one page scrolling with wheel inputs. Far
down, the session drops its first pages (`rows` `drop` at the top); scrolled back, it loads them again by cursor
(`rows` `reload` at the top) with the same ids in the same rows. Every wait is for a message."""
from __future__ import annotations

import pytest

from conftest import recv_until, run, send_json, ws_connect

HELLO = {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3}


class Rows:
    """The rows as the page keeps them (web/js/feed/feedRows.js): every id seen at its row, and the span held."""

    def __init__(self) -> None:
        self.ids: list[str] = []  # every row's id as first loaded
        self.first = 0  # the first held row
        self.last = -1  # the last held row
        self.reloads: list[dict] = []
        self.drops: list[dict] = []

    def apply(self, m: dict) -> None:
        op = m["op"]
        if op == "replace":
            # Every row anew: the held items after `above` placeholders (a refresh at the top while its page is
            # still a placeholder sends one); the ids seen at the placeholders' rows stay known.
            above = m.get("above", 0)
            ids = [item["id"] for item in m["items"]]
            if not self.ids:
                assert above == 0, m
            self.ids += [None] * max(0, above + len(ids) - len(self.ids))
            self.ids[above:above + len(ids)] = ids
            self.first, self.last = above, above + len(ids) - 1
        elif op == "append":
            self.ids += [item["id"] for item in m["items"]]
            self.last = len(self.ids) - 1
        elif op == "drop":
            self.drops.append(m)
            if m["at"] == "top":
                self.first += m["count"]
            else:
                self.last -= m["count"]
        elif op == "reload":
            self.reloads.append(m)
            ids = [item["id"] for item in m["items"]]
            if m["at"] == "top":
                self.first -= len(ids)
                assert self.ids[self.first:self.first + len(ids)] == ids, (self.first, ids)
            else:
                assert self.ids[self.last + 1:self.last + 1 + len(ids)] == ids, (self.last, ids)
                self.last += len(ids)
        assert m["type"] == "rows"


# A bound, not a pause: its wheel inputs, each waiting for its frame, took 5–48 s in all with the machine busy.
@pytest.mark.timeout(200)
def test_far_pages_are_dropped_and_come_back_with_their_ids(tmp_path, fresh_server):
    srv = fresh_server("--feed", f"sqlite:{tmp_path / 'feed.db'}", "--feed-poll-ms", "0")

    async def scenario():
        async with ws_connect(srv) as ws:
            await send_json(ws, HELLO)
            welcome, _ = await recv_until(ws, lambda m: m["type"] == "welcome", timeout=60)
            member = str(welcome["member"])
            rows = Rows()
            first, _ = await recv_until(ws, lambda m: m["type"] == "rows" and len(m.get("items", [])) > 0, timeout=60)
            rows.apply(first)
            seq, t = 0, 5_000.0

            async def wheel(dy: float) -> dict:
                """One wheel input; returns the frame that acknowledges it, after applying the rows before it."""
                nonlocal seq, t
                seq += 1
                t += 50
                await send_json(ws, {"type": "wheel", "dx": 0, "dy": dy, "mode": 0, "t": t, "seq": seq})
                frame, before = await recv_until(
                    ws, lambda m: m["type"] == "frame" and (m.get("ack") or {}).get(member) == seq, timeout=30)
                for m in before:
                    if m["type"] == "rows":
                        rows.apply(m)
                return frame

            async def frame_where(predicate) -> dict:
                frame, before = await recv_until(ws, lambda m: m["type"] == "frame" and predicate(m), timeout=30)
                for m in before:
                    if m["type"] == "rows":
                        rows.apply(m)
                return frame

            def bottom_state(frame: dict) -> str:
                return next(e["state"] for e in frame["edges"] if e["edge"] == "bottom")

            # Down: wheel, and near the end of the list ask for more (once the last load's footer has gone: a
            # wheel pushing past the end holds it, as a finger does), until the first pages are dropped.
            for _ in range(400):
                frame = await wheel(900)
                end = frame["contentSize"]["h"] - frame["viewport"]["h"]
                if frame["offset"]["y"] >= end - 900:
                    frame = await frame_where(lambda m: m["phase"] == "idle" and bottom_state(m) == "idle")
                    # Ask at the end of the list, as the footer does: a page asked for farther ahead than the
                    # prefetch distance lies outside the window and is dropped at once (docs/LAYOUT.md, "The
                    # window's size"), to be loaded back when scrolled to.
                    if frame["offset"]["y"] < frame["contentSize"]["h"] - frame["viewport"]["h"] - 1:
                        continue
                    count = frame["feed"]["count"]
                    await send_json(ws, {"type": "command", "name": "loadMore"})
                    await frame_where(lambda m, c=count: m["feed"]["count"] > c or not m["feed"]["hasMore"])
                if rows.first >= 60:
                    break
            assert rows.drops and rows.drops[0]["at"] == "top", rows.drops
            assert rows.first >= 60, (rows.first, len(rows.ids))
            held = rows.last - rows.first + 1
            # The window on a phone with pages of 20: two pages (docs/LAYOUT.md, "The window's size"), and one more
            # while it trims.
            assert held <= 2 * 20 + 20, held

            # Back up, until the top row is loaded again: every reload brings the ids that were there.
            for _ in range(400):
                frame = await wheel(-900)
                if rows.first == 0 and frame["offset"]["y"] <= 0:
                    break
            assert rows.first == 0, rows.first
            top = [m for m in rows.reloads if m["at"] == "top"]
            assert top, rows.reloads
            assert top[-1]["items"][0]["id"] == first["items"][0]["id"]
            assert frame["feed"]["count"] == len(rows.ids), (frame["feed"], len(rows.ids))
    run(scenario, timeout=180)
