import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sessionFromUrl, urlWithSession, TokenStore, SessionIdentity } from '../js/session/identity.js';
import { shareUrl, membersText, qrCodePath, shareOrigin, authorityUrl } from '../js/sharePopover.js';
import { noticeText, errorNotice } from '../js/noticeBar.js';
import { traceText, traceFileName, traceProblem, playbackPlan, playbackHello } from '../js/trace.js';

const ID = '0123456789abcdef0123456789abcdef';

test('the session id comes from ?s= and only when it looks like one', () => {
  assert.equal(sessionFromUrl(`http://h:8080/?s=${ID}`), ID);
  assert.equal(sessionFromUrl(`http://h:8080/?preset=jh&s=${ID}`), ID);
  assert.equal(sessionFromUrl('http://h:8080/'), null);
  assert.equal(sessionFromUrl('http://h:8080/?s=<script>'), null);
  assert.equal(sessionFromUrl('http://h:8080/?s=ABC'), null);
  assert.equal(sessionFromUrl('not a url'), null);
});

test('share links and the address bar', () => {
  assert.equal(shareUrl('http://192.168.1.2:8080', ID), `http://192.168.1.2:8080/?s=${ID}`);
  assert.equal(urlWithSession('http://h/?preset=jh', ID), `http://h/?preset=jh&s=${ID}`);
  assert.equal(urlWithSession(`http://h/?s=old`, ID), `http://h/?s=${ID}`);
});

test("another device finds the CA's page over plain http on the share origin's port", () => {
  assert.equal(authorityUrl('https://192.168.1.2:8443', '/ca'), 'http://192.168.1.2:8443/ca');
  assert.equal(authorityUrl('https://[fe80::1]:8443', '/ca'), 'http://[fe80::1]:8443/ca');
  assert.equal(authorityUrl('https://phone.example', '/ca'), 'http://phone.example:443/ca', 'the TLS port, not 80');
  assert.equal(authorityUrl('http://192.168.1.2:8080', '/ca'), null, 'a plain http page needs no CA');
  assert.equal(authorityUrl('https://192.168.1.2:8443', undefined), null, 'a certificate of its own: no CA page');
  assert.equal(authorityUrl('https://192.168.1.2:8443', 'http://evil.example/ca'), null);
});

test('notices and member counts in words', () => {
  assert.match(noticeText('session_expired'), /ended/);
  assert.equal(noticeText(undefined), null);
  assert.equal(errorNotice({ code: 'session_full' }).kind, 'warning');
  assert.equal(errorNotice({ code: 'bad_token' }).kind, 'info');
  assert.equal(errorNotice({ code: 'bad_field' }), null);
  assert.equal(membersText(1), '1 device connected');
  assert.equal(membersText(3), '3 devices connected');
});

test('tokens are kept per session, and a throwing storage is tolerated', () => {
  const map = new Map();
  const storage = { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => map.set(k, v), removeItem: (k) => map.delete(k) };
  const store = new TokenStore(storage);
  store.set('a', 't1');
  store.set('b', 't2');
  assert.equal(store.get('a'), 't1');
  assert.equal(store.get('b'), 't2');
  store.set('a', null);
  assert.equal(store.get('a'), null);
  assert.equal(store.get(null), null);
  const broken = new TokenStore({ getItem() { throw new Error('no'); }, setItem() { throw new Error('no'); } });
  broken.set('a', 'x');
  assert.equal(broken.get('a'), null);
});

test('the trace text is cut out of the message byte for byte', () => {
  const inner = '{"format":"refreshkit.trace.v2","ops":[\n{"t":1,"member":0,"apply":{"type":"touch","dy":1.10}}\n]}';
  const raw = `{"type":"trace","trace":${inner}}`;
  assert.equal(traceText(raw, JSON.parse(raw)), inner);
  assert.equal(traceText('{"trace":{"a":1},"type":"trace"}', { trace: { a: 1 } }), '{"a":1}');
});

test('trace file names carry only a prefix of the session id', () => {
  const name = traceFileName(ID, new Date('2026-01-02T03:04:05.678Z'));
  assert.equal(name, 'refreshkit-trace-01234567-2026-01-02T030405.json');
  assert.ok(!name.includes(ID));
});

test('a trace plays back as its messages at their times, other members kept apart', () => {
  const trace = {
    format: 'refreshkit.trace.v2', preset: 'jh', viewport: { w: 390, h: 844 }, dpr: 3, seed: 9, start: 1_000_000,
    ops: [
      { t: 1_000_000, advance: true },
      { frame: true },
      { t: 1_016_000, member: 0, apply: { type: 'touch', phase: 'start', dx: 0, dy: 0, t: 5, id: 1, seq: 7 } },
      { t: 1_032_500, member: 2, apply: { type: 'touch', phase: 'start', dx: 0, dy: 0, t: 5, id: 1 } },
      { t: 1_500_000, member: 1, apply: { type: 'wheel', dx: 0, dy: 4, mode: 0, t: 9 } },
    ],
  };
  assert.equal(traceProblem(trace), null);
  assert.deepEqual(playbackHello(trace), { viewport: { w: 390, h: 844 }, dpr: 3, preset: 'jh', seed: 9 });
  const plan = playbackPlan(trace);
  assert.deepEqual(plan.map((p) => p.delay), [16, 32.5, 500]);
  assert.equal(plan[0].message.id, 1);
  assert.equal('seq' in plan[0].message, false, "the recording page's numbering is not sent: the playing page has its own");
  assert.equal(plan[1].message.id, 2 * 65536 + 1);
  assert.equal(plan[2].message.type, 'wheel');
  assert.equal(trace.ops[3].apply.id, 1, 'the trace itself is not changed');
  assert.equal(trace.ops[2].apply.seq, 7);
  // a trace that starts from a snapshot an hour in plays its messages from its first operation's time
  const later = (op) => (Number.isFinite(op.t) ? { ...op, t: op.t + 3_600_000_000 } : op);
  const fromSnapshot = { ...trace, snapshot: 'UktTUwE=', ops: trace.ops.map(later) };
  assert.deepEqual(playbackPlan(fromSnapshot).map((p) => p.delay), [16, 32.5, 500]);
  assert.match(traceProblem({ format: 'x' }), /refreshkit.trace.v2/);
  assert.match(traceProblem({ ...trace, ops: null }), /ops/);
});

test('the QR code is the server\'s picture of the whole link, escaped', () => {
  const link = 'http://192.168.1.2:8080/?s=0123456789abcdef0123456789abcdef';
  assert.equal(qrCodePath(link), '/qr.svg?text=http%3A%2F%2F192.168.1.2%3A8080%2F%3Fs%3D0123456789abcdef0123456789abcdef');
  assert.equal(decodeURIComponent(qrCodePath(link).split('=').slice(1).join('=')), link);
});

test('a page opened on the server\'s machine shares the server\'s network address', () => {
  assert.equal(shareOrigin('http://127.0.0.1:8080', 'http://192.168.1.23:8080'), 'http://192.168.1.23:8080');
  assert.equal(shareOrigin('http://localhost:8080', 'http://192.168.1.23:8080'), 'http://192.168.1.23:8080');
  assert.equal(shareOrigin('http://[::1]:8080', 'http://192.168.1.23:8080'), 'http://192.168.1.23:8080');
  // a page another device can already open keeps its own origin (a proxy, a name, another port)
  assert.equal(shareOrigin('http://192.168.1.23:9000', 'http://192.168.1.23:8080'), 'http://192.168.1.23:9000');
  assert.equal(shareOrigin('http://demo.local:8080', 'http://192.168.1.23:8080'), 'http://demo.local:8080');
  // nothing better known: the page's own
  assert.equal(shareOrigin('http://127.0.0.1:8080', 'http://127.0.0.1:8080'), 'http://127.0.0.1:8080');
  assert.equal(shareOrigin('http://127.0.0.1:8080', undefined), 'http://127.0.0.1:8080');
  assert.equal(shareOrigin('http://127.0.0.1:8080', 'not a url'), 'http://127.0.0.1:8080');
});
