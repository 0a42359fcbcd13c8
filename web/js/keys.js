// Keyboard shortcuts → protocol messages (or local actions). Pure: unit tested.

export const SCROLL_STEP = 60;

/** Maps a KeyboardEvent-like {key, ctrlKey, metaKey, altKey} to {message} or {action} or null. */
export function keyAction(e) {
  if (!e || e.ctrlKey || e.metaKey || e.altKey) return null;
  switch (e.key) {
    case 'r':
    case 'R':
      return { message: { type: 'command', name: 'refresh', edge: 'top' } };
    case 'l':
    case 'L':
      return { message: { type: 'command', name: 'loadMore', edge: 'bottom' } };
    case 'ArrowUp':
      return { message: { type: 'command', name: 'scrollBy', amount: -SCROLL_STEP } };
    case 'ArrowDown':
      return { message: { type: 'command', name: 'scrollBy', amount: SCROLL_STEP } };
    case 'PageUp':
      return { message: { type: 'command', name: 'scrollByPage', amount: -1 } };
    case 'PageDown':
      return { message: { type: 'command', name: 'scrollByPage', amount: 1 } };
    case 'Home':
      return { message: { type: 'command', name: 'scrollToEdge', edge: 'top' } };
    case 'End':
      return { message: { type: 'command', name: 'scrollToEdge', edge: 'bottom' } };
    case 'd':
    case 'D':
      return { action: 'togglePanel' };
    default:
      return null;
  }
}

/** Whether a key event aimed at this element should be left to it (form controls keep their keys). */
export function isEditable(target) {
  if (!target || !target.tagName) return false;
  const tag = target.tagName.toUpperCase();
  return tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || target.isContentEditable === true;
}
