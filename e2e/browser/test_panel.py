"""The debug panel against the real server: open by default as a column on a wide screen, a closed drawer on
a phone; after a pull to refresh it shows the top edge's transitions with causes, the event log (didStart,
with the preset's library name), the frame's seq and a live plot; a parameter changed in its form is applied
by the server (the next pull arms at the new distance) and a refused one shows the server's error. Saves
artifacts/screenshots/panel.png and docs/images/panel.png (the README's picture)."""
from __future__ import annotations

import time

from browser_support import (
    canvas_point,
    edge,
    frame,
    publish_image,
    save_screenshot,
    to_states,
    top_id,
    transitions,
    wait_until,
)
from conftest import open_page

FEED_LATENCY_MS = 1500
WIDE = dict(viewport={"width": 1280, "height": 800}, device_scale_factor=1, has_touch=True)
PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)


def top(page) -> dict:
    return edge(frame(page), "top") or {}


def pull(page, dy: float, steps: int = 30, interval: float = 0.016, fx: float = 0.5, fy: float = 0.08):
    """A finger drag down through CDP touch events; after every move, the top edge's {state, distance} as
    the page last received it. The finger lifts at the end."""
    cdp = page.context.new_cdp_session(page)
    x, y = canvas_point(page, fx, fy)
    base = time.time()
    samples = []

    def send(kind, points, i):
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, "timestamp": base + i * interval})

    send("touchStart", [{"x": x, "y": y, "id": 1}], 0)
    for i in range(1, steps + 1):
        time.sleep(interval)
        send("touchMove", [{"x": x, "y": y + dy * i / steps, "id": 1}], i)
        e = top(page)
        samples.append((e.get("state"), e.get("distance", 0.0)))
    time.sleep(0.05)
    e = top(page)
    samples.append((e.get("state"), e.get("distance", 0.0)))
    send("touchEnd", [], steps + 2)
    cdp.detach()
    return samples


def timeline_rows(page, edge_name: str) -> list[dict]:
    """The panel's transition rows for an edge, oldest first."""
    rows = page.evaluate("""(edge) => [
        ...document.querySelectorAll(`#panel [data-timeline-rows="${edge}"] li.timeline-row`)
    ].map(li => ({from: li.dataset.from, to: li.dataset.to, cause: li.dataset.cause, text: li.textContent}))""",
                         edge_name)
    return list(reversed(rows))


def canvas_has_ink(page, selector: str) -> bool:
    return page.evaluate("""(sel) => {
        const c = document.querySelector(sel);
        if (!c || !c.width || !c.height) return false;
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let ink = 0;
        for (let i = 3; i < d.length; i += 4) if (d[i] > 0) ink++;
        return ink > 50;
    }""", selector)


def wait_idle(page, timeout=10.0):
    wait_until(page, lambda p: top(p).get("state") == "idle" and frame(p)["phase"] == "idle", timeout,
               what="the top edge to be idle and the list at rest")


def set_param(page, scope: str, key: str, value) -> None:
    control = page.locator(f'#panel [data-param="{scope}.{key}"] input, #panel [data-param="{scope}.{key}"] select')
    fieldset = page.locator(f'#panel details.param-fieldset[data-scope="{scope}"]')
    if fieldset.get_attribute("open") is None:
        fieldset.locator("summary").click()
    control.scroll_into_view_if_needed()
    control.fill(str(value))
    control.press("Enter")


def param_status(page, scope: str, key: str) -> str | None:
    return page.get_attribute(f'#panel [data-param="{scope}.{key}"]', "data-status")


def test_panel_on_a_wide_screen(browser, server):
    context, page = open_page(browser, server, WIDE)
    try:
        panel = page.locator("#panel")
        # open by default, as a right-hand column; the list keeps the rest and the server knows its size
        assert panel.is_visible()
        assert page.get_attribute("#debug-toggle", "aria-pressed") == "true"
        box = page.evaluate("""() => {
            const p = document.getElementById('panel').getBoundingClientRect();
            const c = document.getElementById('list').getBoundingClientRect();
            return {px: p.x, pw: p.width, pr: p.right, pb: p.bottom, cw: c.width, cx: c.x,
                    iw: innerWidth, ih: innerHeight};
        }""")
        assert abs(box["pr"] - box["iw"]) < 1 and abs(box["pb"] - box["ih"]) < 1
        assert 300 <= box["pw"] <= 440
        assert box["cx"] == 0 and abs(box["cw"] + box["pw"] - box["iw"]) <= 1
        wait_until(page, lambda p: abs(frame(p)["viewport"]["w"] - box["cw"]) <= 1, 5,
                   what="the server to get the narrower list (resize)")

        # the parameters form shows the preset's config (welcome.config)
        td = page.locator('#panel [data-param="top.triggerDistance"] input')
        configured = page.evaluate("() => window.refreshkit.welcome.config.edges.top.triggerDistance")
        assert td.input_value() == str(int(configured))
        # the editors are built from welcome.schema (the engine's ConfigurationSchema): one per field, its range
        schema = page.evaluate("() => window.refreshkit.welcome.schema")
        spec = next(f for f in schema["edges"] if f["name"] == "triggerDistance")
        assert (td.get_attribute("min"), td.get_attribute("max")) == (str(spec["min"]), str(spec["max"]))
        editors = page.evaluate("""() => [...document.querySelectorAll(
            '#panel details.param-fieldset[data-scope="top"] [data-param]')].map(r => r.dataset.param.split('.')[1])""")
        # a name field (an edge's control) has no editor here: the panel's control picker sets it
        assert sorted(editors) == sorted(f["name"] for f in schema["edges"] if f["kind"] != "name")
        # a slower feed, through the form
        set_param(page, "feed", "latencyMs", FEED_LATENCY_MS)
        wait_until(page, lambda p: param_status(p, "feed", "latencyMs") == "ok", 5, what="latencyMs accepted")

        # pull to refresh by touch
        newest = top_id(page)
        before = len(transitions(page, "top"))
        samples = pull(page, dy=560)
        # (from the event history: on a loaded machine a poll of the live state can miss a short refresh)
        wait_until(page, lambda p: "refreshing" in to_states(transitions(p, "top")[before:]), 5,
                   what=f"refreshing after {samples}")
        wait_until(page, lambda p: top_id(p) > newest and top(p).get("state") == "idle",
                   FEED_LATENCY_MS / 1000 + 8, what="the refresh to end")

        # the timeline lists pulling → armed → refreshing → finishing → idle for top, with causes
        def cycle(p):
            rows = timeline_rows(p, "top")
            whole = [r["to"] for r in rows][-5:] == ["pulling", "armed", "refreshing", "finishing", "idle"]
            return rows if whole else None
        rows = wait_until(page, cycle, 3, what="the timeline to list the whole cycle")
        assert all(r["cause"] for r in rows), rows
        assert rows[-5]["cause"] == "drag" and rows[-4]["cause"] == "drag", rows  # pulled and armed by the finger
        assert rows[-2]["cause"] in ("feedCompleted", "timer", "release"), rows  # the end: feed, timer or lift
        assert "canEngage" not in rows[-4]["text"]  # ios has no name for armed; its didStart name is on refreshing
        assert "valueChanged" in rows[-3]["text"], rows[-3]
        state_badge = page.locator('#panel [data-timeline-edge="top"] .state-badge')
        # (the badge is drawn with the frames, the timeline with the events: the one may be a frame behind)
        wait_until(page, lambda p: state_badge.inner_text() == "idle", 5, what="the state badge to say idle")

        # the event log shows didStart, with UIRefreshControl's name alongside
        did_start = page.locator('#panel [data-panel-events] li[data-name="didStart"]').first
        assert did_start.is_visible()
        assert "valueChanged" in did_start.inner_text()
        # the filter narrows it, pause counts what it misses, clear empties it
        page.fill("#panel .log-filter", "didStart")
        wait_until(page, lambda p: p.evaluate(
            "() => [...document.querySelectorAll('#panel [data-panel-events] li')]"
            ".every(li => li.dataset.name === 'didStart')"),
            2, what="the filter to apply")
        page.fill("#panel .log-filter", "")

        # the frame pane shows seq; the figures show a round trip and frames/s
        def seq_shown(p):
            text = p.locator('#panel [data-field="seq"]').inner_text()
            return text.isdigit() and int(text) > 1 and abs(int(text) - frame(p)["seq"]) < 50
        wait_until(page, seq_shown, 2, what="seq in the frame pane")
        assert page.locator('#panel [data-figure="rtt"] .fig-value').inner_text().endswith("ms")
        assert "/s" in page.locator('#panel [data-figure="bps"] .fig-value').inner_text()

        # the plot and the strip have something drawn
        assert canvas_has_ink(page, "#panel [data-panel-plot]")
        assert canvas_has_ink(page, "#panel .timeline-strip")

        # the picture: the panel after a whole refresh, the pull still on the plot, from the panel's top
        page.evaluate("() => { document.activeElement?.blur();"
                      " document.querySelector('#panel [data-panel-body]').scrollTop = 0; }")
        page.wait_for_timeout(120)  # one text update of the panel (10 per second)
        shot = save_screenshot(page, "panel.png")
        publish_image(shot, "docs/images/panel.png")

        # a parameter edited live: triggerDistance 100 → 150, and the next pull arms at the new distance
        wait_idle(page)
        set_param(page, "top", "triggerDistance", 150)
        wait_until(page, lambda p: param_status(p, "top", "triggerDistance") == "ok", 5,
                   what="triggerDistance accepted")
        assert not page.locator('#panel [data-param="top.triggerDistance"] .param-error').inner_text()
        before = len(transitions(page, "top"))
        samples = pull(page, dy=640, steps=36)
        assert any(s == "pulling" and d > 115 for s, d in samples), f"still armed at the old distance: {samples}"
        started = next(((s, d) for s, d in samples if s in ("armed", "refreshing")), None)
        assert started and started[1] >= 150 - 0.5, f"armed before the new distance: {samples}"
        wait_until(page, lambda p: to_states(transitions(p, "top")[before:])[-1:] == ["idle"],
                   FEED_LATENCY_MS / 1000 + 8, what="the refresh at the new distance to end")
        assert "refreshing" in to_states(transitions(page, "top")[before:])

        # a value the engine refuses: the server's error is shown next to the field, the value goes back
        set_param(page, "top", "triggerDistance", 0)
        error = page.locator('#panel [data-param="top.triggerDistance"] .param-error')
        wait_until(page, lambda p: "between 1 and 10000" in error.inner_text(), 5, what="the server's error")
        assert param_status(page, "top", "triggerDistance") == "error"
        assert td.input_value() == "150"
        assert "out_of_range" in page.locator("#panel [data-params-error]").inner_text()

        # every section at once, on a tall viewport (artifacts only)
        page.set_viewport_size({"width": 1280, "height": 2400})
        page.evaluate("() => document.activeElement?.blur()")
        page.wait_for_timeout(250)
        save_screenshot(page, "panel-full.png")
        page.set_viewport_size({"width": 1280, "height": 800})

        # `d` closes the column: the list takes the whole width and the server is told
        page.locator("#list").focus()
        page.keyboard.press("d")
        assert not panel.is_visible()
        wait_until(page, lambda p: frame(p)["viewport"]["w"] == 1280, 5, what="resize to the full width")
        page.keyboard.press("d")
        assert panel.is_visible()
        assert page.errors == []
    finally:
        context.close()


def test_panel_is_a_drawer_on_a_phone(browser, server):
    context, page = open_page(browser, server, PHONE)
    try:
        panel = page.locator("#panel")
        assert not panel.is_visible(), "closed by default on a phone"
        assert page.get_attribute("#debug-toggle", "aria-pressed") == "false"
        list_before = page.evaluate("() => document.getElementById('list').getBoundingClientRect().height")
        page.keyboard.press("d")
        assert panel.is_visible()
        assert page.get_attribute("#debug-toggle", "aria-pressed") == "true"
        page.wait_for_timeout(400)  # the drawer's slide-in
        box = page.evaluate("""() => { const r = document.getElementById('panel').getBoundingClientRect();
            return {x: r.x, w: r.width, h: r.height, bottom: r.bottom, iw: innerWidth, ih: innerHeight}; }""")
        assert box["x"] == 0 and box["w"] == box["iw"], box
        assert abs(box["bottom"] - box["ih"]) < 1, box
        assert box["h"] <= 0.6 * box["ih"] + 1, box
        # a drawer over the list: the list keeps its size
        assert page.evaluate("() => document.getElementById('list').getBoundingClientRect().height") == list_before
        wait_until(page, lambda p: p.locator('#panel [data-field="seq"]').inner_text().isdigit(), 2, what="seq shown")
        save_screenshot(page, "panel-phone.png")
        # the Debug button and Escape close it
        page.keyboard.press("Escape")
        assert not panel.is_visible()
        page.click("#debug-toggle")
        assert panel.is_visible()
        page.click("#debug-toggle")
        assert not panel.is_visible()
        assert page.errors == []
    finally:
        context.close()


def test_panel_in_dark_mode(browser, server):
    context, page = open_page(browser, server, dict(WIDE, color_scheme="dark"))
    try:
        assert page.locator("#panel").is_visible()
        bg = page.evaluate("() => getComputedStyle(document.querySelector('#panel .panel-section')).backgroundColor")
        assert bg == "rgb(28, 28, 30)", bg
        page.locator("#list").focus()
        page.keyboard.press("r")
        wait_until(page, lambda p: "refreshing" in to_states(transitions(p, "top")), 5, what="refreshing")
        wait_until(page, lambda p: len(timeline_rows(p, "top")) >= 1, 3, what="a transition row")
        assert timeline_rows(page, "top")[-1]["cause"] == "command"
        save_screenshot(page, "panel-dark.png")
        assert page.errors == []
    finally:
        context.close()
