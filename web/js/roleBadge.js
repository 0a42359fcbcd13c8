// What this device may do in its session, said on the page itself (docs/PROTOCOL.md, "Roles"): a page opened at
// a Watch link shows "Watching" in the bar (it sends nothing: js/connection.js holds its input back), one opened at
// a Drive link "Driving"; the owner's page shows nothing. The pure helper is unit tested (web/test/roleBadge.test.js).
import { t } from './i18n.js';

/** The badge's words for `role`: `{label, detail}`, or null for the owner and before a welcome. Pure. */
export function roleBadgeText(role) {
  if (role !== 'watch' && role !== 'drive') return null;
  return { label: t(`role.${role}`), detail: t(`role.${role}.detail`) };
}

export class RoleBadge {
  /** @param {HTMLElement} root  the badge (web/index.html `#role-badge`): a label and a detail read with it */
  constructor(root) {
    this.root = root;
    this.label = root.querySelector('[data-role-label]');
    this.detail = root.querySelector('[data-role-detail]');
  }

  /** Shows `role` (welcome.role): hidden for the owner. */
  show(role) {
    const text = roleBadgeText(role);
    this.root.hidden = !text;
    this.root.dataset.role = role ?? '';
    this.label.textContent = text?.label ?? '';
    this.detail.textContent = text?.detail ?? '';
    this.root.title = text?.detail ?? '';
  }
}
