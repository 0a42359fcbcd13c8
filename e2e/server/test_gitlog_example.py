"""`examples/gitlog` (README, "In your own server"; docs/EMBEDDING.md): an app's own `FeedSource` served by the
library's `Server.run`, over the real wire. The checkout's own commits come newest first; in a repository made
here, load-more continues the same line and a refresh brings a commit made meanwhile on top; where git fails, the
request says why and the session goes on. Every wait is for a message."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, RunningServer, recv_until, run, send_json, ws_connect
from feed_support import HELLO, is_loaded, is_type, until_all
from gitlog_support import FIRST_SECOND, commit, gitlog_command, make_repository


def gitlog_server(repository: Path) -> RunningServer:
    return RunningServer(program=gitlog_command(repository))


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    return make_repository(tmp_path, 45)


def stop(server: RunningServer) -> None:
    assert server.terminate() == 0, server.output()


def test_the_checkout_is_served_newest_first():
    expected = subprocess.run(["git", "-C", str(ROOT), "log", "--first-parent", "-n", "20", "--format=%H%x1f%s"],
                              check=True, capture_output=True, text=True).stdout.splitlines()
    server = gitlog_server(ROOT)

    async def scenario():
        async with ws_connect(server) as ws:
            await send_json(ws, HELLO)
            welcome, rows = await until_all(ws, is_type("welcome"), is_loaded)
            assert welcome["feed"]["kind"] == "custom" and welcome["feed"]["source"] == f"git:{ROOT}", welcome
            shown = [(item["id"], item.get("title")) for item in rows["items"]]
            assert shown == [tuple(line.split("\x1f", 1)) for line in expected[:len(shown)]] and shown
    run(scenario)
    stop(server)


def test_load_more_continues_and_a_refresh_brings_a_new_commit(repository):
    server = gitlog_server(repository)

    async def scenario():
        async with ws_connect(server) as ws:
            await send_json(ws, HELLO)
            _, first = await until_all(ws, is_type("welcome"), is_loaded)
            titles = [item["title"] for item in first["items"]]
            assert titles == [f"Commit {n}" for n in range(45, 45 - len(titles), -1)], titles
            assert first["items"][0]["text"] == "Why commit 45 was made."
            assert first["items"][0]["author"] == "Ada" and first["items"][0]["time"] == (FIRST_SECOND + 45 * 60) * 1000

            await send_json(ws, {"type": "command", "name": "loadMore"})
            more, _ = await recv_until(ws, lambda m: m["type"] == "rows" and m["op"] == "append")
            oldest = 45 - len(titles)
            assert [item["title"] for item in more["items"]] == [
                f"Commit {n}" for n in range(oldest, oldest - len(more["items"]), -1)]

            commit(repository, 46)
            await send_json(ws, {"type": "command", "name": "refresh"})
            fresh, _ = await recv_until(ws, lambda m: m["type"] == "rows" and m["op"] in ("prepend", "replace"))
            assert fresh["items"][0]["title"] == "Commit 46", fresh
            request, _ = await recv_until(ws, lambda m: m["type"] == "feed_request" and m["kind"] == "refresh")
            assert request["error"] is None
    run(scenario)
    stop(server)


def test_a_repository_that_is_not_one_fails_the_request_and_the_session_goes_on(tmp_path):
    server = gitlog_server(tmp_path)  # no repository here: git log fails, the source says so

    async def scenario():
        async with ws_connect(server) as ws:
            await send_json(ws, HELLO)
            request, _ = await recv_until(ws, lambda m: m["type"] == "feed_request")
            assert request["error"]["code"] == "unavailable" and "git log failed" in request["error"]["message"]
            await send_json(ws, {"type": "ping", "t": 1})
            await recv_until(ws, lambda m: m["type"] == "pong")
    run(scenario)
    stop(server)
