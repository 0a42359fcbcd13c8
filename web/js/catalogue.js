// What the server says of each preset it offers (`welcome.catalogue`, docs/PROTOCOL.md, "catalogue"): the
// library it imitates, its summary, its library's names for our events, and the control each of its edges draws
// with. Written from the Swift presets, which are these facts' one source: the page keeps no table of its own.
// Every live session passes on what its welcome carried (js/session/liveSession.js). Pure module, no DOM.

let catalogue = Object.create(null);

/** Takes the catalogue a welcome carried; anything but an object leaves it empty. */
export function receiveCatalogue(received) {
  catalogue = Object.create(null);
  if (!received || typeof received !== 'object' || Array.isArray(received)) return;
  for (const [name, entry] of Object.entries(received)) {
    if (entry && typeof entry === 'object') catalogue[name] = entry;
  }
}

/** The catalogue's entry for a preset, or null. */
export function catalogueEntry(preset) {
  return typeof preset === 'string' && Object.hasOwn(catalogue, preset) ? catalogue[preset] : null;
}

/** The library a preset imitates, or null. */
export function libraryFor(preset) {
  const library = catalogueEntry(preset)?.library;
  return typeof library === 'string' ? library : null;
}

/** The control a preset gives an edge (its own, before anyone chose another), or null when unknown. */
export function presetControl(preset, edge) {
  const name = catalogueEntry(preset)?.controls?.[edge];
  return typeof name === 'string' ? name : null;
}
