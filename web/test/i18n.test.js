import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOGUES, LANGUAGES, chooseLanguage, format, t, setLanguage, language } from '../js/i18n.js';
import { announcementFor, statusText } from '../js/ui.js';
import { footerLabel } from '../js/controls/builtin/footer.js';
import { arrowLabel } from '../js/controls/builtin/arrow.js';
import { membersText } from '../js/sharePopover.js';
import { failureText } from '../js/failure.js';

const placeholders = (message) => {
  const forms = typeof message === 'string' ? [message] : Object.values(message);
  return [...new Set(forms.flatMap((f) => [...f.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort();
};

test('language: the first Simplified Chinese tag of navigator.languages, else English', () => {
  assert.equal(chooseLanguage(['en-US', 'en']), 'en');
  assert.equal(chooseLanguage(['zh-CN', 'en']), 'zh-Hans');
  assert.equal(chooseLanguage(['zh-Hans']), 'zh-Hans');
  assert.equal(chooseLanguage(['zh-SG']), 'zh-Hans');
  assert.equal(chooseLanguage(['ZH']), 'zh-Hans');
  assert.equal(chooseLanguage(['fr-FR', 'zh-CN']), 'zh-Hans');
  assert.equal(chooseLanguage(['zh-TW', 'zh-Hant']), 'en');
  assert.equal(chooseLanguage([]), 'en');
  assert.equal(chooseLanguage(undefined), 'en');
  assert.equal(chooseLanguage(['de', 42, null]), 'en');
});

test('language: ?lang= forces it either way; other values are ignored', () => {
  assert.equal(chooseLanguage(['en-US'], '?lang=zh-Hans'), 'zh-Hans');
  assert.equal(chooseLanguage(['en-US'], '?s=abc&lang=zh-CN'), 'zh-Hans');
  assert.equal(chooseLanguage(['zh-CN'], '?lang=en'), 'en');
  assert.equal(chooseLanguage(['zh-CN'], '?lang=en-GB'), 'en');
  assert.equal(chooseLanguage(['zh-CN'], '?lang=klingon'), 'zh-Hans');
  assert.equal(chooseLanguage(['en-US'], '?lang='), 'en');
});

test('catalogues: every language has exactly the English ids, with the same placeholders', () => {
  const ids = Object.keys(CATALOGUES.en).sort();
  assert.deepEqual(Object.keys(CATALOGUES).sort(), [...LANGUAGES].sort());
  assert.ok(ids.length > 40);
  for (const lang of LANGUAGES) {
    const cat = CATALOGUES[lang];
    assert.deepEqual(Object.keys(cat).sort(), ids, lang);
    for (const id of ids) {
      const m = cat[id];
      assert.ok(typeof m === 'string' ? m.length > 0 : m.one && m.other, `${lang} ${id} is empty`);
      assert.deepEqual(placeholders(m), placeholders(CATALOGUES.en[id]), `${lang} ${id} placeholders`);
    }
  }
});

test('catalogues: Chinese messages are Chinese and have no plural forms', () => {
  for (const [id, m] of Object.entries(CATALOGUES['zh-Hans'])) {
    assert.equal(typeof m, 'string', id);
    assert.match(m, /[\u4e00-\u9fff]/, id);
  }
});

test('plurals: English picks one/other by count, Chinese has one form', () => {
  assert.equal(t('share.members', { count: 1 }, 'en'), '1 device connected');
  assert.equal(t('share.members', { count: 2 }, 'en'), '2 devices connected');
  assert.equal(t('share.members', { count: 0 }, 'en'), '0 devices connected');
  assert.equal(t('share.members', { count: 1 }, 'zh-Hans'), '已连接 1 台设备');
  assert.equal(t('share.members', { count: 3 }, 'zh-Hans'), '已连接 3 台设备');
  assert.equal(t('announce.newItemsCount', { count: 1 }, 'en'), '1 new item');
  assert.equal(t('announce.newItemsCount', { count: 5 }, 'zh-Hans'), '5 条新内容');
});

test('t: fills placeholders, leaves unknown ones, falls back to English then to the id', () => {
  assert.equal(format('{a} of {b}', { a: 1 }), '1 of {b}');
  assert.equal(t('trace.played', { sent: 3, total: 4 }, 'en'), 'Trace played back: 3 of 4 messages sent.');
  assert.equal(t('trace.played', { sent: 3, total: 4 }, 'zh-Hans'), '记录回放完毕：已发送 3/4 条消息。');
  assert.equal(t('bar.refresh', {}, 'fr'), 'Refresh');
  assert.equal(t('no.such.id'), 'no.such.id');
});

test('the modules speak the chosen language (English in node by default)', () => {
  assert.equal(language(), 'en');
  assert.equal(footerLabel('noMoreData'), 'No more items');
  try {
    setLanguage('zh-Hans');
    assert.equal(language(), 'zh-Hans');
    assert.equal(arrowLabel('pulling'), '下拉刷新');
    assert.equal(arrowLabel('armed'), '释放立即刷新');
    assert.equal(arrowLabel('refreshing'), '正在刷新…');
    assert.equal(footerLabel('idle'), '上拉加载更多');
    assert.equal(footerLabel('refreshing'), '正在加载…');
    assert.equal(footerLabel('noMoreData'), '没有更多数据了');
    assert.equal(footerLabel('failed'), '加载失败，点击重试');
    assert.equal(footerLabel('disabled'), '');
    assert.equal(failureText('top'), '刷新失败。');
    assert.equal(membersText(2), '已连接 2 台设备');
    assert.equal(announcementFor({ type: 'event', name: 'transition', edge: 'top', to: 'refreshing' }), '正在刷新');
    assert.equal(statusText({ state: 'connected', rtt: 12, framesPerSecond: 60 }), '已连接 · 12 毫秒 · 60 帧/秒');
    setLanguage('xx');
    assert.equal(language(), 'en');
  } finally {
    setLanguage('en');
  }
  assert.equal(footerLabel('noMoreData'), 'No more items');
});
