"""Preset files (docs/PRESETS.md) through the real binary: `refreshkit preset show/check/list`, `serve
--preset-file`, and the page's `configure.presetFile` over a real WebSocket."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, hello, recv_until, run, send_json, server_binary, ws_connect

SEEDS = ["ios", "jh", "ht", "gv", "ms", "iq"]


def refreshkit(*args: str) -> subprocess.CompletedProcess:
    binary = server_binary()
    if not binary.exists():
        pytest.fail(f"server binary {binary} not found", pytrace=False)
    return subprocess.run([str(binary), *args], cwd=ROOT, capture_output=True, text=True, timeout=20)


def write(tmp_path: Path, name: str, content: dict | str) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


BAD_FILE = {
    "name": "bad one", "colour": "red",
    "config": {"edges": {"top": {"triggerDistance": 20000, "role": 3}, "middle": {}},
               "feed": {"pageSize": 1.5}, "physics": []},
}
BAD_PROBLEMS = [
    "colour: unknown key",
    "name: 'bad one' is not a name",
    "edges.top.role must be one of refresh, loadMore; got a number",
    "edges.top.triggerDistance must be between 1 and 10000, got 20000.0",
    "edges.top.enabled is required",
    "edges.middle: not an edge",
    "insets is required",
    "feed.pageSize must be an integer",
    "physics must be an object; got an array",
]


def welcome_of(srv, **hello_fields) -> dict:
    async def scenario():
        async with ws_connect(srv) as ws:
            welcome, _ = await hello(ws, **hello_fields)
            return welcome
    return run(scenario)


def test_preset_list_names_every_seed_with_its_library():
    result = refreshkit("preset", "list")
    assert result.returncode == 0, result.stderr
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    assert [row[0] for row in rows] == SEEDS
    assert rows[1][1] == "JHPullToRefreshKit"


def test_preset_show_of_an_unknown_preset_is_refused():
    result = refreshkit("preset", "show", "nope")
    assert result.returncode != 0
    assert "no preset named 'nope'" in result.stderr


def test_a_seeds_file_is_checked_good_and_served_as_the_seed(server, fresh_server, tmp_path):
    paths = []
    for name in SEEDS:
        shown = refreshkit("preset", "show", name)
        assert shown.returncode == 0, shown.stderr
        file = json.loads(shown.stdout)
        assert file["name"] == name and file["base"] == name
        assert set(file["config"]) == {"edges", "insets", "feed", "physics", "events"}
        assert file["config"]["events"] == "refreshkit"
        path = write(tmp_path, name, shown.stdout)
        checked = refreshkit("preset", "check", str(path))
        assert checked.returncode == 0, checked.stderr
        assert f"preset '{name}' is good" in checked.stdout
        paths += ["--preset-file", str(path)]
    with_files = fresh_server(*paths)
    for name in SEEDS:
        seed = welcome_of(server, preset=name)
        from_file = welcome_of(with_files, preset=name)
        assert from_file["config"] == seed["config"], name
        assert from_file["presets"] == SEEDS
        assert from_file["catalogue"] == seed["catalogue"]


def test_a_preset_file_is_offered_and_may_be_the_default(fresh_server, tmp_path):
    path = write(tmp_path, "mine", {
        "name": "mine", "base": "jh", "summary": "jh, pulled further",
        "config": {"edges": {"top": {"triggerDistance": 90, "control": "bubbles"}}},
    })
    srv = fresh_server("--preset-file", str(path), "--preset", "mine")
    welcome = welcome_of(srv)
    assert welcome["preset"] == "mine"
    assert welcome["presets"] == SEEDS + ["mine"]
    assert welcome["catalogue"]["mine"] == {
        "library": "JHPullToRefreshKit", "summary": "jh, pulled further", "controls": {"top": "bubbles"},
        "eventNames": welcome["catalogue"]["jh"]["eventNames"],
    }
    top = welcome["config"]["edges"]["top"]
    assert top["triggerDistance"] == 90 and top["control"] == "bubbles" and top["strictness"] == "strict"

    # a page switches to it, and back, by name
    async def scenario():
        async with ws_connect(srv) as ws:
            await hello(ws, preset="ios")
            await send_json(ws, {"type": "configure", "preset": "mine"})
            config, _ = await recv_until(ws, lambda m: m["type"] in ("config", "error"))
            return config
    config = run(scenario)
    assert config["type"] == "config", config
    assert config["preset"] == "mine" and config["config"] == welcome["config"]


def test_check_and_serve_list_every_problem_of_a_bad_file(fresh_server, tmp_path):
    path = write(tmp_path, "bad", BAD_FILE)
    checked = refreshkit("preset", "check", str(path))
    assert checked.returncode == 1
    for problem in BAD_PROBLEMS:
        assert problem in checked.stderr, checked.stderr
    served = subprocess.run(
        [str(server_binary()), "serve", "--host", "127.0.0.1", "--port", "0", "--preset-file", str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=20)
    assert served.returncode != 0
    assert "listening on" not in served.stdout
    assert str(path) in served.stderr
    for problem in BAD_PROBLEMS:
        assert problem in served.stderr, served.stderr


def test_a_page_loads_a_preset_file_and_a_bad_one_changes_nothing(server):
    good = json.loads(refreshkit("preset", "show", "gv").stdout)
    good["name"] = "my-gv"
    good["config"]["edges"]["top"]["control"] = "bubbles"

    async def scenario():
        async with ws_connect(server) as ws:
            welcome, _ = await hello(ws, preset="ios")
            await send_json(ws, {"type": "configure", "presetFile": BAD_FILE})
            error, _ = await recv_until(ws, lambda m: m["type"] in ("config", "error"))
            # the session kept its configuration: a one-field change comes back on ios's values
            await send_json(ws, {"type": "configure", "edges": {"top": {"height": 61}}})
            kept, _ = await recv_until(ws, lambda m: m["type"] in ("config", "error"))
            await send_json(ws, {"type": "configure", "presetFile": good})
            loaded, _ = await recv_until(ws, lambda m: m["type"] in ("config", "error"))
            return welcome, error, kept, loaded

    welcome, error, kept, loaded = run(scenario)
    assert error["type"] == "error" and error["code"] == "bad_field" and error["ref"] == "configure", error
    assert error["message"].startswith("configure.presetFile is refused (")
    for problem in BAD_PROBLEMS:
        assert problem in error["message"], error["message"]
    assert kept["type"] == "config" and kept["preset"] == "ios"
    expected = json.loads(json.dumps(welcome["config"]))
    expected["edges"]["top"]["height"] = 61
    assert kept["config"] == expected
    assert loaded["type"] == "config", loaded
    assert loaded["preset"] == "my-gv"
    assert loaded["config"] == good["config"]


def test_a_trace_of_a_file_preset_replays_with_the_file(fresh_server, tmp_path):
    mine = {"name": "mine", "base": "ms", "config": {"edges": {"top": {"triggerDistance": 44}}}}
    path = write(tmp_path, "mine", mine)
    srv = fresh_server("--preset-file", str(path))

    async def scenario():
        async with ws_connect(srv) as ws:
            await hello(ws, preset="mine")
            await send_json(ws, {"type": "command", "name": "refresh", "edge": "top"})
            await send_json(ws, {"type": "configure", "preset": "ios"})
            await recv_until(ws, lambda m: m["type"] == "config")
            await send_json(ws, {"type": "configure", "preset": "mine"})
            await recv_until(ws, lambda m: m["type"] == "config")
            await send_json(ws, {"type": "trace"})
            message, _ = await recv_until(ws, lambda m: m["type"] == "trace")
            return message["trace"]

    trace = write(tmp_path, "trace", run(scenario))
    without = refreshkit("replay", str(trace))
    assert without.returncode == 2 and "no preset named 'mine'" in without.stderr, without.stderr
    replayed = refreshkit("replay", "--preset-file", str(path), str(trace))
    assert replayed.returncode == 0, replayed.stderr + replayed.stdout
