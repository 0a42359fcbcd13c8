"""Every preset, switched on the page with its picker: its own indicator mid-pull and while refreshing,
photographed (artifacts/screenshots/preset-<name>-{pulling,refreshing}.png)."""
from __future__ import annotations

import time

import pytest

from browser_support import (
    canvas_point,
    configure_feed,
    edge,
    frame,
    save_screenshot,
    touch_drag,
    touch_end,
    transitions,
    wait_until,
)

PRESETS = ["ios", "jh", "ht", "gv", "ms", "iq"]


def band_ink(page, height_css: float) -> int:
    """How many distinct colours the canvas shows in the top band `height_css` px tall: an empty band is one
    flat colour, a drawn indicator adds more."""
    return page.evaluate("""(h) => {
        const c = document.getElementById('list');
        const r = c.getBoundingClientRect();
        const scale = c.width / r.width;
        const rows = Math.max(1, Math.floor(h * scale));
        const data = c.getContext('2d').getImageData(0, 0, c.width, rows).data;
        const seen = new Set();
        for (let i = 0; i < data.length; i += 4 * 7) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
        return seen.size;
    }""", height_css)


@pytest.mark.parametrize("preset", PRESETS)
def test_each_preset_draws_its_indicator(phone, preset):
    page = phone
    page.select_option("#preset", preset)
    # The picker sends configure {preset}; the preset's top trigger distance differs, so wait for the switch
    # through the page's own record of it.
    wait_until(page, lambda page: page.evaluate("() => document.getElementById('preset').value") == preset,
               timeout=5, what="picker shows the preset")
    time.sleep(0.3)
    # A long answer keeps the control refreshing well past the drag: presets that start while dragging (ios)
    # begin their refresh mid-drag, and on a stalled host 2.5 s could run out before the first look.
    configure_feed(page, latencyMs=8000)
    start = canvas_point(page, 0.5, 0.25)
    trigger = {"ios": 100, "jh": 60, "ht": 60, "gv": 100, "ms": 30, "iq": 80}[preset]
    # Mid-pull: about 70 % of the trigger distance shown (finger travel through the rubber band's inverse).
    shown = trigger * 0.7
    travel = shown * 844 / (0.55 * (844 - shown))
    cdp = touch_drag(page, start, travel, steps=12, release=False)
    wait_until(page, lambda page: (edge(frame(page), "top") or {}).get("state") == "pulling", timeout=5,
               what="top pulling")
    time.sleep(0.1)
    save_screenshot(page, f"preset-{preset}-pulling.png")
    assert band_ink(page, shown) > 1, "nothing drawn in the pulled band"
    touch_end(cdp)
    # Past the trigger, then let go: it refreshes.
    deep = trigger * 1.6
    touch_drag(page, start, deep * 844 / (0.55 * (844 - deep)), steps=16)
    wait_until(page, lambda page: (edge(frame(page), "top") or {}).get("state") == "refreshing", timeout=5,
               what="top refreshing")
    time.sleep(0.5)
    path = save_screenshot(page, f"preset-{preset}-refreshing.png")
    assert path.exists()
    rest = (edge(frame(page), "top") or {}).get("distance", 0)
    assert band_ink(page, max(rest, 10)) > 1, "nothing drawn while refreshing"
    states = [t.get("to") for t in transitions(page, "top")]
    assert "refreshing" in states
    assert not page.errors, page.errors
