// The session's events (js/session/liveSession.js): named callbacks, called in the order they subscribed. Emitting
// allocates nothing (the arguments are passed as they are), so an event per animation frame costs a call per
// listener. A listener that throws is reported as an uncaught error is (`reportError`, as a DOM event listener's
// would be) and the others still run: one faulty subscriber (a page's own control, a panel) never stops the
// session from taking the server's messages.
// Pure: no DOM, unit tested with node (web/test/session.test.js).

export class Emitter {
  constructor() {
    this.listeners = new Map(); // name → [fn]
  }

  /** Calls `fn` on every `name` event until the returned function is called. */
  on(name, fn) {
    if (typeof fn !== 'function') throw new TypeError(`a listener for "${name}" must be a function`);
    const list = this.listeners.get(name) ?? [];
    // a new array: an emit running now keeps the list it started with
    this.listeners.set(name, [...list, fn]);
    return () => this.off(name, fn);
  }

  /** Stops calling `fn` on `name` events. */
  off(name, fn) {
    const list = this.listeners.get(name);
    if (!list) return;
    const rest = list.filter((f) => f !== fn);
    if (rest.length) this.listeners.set(name, rest);
    else this.listeners.delete(name);
  }

  /** Calls every listener of `name` with the arguments (up to four). */
  emit(name, a, b, c, d) {
    const list = this.listeners.get(name);
    if (!list) return;
    for (let i = 0; i < list.length; i++) {
      try {
        list[i](a, b, c, d);
      } catch (err) {
        report(err, name);
      }
    }
  }

  /** Forgets every listener (the session was disposed). */
  clear() {
    this.listeners.clear();
  }
}

function report(err, name) {
  if (typeof globalThis.reportError === 'function') globalThis.reportError(err);
  else console.error(`refreshkit: a "${name}" listener threw`, err);
}
