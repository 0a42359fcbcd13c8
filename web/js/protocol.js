// The wire's names (docs/PROTOCOL.md), in one place: the subprotocol, every `error` code and every close code
// the server sends, spelled as the server's RefreshWire spells them (`ErrorCode`, `CloseCode`). The page reacts
// to a few of them (bad_token, session_full, unknown_preset, session_elsewhere, 4001); the others are here so that the lists are
// the document's tables whole, which web/test/protocol.test.js checks.

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
  notReady: 'not_ready',
  badToken: 'bad_token',
  sessionFull: 'session_full',
  tooManySessions: 'too_many_sessions',
  binaryUnsupported: 'binary_unsupported',
  rateLimited: 'rate_limited',
  lagging: 'lagging',
  sessionElsewhere: 'session_elsewhere',
});

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
