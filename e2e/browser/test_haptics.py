"""Haptics: a tick when this device's pull arms and an impact when its refresh starts, through the browser's own
`navigator.vibrate` (observed by wrapping it before the page loads); none with reduced motion or the panel's switch
off, and none on another device of the same session."""
from __future__ import annotations

from browser_support import drive_query, pull_to_refresh, wait_connected, wait_until
from conftest import PHONE

RECORD_VIBRATIONS = """
  window.__vibrations = [];
  navigator.vibrate = (pattern) => { window.__vibrations.push(pattern); return true; };
"""


def open_recording(browser, server, query: str = "", **options):
    context = browser.new_context(**{**PHONE, **options})
    context.add_init_script(RECORD_VIBRATIONS)
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(server.url + "/" + query)
    wait_connected(page)
    return context, page


def vibrations(page):
    return page.evaluate("() => window.__vibrations")


def test_a_pull_ticks_when_it_arms_and_when_it_starts(browser, server):
    context, page = open_recording(browser, server)
    other_context = None
    try:
        other_context, other = open_recording(browser, server, drive_query(page))
        pull_to_refresh(page)
        wait_until(page, lambda p: len(vibrations(p)) >= 2, 5, what="two vibrations")
        assert vibrations(page)[:2] == [8, 18], vibrations(page)  # armed (selection), didStart (impact)
        # the other device saw the same events, but its user was not pulling
        wait_until(other, lambda p: any(e["name"] == "didStart" for e in p.evaluate("() => window.refreshkit.events")),
                   5, what="the other device to see the start")
        assert vibrations(other) == []
        assert page.errors == [] and other.errors == []
    finally:
        context.close()
        if other_context:
            other_context.close()


def test_no_haptics_with_reduced_motion(browser, server):
    context, page = open_recording(browser, server, reduced_motion="reduce")
    try:
        pull_to_refresh(page)
        assert vibrations(page) == []
    finally:
        context.close()


def test_the_panel_switch_turns_them_off(browser, server):
    context, page = open_recording(browser, server)
    try:
        page.evaluate("() => document.querySelector('[data-panel-haptics]').click()")
        assert page.evaluate("() => localStorage.getItem('refreshkit.haptics')") == "0"
        pull_to_refresh(page)
        assert vibrations(page) == []
    finally:
        context.close()
