"""Compare mode (`/?compare=ms,ht`, README "Compare mode"): two presets side by side, each its own session, driven
by the same gesture. One real touch drag on one list reaches both sessions, and what the server reports of each
(events, states, offsets) shows two different timelines: MSPullToRefreshController arms at 30 px and rests on a
30 px inset, ends over 0.2 s; HTRefreshView arms at 60 px, rests on 60 px, ends over 0.25 s (docs/SEEDS.md §2.5,
§3.6). Every wait is for a state the page reports (`window.refreshkit.compare()`), never for a duration."""
from __future__ import annotations

import pytest

from browser_support import is_subsequence, publish_image, save_screenshot, touch_drag, touch_end, wait_until

COMPARE = "/?compare=ms,ht"
PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
WIDE_TOUCH = dict(viewport={"width": 1280, "height": 800}, device_scale_factor=1, has_touch=True)
# The feed does not answer within the test: the refreshes run until the test finishes them with a command.
HELD_LATENCY_MS = 120_000


def sides(page) -> list[dict]:
    return page.evaluate("() => window.refreshkit.compare()")


def open_compare(browser, server, options: dict, query: str = COMPARE):
    context = browser.new_context(**options)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(server.url + query)
    page.wait_for_function("() => window.refreshkit?.mode === 'compare'"
                           " && window.refreshkit.compare().every(s => s.connected && s.edges.top)")
    return context, page


def side_box(page, index: int) -> dict:
    return page.evaluate("""(i) => {
        const r = document.querySelector(`.compare-side[data-side="${i}"] canvas`).getBoundingClientRect();
        return {x: r.x, y: r.y, w: r.width, h: r.height};
    }""", index)


def finger_travel(shown: float, height: float) -> float:
    """The finger travel that shows `shown` px of pull in a viewport `height` tall (the rubber band's inverse,
    docs/PHYSICS.md §3.1, with UIKit's 0.55)."""
    return shown * height / (0.55 * (height - shown))


def top_transitions(side: dict) -> list[dict]:
    return [t for t in side["transitions"] if t["edge"] == "top"]


def first(trs: list[dict], to: str) -> dict:
    return next(t for t in trs if t["to"] == to)


def all_sides(page, predicate, what: str, timeout: float = 10):
    return wait_until(page, lambda p: (lambda s: s if all(predicate(x) for x in s) else None)(sides(p)), timeout,
                      what=what)


@pytest.fixture
def wide(browser, server):
    context, page = open_compare(browser, server, WIDE_TOUCH)
    yield page
    context.close()


def test_one_drag_runs_two_different_timelines(wide):
    page = wide
    start = sides(page)
    assert [s["preset"] for s in start] == ["ms", "ht"]
    assert start[0]["session"] != start[1]["session"], "each side is a session of its own"
    assert page.locator(".compare-name").all_inner_texts() == ["ms", "ht"]
    assert page.locator(".compare-library").all_inner_texts() == ["MSPullToRefreshController", "HTRefreshView"]
    # the two lists are side by side, the same size, and each session was told its own list's size
    left, right = side_box(page, 0), side_box(page, 1)
    assert abs(left["y"] - right["y"]) < 1 and right["x"] >= left["x"] + left["w"] - 1
    assert abs(left["w"] - right["w"]) < 1 and abs(left["h"] - right["h"]) < 1
    for s in start:
        assert abs(s["viewport"]["w"] - left["w"]) <= 1 and abs(s["viewport"]["h"] - left["h"]) <= 1

    # a command from the page goes to both sessions, as every input does
    page.evaluate("(ms) => window.refreshkit.send({type: 'configure', feed: {latencyMs: ms, timeoutMs: 2 * ms}})",
                  HELD_LATENCY_MS)
    all_sides(page, lambda s: s["config"]["feed"]["latencyMs"] == HELD_LATENCY_MS, "both feeds held")
    rests = {s["preset"]: s["config"]["edges"]["top"]["restingInset"] for s in start}
    exits = {s["preset"]: s["config"]["edges"]["top"]["exitDuration"] for s in start}
    assert rests == {"ms": 30, "ht": 60} and exits == {"ms": 0.2, "ht": 0.25}

    # one real drag on the left list, 110 px of pull: past MS's 30 px and HT's 60 px
    travel = finger_travel(110, left["h"])
    touch_drag(page, (left["x"] + left["w"] / 2, left["y"] + left["h"] * 0.2), travel, steps=20)
    refreshing = all_sides(page, lambda s: s["edges"]["top"] == "refreshing" and s["phase"] == "idle",
                           "both sides refreshing, at rest")
    # each rests on its own library's refreshing inset, and draws it there
    for s in refreshing:
        assert s["serverOffset"]["y"] == -rests[s["preset"]], s
        assert s["insets"]["top"] == rests[s["preset"]], s
    all_sides(page, lambda s: abs(s["offset"]["y"] - s["serverOffset"]["y"]) < 0.5, "both sides drawn at rest")
    page.locator("#panel").wait_for(state="visible")
    path = save_screenshot(page, "compare.png")
    publish_image(path, "docs/images/compare.png")

    page.evaluate("() => window.refreshkit.send({type: 'command', name: 'finish', edge: 'top'})")
    done = all_sides(page, lambda s: s["edges"]["top"] == "idle"
                     and any(t["to"] == "finishing" for t in top_transitions(s))
                     and top_transitions(s)[-1]["to"] == "idle", "both refreshes ended")
    timelines = {s["preset"]: top_transitions(s) for s in done}
    for preset, trs in timelines.items():
        states = [t["to"] for t in trs]
        assert is_subsequence(["pulling", "armed", "refreshing", "finishing", "idle"], states), (preset, states)
        assert first(trs, "armed")["cause"] == "drag" and first(trs, "refreshing")["cause"] == "release", trs
        assert first(trs, "finishing")["cause"] == "command", trs

    def armed_after_pulling(trs):
        return first(trs, "armed")["t"] - first(trs, "pulling")["t"]

    def finishing_lasted(trs):
        return first(trs, "idle")["t"] - first(trs, "finishing")["t"]

    # the same drag armed MS first: its trigger is half of HT's (times are each session's own server times)
    assert armed_after_pulling(timelines["ms"]) < armed_after_pulling(timelines["ht"]), timelines
    # each ended over its own library's exit animation: 200 ms and 250 ms
    for preset, trs in timelines.items():
        assert abs(finishing_lasted(trs) - 1000 * exits[preset]) < 2, (preset, trs)
    # both got the same input: one gesture each, begun and ended
    for s in done:
        assert s["events"].count("gestureBegan") == 1 and s["events"].count("gestureEnded") == 1, s["events"]
    # the panel shows both timelines, labelled, with the libraries' own names for the states
    titles = page.locator("[data-section^='compare-timeline-'] .panel-summary-title").all_inner_texts()
    assert [t.lower() for t in titles] == ["ms · mspulltorefreshcontroller", "ht · htrefreshview"]
    assert page.locator("[data-section='compare-timeline-ms'] .seed-name", has_text="didEngage").count() >= 1
    assert page.locator("[data-section='compare-timeline-ht'] .seed-name", has_text="CanEngageRefresh").count() >= 1
    assert not page.errors, page.errors


def test_in_library_names_one_pull_shows_each_librarys_own_start_and_end(browser, server):
    """`&events=library` (README "Compare mode"): each side's events as its library tells its app. One pull and one
    finish: MSPullToRefreshController says `canEngage`, `didEngage` and nothing at the end; HTRefreshView says
    `CanEngageRefresh`, `DidEngageRefresh`, then `WillEndRefresh` and `DidEndRefresh` (docs/SEEDS.md, "Each
    library's events")."""
    context, page = open_compare(browser, server, WIDE_TOUCH, COMPARE + "&events=library")
    try:
        all_sides(page, lambda s: s["config"].get("events") == "library", "both sides in their libraries' names")
        page.evaluate("(ms) => window.refreshkit.send({type: 'configure', feed: {latencyMs: ms, timeoutMs: 2 * ms}})",
                      HELD_LATENCY_MS)
        all_sides(page, lambda s: s["config"]["feed"]["latencyMs"] == HELD_LATENCY_MS, "both feeds held")
        left = side_box(page, 0)
        touch_drag(page, (left["x"] + left["w"] / 2, left["y"] + left["h"] * 0.2), finger_travel(110, left["h"]),
                   steps=20)
        all_sides(page, lambda s: s["edges"]["top"] == "refreshing" and s["phase"] == "idle", "both refreshing")
        page.evaluate("() => window.refreshkit.send({type: 'command', name: 'finish', edge: 'top'})")
        done = all_sides(page, lambda s: s["edges"]["top"] == "idle" and top_transitions(s)
                         and top_transitions(s)[-1]["to"] == "idle", "both refreshes ended")
        names = {s["preset"]: s["events"] for s in done}
        assert is_subsequence(["canEngage", "didEngage"], names["ms"]), names["ms"]
        assert not {"armed", "didStart", "willEnd", "didEnd"} & set(names["ms"]), names["ms"]
        assert is_subsequence(["CanEngageRefresh", "DidEngageRefresh", "WillEndRefresh", "DidEndRefresh"],
                              names["ht"]), names["ht"]
        # the states are the engine's whatever the names: both timelines ran their whole course
        for s in done:
            assert is_subsequence(["armed", "refreshing", "finishing", "idle"], [t["to"] for t in top_transitions(s)])
        assert not page.errors, page.errors
    finally:
        context.close()


def test_phone_stacks_the_lists_and_either_drives_both(browser, server):
    context, page = open_compare(browser, server, PHONE)
    try:
        upper, lower = side_box(page, 0), side_box(page, 1)
        width = page.evaluate("() => innerWidth")
        # upright on a phone the two lists stack, each the whole width
        assert upper["w"] == width and lower["w"] == width
        assert lower["y"] >= upper["y"] + upper["h"] - 1
        assert upper["h"] > 250 and lower["h"] > 250
        # a pull on the lower list, held below both triggers: both sessions are pulling
        cdp = touch_drag(page, (lower["x"] + lower["w"] / 2, lower["y"] + lower["h"] * 0.3),
                         finger_travel(20, lower["h"]), steps=8, release=False)
        all_sides(page, lambda s: s["edges"]["top"] == "pulling", "both sides pulling")
        touch_end(cdp)
        settled = all_sides(page, lambda s: s["edges"]["top"] == "idle" and top_transitions(s), "both back to idle")
        for s in settled:
            assert [t["to"] for t in top_transitions(s)] == ["pulling", "idle"], s["transitions"]
        assert not page.errors, page.errors
    finally:
        context.close()


def test_other_parameters_apply_to_both_sides(browser, server):
    context, page = open_compare(browser, server, PHONE, "/?compare=iq,jh&predict=0&lang=zh-Hans")
    try:
        s = sides(page)
        assert [x["preset"] for x in s] == ["iq", "jh"]
        assert not any(x["predicting"] for x in s), "predict=0 reaches both sides"
        assert page.evaluate("() => document.documentElement.lang") == "zh-Hans"
        exit_link = page.locator(".compare-exit")
        assert exit_link.inner_text() == "单列表"
        assert exit_link.get_attribute("href").endswith("/?predict=0&lang=zh-Hans")
    finally:
        context.close()


@pytest.mark.parametrize("query, says", [
    ("/?compare=ms", '"ms" names 1'),
    ("/?compare=ms,ht,iq", '"ms,ht,iq" names 3'),
    ("/?compare=ms,nope", 'no preset named "nope"'),
])
def test_a_bad_value_says_so_and_shows_the_normal_page(browser, server, query, says):
    context = browser.new_context(**PHONE)
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.url + query + "&lang=en")
        notice = page.locator(".compare-notice[role='alert']")
        notice.wait_for(state="visible")
        assert says in notice.inner_text()
        # the normal page runs instead: its list, its session, no compare value left in the address
        page.wait_for_function("() => window.refreshkit?.frame && window.refreshkit.state.connected")
        assert page.evaluate("() => window.refreshkit.mode") is None
        assert page.locator("#list").is_visible() and page.locator(".compare").count() == 0
        search = page.evaluate("() => location.search")
        assert "compare" not in search and "lang=en" in search, search
        notice.get_by_role("button").click()
        assert notice.count() == 0
        assert not errors, errors
    finally:
        context.close()
