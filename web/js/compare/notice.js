// Why compare mode is not shown (a bad `?compare=` value): a message under the bar that stays until dismissed,
// announced once (role="alert").
import { t } from '../i18n.js';

/** Shows `text`; returns the element (one at a time: a second notice replaces the first). */
export function showCompareNotice(text, doc = document) {
  doc.querySelector('.compare-notice')?.remove();
  const root = doc.createElement('div');
  root.className = 'compare-notice';
  root.setAttribute('role', 'alert');
  const message = doc.createElement('p');
  message.className = 'compare-notice-text';
  message.textContent = text;
  const dismiss = doc.createElement('button');
  dismiss.type = 'button';
  dismiss.className = 'button button-plain';
  dismiss.textContent = t('compare.dismiss');
  dismiss.addEventListener('click', () => root.remove());
  root.append(message, dismiss);
  doc.body.append(root);
  return root;
}
