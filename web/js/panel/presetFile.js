// The panel's preset files (docs/PRESETS.md): load one (a file input; the server checks it with the
// configuration schema and answers `config`, or one `error` listing every problem, the session keeping its
// configuration) and export the live-edited configuration as one (a download). The pure parts (the file
// made from a config, the problems read from an error) are unit tested in web/test/presetFile.test.js.
import { el, setText } from './dom.js';
import { t } from '../i18n.js';

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const REFUSED = 'configure.presetFile is refused';

/**
 * The preset file of the live configuration: `{name, base?, library?, summary, config}`. `base` is the
 * preset the session is on when the server offers it (so what the schema has no field for comes from it);
 * the file is complete either way.
 */
export function presetFileOf(config, { preset, presets = [], catalogue = {} } = {}) {
  const name = typeof preset === 'string' && NAME.test(preset) ? preset : 'mine';
  const file = { name };
  if (presets.includes(name)) file.base = name;
  const entry = catalogue && Object.hasOwn(catalogue, name) ? catalogue[name] : null;
  if (typeof entry?.library === 'string') file.library = entry.library;
  file.summary = typeof entry?.summary === 'string' ? entry.summary : '';
  file.config = config;
  return file;
}

/** The problems of the server's refusal of a preset file (`error.message`, one a line), or null for another error. */
export function problemsOf(message) {
  if (typeof message !== 'string' || !message.startsWith(REFUSED)) return null;
  const at = message.indexOf('): ');
  return at < 0 ? [message] : message.slice(at + 3).split('\n');
}

/** The file's text as an object to send, or the reason it cannot be one. */
export function parseFile(text) {
  try {
    return { file: JSON.parse(text) };
  } catch (e) {
    return { problem: `not JSON: ${e.message}` };
  }
}

export class PresetFilePane {
  /** @param {{send: (msg: object) => boolean}} o */
  constructor({ send }) {
    this.send = send;
    this.config = null;
    this.preset = null;
    this.presets = [];
    this.catalogue = {};
    this.pending = null; // the name of the file sent, until its config or error comes back

    this.input = el('input', 'preset-file-input');
    this.input.type = 'file';
    this.input.accept = '.json,application/json';
    this.input.dataset.presetFileInput = '';
    this.input.addEventListener('change', () => this.load(this.input.files?.[0]));
    const pick = el('label', 'button button-plain preset-file-load', [t('panel.presetFile.load'), this.input]);
    this.pick = pick;
    this.exportButton = el('button', 'button button-plain preset-file-export', t('panel.presetFile.export'));
    this.exportButton.type = 'button';
    this.exportButton.dataset.presetFileExport = '';
    this.exportButton.addEventListener('click', () => this.download());
    this.status = el('p', 'preset-file-status');
    this.status.dataset.presetFileStatus = '';
    this.problems = el('ul', 'preset-file-problems');
    this.problems.dataset.presetFileProblems = '';
    this.root = el('div', 'preset-file', [el('div', 'preset-file-actions', [pick, this.exportButton]),
      this.status, this.problems]);
  }

  /**
   * Whether this member may load a preset file (a `configure`: the owner's only, docs/PROTOCOL.md "Roles"); the
   * export, which only reads, stays. `describedBy` names the element that says why it is disabled.
   */
  setEnabled(enabled, describedBy = null) {
    this.input.disabled = !enabled;
    this.pick.setAttribute('aria-disabled', String(!enabled));
    this.pick.dataset.disabled = String(!enabled);
    if (!enabled && describedBy) this.input.setAttribute('aria-describedby', describedBy);
    else this.input.removeAttribute('aria-describedby');
  }

  /** Every server message: the live configuration, and the answer to a file sent. */
  onMessage(msg) {
    switch (msg.type) {
      case 'welcome':
        this.presets = Array.isArray(msg.presets) ? msg.presets : [];
        this.catalogue = msg.catalogue && typeof msg.catalogue === 'object' ? msg.catalogue : {};
        this.config = msg.config ?? null;
        this.preset = msg.preset ?? null;
        break;
      case 'config':
        this.config = msg.config ?? this.config;
        if (msg.preset) this.preset = msg.preset;
        if (this.pending !== null && msg.preset === this.pending) {
          this.show(t('panel.presetFile.loaded', { name: this.pending }), []);
          this.pending = null;
        }
        break;
      case 'error': {
        const problems = problemsOf(msg.message);
        if (problems) {
          this.show(t('panel.presetFile.refused', { count: problems.length }), problems);
          this.pending = null;
        }
        break;
      }
      default:
    }
  }

  /** Reads `file` and sends it to the server (which checks it). */
  async load(file) {
    if (!file) return;
    const { file: parsed, problem } = parseFile(await file.text());
    this.input.value = '';
    if (problem) {
      this.show(t('panel.presetFile.refused', { count: 1 }), [problem]);
      return;
    }
    this.pending = typeof parsed?.name === 'string' ? parsed.name : '';
    const sent = this.send({ type: 'configure', presetFile: parsed });
    this.show(sent ? t('panel.presetFile.sent') : t('panel.presetFile.offline'), []);
  }

  /** Downloads the live configuration as a preset file. */
  download() {
    if (!this.config) return;
    const file = presetFileOf(this.config, this);
    const blob = new Blob([`${JSON.stringify(file, null, 2)}\n`], { type: 'application/json' });
    const a = el('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${file.name}.json`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 0);
  }

  show(text, problems) {
    setText(this.status, text);
    this.problems.replaceChildren(...problems.map((p) => el('li', null, p)));
  }
}
