// The wire's names (docs/PROTOCOL.md), in one place: the subprotocol, every `error` code and every close code
// the server sends, spelled as the server's RefreshWire spells them (`ErrorCode`, `CloseCode`). The page reacts
// to a few of them (bad_token, session_full, unknown_preset, session_elsewhere, forbidden, 4001); the others are here so that the lists are
// the document's tables whole, which web/test/protocol.test.js checks. At the end, the layout of a binary touch
// (`encodeBinaryTouch`).

/**
 * Which of RefreshKit's events `event` is (docs/PROTOCOL.md, "event"): its `name`, or, for a session that names
 * its events as its preset's library does, `kit`, the event of ours the library's stands for. The page's own
 * reactions (haptics, the failure banner, a waiting ask) follow ours whatever the names shown.
 */
export function eventKind(event) {
  return event?.kit ?? event?.name;
}

/** The WebSocket subprotocol (docs/PROTOCOL.md, the first paragraph). */
export const PROTOCOL = 'refreshkit.v1';

/** Every `error.code` (docs/PROTOCOL.md, "error"), in the table's order. */
export const ErrorCode = Object.freeze({
  badJSON: 'bad_json',
  badMessage: 'bad_message',
  unknownType: 'unknown_type',
  missingField: 'missing_field',
  badField: 'bad_field',
  outOfRange: 'out_of_range',
  unknownCommand: 'unknown_command',
  unknownPreset: 'unknown_preset',
  unknownItem: 'unknown_item',
  notReady: 'not_ready',
  badToken: 'bad_token',
  sessionFull: 'session_full',
  tooManySessions: 'too_many_sessions',
  binaryUnsupported: 'binary_unsupported',
  rateLimited: 'rate_limited',
  lagging: 'lagging',
  sessionElsewhere: 'session_elsewhere',
  alreadyApplied: 'already_applied',
  forbidden: 'forbidden',
});

/**
 * Whether a member of `role` may send a message of `type` (docs/PROTOCOL.md, "Roles"): the server's `MemberRole`,
 * so that a page never sends what would only come back `forbidden`. `owner` may send everything, `drive` all but
 * `configure`, `watch` nothing but `ping` and `trace`; a page not yet welcomed (no role) is not held back.
 */
export function roleMay(role, type) {
  if (!role || role === 'owner' || !ROLE_INPUTS.has(type)) return true;
  return role === 'drive' && type !== 'configure';
}

const ROLE_INPUTS = new Set(['touch', 'wheel', 'command', 'resize', 'configure', 'measure']);

/** Every close code the server ends a connection with (docs/PROTOCOL.md, "close codes"), in the table's order. */
export const CloseCode = Object.freeze({
  /** The server shuts down: reconnect and resume. */
  goingAway: 1001,
  /** The WebSocket framing was broken (libwebsockets). */
  protocolError: 1002,
  /** A text frame that is not UTF-8 (libwebsockets). */
  invalidPayload: 1007,
  /** A flood past the rate limit. */
  policyViolation: 1008,
  /** A message over the size limit. */
  messageTooBig: 1009,
  /** This member resumed on a newer connection: forget the token and join as a new member. */
  sessionTaken: 4001,
});

/** The code the page closes its own connection with (stopping, or leaving for a new session). */
export const NORMAL_CLOSURE = 1000;

/*
 * The binary spelling of a `touch`: one binary WebSocket message, little-endian. The page sends up to 120 touches a
 * second, and decoding each one's JSON is the server's largest cost per input, so a server that reads this spelling
 * says so in its welcome (`"binary":["touch"]`). It carries exactly the JSON touch's fields; `seq` is left out
 * (40 bytes instead of 48) when the touch has none.
 *
 *   offset 0   u8   kind (BINARY_TOUCH_KIND)
 *   offset 1   u8   phase (TouchPhaseCode)
 *   offset 2…7      zero
 *   offset 8   f64  dx
 *   offset 16  f64  dy
 *   offset 24  f64  t    (the page clock, ms)
 *   offset 32  f64  id   (0 when the JSON would have none)
 *   offset 40  f64  seq  (only in the 48-byte form)
 */

/** The first byte of a binary touch. */
export const BINARY_TOUCH_KIND = 1;

/** The second byte of a binary touch: its `phase`. */
export const TouchPhaseCode = Object.freeze({ start: 0, move: 1, end: 2, cancel: 3 });

/** Where each field of a binary touch starts, in bytes. */
export const BinaryTouchOffset = Object.freeze({ kind: 0, phase: 1, dx: 8, dy: 16, t: 24, id: 32, seq: 40 });

/** A binary touch's length without and with `seq`. */
export const BINARY_TOUCH_BYTES = 40;
export const BINARY_TOUCH_WITH_SEQ_BYTES = 48;

/** The largest integer a double holds exactly: the bound of `id` (either sign) and of `seq`. */
const MAX_EXACT_INTEGER = 2 ** 53;

/** Whether a `welcome` says its server reads binary touches. */
export function readsBinaryTouch(welcome) {
  return Array.isArray(welcome?.binary) && welcome.binary.includes('touch');
}

/**
 * `msg` (`{type: 'touch', phase, dx, dy, t, id?, seq?}`) as a binary touch: a fresh ArrayBuffer of 40 bytes, or 48
 * with `seq`. Null when it cannot be spelled so (not a touch, an unknown phase, a number that is not finite, an id or
 * seq out of its range): the caller then sends the JSON, and the server answers its error as for any JSON touch.
 * A field that is `undefined` counts as absent, as JSON.stringify leaves it out.
 */
export function encodeBinaryTouch(msg) {
  if (msg?.type !== 'touch') return null;
  const { phase, dx, dy, t, id, seq } = msg;
  if (typeof phase !== 'string' || !Object.hasOwn(TouchPhaseCode, phase)) return null;
  if (!Number.isFinite(dx) || !Number.isFinite(dy) || !Number.isFinite(t)) return null;
  if (id !== undefined && !(Number.isInteger(id) && Math.abs(id) <= MAX_EXACT_INTEGER)) return null;
  if (seq !== undefined && !(Number.isInteger(seq) && seq >= 0 && seq <= MAX_EXACT_INTEGER)) return null;

  const buffer = new ArrayBuffer(seq === undefined ? BINARY_TOUCH_BYTES : BINARY_TOUCH_WITH_SEQ_BYTES);
  const view = new DataView(buffer); // a new ArrayBuffer is zeroed: bytes 2…7 need no writing
  const littleEndian = true;
  view.setUint8(BinaryTouchOffset.kind, BINARY_TOUCH_KIND);
  view.setUint8(BinaryTouchOffset.phase, TouchPhaseCode[phase]);
  view.setFloat64(BinaryTouchOffset.dx, dx, littleEndian);
  view.setFloat64(BinaryTouchOffset.dy, dy, littleEndian);
  view.setFloat64(BinaryTouchOffset.t, t, littleEndian);
  view.setFloat64(BinaryTouchOffset.id, id ?? 0, littleEndian);
  if (seq !== undefined) view.setFloat64(BinaryTouchOffset.seq, seq, littleEndian);
  return buffer;
}
