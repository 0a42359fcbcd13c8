"""The Share popover shows the session link as a QR code that a phone's camera reads: the real page in headless
Chromium, the code photographed off the screen and decoded by zbar (Debian's zbar-tools), as a camera would."""
from __future__ import annotations

import subprocess

from browser_support import publish_image, save_screenshot, wait_until
from conftest import PHONE, open_page


def test_the_share_popover_shows_a_qr_code_of_the_session_link(browser, server):
    context, page = open_page(browser, server, PHONE)
    try:
        page.click("#share-toggle")
        link = page.locator("#share-link-drive")
        wait_until(page, lambda p: "/?s=" in link.inner_text(), 5, what="the session link")
        expected = link.inner_text()
        qr = page.locator("#share-qr-drive")
        # the image is the server's drawing; wait until the browser has it decoded and laid out
        page.wait_for_function(
            "() => { const i = document.getElementById('share-qr-drive'); return i && !i.hidden && i.complete "
            "&& i.naturalWidth > 0 && i.getBoundingClientRect().width >= 150 }")
        assert qr.get_attribute("alt").startswith("QR code of the session link")
        shot = save_screenshot(page, "share-qr.png")
        result = subprocess.run(["zbarimg", "--quiet", "--raw", str(shot)], capture_output=True, text=True,
                                timeout=30)
        assert result.returncode == 0, f"zbar found no code on the page: {result.stderr}"
        # the Drive link's code, and the Watch link's too when the popover shows it whole on the screen
        decoded = result.stdout.splitlines()
        watch = page.locator("#share-link-watch").inner_text()
        assert expected in decoded and set(decoded) <= {expected, watch}, (decoded, expected, watch)
        publish_image(shot, "docs/images/share-qr.png")
        assert page.errors == []
    finally:
        context.close()
