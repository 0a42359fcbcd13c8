// The page's entry: the normal page (js/app.js), or compare mode when the address asks for it (`?compare=ms,ht`,
// js/compare/page.js). A compare value that does not name two presets the server knows is said on the page
// (js/compare/notice.js), and the normal page runs instead, with the rest of the query (lang, predict…).
import { compareRequest, withoutCompare } from './compare/request.js';
import { showCompareNotice } from './compare/notice.js';
import { localizePage, t } from './i18n.js';
import { ErrorCode } from './protocol.js';

localizePage(document);
const request = compareRequest(location.search);

if (new URLSearchParams(location.search).has('gallery')) {
  const { startGallery } = await import('./gallery/galleryPage.js'); // every control on one gesture (docs/CONTROLS.md)
  await startGallery(new URLSearchParams(location.search).get('gallery') || undefined);
} else if (request?.presets) {
  const { startCompare } = await import('./compare/page.js');
  const query = new URLSearchParams(location.search);
  const compare = startCompare(request.presets, {
    predict: query.get('predict') !== '0',
    events: query.get('events') === 'library' ? 'library' : null, // each side in its library's own names
  });
  const result = await compare.outcome;
  if (!result.ok) {
    compare.stop();
    const text = result.code === ErrorCode.unknownPreset
      ? t('compare.unknownPreset', { name: result.preset })
      : t('compare.refused', { name: result.preset, message: result.message });
    await leaveCompare(text);
  }
} else if (request?.error) {
  await leaveCompare(t('compare.count', { value: request.value, count: request.count }));
} else {
  await import('./app.js');
}

/** Says why compare mode is not shown, takes `compare` out of the address, and starts the normal page. */
async function leaveCompare(text) {
  showCompareNotice(text);
  history.replaceState(null, '', withoutCompare(location.href));
  await import('./app.js');
}
