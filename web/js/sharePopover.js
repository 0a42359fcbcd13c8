// The "Share" button and its popover (docs/PROTOCOL.md, "Sessions" and "Roles"): the session's two links, Drive
// and Watch (the owner's welcome.links), each with its QR code and a Copy button; over https, where another device
// installs the server's CA (welcome.ca); how many devices are connected, and the trace controls (js/trace.js finds
// them by id). Only the owner has links to give; a watching page says it
// watches. It reads the session's store (js/store.js) and draws again on every welcome and `room` message.
// The pure helpers at the top are unit tested with node (web/test/share.test.js).
import { t } from './i18n.js';

/** The share link of session `id` for a page served at `origin`. */
export function shareUrl(origin, id) {
  return `${origin}/?s=${id}`;
}

/** A share link's path from the owner's welcome (`/?s=ID&k=KEY`) as a device opens it from `origin`. */
export function linkUrl(origin, path) {
  return typeof path === 'string' && path.startsWith('/') ? `${origin}${path}` : null;
}

const ROLES = ['drive', 'watch'];

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

/**
 * Where another device installs the CA of a server that serves https with one (`welcome.ca`, docs/HTTPS.md): the
 * share origin's `caPath` over plain http, which the TLS port answers for that page alone, so that a phone that does
 * not trust the CA yet opens it without a certificate warning. Null without a CA page or an https origin.
 */
export function authorityUrl(origin, caPath) {
  if (typeof caPath !== 'string' || !caPath.startsWith('/')) return null;
  const url = new URL(origin);
  if (url.protocol !== 'https:') return null;
  // the TLS port itself: on https's default port a plain http:// address without one would ask port 80
  return `http://${url.hostname}:${url.port || '443'}${caPath}`;
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

  /** The `role` link another device opens to join (`drive` or `watch`), or null: not welcomed, or not the owner. */
  linkFor(role) {
    if (!this.store.session) return null;
    return linkUrl(shareOrigin(this.win.location.origin, this.store.welcome?.share), this.store.links?.[role]);
  }

  /** The drive link (what "Copy link" copied before there were two). */
  get url() {
    return this.linkFor('drive');
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
${ROLES.map((role) => `
      <div class="share-role" id="share-${role}" data-role="${role}">
        <h3 class="share-subtitle">${t(`share.${role}`)}</h3>
        <p class="share-hint">${t(`share.${role}.hint`)}</p>
        <p class="share-link-row"><a class="share-link" id="share-link-${role}" href="/" target="_blank"
          rel="noopener"></a></p>
        <p class="share-qr-row"><img class="share-qr" id="share-qr-${role}" width="176" height="176" hidden
          alt="${t('share.qr.alt')}"></p>
        <p class="share-actions"><button type="button" class="button button-tinted" id="share-copy-${role}">${
  t(role === 'drive' ? 'share.copyDrive' : 'share.copyWatch')}</button></p>
      </div>`).join('')}
      <p class="share-hint" id="share-ca" hidden>${t('share.ca')}
        <a class="share-link" id="share-ca-link" href="/ca" target="_blank" rel="noopener"></a></p>
      <p class="share-hint" id="share-role-note" hidden></p>
      <p class="share-actions"><span class="share-members" id="share-members"></span></p>
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
    this.roleEls = Object.fromEntries(ROLES.map((role) => [role, {
      box: pop.querySelector(`#share-${role}`),
      link: pop.querySelector(`#share-link-${role}`),
      qr: pop.querySelector(`#share-qr-${role}`),
    }]));
    this.noteEl = pop.querySelector('#share-role-note');
    this.caEl = pop.querySelector('#share-ca');
    this.caLink = pop.querySelector('#share-ca-link');
    this.membersEl = pop.querySelector('#share-members');

    button.addEventListener('click', () => this.toggle());
    for (const role of ROLES) pop.querySelector(`#share-copy-${role}`).addEventListener('click', () => this.copy(role));
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
    for (const role of ROLES) {
      const url = this.linkFor(role);
      const { box, link, qr } = this.roleEls[role];
      box.hidden = !url && Boolean(this.store.role);
      link.textContent = url ?? t('share.connecting');
      link.href = url ?? '/';
      // the server draws the code (GET /qr.svg, libqrencode): asked for once the popover opens (a page that never
      // shares draws none), and again only when the link changes
      const path = url ? qrCodePath(url) : null;
      if (path && !this.pop.hidden && qr.getAttribute('src') !== path) qr.setAttribute('src', path);
      qr.hidden = !path;
    }
    const ca = this.linkFor('drive') && authorityUrl(
      shareOrigin(this.win.location.origin, this.store.welcome?.share), this.store.welcome?.ca);
    this.caEl.hidden = !ca;
    this.caLink.textContent = ca ?? '';
    this.caLink.href = ca ?? '/ca';
    const role = this.store.role;
    const note = role === 'watch' ? t('share.watching') : role && !this.store.links ? t('share.notOwner') : '';
    this.noteEl.textContent = note;
    this.noteEl.hidden = !note;
    const members = this.store.members;
    this.membersEl.textContent = members > 0 ? membersText(members) : '';
    this.button.dataset.members = String(members);
    this.button.dataset.role = role ?? '';
  }

  async copy(role = 'drive') {
    const url = this.linkFor(role);
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
      range.selectNodeContents(this.roleEls[role].link);
      const sel = this.win.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
    }
    this.notify(copied ? t('share.copied') : t('share.copyManually'), 'info');
  }
}
