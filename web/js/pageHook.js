// `window.refreshkit` on the normal page: what the browser tests, the benches and a curious reader see of the
// page's live session (web/README.md lists it). It holds nothing of its own: every member reads the session
// (js/session/liveSession.js) or the page part named. A page that embeds a list imports js/refreshkit.js instead.
import { lastUpdatedText } from './controls/builtin/arrow.js';
import { language } from './i18n.js';

/**
 * Sets `window.refreshkit` for `session`, with the share popover's link (js/sharePopover.js), the trace tools
 * (js/trace.js) and the "N new" pill (js/feed/newItemsPill.js).
 */
export function exposePageHook({ session, share, traceTools, newItems = null }) {
  const { store, connection: conn, predictor } = session;
  window.refreshkit = Object.freeze({
    get frame() { return store.frame; },
    get events() { return store.events; },
    get errors() { return store.errors; },
    get welcome() { return store.welcome; },
    get preset() { return store.preset; },
    get config() { return store.config; },
    /** The page's language (js/i18n.js) and what the edges' controls say now, per edge (the canvas's words). */
    get language() { return language(); },
    indicatorTexts: () => session.controls.texts(),
    /** The header's "last updated" line where the top edge's control draws one (null before the first refresh). */
    lastUpdatedText: () => (session.controls.drawing().top === 'arrow' ? lastUpdatedText(session.lastUpdated) : null),
    /** The edges' controls (js/controls/controlHost.js): which one draws each edge, their state, problems. */
    controls: () => ({
      drawing: session.controls.drawing(), status: session.controls.status(), calls: session.controls.calls(),
      areas: session.controls.areas(), problems: [...session.controls.problems],
    }),
    get state() {
      return {
        connected: conn.connected,
        status: session.status.state,
        rtt: conn.clock.rtt,
        offset: conn.clock.offset, // server clock − page clock, ms
        pointerCancels: session.pointerCancels,
      };
    },
    send: (obj) => session.send(obj),
    /** Calls `fn` on the session's `name` events (js/session/liveSession.js: `frame`, `message`, `draw`, …); returns
     * the function that stops it. A test waits on it for what the server said, not for a poll to catch it. */
    on: (name, fn) => session.on(name, fn),
    // sessions and traces (js/session/identity.js, js/sharePopover.js, js/trace.js)
    get session() {
      return {
        id: store.session, member: store.member, members: store.members, url: share.url, role: store.role,
        links: { drive: share.linkFor('drive'), watch: share.linkFor('watch') },
      };
    },
    requestTrace: () => traceTools.request(),
    exportTrace: () => traceTools.download(),
    playTrace: (text) => traceTools.play(text),
    get playback() { return traceTools.state; },
    serverNow: () => session.serverNow(),
    /** The offset drawn last, predicted or not. */
    displayedOffset: () => ({ x: session.view.shown.x, y: session.view.shown.y }),
    // measurement hooks (README, "Prediction"): the lag bench and the browser tests
    /** The last ≤ 1000 draws: t is the requestAnimationFrame time (performance.now), y the drawn offset.y. */
    drawLog: () => session.drawLog(),
    /** |predicted − server| px at each acknowledgement of an input (the prediction after it vs that frame). */
    reconciliationErrors: () => predictor.errors.list(),
    prediction: () => ({
      enabled: predictor.enabled, supported: predictor.support, active: predictor.active,
      pending: predictor.pending.length, lastAck: predictor.lastAck, nextSeq: predictor.nextSeq,
      resent: session.inputs.resent, // inputs sent again after resumes (js/inputs.js)
      missed: session.inputs.missedTotal, // inputs past the resend log's bound while offline: never applied
      correction: { x: session.drawn.blend.x, y: session.drawn.blend.y }, // drawn − target: still being blended away
      stalls: predictor.stalls, // frame gaps > 100 ms while inputs were pending
    }),
    setPrediction: (on) => session.setPrediction(!!on),
    /**
     * The feed source (js/feed/feedState.js): its address and kind, the first `limit` loaded items (newest first),
     * how many are loaded, a rows message that did not add up, the last requests and "N new".
     */
    feed: (limit = 50) => {
      const f = session.feed;
      return {
        source: f.source, kind: f.kind, postable: f.postable, count: f.rows.count,
        items: f.rows.items.slice(0, limit).map((item) => ({ ...item })), problem: f.rows.problem,
        requests: f.requests.list.map((r) => ({ ...r })),
        newItems: { count: f.newItems.count, more: f.newItems.more, visible: f.newItems.visible, pill: newItems?.button.hidden === false },
      };
    },
    /**
     * An external source's rows as drawn last (js/feed/rowLayout.js places them): `[{index, id, x, y, w, h}]` on
     * the canvas in CSS px, top first; and the layout: the session width it lays out at, the estimate, the
     * accepted heights, the content's height, rows laid out and sent, heights waiting for the next `measure`
     * (`unsent`, 0 when none), sent but not accepted (`awaiting`), and rows the last frame left to idle time
     * (`deferred`, js/feed/layoutAhead.js).
     */
    rows: () => session.listCanvas.renderer.rows.rects(),
    /** The section header drawn pinned last (docs/LAYOUT.md, "Section headers"): `{section, y}` on the canvas, or null. */
    pinned: () => {
      const p = session.listCanvas.renderer.rows.drawnPinned;
      return p && { section: p.section, y: p.y };
    },
    rowLayout: () => {
      const l = session.layout;
      return {
        width: l.width, estimate: l.estimate, count: l.count, height: l.height, accepted: l.accepted.size,
        laidOut: l.laidOut, sent: l.sent.size, unsent: l.pending.length, awaiting: l.awaiting(),
        deferred: session.listCanvas.renderer.rows.ahead.deferred,
      };
    },
    /** Row i's top in the content (CSS px), as the layout places it now. */
    rowTop: (i) => session.layout.top(i),
    /**
     * Row i as laid out (js/feed/rowLayout.js), or null before it is: the author line (`byline`), the item's title
     * in lines (`heading`, its first baseline `headingY`), the text's lines (from `textY`), the height and the section
     * header's band above the content (`band`, 0 for none), CSS px.
     */
    rowContent: (i) => {
      const r = session.layout.laidRow(i);
      return r && {
        byline: r.byline, heading: [...r.heading], headingY: r.headingY, lines: [...r.lines], textY: r.textY,
        height: r.height, band: r.band,
      };
    },
    /** The feed's images (js/feed/images.js): decoded ones held, fetches queued and in flight, loaded, failed, dropped. */
    images: () => session.images.state(),
    /** The size of the image at `url` once the page loaded it (`{width, height}`), else null. */
    imageSize: (url) => session.images.sizeOf(url) ?? null,
    /** The feed mirror (js/feedMirror.js): how often it changed the DOM. */
    get mirror() { return { updates: session.mirror?.updates ?? 0 }; },
  });
}
