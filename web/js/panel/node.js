// Which process holds the session, and how it came to (welcome.node, welcome.takeover: docs/SCALING.md).
/** `node n2`, and after a take-over `· taken over from n1 (catch-up 3.2 ms, 1234 ops)` (welcome.node, .takeover). */
export function nodeText(welcome) {
  if (typeof welcome?.node !== 'string') return '';
  const over = welcome.takeover;
  if (!over || typeof over.from !== 'string') return `node ${welcome.node}`;
  return `node ${welcome.node} · taken over from ${over.from} (catch-up ${Number(over.catchUpMs).toFixed(1)} ms, ${over.ops} ops)`;
}
