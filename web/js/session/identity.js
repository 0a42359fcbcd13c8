// Which session a page is in, and which member of it (docs/PROTOCOL.md, "Sessions"): the session id lives in the
// address (`/?s=ID`, so that a reload rejoins and the link lets another device in), the member token in
// sessionStorage (per tab and per session, so that a reload resumes the same member). A LiveSession
// (js/session/liveSession.js) given a SessionIdentity starts from them, and hands back what each welcome says
// once (`remember`), as well as a dropped token (`bad_token`, close 4001). It also keeps the reader's place (the item
// at the top of the list and how far into its row, `rememberPosition`), which a hello sends as `position`: a session
// that is gone (expired while the phone was locked) starts again there (docs/PROTOCOL.md, "Your place, kept").
// The pure helpers are unit tested with node (web/test/share.test.js).

const TOKEN_KEY = 'refreshkit.token.';
const POSITION_KEY = 'refreshkit.position';

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

/** The share link's key a URL carries (`&k=KEY`, 32 hex digits: docs/PROTOCOL.md, "Roles"), or null. */
export function keyFromUrl(href) {
  let url;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  const key = url.searchParams.get('k');
  return key && /^[0-9a-f]{32}$/.test(key) ? key : null;
}

/** `href` with `?s=ID` set (other parameters kept): what history.replaceState puts in the address bar. */
export function urlWithSession(href, id) {
  const url = new URL(href);
  url.searchParams.set('s', id);
  return url.toString();
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

/** The page's session identity: the address's `?s=` and this tab's token for it. */
export class SessionIdentity {
  constructor({ win = window, storage = safeSessionStorage() } = {}) {
    this.win = win;
    this.storage = storage;
    this.tokens = new TokenStore(storage);
  }

  /**
   * What the first hello says: the session the address names, the share link's key it carries, and this tab's
   * token for it (or nulls).
   */
  initial() {
    const session = sessionFromUrl(this.win.location.href);
    return { session, token: this.tokens.get(session), key: session ? keyFromUrl(this.win.location.href) : null };
  }

  /**
   * The session and token to come back to: after every welcome (the token it issued) and when the token is
   * dropped (null). The token goes to storage, the session into the address.
   */
  /** The reader's place, `{id, offset}`, kept for the next hello (this tab's); null forgets it. */
  rememberPosition(position) {
    try {
      if (!position) {
        this.storage?.removeItem(POSITION_KEY);
        return;
      }
      const text = JSON.stringify(position);
      if (this.storage?.getItem(POSITION_KEY) !== text) this.storage?.setItem(POSITION_KEY, text);
    } catch {
      // a storage that refuses: a new session starts at the top, as before
    }
  }

  /** The place last kept, or null. */
  position() {
    try {
      const kept = JSON.parse(this.storage?.getItem(POSITION_KEY) ?? 'null');
      return kept && typeof kept.id === 'string' && kept.id && Number.isFinite(kept.offset) ? kept : null;
    } catch {
      return null;
    }
  }

  remember(session, token) {
    if (!session) return;
    this.tokens.set(session, token);
    try {
      this.win.history.replaceState(this.win.history.state, '', urlWithSession(this.win.location.href, session));
    } catch {
      // a sandboxed frame may refuse: the share link still works
    }
  }
}

function safeSessionStorage() {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}
