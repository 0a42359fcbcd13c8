// A failed refresh, made visible: the server's `feedFailed` event for a refreshing edge shows a short message over
// the top of the list (laid over it, so the rows being read stay where they are) with **Retry** (which asks for the refresh again); it goes by itself after a while, on a refresh that
// succeeds, or when a new refresh starts. The footer's failed state says the same in its own place (js/controls/
// builtin/footer.js): both name what failed and offer the same way out. With a feed source, both say the source's
// own message (its last `feed_request` error, docs/PROTOCOL.md).
import { t } from './i18n.js';
import { eventKind } from './protocol.js';
import { placeNotice } from './noticeBar.js';

/** How long the message stays when nobody acts on it. */
export const FAILURE_SHOWN_MS = 8000;

/** The message for a failed refresh of `edge`; `error` (`{code, message}`): the feed source's reason. */
export function failureText(edge, error = null) {
  if (error?.message) return t('failure.refreshBecause', { message: error.message });
  return edge === 'left' ? t('failure.refreshLeft') : t('failure.refresh');
}

/**
 * The banner's next state after `event` at page time `now`: `{edge, until}` while shown, `null` while hidden.
 * Only refreshing edges (top, left) show it; a load-more footer shows its own failure.
 */
export function nextFailure(shown, event, now, roles = {}) {
  if (!event || event.type !== 'event') return shown;
  const isRefresh = (edge) => (roles[edge] ?? (edge === 'top' || edge === 'left' ? 'refresh' : 'loadMore')) === 'refresh';
  switch (eventKind(event)) {
    case 'feedFailed':
      return isRefresh(event.edge) ? { edge: event.edge, until: now + FAILURE_SHOWN_MS } : shown;
    case 'feedLoaded':
    case 'didStart':
      return shown && shown.edge === event.edge ? null : shown;
    default:
      return shown;
  }
}

/**
 * The banner in the DOM: `#refresh-failure`, over the top of the list with the page's other notices (`#notices`,
 * js/noticeBar.js), never in the flow above the canvas; `onRetry(edge)` asks for the refresh again;
 * `errorOf(edge)` gives the feed source's error behind it (`{code, message}`), or null.
 */
export class FailureBanner {
  constructor({ doc = globalThis.document, onRetry, errorOf = () => null } = {}) {
    this.doc = doc;
    this.onRetry = onRetry;
    this.errorOf = errorOf;
    this.shown = null;
    this.timer = null;
    if (!doc?.createElement) return;
    const root = doc.createElement('div');
    root.id = 'refresh-failure';
    root.className = 'failure';
    root.setAttribute('role', 'alert');
    root.hidden = true;
    this.text = doc.createElement('span');
    this.text.className = 'failure-text';
    this.retry = doc.createElement('button');
    this.retry.type = 'button';
    this.retry.id = 'refresh-retry';
    this.retry.className = 'button button-tinted';
    this.retry.textContent = t('failure.retry');
    this.retry.addEventListener('click', () => {
      const edge = this.shown?.edge;
      this.show(null);
      if (edge) this.onRetry?.(edge);
    });
    root.append(this.text, this.retry);
    placeNotice(root, doc);
    this.root = root;
  }

  /** Follows one server message (page time `now`); `roles` maps edges to their configured role. */
  onMessage(message, now, roles) {
    const next = nextFailure(this.shown, message, now, roles);
    if (next !== this.shown) this.show(next, now);
  }

  /** Says the failure's reason again (the source's error may come after the event that showed the banner). */
  sayWhy() {
    if (!this.root || !this.shown) return;
    const text = failureText(this.shown.edge, this.errorOf(this.shown.edge));
    if (this.text.textContent !== text) this.text.textContent = text;
  }

  show(next, now = 0) {
    this.shown = next;
    clearTimeout(this.timer);
    if (!this.root) return;
    this.root.hidden = !next;
    if (!next) return;
    this.sayWhy();
    this.timer = setTimeout(() => this.show(null), Math.max(0, next.until - now));
  }
}
