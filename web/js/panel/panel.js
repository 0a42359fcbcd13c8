// The debug panel's shell: a right-hand column on wide screens (open by default), a bottom drawer on phones
// (closed by default); the Debug button and `d` toggle it. It routes the server's messages to its sections
// and keeps the JS cost low: canvases are drawn on animation frames while open, text at most every 100 ms.
import { el, readStateColours, section, setText, toggleDrawer } from './dom.js';
import { Figures } from './figures.js';
import { Plot } from './plot.js';
import { Timeline } from './timeline.js';
import { EventLog } from './eventLog.js';
import { FramePane } from './framePane.js';
import { Params } from './params.js';
import { PredictionPane } from './predictionPane.js';
import { libraryFor } from '../catalogue.js';
import { t } from '../i18n.js';
import { nodeText } from './node.js';
import { PresetFilePane } from './presetFile.js';
import { FeedPane } from './feedPane.js';
import { roleMay } from '../protocol.js';

export const WIDE_QUERY = '(min-width: 900px)';
const TEXT_MS = 100;

export class Panel {
  /**
   * @param {HTMLElement} root  the <aside id="panel">
   * @param {object} o
   * @param {(open: boolean) => void} [o.onToggle]
   * @param {(msg: object) => boolean} [o.send]       sends a message to the server (configure)
   * @param {object} [o.connection]                     the Connection (clock, bytesIn, messagesIn)
   * @param {object} o.store                            the page's store (js/store.js): the frame, the preset
   * @param {object} [o.predictor]                      the page's Predictor (js/prediction.js)
   * @param {(on: boolean) => void} [o.onPredictionToggle]  the Predict switch changed
   * @param {object} [o.haptics]                        the page's Haptics (js/haptics.js): its switch lives here
   * @param {object} [o.feed]                           the session's feed state (js/feed/feedState.js)
   */
  constructor(root, {
    onToggle, send = () => false, connection = null, store, predictor = null, onPredictionToggle = () => {},
    haptics = null, feed = null,
  } = {}) {
    this.root = root;
    this.onToggle = onToggle;
    this.connection = connection;
    this.store = store;
    this.presetOf = () => store.preset;
    this.lastText = -Infinity;
    this.welcomed = false;

    const roleOf = (edge) => this.params.roleOf(edge);
    this.figures = new Figures();
    this.timeline = new Timeline({ roleOf, presetOf: () => this.presetOf() });
    this.plot = new Plot(this.timeline.log);
    this.log = new EventLog({ roleOf, presetOf: () => this.presetOf() });
    this.framePane = new FramePane();
    this.params = new Params({ send });
    this.presetFile = new PresetFilePane({ send });
    this.prediction = predictor ? new PredictionPane({ predictor, onToggle: onPredictionToggle }) : null;
    this.device = haptics ? hapticsSwitch(haptics) : null;
    this.feed = feed ? new FeedPane(feed) : null;

    this.presetEl = root.querySelector('[data-panel-preset]') || el('span');
    let body = root.querySelector('[data-panel-body]');
    if (!body) {
      body = el('div', 'panel-body');
      body.dataset.panelBody = '';
      root.append(body);
    }
    this.seqBadge = el('span', 'panel-summary-extra');
    // Which process holds the session, and how it came to (a take-over: docs/SCALING.md).
    this.nodeEl = el('p', 'panel-node');
    this.nodeEl.dataset.panelNode = '';
    this.figures.root.append(this.nodeEl);
    body.replaceChildren(...[
      section(t('panel.connection'), 'connection', this.figures.root),
      this.prediction && section(t('panel.prediction'), 'prediction', this.prediction.root),
      section(t('panel.motion'), 'motion', this.plot.root),
      section(t('panel.edges'), 'edges', this.timeline.root),
      section(t('panel.events'), 'events', this.log.root),
      this.feed && section(t('panel.feed'), 'feed', this.feed.root),
      section(t('panel.frame'), 'frame', this.framePane.root, { extra: this.seqBadge }),
      section(t('panel.params'), 'params', this.params.root),
      section(t('panel.presetFile'), 'presetFile', this.presetFile.root),
      this.device && section(t('panel.device'), 'device', this.device),
    ].filter(Boolean));
    this.params.updateNote();

    this.colours = readStateColours();
    const dark = window.matchMedia('(prefers-color-scheme: dark)');
    dark.addEventListener?.('change', () => {
      this.colours = readStateColours();
    });

    // layout: column on wide screens (open by default), drawer on phones (closed by default)
    this.wide = window.matchMedia(WIDE_QUERY);
    const applyLayout = () => {
      document.body.dataset.panelLayout = this.wide.matches ? 'column' : 'drawer';
      this.toggle(this.wide.matches);
    };
    this.wide.addEventListener?.('change', applyLayout);
    applyLayout();

    // Escape closes the drawer (the column stays: it is part of the layout)
    window.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.open && !this.wide.matches && !e.defaultPrevented) {
        const t = e.target;
        if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT')) return;
        this.toggle(false);
      }
    });
  }

  get open() {
    return !this.root.hidden;
  }

  toggle(force) {
    return toggleDrawer(this, force);
  }

  /** Every server message (before the app handles it); `tRecv` is the page time it arrived. */
  onMessage(msg, tRecv) {
    this.presetFile.onMessage(msg);
    switch (msg.type) {
      case 'welcome':
        this.welcomed = true;
        this.figures.onWelcome();
        setText(this.nodeEl, nodeText(msg));
        this.params.setSchema(msg.schema);
        if (msg.config) this.params.setConfig(msg.config, { source: 'welcome', preset: msg.preset });
        this.setRole(msg.role);
        break;
      case 'config': // {type: "config", config: {…}, preset}: sent after an accepted configure
        if (msg.config) this.params.setConfig(msg.config, { source: 'config', preset: msg.preset ?? this.presetOf() });
        break;
      case 'frame':
        this.figures.onFrame(msg, tRecv);
        break;
      case 'event':
        this.addEvent(msg);
        break;
      case 'error':
        if (msg.ref === 'configure') this.params.onError(msg);
        break;
      default:
        break;
    }
  }

  /**
   * This member's role (welcome.role, docs/PROTOCOL.md "Roles"): configuring is the owner's, so for `drive` and
   * `watch` the fields and the preset file's loading are disabled, with a note that says why.
   */
  setRole(role) {
    const may = roleMay(role, 'configure');
    this.params.setEnabled(may, t('panel.ownerOnly'));
    this.presetFile.setEnabled(may, this.params.lockNote.id);
  }

  addEvent(ev) {
    this.timeline.add(ev);
    this.log.add(ev);
  }

  /**
   * Every animation frame. `view` is what the page drew: `shown` (the offset) and `gap` (drawn − server
   * offset y, the prediction's lead).
   */
  tick(now, serverNow, view = {}) {
    const frame = this.store.frame;
    this.plot.sample(frame, serverNow, view.shown);
    this.prediction?.sample(serverNow, view.gap);
    if (!this.open) return;
    this.plot.draw(serverNow, this.colours);
    this.prediction?.draw(serverNow, this.colours);
    this.timeline.draw(frame, serverNow, this.colours);
    if (now - this.lastText < TEXT_MS) return;
    this.lastText = now;
    const preset = this.presetOf();
    if (this.welcomed && preset && preset !== this.params.preset) this.params.presetChanged(preset);
    const lib = libraryFor(preset);
    setText(this.presetEl, preset ? `${preset}${lib ? ` · ${lib}` : ''}` : '');
    if (this.connection) this.figures.render(now, this.connection);
    this.prediction?.render(this.connection?.clock);
    this.timeline.render(frame, serverNow);
    this.log.render();
    this.feed?.render(frame, (edge) => this.params.roleOf(edge));
    this.framePane.render(frame, serverNow);
    setText(this.seqBadge, frame ? `seq ${frame.seq}` : '');
    this.params.tick(now, this.connection?.clock?.rtt);
  }
}

/** The Haptics switch: vibrate when a pull arms and when a refresh starts (js/haptics.js). */
function hapticsSwitch(haptics) {
  const toggle = el('input');
  toggle.type = 'checkbox';
  toggle.dataset.panelHaptics = '';
  toggle.checked = haptics.enabled;
  toggle.disabled = !haptics.supported;
  toggle.addEventListener('change', () => haptics.setEnabled(toggle.checked));
  const note = haptics.supported ? '' : t('panel.hapticsUnsupported');
  return el('div', 'device-pane', [
    el('label', 'predict-switch', [toggle, ` ${t('panel.haptics')}${note}`]),
  ]);
}
