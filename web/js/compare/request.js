// What `?compare=` asks for (compare mode: two presets side by side, README "Compare mode"). Pure: unit tested
// in web/test/compare.test.js. Whether the server knows the names is the server's to say: each side's `hello`
// names its preset, and a name it does not know comes back as an `unknown_preset` error (docs/PROTOCOL.md).

/** How many presets compare mode shows. */
export const COMPARED = 2;

/**
 * Reads `search` (a URL's query). Returns null when it has no `compare` parameter; else either
 * `{presets: [a, b]}` or `{error: 'count', value, count}` when it does not name exactly two presets.
 * Names are separated by commas; blanks around them are dropped, and so are empty names (`ms,` is one name).
 */
export function compareRequest(search) {
  let params;
  try {
    params = new URLSearchParams(search || '');
  } catch {
    return null;
  }
  if (!params.has('compare')) return null;
  const value = params.get('compare') ?? '';
  const names = value.split(',').map((name) => name.trim()).filter(Boolean);
  if (names.length !== COMPARED) return { error: 'count', value, count: names.length };
  return { presets: names };
}

/** The address of the normal page for the same query: `compare` dropped, everything else (lang, predict…) kept. */
export function withoutCompare(href) {
  const url = new URL(href);
  url.searchParams.delete('compare');
  return url.toString();
}
