// The control host: runs the controls of one rendered list, one per edge, through their life cycle
// (docs/CONTROLS.md): it finds the control an edge names (built in, or loaded from /controls/NAME.js), sets it
// up, calls `progress`, `cycle` or `exit` on each drawn frame with a context kept up to date from the frame's
// edge entry, and tears it down when the edge changes control. A control that fails to load, throws in a hook,
// never finishes its set-up or lacks a hook is reported (console and `problems`, shown by the panel) and the
// edge falls back to its preset's built-in control: the list goes on.
import { COMMANDS, ControlError, registeredControl } from './api.js';
import { chooseControls, defaultControl, parseControlParam } from './choice.js';
import { edgeLayout, intersects } from './geometry.js';
import { loadControl, withTimeout } from './loader.js';
import { cyclePhase, exitPhase } from './phase.js';
import './builtin/index.js';

export const SETUP_TIMEOUT_MS = 2000;

export class ControlHost {
  /**
   * @param {object} [o]
   * @param {HTMLCanvasElement} [o.canvas]  the list's canvas: DOM controls get elements in a layer over it
   * @param {Function} [o.importer]         `(url) => import(url)`, for tests
   * @param {number} [o.setupTimeoutMs]     how long an asynchronous set-up may take
   * @param {number} [o.loadTimeoutMs]      how long a module may take to load
   */
  constructor({ canvas = null, importer, setupTimeoutMs = SETUP_TIMEOUT_MS, loadTimeoutMs } = {}) {
    this.canvas = canvas;
    this.importer = importer;
    this.setupTimeoutMs = setupTimeoutMs;
    this.loadTimeoutMs = loadTimeoutMs;
    this.send = () => false;
    this.onChange = () => {};
    this.listeners = new Set();
    this.choiceListeners = new Set();
    this.lastNames = null;
    this.overrides = new Map(); // edge → {name, configured}: the page's own choice, until the session's changes
    this.loads = new Map();     // name → {status: 'loading'|'ready'|'failed', control}
    this.slots = new Map();     // edge → {name, primary, fallback, state}
    this.problems = [];
    this.layer = null;
    this.lastConfig = null;
  }

  /** Connects the host to its page: `send` for taps, `onChange` to redraw, `search` for `?control=`. */
  attach({ send, onChange, search } = {}) {
    if (send) this.send = send;
    if (onChange) this.onChange = onChange;
    if (search != null) {
      const { edges, refused } = parseControlParam(new URLSearchParams(search).get('control'));
      for (const [edge, name] of Object.entries(edges)) this.choose(edge, name);
      for (const part of refused) this.report(part, 'choice', `?control=${part} is not NAME or EDGE:NAME`, 'top');
    }
  }

  /** Draws `name` on `edge` of this list, until the session's configuration names another control there. */
  choose(edge, name) {
    this.overrides.set(edge, { name, configured: this.lastConfig?.edges?.[edge]?.control });
    this.onChange();
  }

  /** The control each edge draws now (`config`: the session's configuration; `preset`: its seed preset). */
  controlNames(config, preset) {
    this.lastConfig = config;
    const own = {};
    for (const [edge, o] of this.overrides) {
      // the control the configuration names for the edge; none while it is not known yet or leaves the edge out
      const configured = config?.edges?.[edge]?.control;
      if (configured === undefined) own[edge] = o.name;
      else if (o.configured === undefined) {
        o.configured = configured; // the first name seen since the choice: what the choice was made over
        own[edge] = o.name;
      } else if (configured !== o.configured) this.overrides.delete(edge); // a newer choice
      else own[edge] = o.name;
    }
    const names = chooseControls(config, preset, own);
    const changed = !this.lastNames || Object.keys(names).some((edge) => names[edge] !== this.lastNames[edge]);
    this.lastNames = names;
    if (changed) for (const fn of this.choiceListeners) fn(names);
    return names;
  }

  /** Calls `fn(names)` whenever the control of an edge changes (a choice here, or the session's). */
  listenChoice(fn) {
    this.choiceListeners.add(fn);
    return () => this.choiceListeners.delete(fn);
  }

  /** Calls `fn(problem)` for every problem reported from now on. */
  listen(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  report(control, hook, message, edge) {
    const problem = { control, hook, message, edge };
    if (!this.problems.some((p) => p.control === control && p.hook === hook)) {
      this.problems.push(problem);
      console.error(`refreshkit: control "${control}" (${edge} edge): ${hook}: ${message}; the edge falls back to its default control`);
      for (const fn of this.listeners) fn(problem);
    }
  }

  // ---------------------------------------------------------------- drawing

  /**
   * Draws every edge of `frame` on `g` (a 2D context in CSS px) and places the DOM controls. Returns the tap
   * targets the controls offered: `{edge, rect, message, label}`.
   * `env`: {config, preset, clock, serverNow, reducedMotion, theme, dpr, viewport, stateClock, slotFor, lastUpdated,
   * errorOf(edge) → the feed source's error `{code, message}` behind a failed edge, or null}
   */
  draw(g, frame, shown, env) {
    const names = this.controlNames(env.config, env.preset);
    const taps = [];
    const seen = new Set();
    for (const entry of frame.edges || []) {
      seen.add(entry.edge);
      const slot = this.slot(entry.edge, names[entry.edge], env.preset);
      const layout = edgeLayout(entry, frame, shown, env.viewport, env.slotFor(entry.edge));
      const inst = this.current(slot);
      this.hideOthers(slot, inst);
      if (!inst) continue;
      this.track(inst, entry, slot);
      // why a failed edge failed (the feed source's error), also for its words while it is out of view
      inst.ctx.error = entry.state === 'failed' && env.errorOf ? env.errorOf(entry.edge) : null;
      if (!intersects(layout.band, env.viewport) && !intersects(layout.view, env.viewport)) {
        if (inst.ctx.element) inst.ctx.element.hidden = true;
        continue;
      }
      this.drawOne(g, inst, entry, layout, env, taps);
    }
    for (const [edge, slot] of this.slots) {
      if (!seen.has(edge)) this.hideOthers(slot, null);
    }
    return taps;
  }

  /** What each edge's control says in words now (its `text(state)`), for tests and tools. */
  texts() {
    const out = {};
    for (const [edge, slot] of this.slots) {
      const inst = this.current(slot);
      out[edge] = inst?.control.text && slot.state ? inst.control.text(slot.state, inst.ctx.error ?? null) : null;
    }
    return out;
  }

  /** The control drawing each edge now (the fallback's name while the chosen one loads or after it failed). */
  drawing() {
    return Object.fromEntries([...this.slots].map(([edge, slot]) => [edge, this.current(slot)?.control.name ?? null]));
  }

  /** The area each edge's control drew in last (CSS px of the canvas). */
  areas() {
    return Object.fromEntries([...this.slots].map(([edge, slot]) => [edge, this.current(slot)?.ctx.area ?? null]));
  }

  /** How often each hook of the control drawing each edge ran (for tests and tools). */
  calls() {
    return Object.fromEntries([...this.slots].map(([edge, slot]) => [edge, { ...(this.current(slot)?.calls ?? {}) }]));
  }

  /** Whether each edge's chosen control is ready (`ready`), still coming (`loading`) or failed (`failed`). */
  status() {
    return Object.fromEntries([...this.slots].map(([edge, slot]) => [edge, slot.primary?.status ?? this.loads.get(slot.name)?.status ?? 'loading']));
  }

  /** Tears every control down (the list goes away). */
  destroy() {
    for (const slot of this.slots.values()) this.endSlot(slot);
    this.slots.clear();
    this.layer?.remove();
    this.layer = null;
  }

  // ---------------------------------------------------------------- the life cycle

  slot(edge, name, preset) {
    let slot = this.slots.get(edge);
    const fallbackName = defaultControl(edge, preset);
    if (slot && slot.name === name && slot.fallbackName === fallbackName) return slot;
    if (slot) this.endSlot(slot);
    slot = { edge, name, fallbackName, primary: null, fallback: null, state: null };
    this.slots.set(edge, slot);
    if (name !== fallbackName) slot.fallback = this.start(registeredControl(fallbackName), edge);
    this.resolve(slot);
    return slot;
  }

  /** Finds the slot's chosen control: registered now, or loaded from the server. */
  resolve(slot) {
    const control = registeredControl(slot.name) ?? this.loads.get(slot.name)?.control;
    if (control) {
      slot.primary = this.start(control, slot.edge);
      return;
    }
    const known = this.loads.get(slot.name);
    if (known?.status === 'failed') return;
    if (!known) {
      const load = { status: 'loading', control: null, waiting: new Set() };
      this.loads.set(slot.name, load);
      loadControl(slot.name, { importer: this.importer, timeoutMs: this.loadTimeoutMs }).then((c) => {
        load.status = 'ready';
        load.control = c;
      }, (err) => {
        load.status = 'failed';
        this.report(slot.name, err.hook ?? 'load', err instanceof ControlError ? err.detail : String(err), slot.edge);
      }).finally(() => {
        for (const s of load.waiting) if (this.slots.get(s.edge) === s && load.control) s.primary = this.start(load.control, s.edge);
        this.onChange();
      });
    }
    this.loads.get(slot.name).waiting.add(slot);
  }

  /** An instance of `control` on `edge`: its context, then its set-up (timed out when asynchronous). */
  start(control, edge) {
    if (!control) return null;
    const inst = { control, status: 'ready', lastState: null, calls: {}, ctx: this.context(control, edge) };
    if (control.dom) inst.ctx.element = this.element(control, edge);
    if (typeof control.setup !== 'function') return inst;
    let result;
    try {
      result = control.setup(inst.ctx);
    } catch (err) {
      this.fail(inst, 'setup', err);
      return inst;
    }
    if (result && typeof result.then === 'function') {
      inst.status = 'setting-up';
      withTimeout(Promise.resolve(result), this.setupTimeoutMs,
        () => new Error(`set-up did not finish within ${this.setupTimeoutMs} ms`)).then(() => {
        if (inst.status === 'setting-up') inst.status = 'ready';
      }, (err) => this.fail(inst, 'setup', err)).finally(() => this.onChange());
    }
    return inst;
  }

  /** The instance drawing the slot now: the chosen control once ready, else the preset's default. */
  current(slot) {
    if (slot.primary?.status === 'ready') return slot.primary;
    return slot.fallback?.status === 'ready' ? slot.fallback : null;
  }

  fail(inst, hook, err) {
    if (inst.status === 'failed') return;
    inst.status = 'failed';
    this.report(inst.control.name, hook, err?.message ?? String(err), inst.ctx.edge);
    this.end(inst);
  }

  end(inst) {
    if (!inst || inst.ended) return;
    inst.ended = true;
    if (inst.status !== 'failed' && typeof inst.control.teardown === 'function') {
      try {
        inst.control.teardown(inst.ctx);
      } catch (err) {
        this.report(inst.control.name, 'teardown', err?.message ?? String(err), inst.ctx.edge);
      }
    }
    inst.ctx.element?.remove();
    if (inst.status !== 'failed') inst.status = 'ended';
  }

  endSlot(slot) {
    this.end(slot.primary);
    this.end(slot.fallback);
    for (const load of this.loads.values()) load.waiting?.delete(slot);
  }

  /** State changes: the context's previous state, and the control's `stateChanged` hook. */
  track(inst, entry, slot) {
    slot.state = entry.state;
    if (inst.lastState === entry.state) return;
    const previous = inst.lastState;
    inst.lastState = entry.state;
    if (previous == null || typeof inst.control.stateChanged !== 'function') return;
    inst.ctx.state = entry.state;
    this.call(inst, 'stateChanged', previous);
  }

  drawOne(g, inst, entry, layout, env, taps) {
    const ctx = inst.ctx;
    const c = inst.control;
    Object.assign(ctx, {
      area: layout.band, view: layout.view, distance: layout.distance,
      state: entry.state, progress: Number.isFinite(entry.progress) ? entry.progress : 0,
      velocity: Number.isFinite(entry.velocity) ? entry.velocity : 0,
      scale: Number.isFinite(entry.scale) && entry.scale > 0 ? entry.scale : 1,
      serverNow: env.serverNow, clock: env.clock, reducedMotion: !!env.reducedMotion, theme: env.theme, dpr: env.dpr,
      lastUpdated: env.lastUpdated ?? null,
      stateAge: env.stateClock ? env.stateClock.age(entry.edge, env.clock) : Infinity,
      previousState: env.stateClock ? env.stateClock.prevState(entry.edge) : null,
      cycle: null, exit: null, taps,
    });
    const busy = entry.state === 'refreshing' || entry.state === 'finishing';
    if (busy) ctx.cycle = cyclePhase(entry.cycle, env.serverNow, c.cycleMs);
    if (entry.state === 'finishing') ctx.exit = exitPhase(entry.exit, env.serverNow, ctx.stateAge, c.exitMs);
    if (ctx.element) {
      this.place(ctx.element, layout.band);
      if (inst.faded && entry.state !== 'finishing') {
        ctx.element.style.opacity = ''; // the host's own fade is over
        inst.faded = false;
      }
    }
    g.save();
    g.beginPath();
    g.rect(layout.band.x, layout.band.y, layout.band.w, layout.band.h);
    g.clip();
    ctx.canvas2d = g;
    if (!busy) this.call(inst, 'progress');
    else if (entry.state === 'refreshing') this.call(inst, 'cycle');
    else if (typeof c.exit === 'function') this.call(inst, 'exit');
    else {
      // no exit animation of its own: the cycle goes on, fading out over the exit's duration
      g.globalAlpha = 1 - ctx.exit.t;
      if (ctx.element) {
        ctx.element.style.opacity = String(1 - ctx.exit.t);
        inst.faded = true;
      }
      this.call(inst, 'cycle');
    }
    g.restore();
    ctx.canvas2d = null;
  }

  call(inst, hook, ...args) {
    inst.calls[hook] = (inst.calls[hook] ?? 0) + 1;
    try {
      inst.control[hook](inst.ctx, ...args);
    } catch (err) {
      this.fail(inst, hook, err);
    }
  }

  context(control, edge) {
    const host = this;
    const ctx = {
      edge, name: control.name, data: {}, element: null, canvas2d: null, taps: [],
      /** Offers a tap target for this frame: `rect` in CSS px, `command` one of COMMANDS for this edge. */
      tap(rect, command, label = command) {
        if (!COMMANDS.includes(command)) throw new Error(`tap: "${command}" is not one of ${COMMANDS.join(', ')}`);
        ctx.taps.push({ edge, rect: { ...rect }, message: { type: 'command', name: command, edge }, label });
      },
      /** Asks the server for `command` on this edge now (a DOM control's own button). */
      send(command) {
        if (!COMMANDS.includes(command)) throw new Error(`send: "${command}" is not one of ${COMMANDS.join(', ')}`);
        return host.send({ type: 'command', name: command, edge });
      },
    };
    return ctx;
  }

  // ---------------------------------------------------------------- DOM controls

  element(control, edge) {
    if (!this.canvas?.parentElement || typeof document === 'undefined') return null;
    if (!this.layer) {
      this.layer = document.createElement('div');
      this.layer.className = 'rk-controls-layer';
      this.canvas.after(this.layer);
    }
    const el = document.createElement('div');
    el.className = 'rk-control';
    el.dataset.control = control.name;
    el.dataset.edge = edge;
    el.hidden = true;
    this.layer.append(el);
    return el;
  }

  place(el, r) {
    const c = this.canvas;
    if (this.layer && c) {
      const s = this.layer.style;
      s.left = `${c.offsetLeft}px`;
      s.top = `${c.offsetTop}px`;
      s.width = `${c.clientWidth}px`;
      s.height = `${c.clientHeight}px`;
    }
    el.hidden = !(r.w > 0 && r.h > 0);
    el.style.left = `${r.x}px`;
    el.style.top = `${r.y}px`;
    el.style.width = `${r.w}px`;
    el.style.height = `${r.h}px`;
  }

  hideOthers(slot, inst) {
    for (const other of [slot.primary, slot.fallback]) {
      if (other && other !== inst && other.ctx.element) other.ctx.element.hidden = true;
    }
  }
}
