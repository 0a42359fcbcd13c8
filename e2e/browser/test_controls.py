"""Controls (docs/CONTROLS.md) in the real page against the real server started with `--controls DIR`, DIR a
temporary folder holding the seeds' examples (examples/controls), a user's own control and broken ones.

- every example is driven through pull, arm, refresh and exit, and its pictures are compared: two progress values
  give two pictures, and while refreshing (the list at rest) the picture keeps changing: the cycle runs;
- the user's control is listed by /controls/index.json and the panel's picker, and draws the edge once chosen;
- a control picked in one page's panel reaches every device of the session (`configure {edges:{top:{control}}}`);
- broken controls (a module that does not load, a hook that throws, a set-up that never finishes, a missing hook)
  are named with their hook in the panel and the console, the edge falls back and a pull still refreshes;
- the folder serves nothing but its NAME.js files."""
from __future__ import annotations

import http.client
import json
import os
import shutil
from urllib.parse import urlsplit

import pytest

from browser_support import ROOT, drive_query, transitions, wait_connected, wait_until
from conftest import PHONE, open_page, start_server, stop_server
from controls_support import Finger, canvas_box, crop, edge_entry, picture_changes, settled

WIDE_TOUCH = dict(viewport={"width": 1280, "height": 800}, device_scale_factor=1, has_touch=True)
EXAMPLES = sorted(p.stem for p in (ROOT / "examples" / "controls").glob("*.js"))
TOP_EXAMPLES = [n for n in EXAMPLES if n != "htFooter"]

USER_CONTROL = """// a user's control: a bar that fills with the pull and a dot that runs while refreshing
import { defineControl, registeredControl, t } from '/js/refreshkit.js';
// what it imported, for the test to compare with the page's own modules
window.userDotsImported = { registeredControl, t };
export default defineControl({
  name: 'userDots',
  progress(ctx) {
    if (ctx.distance <= 0) return;
    ctx.canvas2d.fillStyle = '#0a7';
    ctx.canvas2d.fillRect(ctx.area.x, ctx.area.y, ctx.area.w * ctx.progress, ctx.area.h);
  },
  cycle(ctx) {
    ctx.canvas2d.fillStyle = '#a07';
    ctx.canvas2d.fillRect(ctx.area.x + ctx.cycle.t * (ctx.area.w - 20), ctx.area.y, 20, ctx.area.h);
  },
});
"""

# name → (module text, the hook its problem names)
BROKEN = {
    "loadFails": ("export default { name: 'loadFails', progress() {}, cycle() {} ;\n", "load"),
    "throwsInProgress": ("export default { name: 'throwsInProgress', cycle() {},"
                         " progress() { throw new Error('progress went wrong'); } };\n", "progress"),
    "throwsInCycle": ("export default { name: 'throwsInCycle', progress() {},"
                      " cycle() { throw new Error('cycle went wrong'); } };\n", "cycle"),
    "neverReady": ("export default { name: 'neverReady', setup: () => new Promise(() => {}),"
                   " progress() {}, cycle() {} };\n", "setup"),
    "noCycle": ("export default { name: 'noCycle', progress() {} };\n", "cycle"),
}


@pytest.fixture(scope="module")
def controls_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("controls")
    for name in EXAMPLES:
        shutil.copy(ROOT / "examples" / "controls" / f"{name}.js", folder / f"{name}.js")
    (folder / "userDots.js").write_text(USER_CONTROL)
    for name, (text, _) in BROKEN.items():
        (folder / f"{name}.js").write_text(text)
    (folder / "notes.txt").write_text("not a control\n")
    (folder / "sub").mkdir()
    (folder / "sub" / "inner.js").write_text("export default {};\n")
    os.symlink("/etc/passwd", folder / "escape.js")
    srv = start_server("--controls", str(folder))
    yield srv
    assert stop_server(srv) == 0, "\n".join(srv.log[-30:])


def get(url: str, path: str):
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, dict((k.lower(), v) for k, v in response.getheaders()), body


def controls(page) -> dict:
    return page.evaluate("() => window.refreshkit.controls()")


def wait_ready(page, name: str, edge: str = "top"):
    wait_until(page, lambda p: controls(p)["status"].get(edge) == "ready" and controls(p)["drawing"].get(edge) == name,
               10, what=f"{name} to draw the {edge} edge")


def state_is(edge_name: str, *states: str):
    return lambda p: (edge_entry(p, edge_name) or {}).get("state") in states


def drive(page, name: str, edge_name: str, sign: float, trigger: float):
    """Pull, arm, refresh and exit on `edge_name`, checking the control's pictures on the way."""
    box = canvas_box(page)
    finger = Finger(page, box["x"] + box["w"] / 2, box["y"] + box["h"] * (0.3 if sign > 0 else 0.7))
    # two progress values, both past the view's height: the view stands still, only the progress differs
    finger.pull_to(edge_name, 0.5 * trigger, sign, what="(first progress)")
    wait_until(page, lambda p: settled(p) and state_is(edge_name, "pulling")(p), 5, what="the first pull to settle")
    first_area = controls(page)["areas"][edge_name]
    first = crop(page, box, first_area, first_area["h"], "top")
    finger.pull_to(edge_name, 0.85 * trigger, sign, what="(second progress)")
    wait_until(page, lambda p: settled(p) and state_is(edge_name, "pulling")(p), 5, what="the second pull to settle")
    second_area = controls(page)["areas"][edge_name]
    second = crop(page, box, second_area, first_area["h"], "top")
    assert first != second, f"{name}: the picture does not change with the progress"
    # arm, release: the refresh starts
    finger.pull_to(edge_name, 1.25 * trigger, sign, what="(armed)")
    wait_until(page, state_is(edge_name, "armed"), 5, what=f"{name}: armed")
    finger.lift()
    wait_until(page, lambda p: state_is(edge_name, "refreshing")(p) and settled(p), 10,
               what=f"{name}: refreshing, at rest")
    area = controls(page)["areas"][edge_name]
    picture_changes(page, lambda: crop(page, box, area, area["h"], "top"),
                    lambda p: state_is(edge_name, "refreshing")(p) and settled(p), timeout=5,
                    what=f"{name}: its picture to change while refreshing (the cycle)")
    assert controls(page)["calls"][edge_name].get("cycle", 0) > 0
    # the end, asked for once the cycle was seen (the feed would answer only after a minute): the exit runs, then
    # the edge rests
    page.evaluate(f"() => window.refreshkit.send({{type: 'command', name: 'finish', edge: '{edge_name}'}})")
    wait_until(page, state_is(edge_name, "idle", "noMoreData"), 15, what=f"{name}: back at rest")
    states = [t["to"] for t in transitions(page, edge_name)]
    assert "refreshing" in states, states
    info = controls(page)
    assert info["problems"] == [] and page.errors == [], (info["problems"], page.errors)
    return states, info


@pytest.mark.parametrize("name", TOP_EXAMPLES)
def test_example_control_through_pull_arm_refresh_and_exit(browser, controls_server, name):
    context, page = open_page(browser, controls_server, PHONE, f"?preset=jh&control={name}")
    try:
        wait_ready(page, name)
        page.evaluate("() => window.refreshkit.send({type: 'configure', feed: {latencyMs: 60000, failureRate: 0},"
                      " edges: {top: {triggerDistance: 150}}})")
        wait_until(page, lambda p: p.evaluate("() => window.refreshkit.config?.edges?.top?.triggerDistance") == 150, 5)
        states, info = drive(page, name, "top", 1, 150)
        assert "finishing" in states, states
        calls = info["calls"]["top"]
        assert calls.get("progress", 0) > 0
        if name != "rainbow":  # MS has no exit animation: the host fades its cycle out (docs/CONTROLS.md)
            assert calls.get("exit", 0) > 0, calls
    finally:
        context.close()


# Every drawn row at the height the layout has now, none sent and not accepted: the drawn rows will not move.
DRAWN_ROWS_MEASURED = """() => { const k = window.refreshkit, l = k.rowLayout(), rows = k.rows();
    return l.accepted > 0 && l.awaiting === 0
        && rows.every((r) => r.h === k.rowTop(r.index + 1) - k.rowTop(r.index)); }"""
# ...and the last row among them (so laid out, its height sent in the same task as the drawing): where the end is
# will not change.
LAST_ROW_MEASURED = """() => { const k = window.refreshkit, l = k.rowLayout();
    return k.rows().some((r) => r.index === l.count - 1) && (""" + DRAWN_ROWS_MEASURED + """)(); }"""
AT_THE_END = "() => { const f = window.refreshkit.frame; return f.offset.y >= f.contentSize.h - f.viewport.h - 0.5; }"


def rest_at_the_end(page) -> None:
    """Scrolls the list to its end and waits for it to rest there. The last rows come at the estimate and are
    measured once on screen: taller than it, they push the end below the screen (the first visible row keeps still,
    docs/LAYOUT.md, "Anchoring"), so the list is scrolled to the end again once their heights are in (as
    test_rows_fling.py does)."""
    for _ in range(5):
        page.evaluate("() => window.refreshkit.send({type: 'command', name: 'scrollToEdge', edge: 'bottom',"
                      " animated: false})")
        # at rest with the drawn rows measured; rows measured taller may have pushed the last one below: scroll again
        wait_until(page, lambda p: settled(p) and p.evaluate(DRAWN_ROWS_MEASURED), 10,
                   what="the list at rest, its drawn rows at their accepted heights")
        if page.evaluate(AT_THE_END) and page.evaluate(LAST_ROW_MEASURED):
            return
    raise AssertionError("the list never rested at its end after 5 scrolls to it")


def test_ht_footer_on_the_bottom_edge(browser, controls_server):
    context, page = open_page(browser, controls_server, PHONE, "?preset=jh&control=bottom:htFooter")
    try:
        page.evaluate("() => window.refreshkit.send({type: 'configure', feed: {latencyMs: 60000, failureRate: 0},"
                      " edges: {bottom: {enabled: true, role: 'loadMore', trigger: 'onRelease',"
                      " triggerDistance: 150}}})")
        wait_until(page, lambda p: p.evaluate(
            "() => window.refreshkit.config?.edges?.bottom?.triggerDistance") == 150, 5)
        rest_at_the_end(page)
        wait_ready(page, "htFooter", "bottom")
        assert controls(page)["drawing"]["top"] == "colorCycle", "the other edges keep the preset's controls"
        drive(page, "htFooter", "bottom", -1, 150)
    finally:
        context.close()


def test_user_control_from_the_controls_folder(browser, controls_server):
    status, headers, body = get(controls_server.url, "/controls/index.json")
    assert status == 200 and headers["content-type"] == "application/json"
    listed = json.loads(body)["controls"]
    assert listed == sorted([*EXAMPLES, "userDots", *BROKEN]), listed
    status, headers, body = get(controls_server.url, "/controls/userDots.js")
    assert status == 200 and headers["content-type"] == "text/javascript" and b"userDots" in body
    assert "script-src 'self'" in headers["content-security-policy"]

    context, page = open_page(browser, controls_server, WIDE_TOUCH, "?preset=jh")
    try:
        picker = page.locator("select[data-control-picker=top]")
        wait_until(page, lambda p: "userDots" in picker.evaluate("(s) => [...s.options].map((o) => o.value)"), 5,
                   what="the picker to list the folder's controls")
        options = picker.evaluate("(s) => [...s.options].map((o) => o.value)")
        for name in ["spinner", "colorCycle", "arrow", "ring", "footer", "side", *EXAMPLES]:
            assert name in options, options
        picker.select_option("userDots")
        wait_ready(page, "userDots")
        sent = page.evaluate("() => window.refreshkit.config.edges.top")
        box = canvas_box(page)
        finger = Finger(page, box["x"] + box["w"] / 2, box["y"] + box["h"] * 0.3)
        finger.pull_to("top", 40)
        finger.lift()
        wait_until(page, lambda p: controls(p)["calls"]["top"].get("progress", 0) > 0, 5, what="userDots to draw")
        assert page.errors == [] and controls(page)["problems"] == [], (page.errors, sent)
        # the control's /js/refreshkit.js is the page's: the same functions, so the same registry and language
        # (one module instance per URL), not a second copy of the page's modules
        shared = page.evaluate("""async () => {
          const api = await import('/js/controls/api.js');
          const i18n = await import('/js/i18n.js');
          const { registeredControl, t } = window.userDotsImported;
          return { registry: registeredControl === api.registeredControl, words: t === i18n.t,
                   builtIn: registeredControl("spinner") === api.registeredControl("spinner") };
        }""")
        assert shared == {"registry": True, "words": True, "builtIn": True}, shared
    finally:
        context.close()


def test_a_control_picked_on_one_page_draws_on_every_page_of_the_session(browser, controls_server):
    context_a, a = open_page(browser, controls_server, WIDE_TOUCH, "?preset=jh")
    context_b = None
    try:
        sid = a.evaluate("() => window.refreshkit.session.id")
        context_b, b = open_page(browser, controls_server, WIDE_TOUCH, drive_query(a))
        assert b.evaluate("() => window.refreshkit.session.id") == sid
        wait_until(a, lambda p: p.evaluate("() => window.refreshkit.session.members") == 2, 5, what="two devices")
        for page in (a, b):
            wait_ready(page, "colorCycle")  # jh's own control, before anyone picks
        picker = a.locator("select[data-control-picker=top]")
        wait_until(a, lambda p: "userDots" in picker.evaluate("(s) => [...s.options].map((o) => o.value)"), 5,
                   what="the picker to list the folder's controls")
        picker.select_option("userDots")
        # the choice is the session's: the server's config names it, and both pages load and draw it
        for page in (a, b):
            wait_until(page, lambda p: (p.evaluate("() => window.refreshkit.config.edges.top.control")
                                        == "userDots"), 5, what="the session's config to name userDots")
            wait_ready(page, "userDots")
        other_picker = b.locator("select[data-control-picker=top]")
        wait_until(b, lambda p: other_picker.input_value() == "userDots", 5, what="B's picker to show userDots")
        # B pulls: its list draws the pull with the picked control
        box = canvas_box(b)
        finger = Finger(b, box["x"] + box["w"] / 2, box["y"] + box["h"] * 0.3)
        finger.pull_to("top", 40)
        finger.lift()
        wait_until(b, lambda p: controls(p)["calls"]["top"].get("progress", 0) > 0, 5, what="userDots to draw on B")
        for page in (a, b):
            assert page.errors == [] and controls(page)["problems"] == [], (page.errors, controls(page)["problems"])
    finally:
        if context_b is not None:
            context_b.close()
        context_a.close()


def test_the_panel_chooses_the_control_of_any_edge(browser, controls_server):
    context, page = open_page(browser, controls_server, WIDE_TOUCH, "?preset=ios")
    try:
        wait_ready(page, "footer", "bottom")
        edges = page.locator("select[data-control-picker-edge]")
        assert edges.evaluate("(s) => [...s.options].map((o) => o.value)") == ["top", "bottom"]
        edges.select_option("bottom")
        picker = page.locator("select[data-control-picker=bottom]")
        wait_until(page, lambda p: "htFooter" in picker.evaluate("(s) => [...s.options].map((o) => o.value)"), 5,
                   what="the picker to list the folder's controls")
        assert picker.input_value() == "footer"
        picker.select_option("htFooter")
        wait_until(page, lambda p: (p.evaluate("() => window.refreshkit.config.edges.bottom.control")
                                    == "htFooter"), 5, what="the session's config to name htFooter at the bottom")
        wait_ready(page, "htFooter", "bottom")
        assert controls(page)["drawing"]["top"] == "spinner", "the top edge keeps its control"
        assert page.errors == [] and controls(page)["problems"] == [], (page.errors, controls(page)["problems"])
    finally:
        context.close()


def test_the_folder_serves_its_controls_only(controls_server, server):
    for path in ["/controls/notes.txt", "/controls/sub/inner.js", "/controls/escape.js", "/controls/nope.js",
                 "/controls/", "/controls/a%2Fb.js"]:
        status, _, body = get(controls_server.url, path)
        assert status == 404, (path, status, body[:80])
    # a way out of the folder is refused (lws folds `..` first; what is left is outside every root)
    for path in ["/controls/..%2F..%2FPackage.swift", "/controls/%2E%2E/%2E%2E/Package.swift"]:
        status, _, body = get(controls_server.url, path)
        assert status in (400, 404) and b"swift-tools-version" not in body, (path, status, body[:80])
    # a server without --controls lists none and serves none
    status, _, body = get(server.url, "/controls/index.json")
    assert status == 200 and json.loads(body) == {"controls": []}
    assert get(server.url, "/controls/userDots.js")[0] == 404


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_control_is_named_and_the_list_keeps_working(browser, controls_server, name):
    hook = BROKEN[name][1]
    context = browser.new_context(**WIDE_TOUCH)
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    console = []  # listened to from the start: a module that fails to load fails early
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.goto(f"{controls_server.url}/?preset=jh&control={name}")
    wait_connected(page)
    try:
        page.evaluate("() => window.refreshkit.send({type: 'configure', feed: {latencyMs: 300, failureRate: 0}})")
        box = canvas_box(page)
        finger = Finger(page, box["x"] + box["w"] / 2, box["y"] + box["h"] * 0.3)
        trigger = page.evaluate("() => window.refreshkit.config.edges.top.triggerDistance")
        finger.pull_to("top", trigger * 1.5)
        wait_until(page, state_is("top", "armed"), 5, what="armed")
        finger.lift()
        wait_until(page, state_is("top", "refreshing"), 5, what="the pull to start a refresh")
        wait_until(page, lambda p: any(p_["control"] == name and p_["hook"] == hook for p_ in controls(p)["problems"]),
                   8, what=f"{name}'s problem with {hook}")
        wait_until(page, state_is("top", "idle"), 10, what="the refresh to end")
        assert "refreshing" in [t["to"] for t in transitions(page, "top")]
        assert controls(page)["drawing"]["top"] == "colorCycle", "the edge falls back to the preset's control"
        item = page.locator(f"[data-control-problems] li[data-control='{name}'][data-hook='{hook}']")
        wait_until(page, lambda p: item.count() == 1, 5, what="the panel's message")
        text = item.text_content()
        assert name in text and hook in text, text
        wait_until(page, lambda p: any(name in c and hook in c for c in console), 5, what="the console's message")
        assert page.errors == [], page.errors
        # the list goes on: a second pull refreshes again
        finger = Finger(page, box["x"] + box["w"] / 2, box["y"] + box["h"] * 0.3)
        finger.pull_to("top", trigger * 1.5)
        finger.lift()
        wait_until(page, lambda p: [t["to"] for t in transitions(p, "top")].count("refreshing") >= 2, 10,
                   what="a second refresh")
    finally:
        context.close()
