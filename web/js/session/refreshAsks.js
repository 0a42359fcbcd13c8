// A refresh asked for by a button (the failure banner's Retry, a custom control's own button): the engine starts a
// refresh only from a settled edge (idle, pulling, armed, failed: the edge states of docs/PROTOCOL.md, "frame") and ignores the command while the
// edge is still refreshing or finishing. A failed refresh stays `refreshing` until its minimum visible time is over
// and then plays its exit (`finishing`), and the banner shows its Retry from the failure on: an ask in that window
// waits for the edge to settle and goes then, instead of being lost. It is dropped when a refresh of that edge
// starts meanwhile (another device's pull: what was asked for is happening).
import { eventKind } from '../protocol.js';

/** The state `edge` has in `frame` (`frame.edges`: `[{edge, state}]`), or null. */
export function edgeState(frame, edge) {
  const edges = frame?.edges;
  if (!edges) return null;
  for (let i = 0; i < edges.length; i++) if (edges[i].edge === edge) return edges[i].state;
  return null;
}

const busy = (state) => state === 'refreshing' || state === 'finishing';

export class RefreshAsks {
  /** `send(edge)`: sends the refresh command for `edge`; returns whether it went. */
  constructor(send) {
    this.send = send;
    this.waiting = new Set();
  }

  /** Asks for a refresh of `edge` given the last `frame`: `'sent'`, `'waiting'` (for the edge to settle) or `'dropped'`. */
  ask(edge, frame) {
    if (busy(edgeState(frame, edge))) {
      this.waiting.add(edge);
      return 'waiting';
    }
    this.waiting.delete(edge);
    return this.send(edge) ? 'sent' : 'dropped';
  }

  /** Follows a server message: a frame where a waiting edge has settled sends its ask; a `didStart` drops it. */
  onMessage(msg) {
    if (this.waiting.size === 0) return;
    if (msg.type === 'event' && eventKind(msg) === 'didStart') {
      this.waiting.delete(msg.edge);
      return;
    }
    if (msg.type !== 'frame') return;
    for (const edge of [...this.waiting]) {
      if (busy(edgeState(msg, edge))) continue;
      this.waiting.delete(edge);
      this.send(edge);
    }
  }
}
