"""`examples/gitlog` in Chromium (docs/EMBEDDING.md): the library serving an app's own source, driven as the demo is.
The page shows the repository's commits by their titles, newest first; a commit made while it is open comes on
top with a pull of a real finger. Every wait is for a state the page says (`window.refreshkit.feed()`, the frame)."""
from __future__ import annotations

import pytest

from browser_support import canvas_point, rows_loaded, top_at_rest, touch_drag, wait_until
from conftest import PHONE, open_page, start_server, stop_server
from gitlog_support import commit, gitlog_command, make_repository

COMMITS = 30


@pytest.fixture(scope="module")
def repository(tmp_path_factory):
    return make_repository(tmp_path_factory.mktemp("repository"), COMMITS)


@pytest.fixture(scope="module")
def gitlog_server(repository):
    srv = start_server(program=gitlog_command(repository))
    yield srv
    assert stop_server(srv) == 0, "\n".join(srv.log[-30:])


def test_a_pull_brings_a_new_commit_on_top(browser, gitlog_server, repository):
    context, page = open_page(browser, gitlog_server, PHONE)
    try:
        f = wait_until(page, rows_loaded, 20, what="the commits in the rows")
        assert f["kind"] == "custom" and f["source"] == f"git:{repository}", f
        titles = [item["title"] for item in f["items"]]
        assert titles == [f"Commit {n}" for n in range(COMMITS, COMMITS - len(titles), -1)], titles

        commit(repository, COMMITS + 1)
        wait_until(page, top_at_rest, 10, what="the list at rest")
        touch_drag(page, canvas_point(page, 0.5, 0.15), dy=350, steps=20, interval=0.016)
        f = wait_until(page, lambda p: (g := rows_loaded(p)) and g["items"][0]["title"] == f"Commit {COMMITS + 1}"
                       and top_at_rest(p) and g, 15, what="the pulled refresh to put the new commit on top")
        assert [item["title"] for item in f["items"][:2]] == [f"Commit {COMMITS + 1}", f"Commit {COMMITS}"]
        assert f["requests"][0]["kind"] == "refresh" and f["requests"][0]["error"] is None, f["requests"]
        assert page.errors == []
    finally:
        context.close()
