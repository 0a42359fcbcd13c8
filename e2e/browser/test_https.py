"""The page over https, in browsers that trust the server's CA as a phone does once it installed it (docs/HTTPS.md):
`refreshkit cert` makes the CA and the certificate, `serve --tls-cert --tls-key --tls-ca` serves them. Chromium trusts
the CA from an NSS database of its own (where Chromium on Linux finds its user's CAs), WebKitGTK from the system's
bundle with the CA added, in a mount namespace of its own (webkit_support.py). In each, the page is a secure context,
its drag reads coalesced pointer events, a pull refreshes over wss, and Share's links say https://, with the plain
http address where another device installs the CA. A Chromium that does not trust the CA stops at a certificate
error, and the server carries on; plain http to the port lands on the same page over https."""
from __future__ import annotations

import os
import urllib.request
from pathlib import Path

import pytest

import webkit_support
from browser_support import CHROMIUM, pull_to_refresh, share_links, wait_connected
from conftest import PHONE, start_server, stop_server
from tls_support import certificates, trusting_home

# Selenium's WebKitGTK driver sets its own connection's address the way Selenium has deprecated
pytestmark = pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning")

# Counts the samples the page reads from PointerEvent.getCoalescedEvents (js/pointerInput.js), which browsers give a
# secure context only; installed before the page's scripts run.
COUNT_COALESCED = """
  window.__coalesced = 0;
  const read = window.PointerEvent && PointerEvent.prototype.getCoalescedEvents;
  if (typeof read === 'function') {
    PointerEvent.prototype.getCoalescedEvents = function () {
      const list = read.call(this);
      window.__coalesced += list.length;
      return list;
    };
  }
"""


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> Path:
    """`refreshkit cert`'s folder: ca.pem, server.pem (for localhost and 127.0.0.1 among others), their keys."""
    return certificates(tmp_path_factory.mktemp("refreshkit-cert"))


@pytest.fixture(scope="module")
def tls_server(pki):
    srv = start_server("--tls-cert", str(pki / "server.pem"), "--tls-key", str(pki / "server-key.pem"),
                       "--tls-ca", str(pki / "ca.pem"))
    yield srv
    assert stop_server(srv) == 0, "\n".join(srv.log[-30:])


@pytest.fixture(scope="module")
def trusting_chromium(browser, pki, tmp_path_factory):
    """A second Chromium (of the suite's Playwright), whose user trusts the CA: an NSS database in a HOME of its own,
    the CA added for TLS servers."""
    home = trusting_home(pki / "ca.pem", tmp_path_factory.mktemp("home"))
    trusting = browser.browser_type.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"],
                                           env={**os.environ, "HOME": str(home)})
    yield trusting
    trusting.close()


def ca_address(tls_server) -> str:
    """Where another device installs the CA: the TLS port's /ca over plain http."""
    return f"http://127.0.0.1:{tls_server.url.rsplit(':', 1)[1]}/ca"


def assert_the_ca_page_answers_plain_http(address: str) -> None:
    with urllib.request.urlopen(address, timeout=10) as answer:
        assert answer.status == 200 and b"Trust this RefreshKit server" in answer.read()


def test_chromium_trusting_the_ca_has_a_secure_page_that_reads_coalesced_events_and_pulls_over_wss(
        trusting_chromium, tls_server):
    context = trusting_chromium.new_context(**PHONE)
    try:
        context.add_init_script(COUNT_COALESCED)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(tls_server.url + "/")
        wait_connected(page)
        assert page.evaluate("() => [window.isSecureContext, location.protocol]") == [True, "https:"]
        assert page.evaluate("() => typeof PointerEvent.prototype.getCoalescedEvents") == "function"
        pull_to_refresh(page)
        assert page.evaluate("() => window.__coalesced") > 0, "the drag's pointermoves read their coalesced samples"
        links = share_links(page)
        assert all(link.startswith(tls_server.url + "/?s=") for link in links.values()), links
        page.click("#share-toggle")
        assert page.locator("#share-ca").is_visible()
        assert page.locator("#share-ca-link").text_content() == ca_address(tls_server)
        assert_the_ca_page_answers_plain_http(ca_address(tls_server))
        assert errors == []
    finally:
        context.close()


def test_plain_http_on_the_port_lands_on_the_page_over_https(trusting_chromium, tls_server):
    context = trusting_chromium.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(tls_server.url.replace("https://", "http://") + "/?preset=ios")
        wait_connected(page)
        assert page.url.startswith(tls_server.url + "/?preset=ios"), page.url  # the page adds its session
        assert page.evaluate("() => window.isSecureContext")
    finally:
        context.close()


def test_chromium_not_trusting_the_ca_stops_at_a_certificate_error_and_the_server_carries_on(
        browser, trusting_chromium, tls_server):
    context = browser.new_context(**PHONE)
    try:
        with pytest.raises(Exception, match="ERR_CERT_AUTHORITY_INVALID"):
            context.new_page().goto(tls_server.url + "/")
    finally:
        context.close()
    trusted = trusting_chromium.new_context(**PHONE)
    try:
        page = trusted.new_page()
        page.goto(tls_server.url + "/")
        wait_connected(page)
    finally:
        trusted.close()


def test_webkitgtk_trusting_the_ca_has_a_secure_page_that_reads_coalesced_events_and_pulls_over_wss(
        pki, tls_server, tmp_path):
    with webkit_support.webkit(pki / "ca.pem", tmp_path) as driver:
        driver.set_window_size(420, 900)
        driver.get(tls_server.url + "/")
        webkit_support.wait_for(driver, "window.refreshkit && window.refreshkit.state.connected", 30,
                                "the page to connect over wss")
        assert driver.execute_script("return [window.isSecureContext, location.protocol]") == [True, "https:"]
        driver.execute_script(COUNT_COALESCED)  # no script before the page's in WebDriver: the drag comes later
        webkit_support.mouse_drag(driver, driver.find_element("id", "list"), fy=0.15, dy=350)
        webkit_support.wait_for(driver, "window.refreshkit.events.some(e => e.name === 'didStart')", 10,
                                "the pull to start a refresh")
        assert driver.execute_script("return window.__coalesced") > 0
        links = webkit_support.wait_for(driver, "window.refreshkit.session.links.drive && "
                                        "window.refreshkit.session.links", 5, "the share links")
        assert all(link.startswith(tls_server.url + "/?s=") for link in links.values()), links
        driver.find_element("id", "share-toggle").click()
        assert driver.find_element("id", "share-ca-link").text == ca_address(tls_server)
        assert driver.execute_script("return window.refreshkit.state.connected")
