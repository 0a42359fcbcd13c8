"""Labels in the reader's language (js/i18n.js): a Chinese browser (locale zh-CN) reads Simplified Chinese in the bar,
the Share popover, the indicators drawn on the canvas and the announcements, with <html lang="zh-Hans">; an English
browser reads English; ?lang=zh-Hans forces Chinese. The Chinese phone page is photographed
(artifacts/screenshots/i18n-zh-phone.png) to check that CJK glyphs render."""
from __future__ import annotations

from browser_support import configure_feed, edge, frame, save_screenshot, wait_until
from conftest import DESKTOP, PHONE, open_page


def texts(page) -> dict:
    return page.evaluate("() => window.refreshkit.indicatorTexts()")


def top_state(page):
    return (edge(frame(page), "top") or {}).get("state")


def test_a_chinese_browser_reads_chinese(browser, server):
    context, page = open_page(browser, server, {**PHONE, "locale": "zh-CN"}, "?preset=ht")
    try:
        assert page.evaluate("() => navigator.language") == "zh-CN"
        assert page.evaluate("() => document.documentElement.lang") == "zh-Hans"
        assert page.evaluate("() => window.refreshkit.language") == "zh-Hans"
        # the bar (the title stays RefreshKit)
        assert page.locator(".bar-title").inner_text() == "RefreshKit"
        assert page.locator("#refresh").inner_text() == "刷新"
        assert page.locator("#debug-toggle").inner_text() == "调试"
        assert page.locator("#share-toggle").inner_text() == "分享"
        assert page.locator("#list").get_attribute("aria-label").startswith("列表")
        titles = page.evaluate("() => [...document.querySelectorAll('#panel .panel-summary-title')]"
                               ".map(e => e.textContent)")
        assert "连接" in titles and "参数" in titles, titles
        wait_until(page, lambda p: p.locator("#status-text").inner_text().startswith("已连接"), 5,
                   what="the Chinese status line")
        # the indicators' words: the arrow (HTRefreshView's preset) and the load-more footer
        wait_until(page, lambda p: p.evaluate("() => window.refreshkit.preset") == "ht", 5, what="the ht preset")
        wait_until(page, lambda p: texts(p).get("top") == "下拉刷新" and texts(p).get("bottom") == "上拉加载更多",
                   5, what="Chinese indicator texts")
        # the Share popover
        page.click("#share-toggle")
        pop = page.locator("#share")
        pop.wait_for(state="visible")
        assert pop.locator(".share-title").inner_text() == "分享此会话"
        assert pop.locator("#share-copy-drive").inner_text() == "复制操作链接"
        assert pop.locator("#share-copy-watch").inner_text() == "复制观看链接"
        wait_until(page, lambda p: p.locator("#share-members").inner_text() == "已连接 1 台设备", 5,
                   what="the member count in Chinese")
        page.keyboard.press("Escape")
        pop.wait_for(state="hidden")
        # a refresh: the arrow says 正在刷新… on the canvas and the live region announces it
        configure_feed(page, latencyMs=3000)
        page.click("#refresh")
        wait_until(page, lambda p: top_state(p) == "refreshing", 5, what="the refresh to start")
        wait_until(page, lambda p: texts(p).get("top") == "正在刷新…", 5, what="the refreshing text")
        wait_until(page, lambda p: p.locator("#announcer").inner_text().strip() == "正在刷新", 3,
                   what="the Chinese announcement")
        save_screenshot(page, "i18n-zh-phone.png")
        assert page.errors == []
    finally:
        context.close()


def test_an_english_browser_reads_english(browser, server):
    context, page = open_page(browser, server, {**DESKTOP, "locale": "en-US"})
    try:
        assert page.evaluate("() => document.documentElement.lang") == "en"
        assert page.locator("#refresh").inner_text() == "Refresh"
        assert page.locator("#share-toggle").inner_text() == "Share"
        wait_until(page, lambda p: texts(p).get("bottom") == "Pull up to load more", 5,
                   what="English footer text")
        assert page.errors == []
    finally:
        context.close()


def test_lang_parameter_forces_chinese(browser, server):
    context, page = open_page(browser, server, {**DESKTOP, "locale": "en-US"}, "?lang=zh-Hans")
    try:
        assert page.evaluate("() => document.documentElement.lang") == "zh-Hans"
        assert page.locator("#refresh").inner_text() == "刷新"
        wait_until(page, lambda p: texts(p).get("bottom") == "上拉加载更多", 5, what="Chinese footer text")
        assert page.errors == []
    finally:
        context.close()
