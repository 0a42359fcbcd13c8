// The feed source's last requests, as the server reports each applied answer (docs/PROTOCOL.md, `feed_request`,
// and `welcome.feed.requests` for a page that joins): newest first, at most LIMIT. Read by the debug panel's
// Feed section and by the failed state, which names the last error of its edge's kind of request. Pure.

export const LIMIT = 20;

/** The edge role a request's kind serves: a load-more asks for older items; a refresh for the newest or newer. */
export function roleOfKind(kind) {
  return kind === 'older' ? 'loadMore' : 'refresh';
}

/** A request as kept: `{id, kind, cursor, items, ms, error}` (`error`: `{code, message}` or null), or null. */
export function requestOf(raw) {
  if (!raw || typeof raw !== 'object' || typeof raw.kind !== 'string') return null;
  const error = raw.error && typeof raw.error === 'object'
    ? { code: String(raw.error.code ?? 'unavailable'), message: String(raw.error.message ?? '') }
    : null;
  return {
    id: Number.isInteger(raw.id) ? raw.id : null,
    kind: raw.kind,
    cursor: typeof raw.cursor === 'string' ? raw.cursor : null,
    items: Number.isInteger(raw.items) ? raw.items : null,
    ms: Number.isFinite(raw.ms) ? raw.ms : null,
    error,
  };
}

export class RequestLog {
  constructor(limit = LIMIT) {
    this.limit = limit;
    this.list = []; // newest first
  }

  /** Starts again from a welcome's `feed.requests` (in any order: the higher id is the newer). */
  reset(requests) {
    this.list = [];
    const known = (Array.isArray(requests) ? requests : []).map(requestOf).filter(Boolean);
    known.sort((a, b) => (b.id ?? -1) - (a.id ?? -1));
    for (const r of known.reverse()) this.add(r);
  }

  /** One `feed_request` message (or a request already read); returns the request kept, or null. */
  add(raw) {
    const r = requestOf(raw);
    if (!r) return null;
    this.list.unshift(r);
    if (this.list.length > this.limit) this.list.length = this.limit;
    return r;
  }

  /** The error of the last request for an edge of `role` (`refresh`, `loadMore`), or null when it succeeded. */
  errorFor(role) {
    for (const r of this.list) if (roleOfKind(r.kind) === role) return r.error;
    return null;
  }
}
