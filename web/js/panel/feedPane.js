// The debug panel's Feed section: which source the session's list reads (docs/FEEDS.md), the load states of its
// refresh and load-more edges, and the source's last requests as the server reports them (`feed_request`:
// kind, cursor, items, time taken, error), newest first. The words are pure functions (web/test/feedPane.test.js);
// the pane writes the DOM only when the feed state or a load state changed.
import { el, fmt, setText } from './dom.js';

/** Requests listed (the page keeps more: js/feed/requestLog.js). */
export const SHOWN = 10;

/** The source in words: its address, its kind when the address does not say it, and whether it takes posts. */
export function sourceText(feed) {
  if (!feed) return '–';
  const parts = [feed.source ?? feed.kind];
  if (feed.source && feed.kind !== 'simulated' && !feed.source.startsWith(`${feed.kind}:`)) parts.push(feed.kind);
  if (feed.postable) parts.push('postable');
  return parts.join(' · ');
}

/** An edge state as a load state: `idle`, `loading`, `failed`, `no more` (and `off` for a disabled edge). */
export function loadState(edgeState) {
  switch (edgeState) {
    case 'refreshing':
    case 'finishing': return 'loading';
    case 'failed': return 'failed';
    case 'noMoreData': return 'no more';
    case 'disabled': return 'off';
    default: return 'idle';
  }
}

/**
 * The load states of the refresh and the load-more, from `frame` (its edges and feed) and `roleOf(edge)` (the
 * configured roles): `{refresh, loadMore}`, each a load state or `–` when no edge has that role. The feed's own
 * first load (an external source's first page) counts as the refresh's.
 */
export function loadStates(frame, roleOf = () => null) {
  const out = { refresh: '–', loadMore: '–' };
  for (const e of frame?.edges ?? []) {
    const role = roleOf(e.edge) ?? (e.edge === 'top' || e.edge === 'left' ? 'refresh' : 'loadMore');
    if (!(role in out)) continue;
    const state = loadState(e.state);
    if (out[role] === '–' || out[role] === 'idle' || out[role] === 'off') out[role] = state;
  }
  if (frame?.feed?.loading && (out.refresh === '–' || out.refresh === 'idle')) out.refresh = 'loading';
  return out;
}

/** One request in a line: "#7 older · cursor 120 · 20 items · 3.2 ms", or "… · timed_out: the source did not answer". */
export function requestText(r) {
  const parts = [`${r.id == null ? '#?' : `#${r.id}`} ${r.kind}`];
  if (r.cursor != null) parts.push(`cursor ${r.cursor}`);
  if (r.items != null) parts.push(`${r.items} ${r.items === 1 ? 'item' : 'items'}`);
  if (r.ms != null) parts.push(`${fmt(r.ms, r.ms < 100 ? 1 : 0)} ms`);
  if (r.error) parts.push(`${r.error.code}${r.error.message ? `: ${r.error.message}` : ''}`);
  return parts.join(' · ');
}

export class FeedPane {
  /** @param {object} feed  the session's feed state (js/feed/feedState.js) */
  constructor(feed) {
    this.feed = feed;
    this.sourceEl = el('span', 'fig-value');
    this.statesEl = el('span', 'fig-value');
    this.listEl = el('ol', 'feed-requests');
    this.emptyEl = el('p', 'feed-requests-empty', 'No requests yet.');
    this.root = el('div', 'feed-pane', [
      el('p', 'feed-line', ['Source ', this.sourceEl]),
      el('p', 'feed-line', ['Refresh / load-more ', this.statesEl]),
      this.listEl,
      this.emptyEl,
    ]);
    this.root.dataset.panelFeed = '';
    this.version = -1;
  }

  /** Writes what changed (the panel's text cadence). */
  render(frame, roleOf) {
    const states = loadStates(frame, roleOf);
    setText(this.statesEl, `${states.refresh} / ${states.loadMore}`);
    if (this.feed.version === this.version) return;
    this.version = this.feed.version;
    setText(this.sourceEl, sourceText(this.feed));
    const list = this.feed.requests.list.slice(0, SHOWN);
    this.emptyEl.hidden = list.length > 0;
    this.listEl.replaceChildren(...list.map((r) => {
      const li = el('li', r.error ? 'feed-request feed-request-failed' : 'feed-request', requestText(r));
      li.dataset.kind = r.kind;
      return li;
    }));
  }
}
