// The debug panel of compare mode: each side's state timeline (js/panel/timeline.js: the strip of each edge's
// states over the last 10 s and its transitions with causes and the library's own names), one side above the
// other, each labelled with its preset and library; then each side's event log (js/panel/eventLog.js). The shell is
// the normal panel's (js/panel/panel.js): a column on wide screens, open by default; a drawer on phones.
import { readStateColours, section, setText, toggleDrawer } from '../panel/dom.js';
import { Timeline } from '../panel/timeline.js';
import { EventLog } from '../panel/eventLog.js';
import { WIDE_QUERY } from '../panel/panel.js';
import { t } from '../i18n.js';

const TEXT_MS = 100;

/** One side's part of the panel: its timeline and its event log (two sections), fed with that side's events. */
class SidePane {
  constructor(side) {
    this.side = side;
    const roleOf = (edge) => side.store.config?.edges?.[edge]?.role ?? null;
    const presetOf = () => side.preset;
    this.timeline = new Timeline({ roleOf, presetOf });
    this.log = new EventLog({ roleOf, presetOf });
    this.timelineSection = section(side.preset, `compare-timeline-${side.preset}`, this.timeline.root);
    this.showLibrary();
    this.eventsSection = section(`${t('panel.events')} · ${side.preset}`, `compare-events-${side.preset}`, this.log.root);
    for (const node of [this.timelineSection, this.eventsSection]) node.dataset.comparePreset = side.preset;
  }

  /** The title: the preset and, once a welcome brought the catalogue, its library. */
  showLibrary() {
    const { side } = this;
    const title = this.timelineSection.querySelector('.panel-summary-title');
    if (title) title.textContent = side.library ? `${side.preset} · ${side.library}` : side.preset;
  }

  add(ev) {
    this.timeline.add(ev);
    this.log.add(ev);
  }
}

export class ComparePanel {
  /**
   * @param {HTMLElement} root  the page's <aside id="panel"> (its head and body are reused)
   * @param {object[]} sides    the compare sides (js/compare/compareSide.js), in the order they are shown
   * @param {object} o
   * @param {(open: boolean) => void} [o.onToggle]
   * @param {AbortSignal} o.signal  ends the panel's listeners when compare mode is left
   */
  constructor(root, sides, { onToggle, signal }) {
    this.root = root;
    this.onToggle = onToggle;
    this.panes = sides.map((side) => new SidePane(side));
    this.lastText = -Infinity;
    this.body = root.querySelector('[data-panel-body]');
    // both timelines first, one above the other, so that they can be read together; then each side's events
    this.body.replaceChildren(...this.panes.map((p) => p.timelineSection), ...this.panes.map((p) => p.eventsSection));
    setText(root.querySelector('[data-panel-preset]'), sides.map((s) => s.preset).join(' · '));
    this.colours = readStateColours();
    window.matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', () => {
      this.colours = readStateColours();
    }, { signal });

    this.wide = window.matchMedia(WIDE_QUERY);
    const applyLayout = () => {
      document.body.dataset.panelLayout = this.wide.matches ? 'column' : 'drawer';
      this.toggle(this.wide.matches);
    };
    this.wide.addEventListener?.('change', applyLayout, { signal });
    applyLayout();
    window.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.open && !this.wide.matches && !e.defaultPrevented) this.toggle(false);
    }, { signal });
  }

  get open() {
    return !this.root.hidden;
  }

  toggle(force) {
    return toggleDrawer(this, force);
  }

  /** An event of side `index`. */
  /** A side's welcome came: its library is known. */
  showLibrary(index) {
    this.panes[index]?.showLibrary();
  }

  addEvent(index, ev) {
    this.panes[index]?.add(ev);
  }

  /** Every animation frame; `serverNows[i]` is the server time side i drew at. */
  tick(now, serverNows) {
    if (!this.open) return;
    this.panes.forEach((p, i) => p.timeline.draw(p.side.store.frame, serverNows[i], this.colours));
    if (now - this.lastText < TEXT_MS) return;
    this.lastText = now;
    this.panes.forEach((p, i) => {
      p.timeline.render(p.side.store.frame, serverNows[i]);
      p.log.render();
    });
  }

  /** Leaves the panel empty for the normal page (which fills it again). */
  clear() {
    this.body.replaceChildren();
  }
}
