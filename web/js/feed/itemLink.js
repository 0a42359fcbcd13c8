// An item's title and link as the page shows them (docs/PAGE.md, "Titles and links"): the heading a row draws
// above its text and the mirror names its article by, and the address a tap on the row (or the mirror's link)
// opens. An address is followed only when it is http or https: a feed is someone else's text, and a
// `javascript:` or `data:` link in it must never run in the page's origin. Pure (web/test/itemLink.test.js),
// but for the language of "Untitled" (js/i18n.js).
import { t } from '../i18n.js';

/** The longest a link drawn in place of a title is, in characters (the row's width cuts it further). */
export const LINK_TEXT_MAX = 64;

/** `url` as an absolute http(s) address to open, or null (a relative, malformed or other-scheme address). */
export function safeLink(url) {
  if (typeof url !== 'string' || url.trim() === '') return null;
  let parsed;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (!parsed.hostname) return null;
  return parsed.href;
}

/**
 * A link as a reader reads it in place of a title: its host (without "www.") and path, without the scheme, the
 * query or the fragment, a trailing "/" dropped, percent-escapes decoded where they are valid; cut to
 * LINK_TEXT_MAX characters with "…". An address that is not a safe link gives ''.
 */
export function linkText(url) {
  const href = safeLink(url);
  if (!href) return '';
  const u = new URL(href);
  let path = u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '');
  try {
    path = decodeURI(path);
  } catch {
    // a malformed escape: shown as it is
  }
  const text = `${u.host.replace(/^www\./, '')}${path}`;
  const chars = [...text];
  return chars.length > LINK_TEXT_MAX ? `${chars.slice(0, LINK_TEXT_MAX - 1).join('')}…` : text;
}

/** Text with its whitespace runs read as one space, trimmed ('' for none). */
function plain(s) {
  return typeof s === 'string' ? s.replace(/\s+/g, ' ').trim() : '';
}

/**
 * What a row shows in the title's style, above its text: the item's title; for an item with neither title nor
 * text, its link (`linkText`), else "Untitled"; null for an item with text and no title (drawn as it always was).
 */
export function headingOf(item) {
  if (!item) return null;
  const title = plain(item.title);
  if (title) return title;
  if (plain(item.text)) return null;
  return linkText(item.url) || t('feed.untitled');
}

/**
 * The address a tap on a row opens, or null: only a tap (the pointer tracker's: not a drag, a fling or a pull,
 * js/pointerInput.js) that began while the list was at rest (a tap that stops a fling only stops it), on no
 * control's tap target (`target`: a footer's "tap to retry" wins), on a row whose item has a safe link.
 */
export function tapLink({ tap, atRest, target, item }) {
  if (!tap || !atRest || target) return null;
  return safeLink(item?.url);
}
