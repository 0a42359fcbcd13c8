"""The local JSON Feed's images (feed_server.py): small PNGs made here, one colour each, of the size an item's id
picks, served at `/images/ID.png`, with a gate a test closes to hold them back and opens to let them through, and
failure modes per image.

PNG as RFC 2083 writes it: the signature, IHDR (8-bit RGB), one IDAT (zlib, every scanline filter 0), IEND; each
chunk with its CRC-32 (zlib.crc32, the same polynomial)."""
from __future__ import annotations

import struct
import threading
import zlib

IMAGE_PREFIX = "/images/"
# the shapes an item's image takes, by its id: none is 16:9, so a row's height changes when its image loads
SIZES = ((300, 300), (240, 320), (400, 300), (320, 400))
MODES = ("error", "slow", "oversized", "wrong_type", "lying_type", "hangup")


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A `width` × `height` PNG of one colour."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    row = b"\x00" + bytes(rgb) * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(row * height, 9))
            + chunk(b"IEND", b""))


def size_of(item_id: str) -> tuple[int, int]:
    return SIZES[int(item_id) % len(SIZES)]


def colour_of(item_id: str) -> tuple[int, int, int]:
    """A strong colour per id (far from the page's greys and white)."""
    n = int(item_id)
    return ((n * 67) % 200 + 40, (n * 131) % 160, 255 - (n * 29) % 120)


class ImageGate:
    """Which images are held back: none, all, or some ids; a held request waits until its id is released (or the
    server closes). Counts the requests waiting, so a test waits for a state."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._all = False
        self._ids: set[str] = set()
        self.waiting: list[str] = []
        self.modes: dict[str, str] = {}

    def hold(self, ids: list[str] | None = None) -> None:
        with self._lock:
            if ids is None:
                self._all = True
            else:
                self._ids.update(ids)

    def release(self, ids: list[str] | None = None) -> None:
        with self._lock:
            if ids is None:
                self._all = False
                self._ids.clear()
            else:
                self._ids.difference_update(ids)
            self._lock.notify_all()

    def held(self, item_id: str) -> bool:
        return self._all or item_id in self._ids

    def wait(self, item_id: str, closing: threading.Event) -> None:
        with self._lock:
            self.waiting.append(item_id)
            self._lock.notify_all()
            while self.held(item_id) and not closing.is_set():
                self._lock.wait(0.05)
            self.waiting.remove(item_id)
            self._lock.notify_all()

    def wait_for_waiting(self, predicate, timeout: float = 10.0) -> list[str]:
        """Waits until `predicate(waiting ids)` holds (bounded); returns them."""
        with self._lock:
            if not self._lock.wait_for(lambda: predicate(list(self.waiting)), timeout):
                raise AssertionError(f"image requests waiting: {self.waiting}; the state wanted did not come")
            return list(self.waiting)


def answer(item_id: str, mode: str | None, oversized_bytes: int) -> tuple[int, str, bytes]:
    """(status, content type, body) for image `item_id` in `mode` (None: the image)."""
    if mode == "error":
        return 500, "text/plain; charset=utf-8", b"internal server error (image failure mode: error)\n"
    if mode == "wrong_type":
        return 200, "text/html; charset=utf-8", b"<!doctype html><title>Sign in</title>\n"
    if mode == "lying_type":
        return 200, "image/png", b"<!doctype html><title>not a png</title>\n"
    body = png(*size_of(item_id), colour_of(item_id))
    if mode == "oversized":  # a PNG header, then past the limit: the server must stop reading
        body += b"\x00" * (oversized_bytes - len(body) + 1)
    return 200, "image/png", body
