"""The gallery (`/?gallery`, docs/CONTROLS.md): every control, built in and from the server's `--controls` folder
(here examples/controls, as `make run` serves it), one list each, all on one session: a pull on one list is a
pull on every list, and each draws it with its own control. Its picture is README's (docs/images/gallery.png,
published under REFRESHKIT_PUBLISH_IMAGES=1)."""
from __future__ import annotations

import pytest

from browser_support import ROOT, publish_image, save_screenshot, wait_until
from conftest import open_page, start_server, stop_server
from controls_support import Finger, canvas_box, settled

GALLERY = dict(viewport={"width": 1280, "height": 900}, device_scale_factor=1, has_touch=True)
BUILT_IN = ["spinner", "colorCycle", "arrow", "ring", "footer", "side"]
EXAMPLES = sorted(p.stem for p in (ROOT / "examples" / "controls").glob("*.js"))


@pytest.fixture(scope="module")
def examples_server():
    srv = start_server("--controls", "examples/controls")
    yield srv
    assert stop_server(srv) == 0, "\n".join(srv.log[-30:])


def lists(page) -> list[dict]:
    return page.evaluate("() => window.refreshkit.controls()")


def top_lists(page) -> list[dict]:
    return [entry for entry in lists(page) if entry["edge"] == "top"]


def test_gallery_shows_every_control_on_one_gesture(browser, examples_server):
    context, page = open_page(browser, examples_server, GALLERY, "?gallery")
    try:
        names = [entry["name"] for entry in lists(page)]
        assert sorted(names) == sorted(BUILT_IN + EXAMPLES), names
        assert names[-3:] == ["footer", "side", "htFooter"], "the other edges' controls come after the top's"
        assert page.locator(".gallery-column").count() == len(names)
        # every list made for the top edge draws it with its own control
        wait_until(page, lambda p: all(e["status"] == "ready" and e["drawing"] == e["name"] for e in top_lists(p)), 10,
                   what="every top control ready")
        edges = {entry["name"]: entry["edge"] for entry in lists(page)}
        assert edges["footer"] == "bottom" and edges["htFooter"] == "bottom" and edges["side"] == "left", edges

        page.evaluate("() => window.refreshkit.send({type: 'configure', feed: {latencyMs: 2500, failureRate: 0}})")
        trigger = page.evaluate("() => window.refreshkit.config.edges.top.triggerDistance")
        box = canvas_box(page, ".gallery-list")
        finger = Finger(page, box["x"] + box["w"] / 2, box["y"] + box["h"] * 0.3)
        finger.pull_to("top", trigger * 1.3)
        wait_until(page, lambda p: settled(p) and p.evaluate(
            "() => window.refreshkit.frame.edges.find((e) => e.edge === 'top').state") == "armed", 5, what="armed")
        # one gesture, every list: each top control drew the pull in an area as deep as the pull
        for entry in top_lists(page):
            assert entry["calls"].get("progress", 0) > 0, entry
            assert entry["area"]["h"] >= trigger, entry
        publish_image(save_screenshot(page, "gallery.png"), "docs/images/gallery.png")
        finger.lift()
        wait_until(page, lambda p: all(e["calls"].get("cycle", 0) > 0 for e in top_lists(p)), 10,
                   what="every top control to run its cycle")
        wait_until(page, lambda p: p.evaluate(
            "() => window.refreshkit.frame.edges.find((e) => e.edge === 'top').state") == "idle", 15, what="the end")
        assert all(not e["problems"] for e in lists(page)), lists(page)
        assert page.errors == [], page.errors
    finally:
        context.close()
