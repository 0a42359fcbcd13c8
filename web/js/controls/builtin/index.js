// The built-in controls, registered on the public API (js/controls/api.js) like any other: the names the
// seed presets default to (js/controls/choice.js) and a configuration's `edges.<edge>.control` may name.
import { registerControl } from '../api.js';
import spinner from './spinner.js';
import colorCycle from './colorCycle.js';
import arrow from './arrow.js';
import ring from './progressRing.js';
import footer from './footer.js';
import side from './sideBadge.js';

export const BUILT_IN = Object.freeze([spinner, colorCycle, arrow, ring, footer, side].map(registerControl));
