// The panel's control picker (docs/CONTROLS.md, "Choosing a control"): which control draws an edge (the top
// one first; any edge the session configures), from the built-in ones and the server's `--controls` folder
// (/controls/index.json). Choosing one sends `configure {edges:{EDGE:{control}}}`, so every device of the
// session switches, and draws it here at once.
// Below, the problems the control host reported: a control that failed to load, threw, never finished its
// set-up or lacks a hook, named with the hook.
import { el, section, setText } from './dom.js';
import { registeredNames } from '../controls/api.js';
import { listControls } from '../controls/loader.js';
import { t } from '../i18n.js';

export class ControlPicker {
  /**
   * @param {object} o
   * @param {object} o.host     the list's ControlHost (js/controls/controlHost.js)
   * @param {object} o.store    the page's store: its configuration and preset
   * @param {(msg: object) => boolean} o.send  sends a message to the server
   * @param {string} [o.edge]   the edge the picker chooses for
   */
  constructor({ host, store, send, edge = 'top' }) {
    this.host = host;
    this.store = store;
    this.send = send;
    this.edge = edge;
    this.edgeSelect = el('select', 'control-picker-edge');
    this.edgeSelect.dataset.controlPickerEdge = '';
    this.edgeSelect.setAttribute('aria-label', t('controls.whichEdge'));
    this.select = el('select', 'control-picker');
    this.problemList = el('ul', 'control-problems');
    this.problemList.dataset.controlProblems = '';
    this.root = el('div', 'panel-controls', [
      this.edgeSelect, this.select, el('p', 'panel-note', t('controls.note')), this.problemList,
    ]);
    this.setEdge(edge);
    this.edgeSelect.addEventListener('change', () => this.setEdge(this.edgeSelect.value));
    this.edgeSelect.addEventListener('focus', () => this.listEdges());
    this.select.addEventListener('change', () => this.pick(this.select.value));
    this.select.addEventListener('focus', () => this.refresh());
    host.listen((p) => this.showProblem(p));
    host.listenChoice((names) => this.show(names[this.edge]));
    for (const p of host.problems) this.showProblem(p);
    this.refresh();
  }

  /** Puts the picker at the end of the panel's body. */
  mount(body) {
    body?.append(section(t('panel.controls'), 'controls', this.root));
    return this;
  }

  /** Chooses for `edge` from now on (its select says which: `data-control-picker`). */
  setEdge(edge) {
    this.edge = edge;
    this.select.dataset.controlPicker = edge;
    this.select.setAttribute('aria-label', t('controls.edge', { edge }));
    this.listEdges();
    // The new edge's control at once: the list comes back from the server later, and until then the select
    // showed the edge chosen before.
    this.show(this.host.controlNames(this.store.config, this.store.preset)[edge]);
    this.refresh();
  }

  /** The edges the session configures (the top one when it has none yet), the one chosen for selected. */
  listEdges() {
    const configured = Object.keys(this.store.config?.edges ?? {});
    const edges = ['top', 'bottom', 'left', 'right'].filter((e) => configured.includes(e) || e === this.edge);
    this.edgeSelect.replaceChildren(...edges.map((edge) => {
      const o = el('option', null, edge);
      o.value = edge;
      return o;
    }));
    this.edgeSelect.value = this.edge;
  }

  /** Lists the built-in controls and the server's, with the one drawing the edge now selected. */
  async refresh() {
    const names = [...new Set([...registeredNames(), ...(await listControls())])];
    const current = this.host.controlNames(this.store.config, this.store.preset)[this.edge];
    if (!names.includes(current)) names.push(current);
    this.select.replaceChildren(...names.map((name) => {
      const o = el('option', null, name);
      o.value = name;
      return o;
    }));
    this.select.value = current;
  }

  /** Shows `name` as the edge's control (listed first when the list does not have it yet). */
  show(name) {
    if (![...this.select.options].some((o) => o.value === name)) {
      const o = el('option', null, name);
      o.value = name;
      this.select.append(o);
    }
    if (this.select.value !== name) this.select.value = name;
  }

  /**
   * Whether this member may choose the session's controls (a `configure`: the owner's only, docs/PROTOCOL.md
   * "Roles"); `describedBy` names the element that says why not.
   */
  setEnabled(enabled, describedBy = null) {
    this.enabled = Boolean(enabled);
    this.select.disabled = !this.enabled;
    if (!this.enabled && describedBy) this.select.setAttribute('aria-describedby', describedBy);
    else this.select.removeAttribute('aria-describedby');
  }

  pick(name) {
    if (this.enabled === false) return;
    this.send({ type: 'configure', edges: { [this.edge]: { control: name } } });
    this.host.choose(this.edge, name);
  }

  showProblem(p) {
    const item = el('li', 'control-problem');
    item.dataset.control = p.control;
    item.dataset.hook = p.hook;
    setText(item, t('controls.problem', p));
    this.problemList.append(item);
  }
}
