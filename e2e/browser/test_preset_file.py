"""The panel's preset files against the real server and Chromium: Export downloads the live configuration as a
preset file (docs/PRESETS.md); Load sends a file, which the server applies, or refuses whole with every problem
listed while the session keeps its configuration."""
from __future__ import annotations

import json

from browser_support import wait_until
from conftest import DESKTOP, open_page

STATUS = "#panel [data-preset-file-status]"
PROBLEMS = "#panel [data-preset-file-problems] li"


def status(page) -> str:
    return page.locator(STATUS).inner_text()


def load(page, file: dict | str, name: str = "preset.json"):
    body = file if isinstance(file, str) else json.dumps(file)
    page.set_input_files("#panel [data-preset-file-input]",
                         files=[{"name": name, "mimeType": "application/json", "buffer": body.encode()}])


def test_export_then_load_a_preset_file_and_a_bad_one(browser, server):
    context, page = open_page(browser, server, DESKTOP, "?preset=jh")
    try:
        wait_until(page, lambda p: p.locator("#panel [data-preset-file-export]").is_visible(), 10, what="panel")
        with page.expect_download() as download:
            page.click("#panel [data-preset-file-export]")
        exported = json.loads(open(download.value.path(), encoding="utf-8").read())
        assert exported["name"] == "jh" and exported["base"] == "jh"
        assert exported["library"] == "JHPullToRefreshKit"
        assert exported["config"]["edges"]["top"]["control"] == "colorCycle"
        assert set(exported["config"]) == {"edges", "insets", "feed", "physics", "events"}

        mine = dict(exported, name="mine")
        mine["config"]["edges"]["top"]["triggerDistance"] = 123
        load(page, mine)
        wait_until(page, lambda p: 'Loaded preset "mine"' in status(p), 10, what="the file loaded")

        bad = {"name": "bad one", "config": {"edges": {"top": {"triggerDistance": 20000}}, "feed": []}}
        load(page, bad)
        wait_until(page, lambda p: "Refused" in status(p), 10, what="the refusal")
        problems = page.locator(PROBLEMS).all_inner_texts()
        assert "name: 'bad one' is not a name of 1 to 64 characters from A-Z, a-z, 0-9, _ and -" in problems
        assert "edges.top.triggerDistance must be between 1 and 10000, got 20000.0" in problems
        assert "feed must be an object; got an array" in problems
        assert len(problems) > 3  # the top edge's missing fields too

        load(page, "{ not json")
        wait_until(page, lambda p: p.locator(PROBLEMS).count() == 1, 10, what="the local refusal")
        assert page.locator(PROBLEMS).first.inner_text().startswith("not JSON: ")

        # the session kept the loaded file's configuration: the next export is "mine" with its change
        with page.expect_download() as download:
            page.click("#panel [data-preset-file-export]")
        again = json.loads(open(download.value.path(), encoding="utf-8").read())
        assert again["name"] == "mine" and "base" not in again
        assert again["config"]["edges"]["top"]["triggerDistance"] == 123
        assert page.errors == []
    finally:
        context.close()
