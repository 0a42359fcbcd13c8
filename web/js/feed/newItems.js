// "N new": the server says how many items newer than the session's top item its source has (docs/PROTOCOL.md,
// `new_items`); the page shows a pill at the top of the list ("1 new", "5 new", "20+ new" beyond a page), and a
// tap asks for them: scroll to the top, then refresh it. The pill goes when the count comes back 0, when a
// refresh brings rows in, and while the refresh it asked for runs (it comes back if that refresh fails and the
// items are still there). Pure: the DOM is js/feed/newItemsPill.js (web/test/feedNewItems.test.js).

/** What a tap sends, in order, through the session's command path. */
export const SHOW_NEW_ITEMS = Object.freeze([
  Object.freeze({ type: 'command', name: 'scrollToEdge', edge: 'top' }),
  Object.freeze({ type: 'command', name: 'refresh', edge: 'top' }),
]);

export class NewItems {
  constructor() {
    this.count = 0;
    this.more = false;
    this.asked = false; // a tap asked for them; the refresh has not brought rows yet
  }

  /** Whether the pill shows. */
  get visible() {
    return this.count > 0 && !this.asked;
  }

  /** The pill's count as written: "5", or "20+" when the source has more than a page. */
  get countText() {
    return this.count > 0 ? `${this.count}${this.more ? '+' : ''}` : '';
  }

  /** Follows one server message; returns whether the pill's look changed. */
  receive(msg) {
    const before = this.key();
    switch (msg?.type) {
      case 'new_items':
        this.count = Number.isInteger(msg.count) && msg.count > 0 ? msg.count : 0;
        this.more = this.count > 0 && msg.more === true;
        if (this.count === 0) this.asked = false;
        break;
      case 'rows':
        if (msg.op === 'replace' || msg.op === 'prepend') this.clear();
        break;
      case 'feed_request':
        if (msg.error && msg.kind !== 'older') this.asked = false; // the refresh failed: offer the items again
        break;
      case 'welcome':
        this.clear();
        break;
      default:
        break;
    }
    return this.key() !== before;
  }

  /** The pill was tapped: returns the messages to send (none when it was not showing). */
  tap() {
    if (!this.visible) return [];
    this.asked = true;
    return SHOW_NEW_ITEMS;
  }

  clear() {
    this.count = 0;
    this.more = false;
    this.asked = false;
  }

  key() {
    return this.visible ? this.countText : '';
  }
}
