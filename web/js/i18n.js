// Labels in the reader's language: English and Simplified Chinese (HTRefreshView's own language).
// Two catalogues keyed by message id (English complete, Chinese for every id: web/test/i18n.test.js checks both
// have the same ids and placeholders), `t(id, params)`, and the choice of language as a pure function of
// `navigator.languages` and the page's `?lang=` parameter. The Chinese wording follows what iOS and the Chinese
// pull-to-refresh libraries show (下拉刷新, 释放立即刷新, 正在刷新…, 没有更多数据了).
//
// A message is a string with `{name}` placeholders, or — where English has a plural — `{ one, other }` chosen
// by `params.count` (Chinese has no plural form, so its messages are plain strings).

export const LANGUAGES = Object.freeze(['en', 'zh-Hans']);

const en = {
  // the bar and the page (web/index.html)
  'bar.preset': 'Preset',
  'bar.debug': 'Debug',
  'bar.debug.title': 'Debug panel (d)',
  'bar.refresh': 'Refresh',
  'bar.refresh.title': 'Refresh (r)',
  'list.label': 'Feed. Drag, scroll or use the arrow keys; r refreshes, l loads more.',
  'feed.label': 'Items',
  'feed.untitled': 'Untitled',
  'panel.label': 'Debug panel',
  'panel.title': 'Debug',
  'panel.close': 'Close',
  'panel.close.title': 'Close (d)',
  // the debug panel's sections and switches (js/panel/panel.js, predictionPane.js)
  'panel.connection': 'Connection',
  'panel.prediction': 'Prediction',
  'panel.motion': 'Motion',
  'panel.edges': 'Edges',
  'panel.events': 'Events',
  'panel.frame': 'Frame',
  'panel.params': 'Parameters',
  'panel.controls': 'Controls',
  'controls.edge': 'Control of the {edge} edge',
  'controls.whichEdge': 'Edge',
  'controls.note': 'Every device of the session switches. Your own: refreshkit serve --controls DIR (docs/CONTROLS.md).',
  'controls.problem': 'Control "{control}" ({edge} edge), {hook}: {message}. The edge shows its default control.',
  'gallery.hint': 'Every list gets the same gesture: drag any of them.',
  'panel.device': 'Device',
  'panel.feed': 'Feed',
  'panel.presetFile': 'Preset file',
  'panel.presetFile.load': 'Load…',
  'panel.presetFile.export': 'Export',
  'panel.presetFile.sent': 'Sent; the server checks it.',
  'panel.presetFile.offline': 'Not connected: nothing was sent.',
  'panel.presetFile.loaded': 'Loaded preset "{name}".',
  'panel.presetFile.refused': { one: 'Refused: {count} problem.', other: 'Refused: {count} problems.' },
  'panel.predict': 'Predict my own drags',
  'panel.haptics': 'Haptics: a tick when a pull arms, one when a refresh starts',
  'panel.hapticsUnsupported': ' (this device cannot vibrate)',
  // status line (js/ui.js)
  'status.connecting': 'Connecting…',
  'status.connected': 'Connected',
  'status.ms': '{ms} ms',
  'status.fps': '{fps} frames/s',
  'status.reconnectingIn': 'Reconnecting in {seconds} s…',
  'status.reconnecting': 'Reconnecting…',
  'status.closed': 'Disconnected',
  // announcements (js/ui.js)
  'announce.newItems': 'New items',
  'announce.newItemsCount': { one: '{count} new item', other: '{count} new items' },
  'announce.refreshing': 'Refreshing',
  'announce.loadingMore': 'Loading more',
  'announce.noMore': 'No more items',
  'announce.loadFailed': "Couldn't load more — retry",
  // the failure banner (js/failure.js)
  'failure.refresh': "Couldn't refresh.",
  'failure.refreshLeft': "Couldn't refresh (left edge).",
  'failure.retry': 'Retry',
  'failure.refreshBecause': "Couldn't refresh: {message}",
  // "N new" (js/feed/newItemsPill.js)
  'newItems.pill': '{count} new',
  'newItems.label': { one: 'Show {count} new item', other: 'Show {count} new items' },
  // the built-in controls drawn on the canvas (js/controls/builtin/*.js)
  'indicator.pull': 'Pull to refresh',
  'indicator.release': 'Release to refresh',
  'indicator.loading': 'Loading…',
  'indicator.done': 'Done',
  'indicator.lastUpdated': 'Last updated: {time}',
  'footer.pull': 'Pull up to load more',
  'footer.release': 'Release to load more',
  'footer.loading': 'Loading…',
  'footer.noMore': 'No more items',
  'footer.failed': "Couldn't load more — tap to retry",
  'footer.failedBecause': '{message} — tap to retry',
  // the Share popover and notices (js/sharePopover.js, js/noticeBar.js)
  'share.button': 'Share',
  'share.button.title': 'Share this session with another device',
  'share.title': 'Share this session',
  'share.hint': 'Open the link on another device: it shows the same list, and either device can drive it.',
  'share.qr.alt': "QR code of the session link: point a phone's camera at it to open the session there",
  'share.copy': 'Copy link',
  'share.trace': 'Input trace',
  'share.export': 'Export trace',
  'share.load': 'Load trace…',
  'share.connecting': 'Connecting…',
  'share.members': { one: '{count} device connected', other: '{count} devices connected' },
  'share.copied': 'Link copied.',
  'share.copyManually': 'Select and copy the link to share it.',
  'share.drive': 'Drive',
  'share.drive.hint': 'Whoever opens it can scroll and pull too.',
  'share.watch': 'Watch',
  'share.watch.hint': 'Whoever opens it only watches: a second screen, an audience.',
  'share.copyDrive': 'Copy drive link',
  'share.copyWatch': 'Copy watch link',
  'share.notOwner': 'Only the device that started this session can hand out its links.',
  'share.watching': 'Watching: this device follows the session and sends nothing.',
  'share.ca': 'A device that does not trust this server yet: open this address on it first and install the CA.',
  // this member's role, on the page itself (js/roleBadge.js; docs/PROTOCOL.md, "Roles")
  'role.watch': 'Watching',
  'role.watch.detail': 'This device follows the session and sends nothing: touches, keys and buttons do not reach it.',
  'role.drive': 'Driving',
  'role.drive.detail': 'This device can scroll and pull; the session\'s settings are its owner\'s.',
  'panel.ownerOnly': 'Only the device that started this session can change its settings.',
  'notice.sessionExpired': 'That session has ended — this is a new one.',
  'notice.rejoined': 'Rejoined the shared session as a new device.',
  'notice.inputsMissed': {
    one: 'Offline too long: {count} early move of your finger never reached the session. The list is where the session has it.',
    other: 'Offline too long: {count} early moves of your finger never reached the session. The list is where the session has it.',
  },
  'notice.sessionFull': 'That session has too many devices connected.',
  // the trace tools (js/trace.js)
  'trace.exportFailed': 'Export failed: {error}',
  'trace.cannotPlay': 'Cannot play that trace: {error}',
  'trace.exported': 'Trace exported: {name}',
  'trace.playing': { one: 'Playing back a trace: {count} message…', other: 'Playing back a trace: {count} messages…' },
  'trace.played': 'Trace played back: {sent} of {total} messages sent.',
  // compare mode (js/compare/*.js)
  'compare.listLabel': '{preset} ({library}). Drag, scroll or use the arrow keys: both lists get every input.',
  'compare.exit': 'One list',
  'compare.exit.title': 'Leave compare mode for the normal page',
  'compare.count': 'Compare mode takes two preset names, as in ?compare=ms,ht; "{value}" names {count}. This is the normal page.',
  'compare.unknownPreset': 'Compare mode: the server has no preset named "{name}". This is the normal page; its picker lists the presets there are.',
  'compare.refused': 'Compare mode: the server refused the "{name}" session ({message}). This is the normal page.',
  'compare.dismiss': 'Dismiss',
};

const zh = {
  'bar.preset': '预设',
  'bar.debug': '调试',
  'bar.debug.title': '调试面板 (d)',
  'bar.refresh': '刷新',
  'bar.refresh.title': '刷新 (r)',
  'list.label': '列表。拖动、滚动或使用方向键；r 刷新，l 加载更多。',
  'feed.label': '条目',
  'feed.untitled': '无标题',
  'panel.label': '调试面板',
  'panel.title': '调试',
  'panel.close': '关闭',
  'panel.close.title': '关闭 (d)',
  'panel.connection': '连接',
  'panel.prediction': '预测',
  'panel.motion': '运动',
  'panel.edges': '边缘',
  'panel.events': '事件',
  'panel.frame': '帧',
  'panel.params': '参数',
  'panel.controls': '刷新控件',
  'controls.edge': '{edge} 边的控件',
  'controls.whichEdge': '边',
  'controls.note': '会话中的所有设备一起切换。自定义控件：refreshkit serve --controls DIR（docs/CONTROLS.md）。',
  'controls.problem': '控件“{control}”（{edge} 边），{hook}：{message}。该边改用默认控件。',
  'gallery.hint': '所有列表接收同一个手势：拖动任意一个。',
  'panel.device': '设备',
  'panel.presetFile': '预设文件',
  'panel.presetFile.load': '载入…',
  'panel.presetFile.export': '导出',
  'panel.presetFile.sent': '已发送，由服务器检查。',
  'panel.presetFile.offline': '未连接：没有发送。',
  'panel.presetFile.loaded': '已载入预设 "{name}"。',
  'panel.presetFile.refused': '被拒绝：{count} 个问题。',
  'panel.predict': '预测我自己的拖动',
  'panel.feed': '数据源',
  'panel.haptics': '触感反馈：下拉到位时轻触一次，开始刷新时再一次',
  'panel.hapticsUnsupported': '（此设备不支持振动）',
  'status.connecting': '正在连接…',
  'status.connected': '已连接',
  'status.ms': '{ms} 毫秒',
  'status.fps': '{fps} 帧/秒',
  'status.reconnectingIn': '{seconds} 秒后重新连接…',
  'status.reconnecting': '正在重新连接…',
  'status.closed': '已断开连接',
  'announce.newItems': '有新内容',
  'announce.newItemsCount': '{count} 条新内容',
  'announce.refreshing': '正在刷新',
  'announce.loadingMore': '正在加载更多',
  'announce.noMore': '没有更多数据了',
  'announce.loadFailed': '加载失败，请重试',
  'failure.refresh': '刷新失败。',
  'failure.refreshLeft': '刷新失败（左侧）。',
  'failure.retry': '重试',
  'failure.refreshBecause': '刷新失败：{message}',
  'newItems.pill': '{count} 条新内容',
  'newItems.label': '显示 {count} 条新内容',
  'indicator.pull': '下拉刷新',
  'indicator.release': '释放立即刷新',
  'indicator.loading': '正在刷新…',
  'indicator.done': '刷新完成',
  'indicator.lastUpdated': '最后更新：{time}',
  'footer.pull': '上拉加载更多',
  'footer.release': '释放立即加载',
  'footer.loading': '正在加载…',
  'footer.noMore': '没有更多数据了',
  'footer.failed': '加载失败，点击重试',
  'footer.failedBecause': '{message}，点击重试',
  'share.button': '分享',
  'share.button.title': '与另一台设备分享此会话',
  'share.title': '分享此会话',
  'share.hint': '在另一台设备上打开此链接：它显示同一个列表，两台设备都可以操作。',
  'share.qr.alt': '会话链接的二维码：用手机相机扫描即可在手机上打开此会话',
  'share.copy': '复制链接',
  'share.trace': '输入记录',
  'share.export': '导出记录',
  'share.load': '载入记录…',
  'share.connecting': '正在连接…',
  'share.members': '已连接 {count} 台设备',
  'share.copied': '链接已复制。',
  'share.copyManually': '请选中并复制链接来分享。',
  'share.drive': '操作',
  'share.drive.hint': '打开它的人也可以滚动和下拉。',
  'share.watch': '观看',
  'share.watch.hint': '打开它的人只能观看：第二块屏幕、观众。',
  'share.copyDrive': '复制操作链接',
  'share.copyWatch': '复制观看链接',
  'share.notOwner': '只有开启此会话的设备可以分享它的链接。',
  'share.watching': '观看中：此设备跟随会话，不发送任何操作。',
  'share.ca': '尚未信任此服务器的设备：请先在该设备上打开此地址并安装 CA 证书。',
  'role.watch': '观看中',
  'role.watch.detail': '此设备跟随会话，不发送任何操作：触摸、按键和按钮都不会送达会话。',
  'role.drive': '操作中',
  'role.drive.detail': '此设备可以滚动和下拉；会话的设置归开启它的设备。',
  'panel.ownerOnly': '只有开启此会话的设备可以更改它的设置。',
  'notice.sessionExpired': '该会话已结束，这是一个新会话。',
  'notice.rejoined': '已作为新设备重新加入共享会话。',
  'notice.inputsMissed': '离线太久：手指较早的 {count} 次移动没有送达会话。列表停在会话所在的位置。',
  'notice.sessionFull': '该会话连接的设备过多。',
  'trace.exportFailed': '导出失败：{error}',
  'trace.cannotPlay': '无法回放该记录：{error}',
  'trace.exported': '记录已导出：{name}',
  'trace.playing': '正在回放记录：{count} 条消息…',
  'trace.played': '记录回放完毕：已发送 {sent}/{total} 条消息。',
  'compare.listLabel': '{preset}（{library}）。拖动、滚动或使用方向键：两个列表都会收到每一个输入。',
  'compare.exit': '单列表',
  'compare.exit.title': '退出对比模式，回到普通页面',
  'compare.count': '对比模式需要两个预设名称，例如 ?compare=ms,ht；“{value}”给出了 {count} 个。当前为普通页面。',
  'compare.unknownPreset': '对比模式：服务器没有名为“{name}”的预设。当前为普通页面，预设选择器列出了所有预设。',
  'compare.refused': '对比模式：服务器拒绝了“{name}”会话（{message}）。当前为普通页面。',
  'compare.dismiss': '关闭',
};

/** The catalogues, by language. */
export const CATALOGUES = Object.freeze({ en: Object.freeze(en), 'zh-Hans': Object.freeze(zh) });

const CHINESE = new Set(['zh-hans', 'zh-cn', 'zh-sg', 'zh']);

/**
 * The page's language: `?lang=zh-Hans|en` when the URL names one, else the first of `languages` (the browser's
 * `navigator.languages`) that is Simplified Chinese, else English. Other languages in the list do not stop the
 * search (a reader with `fr, zh-CN` reads Chinese rather than English); Traditional Chinese (`zh-TW`, `zh-Hant`)
 * is not Simplified and falls to English.
 */
export function chooseLanguage(languages, search = '') {
  let forced = null;
  try {
    forced = new URLSearchParams(search || '').get('lang');
  } catch {
    forced = null;
  }
  const f = typeof forced === 'string' ? forced.toLowerCase() : '';
  if (CHINESE.has(f)) return 'zh-Hans';
  if (f === 'en' || f.startsWith('en-')) return 'en';
  for (const tag of Array.isArray(languages) ? languages : []) {
    if (typeof tag === 'string' && CHINESE.has(tag.toLowerCase())) return 'zh-Hans';
  }
  return 'en';
}

let current = globalThis.document && globalThis.location
  ? chooseLanguage(globalThis.navigator?.languages, globalThis.location.search)
  : 'en';

/** The language in use ('en' or 'zh-Hans'). */
export function language() {
  return current;
}

/** Uses `lang` from now on (unknown languages mean English). */
export function setLanguage(lang) {
  current = CATALOGUES[lang] ? lang : 'en';
}

/** `message` (a string or `{one, other}`) with `params` filled in, in English's plural rule for objects. */
export function format(message, params = {}) {
  const text = typeof message === 'string' ? message
    : (params.count === 1 ? message.one : message.other);
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The message `id` in the current language (`lang` to ask for another), falling back to English, then the id. */
export function t(id, params, lang = current) {
  const message = CATALOGUES[lang]?.[id] ?? en[id];
  return message == null ? id : format(message, params);
}

/** The fixed labels of web/index.html (selector, attribute or text, message id). */
const PAGE_LABELS = [
  ['.bar .select-wrap .visually-hidden', 'text', 'bar.preset'],
  ['#preset option[value=""]', 'text', 'bar.preset'],
  ['#debug-toggle', 'text', 'bar.debug'],
  ['#debug-toggle', 'title', 'bar.debug.title'],
  ['#refresh', 'text', 'bar.refresh'],
  ['#refresh', 'title', 'bar.refresh.title'],
  ['#status-text', 'text', 'status.connecting'],
  ['#list', 'aria-label', 'list.label'],
  ['#feed', 'aria-label', 'feed.label'],
  ['#panel', 'aria-label', 'panel.label'],
  ['#panel .panel-head h2', 'text', 'panel.title'],
  ['#panel [data-panel-close]', 'text', 'panel.close'],
  ['#panel [data-panel-close]', 'title', 'panel.close.title'],
];

/**
 * Puts `<html lang>` and the page's fixed labels in the current language. English is what web/index.html says
 * already, so then only `lang` is set.
 */
export function localizePage(doc = globalThis.document) {
  if (!doc?.documentElement) return;
  doc.documentElement.lang = current;
  if (current === 'en') return;
  for (const [selector, where, id] of PAGE_LABELS) {
    const el = doc.querySelector(selector);
    if (!el) continue;
    if (where === 'text') el.textContent = t(id);
    else el.setAttribute(where, t(id));
  }
}
