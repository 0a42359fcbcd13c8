// Words the page shows or announces, in the reader's language (js/i18n.js). Pure: unit tested.
import { t } from './i18n.js';

/** The live-region announcement for a server event, or null. */
export function announcementFor(ev) {
  if (!ev || ev.type !== 'event') return null;
  if (ev.name === 'feedLoaded') {
    const n = typeof ev.value === 'number' ? ev.value
      : (ev.value && typeof ev.value.items === 'number' ? ev.value.items : null);
    if (n == null) return t('announce.newItems');
    return t('announce.newItemsCount', { count: n });
  }
  if (ev.name === 'transition') {
    if (ev.to === 'refreshing') return ev.edge === 'top' || !ev.edge ? t('announce.refreshing') : t('announce.loadingMore');
    if (ev.to === 'noMoreData') return t('announce.noMore');
    if (ev.to === 'failed') return t('announce.loadFailed');
  }
  return null;
}

/** The status line. */
export function statusText({ state, retryInMs, rtt, framesPerSecond }) {
  switch (state) {
    case 'connected': {
      const parts = [t('status.connected')];
      if (typeof rtt === 'number' && Number.isFinite(rtt)) parts.push(t('status.ms', { ms: rtt < 10 ? rtt.toFixed(1) : Math.round(rtt) }));
      parts.push(t('status.fps', { fps: framesPerSecond | 0 }));
      return parts.join(' · ');
    }
    case 'reconnecting':
      if (typeof retryInMs === 'number' && retryInMs > 0) return t('status.reconnectingIn', { seconds: Math.ceil(retryInMs / 1000) });
      return t('status.reconnecting');
    case 'closed':
      return t('status.closed');
    default:
      return t('status.connecting');
  }
}
