"""`GET /feed/image?u=URL` against the REAL server (docs/FEEDS.md, "Images"): the feed's images fetched from their
source (the tests' local JSON Feed server, e2e/jsonfeed, whose items have PNG images it can hold back or answer
in a failure mode), cached, with caching headers, and every refusal a clear status, JSON error and log line:
an address the feed did not give (no open proxy), a bad address, a method, an image too large, not an image, a
source that fails (502) or is too slow (504). Every wait is for an answer or a state, never for a duration."""
from __future__ import annotations

import http.client
import json
import threading
from urllib.parse import quote

import pytest

from conftest import RunningServer, run, ws_connect
from feed_session import first_page, wait_for_log
from jsonfeed import images as feed_images
from jsonfeed.feed_server import JSONFeedServer

TIMEOUT_MS = 1500  # the server's image time limit here (--image-timeout-ms)
SLOW_S = 3.0       # the feed's slow images: past it


@pytest.fixture(scope="module")
def jsonfeed():
    with JSONFeedServer(200, page_size=20, images_every=2, slow_s=SLOW_S) as feed:
        yield feed


@pytest.fixture(scope="module")
def server(jsonfeed):
    srv = RunningServer("--feed", f"jsonfeed:{jsonfeed.url}", "--feed-poll-ms", "0", "--log-level", "info",
                        "--image-timeout-ms", str(TIMEOUT_MS))
    yield srv
    assert srv.terminate() == 0, srv.output()
    assert not srv.error_lines(), "\n".join(srv.error_lines()[:10])


def shown_items(server: RunningServer) -> list[dict]:
    """The first page's items with an image, as a session loaded them (so the server has seen their images)."""
    async def scenario():
        async with ws_connect(server) as ws:
            _, rows = await first_page(ws)
            return rows["items"]

    items = [item for item in run(scenario, timeout=60) if item.get("image")]
    assert len(items) >= 10, items  # one per test that changes how its image is answered
    return items


@pytest.fixture(scope="module")
def shown(server, jsonfeed) -> list[dict]:
    return shown_items(server)


@pytest.fixture(autouse=True)
def healthy(jsonfeed):
    yield
    jsonfeed.release_images()
    for item_id in list(jsonfeed.image_gate.modes):
        jsonfeed.fail_image(item_id, None)


def get(srv: RunningServer, url: str | None, method: str = "GET", headers: dict | None = None,
        raw_query: str | None = None) -> tuple[int, dict[str, str], bytes]:
    query = raw_query if raw_query is not None else ("" if url is None else "?u=" + quote(url, safe=""))
    path = "/feed/image" + query
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=20)
    try:
        conn.request(method, path, headers=headers or {})
        response = conn.getresponse()
        body = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, body
    finally:
        conn.close()


def error_code(body: bytes) -> str:
    return json.loads(body)["error"]["code"]


def source_requests(feed: JSONFeedServer, item_id: str) -> int:
    return sum(1 for r in feed.requests if r.path == f"/images/{item_id}.png")


def test_an_image_of_the_feed_is_served_with_caching_headers_and_fetched_once(server, jsonfeed, shown):
    item = shown[0]
    status, headers, body = get(server, item["image"]["url"])
    assert status == 200, body
    assert headers["content-type"] == "image/png"
    assert body == feed_images.png(*feed_images.size_of(item["id"]), feed_images.colour_of(item["id"]))
    assert headers["cache-control"] == "public, max-age=86400"
    assert headers["etag"].startswith('"') and headers["x-content-type-options"] == "nosniff"
    again = get(server, item["image"]["url"])
    assert again[0] == 200 and again[2] == body
    assert source_requests(jsonfeed, item["id"]) == 1, "the second answer came from the server's cache"
    status, _, body = get(server, item["image"]["url"], headers={"If-None-Match": headers["etag"]})
    assert status == 304 and body == b""
    status, head_headers, body = get(server, item["image"]["url"], method="HEAD")
    assert status == 200 and body == b"" and head_headers["etag"] == headers["etag"]


def test_an_image_just_under_the_limit_is_served_whole(server, jsonfeed, shown):
    item = shown[-1]
    jsonfeed.fail_image(item["id"], "large")
    expected = feed_images.answer(item["id"], "large", 0)[2]
    for _ in range(2):  # fetched, then from the cache: one write of ~4 MiB that the socket takes in pieces
        status, headers, body = get(server, item["image"]["url"])
        assert status == 200 and headers["content-length"] == str(len(expected))
        assert body == expected


def test_requests_waiting_for_one_image_share_its_fetch(server, jsonfeed, shown):
    item = shown[1]
    jsonfeed.hold_images([item["id"]])
    answers: list[tuple[int, dict, bytes]] = []
    threads = [threading.Thread(target=lambda: answers.append(get(server, item["image"]["url"]))) for _ in range(3)]
    for thread in threads:
        thread.start()
    jsonfeed.image_gate.wait_for_waiting(lambda waiting: item["id"] in waiting)
    jsonfeed.release_images([item["id"]])
    for thread in threads:
        thread.join(20)
    assert [a[0] for a in answers] == [200, 200, 200]
    assert source_requests(jsonfeed, item["id"]) == 1


def test_an_address_the_feed_did_not_give_is_refused_and_never_fetched(server, jsonfeed, shown):
    before = len(jsonfeed.requests)
    for url in (jsonfeed.image_url("99999"), "https://example.com/cat.png", jsonfeed.url):
        status, headers, body = get(server, url)
        assert status == 403 and error_code(body) == "not_in_feed", body
        assert headers["cache-control"] == "no-store"
    assert len(jsonfeed.requests) == before, "nothing was fetched"
    wait_for_log(server, "code=not_in_feed")


@pytest.mark.parametrize("query", ["", "?u=", "?u=ftp%3A%2F%2F127.0.0.1%2Fa.png", "?u=file%3A%2F%2F%2Fetc%2Fpasswd",
                                   "?u=http%3A%2F%2F" + "a" * 2100])
def test_a_bad_address_is_a_400(server, query):
    status, _, body = get(server, None, raw_query=query)
    assert status == 400 and error_code(body) == "bad_url", body


def test_another_method_is_a_405(server, shown):
    status, _, body = get(server, shown[0]["image"]["url"], method="DELETE")
    assert status == 405 and error_code(body) == "method_not_allowed", body


@pytest.mark.parametrize("mode, status, code, words", [
    ("oversized", 502, "too_large", "larger than the limit of 4194304 bytes"),
    # the page is told the kind, not what the source sent (docs/FEEDS.md, "What is fetched, and what is refused")
    ("wrong_type", 502, "not_an_image", "not a PNG, JPEG, GIF, WebP or AVIF image"),
    ("lying_type", 502, "not_an_image", "not a PNG, JPEG, GIF, WebP or AVIF image"),
    # one reason for whatever kept the image from being fetched: an HTTP status, a hang-up, a refused address
    ("error", 502, "source_failed", "could not fetch the image"),
    ("hangup", 502, "source_failed", "could not fetch the image"),
    ("slow", 504, "timed_out", f"within {TIMEOUT_MS} ms"),
])
def test_a_failing_source_gets_a_clear_answer_and_a_log_line(server, jsonfeed, shown, mode, status, code, words):
    item = shown[2 + [m for m in feed_images.MODES].index(mode)]
    jsonfeed.fail_image(item["id"], mode)
    got, headers, body = get(server, item["image"]["url"])
    assert got == status, body
    assert error_code(body) == code and words in json.loads(body)["error"]["message"], body
    assert headers["cache-control"] == "no-store"
    assert b"HTTP 500" not in body and b"text/html" not in body, body
    wait_for_log(server, f"code={code}")
    # kept for a while (--image-retry-seconds): asked again at once, the same answer, and the source is not asked
    fetched = source_requests(jsonfeed, item["id"])
    jsonfeed.fail_image(item["id"], None)
    again, _, again_body = get(server, item["image"]["url"])
    assert (again, error_code(again_body)) == (status, code), again_body
    assert source_requests(jsonfeed, item["id"]) == fetched


def test_a_failure_is_not_kept_with_no_retry_time(fresh_server, jsonfeed):
    """`--image-retry-seconds 0`: once the source is well, the image is served."""
    srv = fresh_server("--feed", f"jsonfeed:{jsonfeed.url}", "--image-retry-seconds", "0")
    item = shown_items(srv)[-2]
    jsonfeed.fail_image(item["id"], "error")
    assert get(srv, item["image"]["url"])[0] == 502
    jsonfeed.fail_image(item["id"], None)
    assert get(srv, item["image"]["url"])[0] == 200


def test_the_page_may_show_images_from_this_origin_only(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    conn.request("GET", "/")
    response = conn.getresponse()
    response.read()
    policy = response.getheader("content-security-policy")
    conn.close()
    assert "img-src 'self';" in policy and "data:" not in policy, policy
