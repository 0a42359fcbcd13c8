// The control API (docs/CONTROLS.md): how a pull-to-refresh control is written, for the built-in ones
// (js/controls/builtin/) and for yours (`refreshkit serve --controls DIR`) alike. A control is a plain object
// of hooks, checked by `defineControl`; the control host (js/controls/controlHost.js) runs it for one edge of
// one list, with a context object it keeps up to date from the server's frames:
//
//   setup(ctx)          once, when the control starts drawing an edge (may return a promise; timed out)
//   progress(ctx)       every drawn frame while the edge is not refreshing: idle, pulling, armed, and the
//                       resting states noMoreData, failed, disabled (ctx.state, ctx.progress, ctx.distance)
//   cycle(ctx)          every drawn frame while refreshing: ctx.cycle.index and ctx.cycle.t (0…1), both
//                       functions of the server's clock, so every device and a replayed trace agree
//   exit(ctx)           every drawn frame while finishing: ctx.exit.t (0…1) over ctx.exit.duration
//   stateChanged(ctx, previous)  when the edge's state changes (HTRefreshView's refreshStateChanged)
//   teardown(ctx)       once, when the control stops drawing the edge (another control, the page closing)
//
// `progress` and `cycle` are required; without `exit` the cycle is drawn fading out.

/** Every hook a control may have, in the order of a life. */
export const HOOKS = Object.freeze(['setup', 'progress', 'cycle', 'exit', 'stateChanged', 'teardown']);
/** The hooks a control must have. */
export const REQUIRED_HOOKS = Object.freeze(['progress', 'cycle']);
/** A control's name: 1-64 of [A-Za-z0-9_-] (the same rule as a configuration's `edges.<edge>.control`). */
export const CONTROL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** The commands a tap target or `ctx.send` may ask of the server for its edge. */
export const COMMANDS = Object.freeze(['refresh', 'retry', 'loadMore']);

/** A control that cannot be used, naming the hook at fault (`load` for the module itself). */
export class ControlError extends Error {
  constructor(control, hook, message) {
    super(`control "${control}": ${hook}: ${message}`);
    this.name = 'ControlError';
    this.control = control;
    this.hook = hook;
    this.detail = message;
  }
}

/**
 * What is wrong with `def` as a control, or null: `{hook, message}` (hook `name` for a bad name or a
 * missing object).
 */
export function controlProblem(def) {
  if (!def || typeof def !== 'object') return { hook: 'load', message: 'the module exports no control (export default defineControl({...}))' };
  if (typeof def.name !== 'string' || !CONTROL_NAME.test(def.name)) {
    return { hook: 'name', message: 'a control needs a name of 1-64 letters, digits, "-" or "_"' };
  }
  for (const hook of REQUIRED_HOOKS) {
    if (typeof def[hook] !== 'function') return { hook, message: `the required hook "${hook}" is missing` };
  }
  for (const hook of HOOKS) {
    if (def[hook] !== undefined && typeof def[hook] !== 'function') return { hook, message: `"${hook}" is not a function` };
  }
  return null;
}

/**
 * Checks a control and returns it frozen. Throws a ControlError naming the missing or malformed hook.
 * @param {object} def  {name, label?, dom?, cycleMs?, exitMs?, text?(state), ...hooks}
 */
export function defineControl(def) {
  const problem = controlProblem(def);
  if (problem) throw new ControlError(def?.name ?? '?', problem.hook, problem.message);
  return Object.freeze({ label: def.name, dom: false, cycleMs: 1000, exitMs: 300, ...def });
}

const registry = new Map();

/** Makes a control available by name to every list of the page (the built-ins register themselves so). */
export function registerControl(def) {
  const control = Object.isFrozen(def) && !controlProblem(def) ? def : defineControl(def);
  registry.set(control.name, control);
  return control;
}

/** The registered control called `name`, or null. */
export function registeredControl(name) {
  return registry.get(name) ?? null;
}

/** The names of the registered controls, in the order they were registered. */
export function registeredNames() {
  return [...registry.keys()];
}
