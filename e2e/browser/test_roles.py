"""Roles on the page (docs/PROTOCOL.md, "Roles"): the owner's Share popover gives a Drive and a Watch link; a page
opened at the Watch link is welcomed `watch`, says so on the page, follows the owner's drag frame by frame, and
sends nothing when touched (its own drag moves nothing, and nothing comes back `forbidden`: the page held its input
back); a page opened at the Drive link drives. Neither may configure: the bar's preset picker and the debug panel's
fields and control picker are disabled, with a text that says why."""
from __future__ import annotations

import json
import re

from browser_support import (
    canvas_point,
    frame,
    link_query,
    top_at_rest,
    touch_drag,
    touch_end,
    wait_until,
)
from conftest import PHONE, open_page

# what a page may send whatever its role (docs/PROTOCOL.md, "Roles": every member may ping and ask for its trace)
ANY_ROLE = {"hello", "ping", "trace"}

# the watch page's displayed offset at every draw, to see that its own drag never moved what it drew
SAMPLE_SHOWN = """() => {
    const samples = [];
    window.__shown = samples;
    const k = window.refreshkit;
    const stop = k.on('draw', () => {
      if (window.__shown !== samples) return stop();
      samples.push(k.displayedOffset().y);
    });
}"""


def open_recording(browser, server, query: str):
    """A phone page at `query` whose every WebSocket message out is kept in `page.sent`: ("text", type) or
    ("binary", length), from its first one (the hello) on."""
    def record(page):
        page.sent = []

        def on_socket(ws):
            def sent(payload):
                if isinstance(payload, str):
                    page.sent.append(("text", json.loads(payload).get("type")))
                else:
                    page.sent.append(("binary", len(payload)))
            ws.on("framesent", sent)

        page.on("websocket", on_socket)

    return open_page(browser, server, PHONE, query, before_load=record)


def role_of(page) -> str:
    return page.evaluate("() => window.refreshkit.welcome.role")


def configure_controls(page) -> dict:
    """Whether each of the page's configure controls is disabled, and the text that says why."""
    return page.evaluate("""() => {
      const fields = [...document.querySelectorAll('#panel [data-panel-params] .param-control input,'
        + ' #panel [data-panel-params] .param-control select')];
      const note = document.querySelector('#panel [data-params-locked]');
      return {
        fields: fields.length,
        enabledFields: fields.filter((f) => !f.disabled).length,
        describedBy: [...new Set(fields.map((f) => f.getAttribute('aria-describedby')))],
        note: note && !note.hidden ? note.textContent : null,
        presetFile: document.querySelector('#panel [data-preset-file-input]').disabled,
        controlPicker: document.querySelector('select[data-control-picker]').disabled,
        preset: document.getElementById('preset').disabled,
        refresh: document.getElementById('refresh').disabled,
      };
    }""")


def badge(page) -> dict:
    return page.evaluate("""() => {
      const b = document.getElementById('role-badge');
      const r = b.getBoundingClientRect();
      return {visible: !b.hidden && r.width > 0 && r.height > 0, text: b.textContent.replace(/\\s+/g, ' ').trim(),
              role: b.dataset.role};
    }""")


def test_a_watch_link_follows_and_sends_nothing_and_a_drive_link_drives(browser, server):
    ctx_owner, owner = open_page(browser, server, PHONE)
    ctx_watch = ctx_drive = None
    try:
        assert role_of(owner) == "owner"
        assert not badge(owner)["visible"], "the owner's page shows no role badge"
        owner_controls = configure_controls(owner)
        assert owner_controls["fields"] > 0 and owner_controls["enabledFields"] == owner_controls["fields"]
        assert owner_controls["note"] is None and not owner_controls["preset"]

        # the links, read off the Share popover as a user reads them
        owner.click("#share-toggle")
        drive_el, watch_el = owner.locator("#share-link-drive"), owner.locator("#share-link-watch")
        wait_until(owner, lambda p: "k=" in drive_el.inner_text() and "k=" in watch_el.inner_text(), 5,
                   what="the Share popover's two links")
        assert drive_el.is_visible() and watch_el.is_visible()
        drive, watch = drive_el.inner_text(), watch_el.inner_text()
        assert drive != watch
        owner.keyboard.press("Escape")

        # the Watch link: welcomed `watch`, and the page says so
        ctx_watch, watcher = open_recording(browser, server, link_query(watch))
        assert role_of(watcher) == "watch"
        assert watcher.evaluate("() => window.refreshkit.session.id") == owner.evaluate(
            "() => window.refreshkit.session.id")
        shown = badge(watcher)
        assert shown["visible"] and shown["role"] == "watch" and shown["text"].startswith("Watching"), shown
        assert "sends nothing" in shown["text"], shown  # the detail, for a screen reader
        locked = configure_controls(watcher)
        assert locked["fields"] > 0 and locked["enabledFields"] == 0, locked
        assert locked["describedBy"] == ["params-locked"], locked
        assert locked["note"] and "started this session" in locked["note"], locked
        assert locked["presetFile"] and locked["controlPicker"] and locked["preset"] and locked["refresh"], locked
        wait_until(owner, lambda p: p.evaluate("() => window.refreshkit.session.members") == 2, 5,
                   what="the owner to see two devices")

        # the owner drags: the watch page gets the frames
        finger = touch_drag(owner, canvas_point(owner, 0.5, 0.15), dy=300, steps=20, release=False)
        wait_until(watcher, lambda p: frame(p)["phase"] == "dragging" and frame(p)["offset"]["y"] < -40, 5,
                   what="the watch page to follow the owner's finger")
        touch_end(finger)
        for page in (owner, watcher):
            wait_until(page, top_at_rest, 15, what="the owner's pull to settle")

        # the watch page's own drag: nothing leaves the page, nothing moves
        log_mark = len(server.log)
        at_rest = frame(owner)
        watcher.evaluate(SAMPLE_SHOWN)
        touch_drag(watcher, canvas_point(watcher, 0.5, 0.3), dy=250, steps=16)
        touch_drag(watcher, canvas_point(watcher, 0.5, 0.8), dy=-250, steps=8, interval=0.008)  # a fling too
        watcher.keyboard.press("r")  # the refresh key: a command
        outgoing = [kind for kind in watcher.sent if kind[0] == "binary" or kind[1] not in ANY_ROLE]
        assert outgoing == [], f"the watch page sent {outgoing}"
        assert ("text", "hello") in watcher.sent
        samples = watcher.evaluate("() => window.__shown")
        assert samples and all(abs(y - at_rest["offset"]["y"]) < 0.5 for y in samples), samples[:20]
        assert watcher.evaluate("() => window.refreshkit.displayedOffset().y") == at_rest["offset"]["y"]

        # the owner moves the list once more; once the watch page has seen that, the server has long had anything
        # the watch page might have sent: nothing was, and nothing was refused
        finger = touch_drag(owner, canvas_point(owner, 0.5, 0.5), dy=-120, steps=10, release=False)
        wait_until(watcher, lambda p: frame(p)["phase"] == "dragging" and frame(p)["seq"] > at_rest["seq"], 5,
                   what="the watch page to follow the owner's second drag")
        touch_end(finger)
        errors = watcher.evaluate("() => window.refreshkit.errors")
        assert not any(e.get("code") == "forbidden" for e in errors), errors
        assert not [line for line in server.log[log_mark:] if "forbidden" in line]
        assert not any(e.get("code") == "forbidden" for e in owner.evaluate("() => window.refreshkit.errors"))
        for page in (owner, watcher):
            wait_until(page, top_at_rest, 15, what="the owner's second drag to settle")

        # the Drive link: welcomed `drive`, its drag moves the session's list; configuring is still the owner's
        ctx_drive, driver = open_page(browser, server, PHONE, link_query(drive))
        assert role_of(driver) == "drive"
        shown = badge(driver)
        assert shown["visible"] and shown["role"] == "drive" and shown["text"].startswith("Driving"), shown
        locked = configure_controls(driver)
        assert locked["enabledFields"] == 0 and locked["presetFile"] and locked["controlPicker"], locked
        assert locked["preset"] and not locked["refresh"], locked
        before = frame(owner)["seq"]
        finger = touch_drag(driver, canvas_point(driver, 0.5, 0.15), dy=200, steps=16, release=False)
        for page in (owner, watcher):
            wait_until(page, lambda p: frame(p)["phase"] == "dragging" and frame(p)["offset"]["y"] < -20
                       and frame(p)["seq"] > before, 5, what="every page to follow the drive page's finger")
        touch_end(finger)
        for page in (owner, watcher, driver):
            wait_until(page, top_at_rest, 15, what="the drive page's pull to settle")
        assert not any(e.get("code") == "forbidden" for e in driver.evaluate("() => window.refreshkit.errors"))
        assert owner.errors == [] and watcher.errors == [] and driver.errors == []
        assert re.match(r"^[0-9a-f]{32}$", watcher.evaluate("() => window.refreshkit.welcome.token"))
    finally:
        for ctx in (ctx_owner, ctx_watch, ctx_drive):
            if ctx:
                ctx.close()
