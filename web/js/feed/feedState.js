// What the page knows of its session's feed source (docs/PROTOCOL.md, `welcome.feed`, `rows`, `feed_request`,
// `new_items`): which source it is, the loaded items (js/feed/feedRows.js), the last requests (js/feed/
// requestLog.js) and "N new" (js/feed/newItems.js). A live session keeps one (`session.feed`) and hands it every
// server message, as the store takes them: one `receive` switch. Every source's rows come the same way, the
// engine's simulated feed's too (docs/FEEDS.md, "The simulated feed"). Pure: no DOM.
import { FeedRows } from './feedRows.js';
import { RequestLog } from './requestLog.js';
import { NewItems } from './newItems.js';

export class FeedState {
  constructor() {
    this.source = null;    // the source's address as shown to people ("sqlite:demo.sqlite"), null before a welcome
    this.kind = 'simulated'; // sqlite, feed, jsonfeed, simulated, custom
    this.postable = false;
    this.rows = new FeedRows();
    this.requests = new RequestLog();
    this.newItems = new NewItems();
    this.version = 0;      // counts every change (the panel redraws its text when it moves)
  }

  /**
   * Takes one server message. Returns what it did: `null` (not the feed's), `'feed'`, or, for a `rows` message
   * that did not add up, the problem in words.
   */
  receive(msg) {
    switch (msg?.type) {
      case 'welcome': {
        const feed = msg.feed && typeof msg.feed === 'object' ? msg.feed : null;
        this.source = typeof feed?.source === 'string' ? feed.source : null;
        this.kind = typeof feed?.kind === 'string' ? feed.kind : 'simulated';
        this.postable = feed?.postable === true;
        this.requests.reset(feed?.requests);
        this.newItems.receive(msg);
        break;
      }
      case 'rows': {
        const problem = this.rows.apply(msg);
        this.newItems.receive(msg);
        this.version += 1;
        return problem ?? 'feed';
      }
      case 'feed_request':
        this.requests.add(msg);
        this.newItems.receive(msg);
        break;
      case 'new_items':
        this.newItems.receive(msg);
        break;
      default:
        return null;
    }
    this.version += 1;
    return 'feed';
  }

  /** The error of the last request for an edge of `role` (`refresh`, `loadMore`): `{code, message}` or null. */
  errorFor(role) {
    return this.requests.errorFor(role);
  }
}
