// The notice bar: one line over the top of the list that says, for a while, what happened to the session or to an
// action (a session that expired, a rejoin, a full session, a copied link, a trace exported or played).
// role=status: screen readers hear it. `follow(session)` shows what a LiveSession's welcome and errors mean.
// The page's notices (this one, the failed refresh's banner in js/failure.js, "N new") go in `#notices`, a box laid
// over the top of the list (css/app.css): they come and go without moving or resizing the list's canvas.
import { t } from './i18n.js';
import { ErrorCode } from './protocol.js';

/**
 * Puts `el` where the page's notices go: in `#notices` over the top of the list when the page has it, else right
 * under the page's `.bar` (a page without the box).
 */
export function placeNotice(el, doc = globalThis.document) {
  const area = doc?.getElementById?.('notices');
  if (area) area.append(el);
  else doc?.querySelector?.('.bar')?.after(el);
}

/** How long a notice stays (ms). */
export const NOTICE_MS = 10000;

/** The words for a welcome's notice, or null. */
export function noticeText(notice) {
  switch (notice) {
    case 'session_expired':
      return t('notice.sessionExpired');
    default:
      return typeof notice === 'string' && notice ? notice : null;
  }
}

/** The words and kind for an error the person should hear about, or null. */
export function errorNotice(msg) {
  if (msg?.code === ErrorCode.badToken) return { text: t('notice.rejoined'), kind: 'info' };
  if (msg?.code === ErrorCode.sessionFull) return { text: t('notice.sessionFull'), kind: 'warning' };
  return null;
}

export class NoticeBar {
  /** Puts the (hidden) bar over the top of the list (`placeNotice`). */
  constructor({ doc = document, win = window } = {}) {
    this.win = win;
    this.timer = 0;
    const el = doc.createElement('p');
    el.id = 'notice';
    el.className = 'notice';
    el.setAttribute('role', 'status');
    el.hidden = true;
    placeNotice(el, doc);
    this.el = el;
  }

  /** Shows `text` for NOTICE_MS; `kind` is `info` or `warning`. */
  show(text, kind = 'info') {
    const el = this.el;
    el.textContent = text;
    el.dataset.kind = kind;
    el.hidden = false;
    this.win.clearTimeout(this.timer);
    this.timer = this.win.setTimeout(() => {
      el.hidden = true;
    }, NOTICE_MS);
  }

  /** Says a welcome's notice (`session_expired`) and the errors that change the person's session. */
  follow(session) {
    session.on('welcome', (msg) => {
      const text = noticeText(msg.notice);
      if (text) this.show(text, 'warning');
      // offline so long that the page's resend log overflowed (js/inputs.js): the content follows the finger
      // again from where the session has it
      const missed = session.inputs?.missed ?? 0;
      if (!text && missed > 0) this.show(t('notice.inputsMissed', { count: missed }), 'warning');
    });
    session.on('error', (msg) => {
      const notice = errorNotice(msg);
      if (notice) this.show(notice.text, notice.kind);
    });
  }
}
