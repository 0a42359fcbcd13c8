// Sharing a session between devices (docs/PROTOCOL.md, "Sessions"): the session id lives in the URL
// (`/?s=ID`, so a reload rejoins and the link lets another device in), the member token in sessionStorage
// (per tab and per session, so a reload resumes the same member), and a "Share" popover shows the link,
// how many devices are connected, and the trace controls (js/trace.js).
// The pure helpers at the top are unit tested with node.

import { t } from './i18n.js';
import { ErrorCode } from './protocol.js';

const TOKEN_KEY = 'refreshkit.token.';
const NOTICE_MS = 10000;

/**
 * The session id a URL asks to join (`?s=ID`), or null. Ids are the server's hex, after a node name and a dot
 * when the server runs in a cluster (`n2.<hex>`, docs/SCALING.md); anything else is ignored.
 */
export function sessionFromUrl(href) {
  let url;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  const id = url.searchParams.get('s');
  return id && /^([A-Za-z0-9_-]{1,32}\.)?[0-9a-f]{16,64}$/.test(id) ? id : null;
}

/** The share link of session `id` for a page served at `origin`. */
export function shareUrl(origin, id) {
  return `${origin}/?s=${id}`;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * Where another device reaches the session: the page's own origin, unless the page was opened on the server's
 * machine (`localhost`, 127.x, [::1]), which no other device can open; then the server's network address from
 * `welcome.share` (docs/PROTOCOL.md), when it has one that is not loopback too.
 */
export function shareOrigin(pageOrigin, serverShare) {
  const page = new URL(pageOrigin);
  if (!LOOPBACK.test(page.hostname) || typeof serverShare !== 'string') return pageOrigin;
  try {
    const share = new URL(serverShare);
    return LOOPBACK.test(share.hostname) || share.protocol !== page.protocol ? pageOrigin : share.origin;
  } catch {
    return pageOrigin;
  }
}

/** `href` with `?s=ID` set (other parameters kept): what history.replaceState puts in the address bar. */
export function urlWithSession(href, id) {
  const url = new URL(href);
  url.searchParams.set('s', id);
  return url.toString();
}

/** The server's picture of `url` as a QR code (docs/HARDENING.md: GET /qr.svg?text=…). */
export function qrCodePath(url) {
  return `/qr.svg?text=${encodeURIComponent(url)}`;
}

/** The words for a welcome's notice, or null. */
export function noticeText(notice) {
  switch (notice) {
    case 'session_expired':
      return t('notice.sessionExpired');
    default:
      return typeof notice === 'string' && notice ? notice : null;
  }
}

/** "1 device" / "3 devices". */
export function membersText(n) {
  return t('share.members', { count: n });
}

/** Tokens per session id in sessionStorage (per tab); every access tolerates a storage that throws. */
export class TokenStore {
  constructor(storage) {
    this.storage = storage;
  }

  get(session) {
    try {
      return session ? this.storage?.getItem(TOKEN_KEY + session) ?? null : null;
    } catch {
      return null;
    }
  }

  set(session, token) {
    try {
      if (!session) return;
      if (token) this.storage?.setItem(TOKEN_KEY + session, token);
      else this.storage?.removeItem(TOKEN_KEY + session);
    } catch {
      // private mode or a full storage: the page still works, it just joins as a new member after a reload
    }
  }
}

/**
 * The page's side of sharing. It puts the session in the URL (`?s=`) and this tab's token for it into the
 * store (js/store.js) for the first hello; `onWelcome`, `onRoom`, `onTokenChange` keep the URL, the
 * storage and the popover current from the store; `notify` shows a notice.
 */
export class Share {
  constructor({ store, doc = document, win = window, storage = safeSessionStorage(), insertBefore } = {}) {
    this.doc = doc;
    this.win = win;
    this.store = store;
    this.tokens = new TokenStore(storage);
    if (!store.session) {
      const session = sessionFromUrl(win.location.href);
      store.setToken(session, this.tokens.get(session));
    }
    this.noticeTimer = 0;
    this.buildUi(insertBefore);
  }

  get url() {
    if (!this.store.session) return null;
    return shareUrl(shareOrigin(this.win.location.origin, this.store.welcome?.share), this.store.session);
  }

  onTokenChange(session, token) {
    this.tokens.set(session, token);
  }

  onWelcome(msg) {
    if (typeof msg.session !== 'string') return;
    this.tokens.set(msg.session, typeof msg.token === 'string' ? msg.token : null);
    try {
      this.win.history.replaceState(this.win.history.state, '', urlWithSession(this.win.location.href, msg.session));
    } catch {
      // a sandboxed frame may refuse: the share link still works
    }
    const text = noticeText(msg.notice);
    if (text) this.notify(text, 'warning');
    this.render();
  }

  onRoom() {
    this.render();
  }

  onError(msg) {
    if (msg.code === ErrorCode.badToken) this.notify(t('notice.rejoined'), 'info');
    if (msg.code === ErrorCode.sessionFull) this.notify(t('notice.sessionFull'), 'warning');
  }

  /** Shows `text` under the bar for a while (role=status: screen readers hear it). */
  notify(text, kind = 'info') {
    const el = this.noticeEl;
    if (!el) return;
    el.textContent = text;
    el.dataset.kind = kind;
    el.hidden = false;
    this.win.clearTimeout(this.noticeTimer);
    this.noticeTimer = this.win.setTimeout(() => {
      el.hidden = true;
    }, NOTICE_MS);
  }

  // ---------------------------------------------------------------- the popover

  buildUi(insertBefore) {
    const d = this.doc;
    if (!d?.createElement) return;
    const button = d.createElement('button');
    button.type = 'button';
    button.id = 'share-toggle';
    button.className = 'button button-plain';
    button.textContent = t('share.button');
    button.title = t('share.button.title');
    button.setAttribute('aria-expanded', 'false');
    button.setAttribute('aria-controls', 'share');
    const pop = d.createElement('section');
    pop.id = 'share';
    pop.className = 'share';
    pop.hidden = true;
    pop.setAttribute('aria-label', t('share.title'));
    pop.innerHTML = `
      <h2 class="share-title">${t('share.title')}</h2>
      <p class="share-hint">${t('share.hint')}</p>
      <p class="share-link-row"><a class="share-link" id="share-link" href="/" target="_blank" rel="noopener"></a></p>
      <p class="share-qr-row"><img class="share-qr" id="share-qr" width="176" height="176" hidden
        alt="${t('share.qr.alt')}"></p>
      <p class="share-actions">
        <button type="button" class="button button-tinted" id="share-copy">${t('share.copy')}</button>
        <span class="share-members" id="share-members"></span>
      </p>
      <h3 class="share-subtitle">${t('share.trace')}</h3>
      <p class="share-actions">
        <button type="button" class="button button-plain" id="trace-export">${t('share.export')}</button>
        <button type="button" class="button button-plain" id="trace-load">${t('share.load')}</button>
        <input type="file" id="trace-file" accept="application/json,.json" hidden>
      </p>`;
    const notice = d.createElement('p');
    notice.id = 'notice';
    notice.className = 'notice';
    notice.setAttribute('role', 'status');
    notice.hidden = true;

    const anchor = insertBefore || d.getElementById('debug-toggle');
    anchor?.parentNode?.insertBefore(button, anchor);
    d.body.appendChild(pop);
    d.querySelector('.bar')?.after(notice);
    this.button = button;
    this.pop = pop;
    this.noticeEl = notice;
    this.linkEl = pop.querySelector('#share-link');
    this.qrEl = pop.querySelector('#share-qr');
    this.membersEl = pop.querySelector('#share-members');

    button.addEventListener('click', () => this.toggle());
    pop.querySelector('#share-copy').addEventListener('click', () => this.copy());
    d.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && !pop.hidden) {
        this.toggle(false);
        button.focus();
      }
    });
    d.addEventListener('pointerdown', (e) => {
      if (!pop.hidden && !pop.contains(e.target) && e.target !== button) this.toggle(false);
    });
    this.render();
  }

  toggle(open = this.pop?.hidden) {
    if (!this.pop) return;
    this.pop.hidden = !open;
    this.button.setAttribute('aria-expanded', String(open));
    if (open) this.render();
  }

  render() {
    if (!this.linkEl) return;
    const url = this.url;
    this.linkEl.textContent = url ?? t('share.connecting');
    this.linkEl.href = url ?? '/';
    // the server draws the code (GET /qr.svg, libqrencode); fetched again only when the link changes
    const qr = url ? qrCodePath(url) : null;
    if (qr && this.qrEl.getAttribute('src') !== qr) this.qrEl.setAttribute('src', qr);
    this.qrEl.hidden = !qr;
    const members = this.store.members;
    this.membersEl.textContent = members > 0 ? membersText(members) : '';
    this.button.dataset.members = String(members);
  }

  async copy() {
    const url = this.url;
    if (!url) return;
    let copied = false;
    try {
      // only in a secure context (https or localhost); elsewhere the link is selected for a manual copy
      if (this.win.navigator?.clipboard?.writeText) {
        await this.win.navigator.clipboard.writeText(url);
        copied = true;
      }
    } catch {
      copied = false;
    }
    if (!copied) {
      const range = this.doc.createRange();
      range.selectNodeContents(this.linkEl);
      const sel = this.win.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
    }
    this.notify(copied ? t('share.copied') : t('share.copyManually'), 'info');
  }
}

function safeSessionStorage() {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}
