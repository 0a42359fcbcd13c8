"""The page's public module (web/js/refreshkit.js, docs/PAGE.md) in real Chromium against the real server: a list of
one's own, made on a canvas of one's own beside the demo's, is a session of its own with the preset it asked for,
sized to its canvas; it takes its own wheel input, sends commands, tells its subscribers the server's messages and
its draws, and once disposed closes its WebSocket and draws no more."""
from __future__ import annotations

from itertools import pairwise

from browser_support import wait_until

EMBED = """async () => {
  const { LiveSession, createSession, ErrorCode } = await import('/js/refreshkit.js');
  const canvas = document.createElement('canvas');
  Object.assign(canvas.style, {
    position: 'fixed', left: '0px', top: '0px', width: '320px', height: '480px', zIndex: '10', touchAction: 'none',
  });
  document.body.append(canvas);
  const seen = { statuses: [], welcomes: 0, frames: 0, messages: 0, draws: 0, ticks: 0, tickTimes: [], events: [] };
  const session = new LiveSession(canvas, { preset: 'jh' });
  session.on('status', (s) => seen.statuses.push(s.state));
  session.on('welcome', () => { seen.welcomes += 1; });
  session.on('frame', () => { seen.frames += 1; });
  session.on('message', () => { seen.messages += 1; });
  session.on('event', (ev) => seen.events.push(ev));
  session.on('draw', () => { seen.draws += 1; });
  session.on('tick', (now) => { seen.ticks += 1; seen.tickTimes.push(now); });
  window.embedded = { session, seen };
  session.connect();
  return { createSession: typeof createSession, badToken: ErrorCode.badToken };
}"""


def embedded(page, expression: str):
    return page.evaluate(f"() => {{ const {{ session, seen }} = window.embedded; return {expression}; }}")


def test_a_page_embeds_a_list_of_its_own_with_the_public_module(desktop):
    page = desktop
    demo_session = page.evaluate("() => window.refreshkit.session.id")
    assert page.evaluate(EMBED) == {"createSession": "function", "badToken": "bad_token"}

    wait_until(page, lambda p: embedded(p, "seen.welcomes === 1 && seen.frames > 0 && seen.draws > 0"), 5,
               what="the embedded session to be welcomed and drawn")
    state = embedded(page, """({
      preset: session.store.preset, id: session.store.session, connected: session.connected,
      statuses: seen.statuses, viewport: session.store.frame.viewport, messages: seen.messages,
      drawLog: session.drawLog(),
    })""")
    assert state["preset"] == "jh"
    assert state["id"] and state["id"] != demo_session  # a session of its own
    assert state["connected"] and state["statuses"][0] == "connecting" and "connected" in state["statuses"]
    assert state["viewport"] == {"w": 320, "h": 480}
    assert state["messages"] >= 2  # the welcome and the first frame at least
    assert state["drawLog"] == []  # drawn, but without the `drawLog` option no draw is kept

    # a wheel over the embedded canvas scrolls its list, and only its list
    page.mouse.move(160, 240)
    page.mouse.wheel(0, 400)
    wait_until(page, lambda p: embedded(p, "session.store.frame.offset.y") > 100, 5,
               what="the embedded list to scroll")
    wait_until(page, lambda p: embedded(p, "session.view.shown.y") > 100, 5, what="the scrolled list drawn")
    assert page.evaluate("() => window.refreshkit.frame.offset.y") == 0

    # a command of one's own: its subscribers hear the transitions
    assert embedded(page, "session.send({ type: 'command', name: 'scrollToEdge', edge: 'top' })")
    at_top = "session.store.frame.offset.y === 0 && session.store.frame.phase === 'idle'"
    wait_until(page, lambda p: embedded(p, at_top), 5, what="the embedded list back at the top")
    assert embedded(page, "session.send({ type: 'command', name: 'refresh', edge: 'top' })")
    wait_until(page, lambda p: embedded(
        p, "seen.events.some((e) => e.name === 'transition' && e.edge === 'top' && e.to === 'refreshing')"),
        5, what="the embedded session's refresh")

    # disposed: the socket closes and nothing more is drawn or heard
    embedded(page, "session.dispose()")
    wait_until(page, lambda p: embedded(p, "session.connection.state") == "closed", 5,
               what="the embedded session's socket to close")
    ticks = embedded(page, "seen.ticks")
    # three animation frames later the page still runs, the disposed session does not
    after = page.evaluate("""async () => {
      for (let i = 0; i < 3; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
      return window.embedded.seen.ticks;
    }""")
    assert after == ticks
    assert page.evaluate("() => window.refreshkit.state.connected")
    assert page.errors == []


RESTING = "session.frames.resting"  # no animation frame asked for; the rest tick armed (js/session/frameLoop.js)


def gaps(times: list[float]) -> list[float]:
    return [b - a for a, b in pairwise(times)]


def four_rest_ticks_in_a_row(page) -> bool:
    """The last five ticks 250 ms apart: a timer, never early, a frame's jitter late at most. What changes at rest
    wakes the list for a frame (rows laid out ahead in idle time, an image loaded, the rows' ages every 15 s), so a
    gap may be a frame long: one failed run saw ticks 17, 260 and 250 ms apart just after the list first rested."""
    last = gaps(embedded(page, "seen.tickTimes.slice(-5)"))
    return len(last) == 4 and min(last) >= 240


def test_a_list_at_rest_asks_for_no_frames_and_a_message_wakes_it(desktop):
    """docs/PAGE.md, "At rest": once nothing moves the session asks for no animation frames and ticks every 250 ms;
    a server message (an animated scroll's frames) wakes it to every frame, and it rests again once still."""
    page = desktop
    page.evaluate(EMBED)
    wait_until(page, lambda p: embedded(p, "seen.welcomes === 1 && seen.draws > 0"), 5, what="the embedded list")
    wait_until(page, lambda p: embedded(p, RESTING), 5, what="the embedded list at rest")
    wait_until(page, four_rest_ticks_in_a_row, 10, what="four rest ticks in a row")

    moved = embedded(page, "seen.tickTimes.length")
    assert embedded(page, "session.send({ type: 'command', name: 'scrollBy', amount: 400 })")
    still = ("session.store.frame.phase === 'idle' && session.store.frame.offset.y > 100"
             " && Math.abs(session.view.shown.y - session.store.frame.offset.y) < 0.5")
    wait_until(page, lambda p: embedded(p, still), 10, what="the animated scroll drawn to its end")
    moving = embedded(page, f"seen.tickTimes.slice({moved})")
    # a tick per animation frame while the list moved (a busy machine's frames are late, never 150 ms apart all along)
    assert len(moving) >= 3 and min(gaps(moving)) < 100, gaps(moving)
    wait_until(page, lambda p: embedded(p, RESTING), 5, what="the embedded list at rest again")
    assert page.errors == []
