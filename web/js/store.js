// The one owner of what the page knows about its session: the connection writes every server message into
// it (`receive`), and the renderer, the prediction, the panel, the share popover and `window.refreshkit`
// read it. Nothing else keeps a copy of the frame, the config, the preset, the session or the token.
// Pure: no DOM, unit tested with node (web/test/store.test.js).
import { applyDelta } from './delta.js';

export const MAX_EVENTS = 200;
export const MAX_ERRORS = 20;

export class Store {
  /** @param {{session?: string|null, token?: string|null, preset?: string|null}} initial  from the URL and sessionStorage */
  constructor({ session = null, token = null, preset = null, key = null } = {}) {
    this.session = session;   // the session id (the URL's ?s=, then the server's)
    this.token = session ? token : null; // this member's token in that session
    this.key = session ? key : null; // the share link's key (the URL's &k=): joins the session with its role
    this.role = null;         // what this member may do: 'owner', 'drive' or 'watch' (welcome.role)
    this.links = null;        // the owner's share links {drive, watch} (paths); kept when a welcome has none
    this.member = null;       // this page's member number (welcome, room)
    this.members = 0;         // devices connected to the session (room)
    this.welcome = null;      // the latest welcome
    this.config = null;       // the session's configuration (welcome.config, then each `config`)
    this.preset = preset;     // the preset the page shows: the server's, or the one just picked
    this.serverPreset = null; // the preset the server last said
    this.frame = null;        // the latest frame, deltas applied: what the page draws and the delta base
    this.hasBase = false;     // a whole frame came on this connection (a delta needs one)
    this.frames = 0;          // frames received (whole or delta)
    this.deltas = 0;          // of which deltas
    this.events = [];         // the last MAX_EVENTS events
    this.errors = [];         // the last MAX_ERRORS errors
  }

  /** A new connection: deltas wait for its first whole frame (the old frame stays on screen meanwhile). */
  connectionOpened() {
    this.hasBase = false;
  }

  /** The session id and token changed (issued by a welcome, or dropped after bad_token / 4001). */
  setToken(session, token) {
    if (session) this.session = session;
    this.token = token ?? null;
  }

  /** The page picked a preset (the picker): shown at once, confirmed by the server's `config`. */
  pickPreset(name) {
    this.preset = name;
  }

  /**
   * Takes one server message in. Returns the message to hand on (a `delta` comes out as the whole `frame` it
   * makes), or null when it cannot be used (a delta with no frame to apply it to).
   */
  receive(msg) {
    switch (msg.type) {
      case 'welcome':
        this.welcome = msg;
        if (typeof msg.session === 'string') this.session = msg.session;
        if (typeof msg.token === 'string') this.token = msg.token;
        if (Number.isInteger(msg.member)) this.member = msg.member;
        if (typeof msg.role === 'string') this.role = msg.role;
        // a welcome after a take-over may not know the keys (docs/PROTOCOL.md, "Roles"): the links stay
        if (msg.links && typeof msg.links === 'object') this.links = msg.links;
        if (msg.config && typeof msg.config === 'object') this.config = msg.config;
        if (typeof msg.preset === 'string') this.preset = this.serverPreset = msg.preset;
        this.hasBase = false; // the server sends a whole frame next
        return msg;
      case 'config':
        if (msg.config && typeof msg.config === 'object') this.config = msg.config;
        // a new preset from the server is shown; the same one again leaves a pick in flight alone
        if (typeof msg.preset === 'string' && msg.preset !== this.serverPreset) this.preset = this.serverPreset = msg.preset;
        return msg;
      case 'room':
        if (Number.isInteger(msg.members)) this.members = msg.members;
        if (Number.isInteger(msg.member)) this.member = msg.member;
        return msg;
      case 'frame':
        this.frame = msg;
        this.hasBase = true;
        this.frames += 1;
        return msg;
      case 'delta': {
        if (!this.hasBase || !this.frame) return null;
        this.frame = applyDelta(this.frame, msg);
        this.frames += 1;
        this.deltas += 1;
        return this.frame;
      }
      case 'event':
        this.events.push(msg);
        if (this.events.length > MAX_EVENTS) this.events.splice(0, this.events.length - MAX_EVENTS);
        return msg;
      case 'error':
        this.errors.push(msg);
        if (this.errors.length > MAX_ERRORS) this.errors.splice(0, this.errors.length - MAX_ERRORS);
        return msg;
      default:
        return msg;
    }
  }
}
