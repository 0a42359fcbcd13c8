// When each edge's state last changed on the page's clock: controls run short local transitions from it (an
// arrow that turns when armed), and the page keeps drawing for a moment after a change.

export class EdgeStateClock {
  constructor() {
    this.edges = new Map();
  }

  update(entries, now) {
    for (const e of entries || []) {
      const prev = this.edges.get(e.edge);
      if (!prev) this.edges.set(e.edge, { state: e.state, prevState: null, since: now - 1e6 });
      else if (prev.state !== e.state) this.edges.set(e.edge, { state: e.state, prevState: prev.state, since: now });
    }
  }

  age(edge, now) {
    const s = this.edges.get(edge);
    return s ? now - s.since : Infinity;
  }

  prevState(edge) {
    const s = this.edges.get(edge);
    return s ? s.prevState : null;
  }
}
