"""The local JSON Feed server's own checks (feed_server.py): its pages follow JSON Feed 1.1 and agree with each other,
and each failure mode answers what it says. Plain urllib over loopback."""
from __future__ import annotations

import json
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from datetime import datetime
from itertools import pairwise
from pathlib import Path

import pytest

from jsonfeed.feed_server import MODES, JSONFeedServer

HERE = Path(__file__).resolve().parent


def get(url: str, timeout: float = 10.0) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status, answer.headers["Content-Type"], answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read()


def millis(item: dict) -> float:
    return datetime.fromisoformat(item["date_published"].replace("Z", "+00:00")).timestamp() * 1000


@pytest.fixture(scope="module")
def feed():
    with JSONFeedServer(10_000) as server:
        yield server


def walk(url: str) -> list[dict]:
    items: list[dict] = []
    while url:
        status, _, body = get(url)
        assert status == 200
        document = json.loads(body)
        items += document["items"]
        url = document.get("next_url")
    return items


def test_pages_hold_every_item_once_newest_first(feed):
    status, kind, body = get(feed.url)
    assert status == 200 and kind.startswith("application/feed+json")
    first = json.loads(body)
    assert first["version"] == "https://jsonfeed.org/version/1.1"
    assert len(first["items"]) == 50 and first["items"][0]["id"] == "10000"
    items = walk(feed.url + "?size=500")
    assert [item["id"] for item in items] == [str(n) for n in range(10_000, 0, -1)]
    times = [millis(item) for item in items]
    assert all(newer > older for newer, older in pairwise(times))


def test_the_text_is_varied_fortunes(feed):
    texts = [item["content_text"] for item in feed.items[:1000]]
    assert len(set(texts)) > 990
    lengths = sorted(len(text) for text in texts)
    assert lengths[0] < 40 and lengths[-1] > 400
    assert sum("authors" in item for item in feed.items[:1000]) > 200


def test_next_url_carries_size_and_failure():
    with JSONFeedServer(30, page_size=10) as feed:
        document = json.loads(get(feed.url + "?size=7&fail=repeated_ids")[2])
        assert "size=7" in document["next_url"] and "fail=repeated_ids" in document["next_url"]
        last = json.loads(get(feed.url + "?page=3")[2])
        assert "next_url" not in last and len(last["items"]) == 10


def test_error_mode_answers_500_per_page_until_recovered():
    with JSONFeedServer(100) as feed:
        feed.fail("error", page=2)
        assert get(feed.url)[0] == 200
        assert get(feed.url + "?page=2")[0] == 500
        feed.recover()
        assert get(feed.url + "?page=2")[0] == 200
        assert [request.status for request in feed.requests] == [200, 500, 200]
        assert feed.requests[1].mode == "error"


def test_slow_mode_answers_after_its_delay():
    with JSONFeedServer(100, slow_s=30) as feed:
        feed.fail("slow")
        with pytest.raises(TimeoutError):  # the client's limit passes first
            urllib.request.urlopen(feed.url, timeout=0.5).read()
        status, _, body = get(feed.url + "?fail=slow&delay_ms=1")
        assert status == 200 and len(json.loads(body)["items"]) == 50


def test_malformed_mode_cuts_the_json():
    with JSONFeedServer(100) as feed:
        status, kind, body = get(feed.url + "?fail=malformed")
        assert status == 200 and kind.startswith("application/feed+json")
        with pytest.raises(json.JSONDecodeError):
            json.loads(body)


def test_oversized_mode_passes_the_limit_with_valid_json():
    with JSONFeedServer(100, oversized_bytes=100_000) as feed:
        status, _, body = get(feed.url + "?fail=oversized")
        assert status == 200 and len(body) > 100_000
        assert len(json.loads(body)["items"]) == 50


def test_repeated_ids_mode_repeats_items_from_the_previous_page():
    with JSONFeedServer(100) as feed:
        first = json.loads(get(feed.url)[2])["items"]
        second = json.loads(get(feed.url + "?page=2&fail=repeated_ids")[2])["items"]
        assert [item["id"] for item in second[:3]] == [item["id"] for item in first[:3]]
        top = json.loads(get(feed.url + "?fail=repeated_ids")[2])["items"]
        assert top[0]["id"] == top[1]["id"]


def test_out_of_order_mode():
    with JSONFeedServer(100) as feed:
        first = json.loads(get(feed.url)[2])["items"]
        second = json.loads(get(feed.url + "?page=2&fail=out_of_order")[2])["items"]
        assert millis(second[-1]) > millis(first[0])  # older page, newer items
        assert all(millis(a) > millis(b) for a, b in pairwise(second))
        top = json.loads(get(feed.url + "?fail=out_of_order")[2])["items"]
        assert millis(top[0]) < millis(top[1])


def test_wrong_type_mode_answers_html():
    with JSONFeedServer(100) as feed:
        status, kind, body = get(feed.url + "?fail=wrong_type")
        assert status == 200 and kind.startswith("text/html") and body.startswith(b"<!doctype html>")


def test_unknown_mode_path_and_page_are_refused():
    with JSONFeedServer(10) as feed:
        assert get(feed.url + "?fail=nope")[0] == 400
        assert get(feed.url + "?page=0")[0] == 400
        assert get(feed.base + "/other.json")[0] == 404
        with pytest.raises(ValueError):
            feed.fail("nope")
        assert set(MODES) == {"error", "slow", "malformed", "oversized", "repeated_ids", "out_of_order", "wrong_type"}


def test_post_puts_a_newer_item_on_top_and_wait_for_request_waits():
    with JSONFeedServer(10) as feed:
        item = feed.post("A new item", author="Tester")
        top = json.loads(get(feed.url)[2])["items"][0]
        assert top == item and top["id"] == "11" and top["authors"] == [{"name": "Tester"}]
        assert millis(top) > millis(json.loads(get(feed.url)[2])["items"][1])
        seen = len(feed.requests)
        threading.Thread(target=get, args=(feed.url + "?page=1",), daemon=True).start()
        assert feed.wait_for_request(lambda request: request.query.get("page") == "1", after=seen).status == 200


def test_runs_as_a_program():
    process = subprocess.Popen([sys.executable, str(HERE / "feed_server.py"), "--items", "20"],
                               stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert line.startswith("jsonfeed listening on http://127.0.0.1:")
        url = line.split()[3]
        assert len(json.loads(get(url)[2])["items"]) == 20
    finally:
        process.terminate()
        assert process.wait(timeout=10) == 0
