// The "Share" button and its popover (docs/PROTOCOL.md, "Sessions"): the session's link and its QR code, how
// many devices are connected, a Copy button, and the trace controls (js/trace.js finds them by id). It reads the
// session's store (js/store.js) and draws again on every welcome and `room` message.
// The pure helpers at the top are unit tested with node (web/test/share.test.js).
import { t } from './i18n.js';

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

/** The server's picture of `url` as a QR code (docs/HARDENING.md: GET /qr.svg?text=…). */
export function qrCodePath(url) {
  return `/qr.svg?text=${encodeURIComponent(url)}`;
}

/** "1 device" / "3 devices". */
export function membersText(n) {
  return t('share.members', { count: n });
}

export class SharePopover {
  /**
   * @param {object} o
   * @param {object} o.session  the page's LiveSession (js/session/liveSession.js)
   * @param {(text: string, kind: string) => void} o.notify  says a copy's outcome (js/noticeBar.js)
   * @param {Element} [o.insertBefore]  where the Share button goes in the bar (before the Debug button)
   */
  constructor({ session, notify, doc = document, win = window, insertBefore }) {
    this.store = session.store;
    this.notify = notify;
    this.doc = doc;
    this.win = win;
    this.build(insertBefore);
    session.on('welcome', () => this.render());
    session.on('room', () => this.render());
  }

  /** The link another device opens to join, or null before the first welcome. */
  get url() {
    if (!this.store.session) return null;
    return shareUrl(shareOrigin(this.win.location.origin, this.store.welcome?.share), this.store.session);
  }

  build(insertBefore) {
    const d = this.doc;
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

    const anchor = insertBefore || d.getElementById('debug-toggle');
    anchor?.parentNode?.insertBefore(button, anchor);
    d.body.appendChild(pop);
    this.button = button;
    this.pop = pop;
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

  toggle(open = this.pop.hidden) {
    this.pop.hidden = !open;
    this.button.setAttribute('aria-expanded', String(open));
    if (open) this.render();
  }

  render() {
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
