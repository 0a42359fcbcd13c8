"""`refreshkit serve --echo-protocol`: the test-only `autobahn-echo` subprotocol (Sources/LWSEcho, the same echo
`lws-echo` serves as the bench's floor), which Autobahn's cases run against (docs/AUTOBAHN.md). A client that
asks for no subprotocol lands on it; `refreshkit.v1` answers beside it as ever.
"""
from __future__ import annotations

import pytest

from hostile_support import OP_BINARY, OP_CONT, OP_TEXT, RawWebSocket, raw_hello

MAX_MESSAGE_BYTES = 32 << 20


@pytest.fixture
def echo_server(fresh_server):
    return fresh_server("--echo-protocol", "--log-level", "info")


def unmasked(opcode: int, payload: bytes, *, fin: bool = True, declared_length: int | None = None) -> bytes:
    """A client frame with an all-zero mask key, so that megabytes need no masking in Python (RFC 6455 §5.3
    asks clients for an unpredictable key; the server does not check it)."""
    header = RawWebSocket.frame(opcode, b"", fin=fin, declared_length=declared_length or len(payload), mask=False)
    return header[:1] + bytes([header[1] | 0x80]) + header[2:] + b"\0\0\0\0" + payload


def test_text_and_binary_come_back_as_they_came_in_order(echo_server):
    with RawWebSocket(echo_server.port, subprotocol=None) as ws:
        ws.send_frame(OP_TEXT, "grüß".encode())
        ws.send_frame(OP_BINARY, bytes([0, 255, 1]))
        ws.send_frame(OP_TEXT, b"")
        assert ws.recv_frame() == (OP_TEXT, "grüß".encode())
        assert ws.recv_frame() == (OP_BINARY, bytes([0, 255, 1]))
        assert ws.recv_frame() == (OP_TEXT, b"")


def test_a_fragmented_message_comes_back_whole_with_its_opcode(echo_server):
    with RawWebSocket(echo_server.port, subprotocol=None) as ws:
        ws.send_frame(OP_BINARY, b"\x01\x02", fin=False)
        ws.send_frame(OP_CONT, b"\x03", fin=False)
        ws.send_frame(OP_CONT, b"\x04", fin=True)
        ws.send_frame(OP_TEXT, b"ab", fin=False)
        ws.send_frame(OP_CONT, b"cd", fin=True)
        assert ws.recv_frame() == (OP_BINARY, b"\x01\x02\x03\x04")
        assert ws.recv_frame() == (OP_TEXT, b"abcd")


def test_a_large_message_split_over_many_reads_comes_back_whole(echo_server):
    payload = bytes(range(256)) * 4096  # 1 MiB: lws delivers it in 64 KiB reads
    with RawWebSocket(echo_server.port, subprotocol=None, timeout=10) as ws:
        ws.sock.sendall(unmasked(OP_BINARY, payload))
        assert ws.recv_frame(timeout=10) == (OP_BINARY, payload)


def test_one_byte_over_32_mib_closes_with_1009(echo_server):
    with RawWebSocket(echo_server.port, subprotocol=None, timeout=10) as ws:
        ws.sock.sendall(unmasked(OP_BINARY, bytes(MAX_MESSAGE_BYTES + 1)))
        assert ws.wait_closed(timeout=10) == 1009


def test_the_product_protocol_answers_beside_it(echo_server):
    with RawWebSocket(echo_server.port) as ws:
        welcome, frame = raw_hello(ws)
        assert welcome["type"] == "welcome" and frame["type"] == "frame"
    assert not echo_server.error_lines(), echo_server.output()
