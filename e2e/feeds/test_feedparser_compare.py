"""Our feed reader against the reference, PyPI's feedparser (pinned in e2e/requirements.txt), on every fixture
of Tests/RefreshFeedsTests/Fixtures/feeds (docs/FEEDS.md, "Reading feeds").

Each fixture is read by `refreshkit feed read PATH --base URL --json` and by `feedparser.parse` with the same base
address; the entries must come in the same order and agree on title, link, id, author, date (to the second, UTC)
and image, and loosely (HTML reduced to text, white space normalised) on text. Where we differ on purpose, the
comparison says so and why, each difference once (`DIFFERENCES`), and docs/FEEDS.md lists them:

- titles: feedparser keeps an HTML title's markup (sanitised); we reduce it to text, so feedparser's is reduced
  the same way before comparing;
- ids: feedparser gives no id to an entry without a guid or an id; ours is the link, else a content hash;
- authors: ours falls back to the feed's author (as JSON Feed says of its items); feedparser's does not;
- links: feedparser makes an Atom entry's non-URL id (`tag:`) its link when it has no alternate link; we
  leave the link missing (a row's link must open a page);
- images: we resolve a relative image address against the base as every other link; feedparser leaves
  `media:thumbnail` and enclosure addresses as written, so they are resolved here before comparing;
- JSON Feed: feedparser 6.0 does not read it; the reference for those fixtures is the JSON itself, read per the
  JSON Feed 1.1 specification below;
- broken XML: feedparser's loose parser recovers what it can (`bozo`); we refuse it as malformed.
"""
from __future__ import annotations

import calendar
import json
import re
import subprocess
import threading
from datetime import datetime
from functools import partial
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urljoin

import feedparser
import pytest

from link_support import ROOT, refreshkit_binary

FIXTURES = ROOT / "Tests" / "RefreshFeedsTests" / "Fixtures" / "feeds"
BASE = "https://fixtures.test/feeds/"
XML_FEEDS = {
    "rss090.rdf": "RSS 0.90", "rss091.xml": "RSS 0.91", "rss092.xml": "RSS 0.92", "rss10.rdf": "RSS 1.0",
    "rss20.xml": "RSS 2.0", "rss20-dates.xml": "RSS 2.0", "atom03.xml": "Atom 0.3", "atom10.xml": "Atom 1.0",
    "atom10-prefixed.xml": "Atom 1.0", "rss20-html-entities.xml": "RSS 2.0", "rss20-guid-links.xml": "RSS 2.0",
    "atom10-id-links.xml": "Atom 1.0",
}
JSON_FEEDS = {"jsonfeed10.json": "JSON Feed 1.0", "jsonfeed11.json": "JSON Feed 1.1"}
FEEDPARSER_VERSIONS = {
    "RSS 0.90": "rss090", "RSS 0.91": ("rss091n", "rss091u"), "RSS 0.92": "rss092", "RSS 1.0": "rss10",
    "RSS 2.0": "rss20", "Atom 0.3": "atom03", "Atom 1.0": "atom10",
}
HASH_ID = re.compile(r"^[0-9a-f]{16}$")
EMAIL_AND_NAME = re.compile(r"^\S+@\S+\s*\((.+)\)$")
BLOCKS = {"br", "p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "tr", "pre"}


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        if tag in BLOCKS:
            self.parts.append(" ")

    def handle_endtag(self, tag) -> None:
        if tag in BLOCKS:
            self.parts.append(" ")

    def handle_data(self, data) -> None:
        self.parts.append(data)


def html_text(html: str | None) -> str:
    parser = _Text()
    parser.feed(html or "")
    parser.close()
    return " ".join("".join(parser.parts).split())


def loose(text: str | None) -> str:
    return " ".join((text or "").split())


def ours(name: str) -> tuple[dict, list[dict]]:
    binary = refreshkit_binary()
    if not binary.exists():
        pytest.fail(f"{binary} not found: run `swift build` first (or point REFRESHKIT_BIN at a build)", pytrace=False)
    result = subprocess.run(
        [str(binary), "feed", "read", str(FIXTURES / name), "--base", BASE + name, "--json"],
        capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    for entry in lines[1:]:
        assert set(entry) == {"id", "title", "link", "author", "text", "time", "timeMicros", "image"}
    return lines[0], lines[1:]


def feedparser_image(entry) -> str | None:
    """The picture by our precedence: a media:content image, a media:thumbnail, itunes:image, an image
    enclosure (docs/FEEDS.md, "Reading feeds: the field mapping")."""
    for content in entry.get("media_content", []):
        if content.get("medium") == "image" or content.get("type", "").startswith("image/"):
            return content.get("url")
    for thumbnail in entry.get("media_thumbnail", []):
        if thumbnail.get("url"):
            return thumbnail["url"]
    if entry.get("image", {}).get("href"):
        return entry["image"]["href"]
    for link in entry.get("links", []):
        if link.get("rel") == "enclosure" and link.get("type", "").startswith("image/"):
            return link.get("href")
    return None


def feedparser_title(entry) -> str | None:
    if "title" not in entry:
        return None
    kind = entry.get("title_detail", {}).get("type", "text/plain")
    title = html_text(entry.title) if "html" in kind else loose(entry.title)
    return title or None


def feedparser_author(entry, feed) -> str | None:
    """feedparser's `author`, or the name of `email (Name)` (its `author_detail.name` for that form)."""
    for source in (entry, feed):  # DIFFERENCE authors: ours falls back to the feed's
        if source.get("author"):
            named = EMAIL_AND_NAME.match(source.author)
            detail = (source.get("author_detail") or {}).get("name")
            if named:
                return named.group(1)
            # An Atom person's name, which feedparser's `author` writes with the email after it.
            return detail if detail and source.author.startswith(detail + " (") else source.author
    return None


@pytest.mark.parametrize("name", sorted(XML_FEEDS))
def test_every_xml_fixture_reads_as_feedparser_reads_it(name: str) -> None:
    document, entries = ours(name)
    reference = feedparser.parse(
        (FIXTURES / name).read_bytes(),
        response_headers={"content-location": BASE + name, "content-type": "application/xml"})
    assert document["format"] == XML_FEEDS[name]
    expected_version = FEEDPARSER_VERSIONS[document["format"]]
    assert reference.version in (expected_version if isinstance(expected_version, tuple) else (expected_version,))
    assert document["title"] == (html_text(reference.feed.get("title")) or None)
    next_links = [link["href"] for link in reference.feed.get("links", []) if link.get("rel") == "next"]
    assert document["next"] == (next_links[0] if next_links else None)
    assert len(entries) == len(reference.entries), "every entry feedparser keeps, in the same order"
    for index, (mine, theirs) in enumerate(zip(entries, reference.entries, strict=True)):
        where = f"{name} entry {index}"
        assert mine["title"] == feedparser_title(theirs), where
        link, id_ = theirs.get("link"), theirs.get("id")
        if mine["link"] is None and link and link == id_ and not mine["id"].startswith("http"):
            # DIFFERENCE links: feedparser makes a permalink id that is no http(s) address (`tag:`) a link; we
            # leave the link missing (an id that resolves to a web page's address is the link for both).
            assert id_ in (mine["id"], urljoin(BASE + name, mine["id"])), where
            link, id_ = None, mine["id"]
        assert mine["link"] == link, where
        if id_ is not None:
            assert mine["id"] == id_, where
        else:  # DIFFERENCE ids: ours falls back to the link, else a hash of the content
            assert mine["id"] == (mine["link"] or mine["id"]) and (mine["link"] or HASH_ID.match(mine["id"])), where
        if name == "atom10.xml" and index == 4:  # DIFFERENCE authors: Atom's source/author (RFC 4287, 4.1.2)
            assert mine["author"] == "Source Author"
        else:
            assert mine["author"] == feedparser_author(theirs, reference.feed), where
        # dict.get: feedparser's own get maps a missing updated_parsed to published_parsed, with a warning.
        parsed = dict.get(theirs, "published_parsed") or dict.get(theirs, "updated_parsed")
        if mine["id"] == urljoin(BASE + name, "no-zone"):  # (a permalink guid, resolved)
            # DIFFERENCE dates: feedparser drops an RFC 822 date with a weekday and no zone (it counts the parts
            # before it removes the weekday); a missing zone is UTC to us, with or without a weekday.
            assert parsed is None and mine["time"] == calendar.timegm((2002, 10, 2, 13, 0, 0)), where
        else:
            assert mine["time"] == (calendar.timegm(parsed) if parsed else None), where
        image = feedparser_image(theirs)
        assert mine["image"] == (urljoin(BASE + name, image) if image else None), where  # DIFFERENCE images
        summary = theirs.get("summary") or (theirs.get("content") or [{}])[0].get("value")
        assert loose(mine["text"]) == html_text(summary), where


def json_reference(item: dict, feed: dict, base: str) -> dict:
    """One JSON Feed item read per the JSON Feed 1.1 specification (feedparser 6.0 does not read JSON Feed)."""
    def date(text: str | None) -> int | None:
        try:
            return int(datetime.fromisoformat(text).timestamp()) if text else None
        except ValueError:
            return None

    def author(source: dict) -> str | None:
        return (source.get("authors") or [{}])[0].get("name") or (source.get("author") or {}).get("name")

    link = urljoin(base, item["url"]) if "url" in item else None
    text = item.get("content_text") or html_text(item.get("content_html")) or item.get("summary") or ""
    image = item.get("image") or item.get("banner_image")
    return {
        "id": str(item["id"]) if "id" in item else link, "title": item.get("title"), "link": link,
        "author": author(item) or author(feed), "text": loose(text),
        "time": date(item.get("date_published")) or date(item.get("date_modified")),
        "image": urljoin(base, image) if image else None,
    }


@pytest.mark.parametrize("name", sorted(JSON_FEEDS))
def test_every_json_feed_fixture_reads_as_the_specification_says(name: str) -> None:
    document, entries = ours(name)
    feed = json.loads((FIXTURES / name).read_text())
    assert document["format"] == JSON_FEEDS[name]
    assert document["title"] == feed.get("title")
    assert document["next"] == (urljoin(BASE + name, feed["next_url"]) if "next_url" in feed else None)
    assert len(entries) == len(feed["items"])
    for index, (mine, item) in enumerate(zip(entries, feed["items"], strict=True)):
        expected = json_reference(item, feed, BASE + name)
        if expected["id"] is None:
            assert HASH_ID.match(mine["id"])
            expected["id"] = mine["id"]
        assert {**mine, "text": loose(mine["text"]), "timeMicros": None} == {**expected, "timeMicros": None}, (
            f"{name} item {index}")


def test_a_web_page_is_not_a_feed_for_either_reader() -> None:
    body = (FIXTURES / "not-a-feed.html").read_bytes()
    assert feedparser.parse(body).version == ""
    result = subprocess.run([str(refreshkit_binary()), "feed", "read", str(FIXTURES / "not-a-feed.html")],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert "not a feed: the body is an HTML page" in result.stderr and "(malformed)" in result.stderr


def test_an_external_entity_is_never_read() -> None:
    # DIFFERENCE external entities: feedparser keeps `&secret;` as written (its loose parser); libxml2 leaves the
    # reference out. Neither reads the file it names.
    secret = Path("/etc/hostname").read_text().strip() if Path("/etc/hostname").exists() else "\0"
    document, entries = ours("xxe.xml")
    reference = feedparser.parse((FIXTURES / "xxe.xml").read_bytes())
    assert len(entries) == len(reference.entries) == 1
    assert secret not in json.dumps(entries) and entries[0]["title"].startswith("Before")
    assert secret not in reference.entries[0].title


def test_truncated_xml_is_refused_where_feedparser_recovers() -> None:
    # DIFFERENCE broken XML: feedparser's loose parser keeps what it read and sets `bozo`; a truncated body is a
    # failed fetch to us, and the list keeps what it had.
    assert feedparser.parse((FIXTURES / "truncated.xml").read_bytes()).bozo
    result = subprocess.run([str(refreshkit_binary()), "feed", "read", str(FIXTURES / "truncated.xml")],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 1 and "not well-formed" in result.stderr, result.stderr


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args) -> None:  # noqa: A002  (the standard library's name)
        pass


def test_a_feed_read_from_an_address_resolves_its_links_against_that_address() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(FIXTURES)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        root = f"http://127.0.0.1:{server.server_address[1]}"
        result = subprocess.run([str(refreshkit_binary()), "feed", "read", f"{root}/rss20.xml", "--json"],
                                capture_output=True, text=True, timeout=30)
        assert result.returncode == 0, result.stderr
        lines = [json.loads(line) for line in result.stdout.splitlines()]
        assert lines[0] == {"format": "RSS 2.0", "title": "Liftoff & Landing News", "next": f"{root}/rss.xml?page=2"}
        assert lines[2]["link"] == f"{root}/2003/05/30/cdata"
        assert lines[2]["image"] == f"{root}/thumbs/eclipse.png"
    finally:
        server.shutdown()
        server.server_close()
