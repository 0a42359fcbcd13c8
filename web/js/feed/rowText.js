// What an item's row shows besides its wrapped text, shared by its layout (js/feed/rowLayout.js) and its drawing
// (js/feed/rowPainter.js): where the first line's (the author's, else the item title's or the text's), the
// item title's and the text's baselines are, the room the age keeps, the avatar's colour and initials. Pure.
import { hashId } from './hash.js';

/** An item's row: the text's first line's baseline, and each next line's, below the row's top (CSS px). */
export const TITLE_BASELINE = 22;
export const TEXT_BASELINE = 41;
export const LINE_HEIGHT = 18;
/** An item's title, in the title's font: each of its lines below the one before (CSS px). */
export const HEADING_LINE_HEIGHT = 21;
/** Room kept on a line the age shares (an item without author: its text starts on the title line). */
export const AGE_ROOM = 44;

/** A 32-bit hash of a string (FNV-1a, then the rows' finaliser): an author's avatar colour. */
export function hashText(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return hashId(h | 0);
}

/** Initials for an author ("Mark Twain" → "MT", "anonymous" → "A"), or for the text when there is none. */
export function initialsOf(name) {
  const words = String(name ?? '').split(/[\s._-]+/).filter((w) => /\p{L}|\p{N}/u.test(w));
  const letter = (w) => [...w].find((ch) => /\p{L}|\p{N}/u.test(ch)) ?? '';
  if (!words.length) return '·';
  return (letter(words[0]) + (words.length > 1 ? letter(words[words.length - 1]) : '')).toUpperCase();
}
