// Words the page shows or announces. Pure: unit tested.

/** The live-region announcement for a server event, or null. */
export function announcementFor(ev) {
  if (!ev || ev.type !== 'event') return null;
  if (ev.name === 'feedLoaded') {
    const n = typeof ev.value === 'number' ? ev.value
      : (ev.value && typeof ev.value.items === 'number' ? ev.value.items : null);
    if (n == null) return 'New items';
    return n === 1 ? '1 new item' : `${n} new items`;
  }
  if (ev.name === 'transition') {
    if (ev.to === 'refreshing') return ev.edge === 'top' || !ev.edge ? 'Refreshing' : 'Loading more';
    if (ev.to === 'noMoreData') return 'No more items';
    if (ev.to === 'failed') return "Couldn't load more — retry";
  }
  return null;
}

/** The status line. */
export function statusText({ state, retryInMs, rtt, framesPerSecond }) {
  switch (state) {
    case 'connected': {
      const parts = ['Connected'];
      if (typeof rtt === 'number' && Number.isFinite(rtt)) parts.push(`${rtt < 10 ? rtt.toFixed(1) : Math.round(rtt)} ms`);
      parts.push(`${framesPerSecond | 0} frames/s`);
      return parts.join(' · ');
    }
    case 'reconnecting':
      if (typeof retryInMs === 'number' && retryInMs > 0) return `Reconnecting in ${Math.ceil(retryInMs / 1000)} s…`;
      return 'Reconnecting…';
    case 'closed':
      return 'Disconnected';
    default:
      return 'Connecting…';
  }
}
