// The debug panel lives in js/panel/ (one module per concern); this module keeps the old import path.
export { Panel, WIDE_QUERY } from './panel/panel.js';
export { describeEvent } from './panel/eventLog.js';
export { describeFrame } from './panel/framePane.js';
