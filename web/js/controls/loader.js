// Loads a control that is not built in from the server's `--controls` folder (docs/CONTROLS.md): the module
// `/controls/NAME.js` (same origin, so the page's Content Security Policy allows it), its default export a
// control. A module that fails to load, or takes longer than `timeoutMs`, is a ControlError of hook `load`.
import { CONTROL_NAME, ControlError, controlProblem } from './api.js';

export const LOAD_TIMEOUT_MS = 5000;

/** Rejects with `error()` when `promise` has not settled after `ms`. */
export function withTimeout(promise, ms, error) {
  let timer = 0;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(error()), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * The control module called `name`. `importer` is `(url) => import(url)` (injected for tests).
 * Resolves to the control; rejects with a ControlError naming the module and the hook at fault.
 */
export async function loadControl(name, { importer = (url) => import(url), timeoutMs = LOAD_TIMEOUT_MS } = {}) {
  if (!CONTROL_NAME.test(name)) throw new ControlError(name, 'load', 'not a control name (1-64 of A-Z a-z 0-9 - _)');
  const url = `/controls/${name}.js`;
  let module;
  try {
    module = await withTimeout(importer(url), timeoutMs,
      () => new ControlError(name, 'load', `${url} did not load within ${timeoutMs} ms`));
  } catch (err) {
    if (err instanceof ControlError) throw err;
    throw new ControlError(name, 'load', `${url} failed to load: ${err?.message ?? err}`);
  }
  const control = module?.default;
  const problem = controlProblem(control);
  if (problem) throw new ControlError(name, problem.hook, problem.message);
  if (control.name !== name) {
    throw new ControlError(name, 'name', `${url} exports the control "${control.name}": a module's control is called as its file`);
  }
  return control;
}

/** The names `/controls/index.json` lists (an empty list when the server has no `--controls` folder). */
export async function listControls(fetcher = (url) => fetch(url)) {
  try {
    const response = await fetcher('/controls/index.json');
    if (!response.ok) return [];
    const body = await response.json();
    return Array.isArray(body?.controls) ? body.controls.filter((n) => CONTROL_NAME.test(n)) : [];
  } catch {
    return [];
  }
}
