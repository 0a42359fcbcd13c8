// The "N new" pill over the top of a list (the rules: js/feed/newItems.js): a button, so a keyboard reaches it
// and a screen reader names it ("Show 5 new items"); a tap, a click, Enter or Space scrolls the list to its top
// and refreshes it, through the session's command path. It follows one live session (js/session/liveSession.js):
// the session's feed state (`session.feed.newItems`) takes the server's messages; the pill shows what it says.
import { t } from '../i18n.js';

export class NewItemsPill {
  /**
   * @param {object} session  a LiveSession: its `feed`, `send`, `on` and `canvas`
   * @param {object} [o]
   * @param {HTMLElement} [o.parent]  where the pill goes (a positioned box over the list); by default just before
   *   the list's canvas, so that Tab reaches it before the list
   */
  constructor(session, { parent = null } = {}) {
    this.session = session;
    this.state = session.feed.newItems;
    this.shown = '';
    const doc = parent?.ownerDocument ?? session.canvas?.ownerDocument ?? globalThis.document;
    const button = doc.createElement('button');
    button.type = 'button';
    button.className = 'new-items-pill';
    button.id = 'new-items';
    button.hidden = true;
    // the pill takes its own pointer: a press on it is not a drag of the list
    button.addEventListener('pointerdown', (e) => e.stopPropagation());
    button.addEventListener('click', () => this.tap());
    if (parent) parent.append(button);
    else session.canvas?.before(button);
    this.button = button;
    this.off = session.on('message', () => this.render());
  }

  /** Scrolls to the top and refreshes (the pill's messages, in order); the pill hides until the rows come. */
  tap() {
    for (const msg of this.state.tap()) this.session.send(msg);
    this.render();
  }

  render() {
    const key = this.state.key();
    if (key === this.shown) return;
    this.shown = key;
    this.button.hidden = !this.state.visible;
    if (!this.state.visible) return;
    this.button.textContent = t('newItems.pill', { count: this.state.countText });
    this.button.setAttribute('aria-label', t('newItems.label', { count: this.state.count, more: this.state.more }));
  }

  dispose() {
    this.off();
    this.button.remove();
  }
}
