"""A client on another host, for the tests that need one (run inside a network namespace by `NetnsPeer.run`): it
speaks plain HTTP and WebSocket over sockets of its own and prints one JSON line of what it saw.

    netns_client.py get HOST PORT PATH [HEADER=VALUE…]        → {"status": 200, "body": "…"}
    netns_client.py post HOST PORT PATH BODY [HEADER=VALUE…]  → {"status": 201, "body": "…"}
    netns_client.py sockets HOST PORT COUNT                   → {"upgraded": 64, "refused": 6, "statuses": {…}}
    netns_client.py session HOST PORT                         → {"welcome": true, "frames": 3}
    netns_client.py posts HOST PORT PATH BODY COUNT [H=V…]    → {"statuses": {"201": 10, "429": 5}, "last": {…}}
    netns_client.py flood HOST PORT CONNECTIONS COUNT RATE MESSAGE
                                                              → {"sent": N}, then holds them until stdin ends
    netns_client.py hellos HOST PORT COUNT                    → {"welcomes": N, "errors": {"too_many_sessions": M}}
    netns_client.py hold HOST PORT COUNT                      → {"opened": 300}, then holds them until stdin ends

`sockets` opens COUNT WebSocket handshakes and holds every one that was upgraded until all were tried. `session`
says hello, drags, and waits for frames (a state: at least one frame after the drag, bounded by a time limit).
"""
from __future__ import annotations

import asyncio
import base64
import http.client
import json
import os
import socket
import sys

SUBPROTOCOL = "refreshkit.v1"


def headers_of(pairs: list[str]) -> dict[str, str]:
    return dict(pair.split("=", 1) for pair in pairs)


def request(method: str, host: str, port: int, path: str, body: bytes | None, headers: dict[str, str]) -> dict:
    connection = http.client.HTTPConnection(host, port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return {"status": response.status, "body": response.read().decode(errors="replace")[:400]}
    finally:
        connection.close()


def posts(host: str, port: int, path: str, body: bytes, count: int, headers: dict[str, str]) -> dict:
    """`count` posts one after the other: how many got each status, and the last answer with its Retry-After."""
    statuses: dict[str, int] = {}
    last: dict = {}
    for _ in range(count):
        connection = http.client.HTTPConnection(host, port, timeout=10)
        try:
            connection.request("POST", path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode(errors="replace")[:400]
            statuses[str(response.status)] = statuses.get(str(response.status), 0) + 1
            last = {"status": response.status, "body": text, "retry_after": response.getheader("retry-after"),
                    "type": response.getheader("content-type")}
        finally:
            connection.close()
    return {"statuses": statuses, "last": last}


def sockets(host: str, port: int, count: int) -> dict:
    held: list[socket.socket] = []
    statuses: dict[str, int] = {}
    for _ in range(count):
        status, sock = upgrade(host, port)
        statuses[status] = statuses.get(status, 0) + 1
        if sock:
            held.append(sock)
    result = {"upgraded": statuses.get("101", 0), "refused": count - statuses.get("101", 0), "statuses": statuses}
    for sock in held:
        sock.close()
    return result


def hold(host: str, port: int, count: int) -> None:
    """Opens `count` TCP connections that never send a byte, says how many opened, and keeps them until its standard
    input ends (the test's signal that it is done)."""
    held = []
    for _ in range(count):
        try:
            held.append(socket.create_connection((host, port), timeout=10))
        except OSError:
            break
    print(json.dumps({"opened": len(held)}), flush=True)
    sys.stdin.read()
    for sock in held:
        sock.close()


def upgrade(host: str, port: int) -> tuple[str, socket.socket | None]:
    """A WebSocket handshake of `refreshkit.v1` over a plain socket (so that it can be left unread): the answer's
    status, and the socket when it was upgraded (closed otherwise)."""
    sock = socket.create_connection((host, port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                  f"Sec-WebSocket-Protocol: {SUBPROTOCOL}\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(4096)
        if not chunk:
            break
        answer += chunk
    status_line = answer.split(b"\r\n")[0].split(b" ")
    status = status_line[1].decode() if len(status_line) > 1 else "none"
    if status != "101":
        sock.close()
        return status, None
    return status, sock


def frame(text: str) -> bytes:
    """A masked text frame (a client's)."""
    payload = text.encode()
    mask = os.urandom(4)
    length = len(payload)
    head = bytes([0x81]) + (bytes([0x80 | length]) if length < 126 else bytes([0x80 | 126]) + length.to_bytes(2, "big"))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def flood(host: str, port: int, connections: int, count: int, rate: float, message: str) -> None:
    """`connections` WebSockets, each saying hello, then `count` copies of `message` spread over them at `rate` a
    second in all, never reading an answer (a client that never reads). Says how many went out, then holds the
    sockets until its standard input ends."""
    import time

    sockets = [sock for _, sock in (upgrade(host, port) for _ in range(connections)) if sock]
    for sock in sockets:
        sock.sendall(frame(json.dumps({"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3})))
    sent = 0
    began = time.monotonic()
    data = frame(message)
    for index in range(count):
        due = began + index / rate
        while (wait := due - time.monotonic()) > 0:
            time.sleep(wait)
        try:
            sockets[index % len(sockets)].sendall(data)
            sent += 1
        except OSError:
            break
    print(json.dumps({"sent": sent, "connections": len(sockets), "seconds": time.monotonic() - began}), flush=True)
    sys.stdin.read()
    for sock in sockets:
        sock.close()


async def session(host: str, port: int) -> dict:
    import websockets  # the tests' venv has it

    async with websockets.connect(f"ws://{host}:{port}/", subprotocols=[SUBPROTOCOL], open_timeout=10) as ws:
        await ws.send(json.dumps({"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3}))
        welcome = False
        while not welcome:
            message = json.loads(await asyncio.wait_for(ws.recv(), 10))
            welcome = message.get("type") == "welcome"
        for step, (phase, dy) in enumerate([("start", 0), ("move", 40), ("move", 40), ("end", 0)]):
            await ws.send(json.dumps({"type": "touch", "phase": phase, "dx": 0, "dy": dy, "t": 1000 + 16 * step,
                                      "id": 1}))
        frames = 0
        while frames < 1:
            message = json.loads(await asyncio.wait_for(ws.recv(), 10))
            frames += message.get("type") == "frame"
        return {"welcome": welcome, "frames": frames}


async def hellos(host: str, port: int, count: int) -> dict:
    """`count` hellos on one connection as fast as it can send them, each for a new session (leaving the one before
    to wait out its grace), then their answers: welcomes, errors by code, and the hellos that got none (the server
    drops what an address sends over its budget once it said `rate_limited`) once 3 s pass without a message or the
    server closes the connection (its code in `closed`)."""
    import websockets

    welcomes, errors, closed, answered = 0, {}, None, 0
    async with websockets.connect(f"ws://{host}:{port}/", subprotocols=[SUBPROTOCOL], open_timeout=10) as ws:
        hello = json.dumps({"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3})
        for _ in range(count):
            await ws.send(hello)
        try:
            while answered < count:
                message = json.loads(await asyncio.wait_for(ws.recv(), 3))
                if message.get("type") == "welcome":
                    welcomes += 1
                    answered += 1
                elif message.get("type") == "error" and message.get("ref") == "hello":
                    errors[message["code"]] = errors.get(message["code"], 0) + 1
                    answered += 1
                elif message.get("type") == "error":
                    errors[message["code"]] = errors.get(message["code"], 0) + 1
        except TimeoutError:
            pass
        except websockets.ConnectionClosed as error:
            closed = error.rcvd.code if error.rcvd else None
    return {"welcomes": welcomes, "errors": errors, "unanswered": count - answered, "closed": closed}


def main() -> None:
    command, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if command == "get":
        result = request("GET", host, port, sys.argv[4], None, headers_of(sys.argv[5:]))
    elif command == "post":
        result = request("POST", host, port, sys.argv[4], sys.argv[5].encode(), headers_of(sys.argv[6:]))
    elif command == "posts":
        result = posts(host, port, sys.argv[4], sys.argv[5].encode(), int(sys.argv[6]), headers_of(sys.argv[7:]))
    elif command == "sockets":
        result = sockets(host, port, int(sys.argv[4]))
    elif command == "flood":
        flood(host, port, int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]), sys.argv[7])
        return
    elif command == "hold":
        hold(host, port, int(sys.argv[4]))
        return
    elif command == "hellos":
        result = asyncio.run(hellos(host, port, int(sys.argv[4])))
    elif command == "session":
        result = asyncio.run(session(host, port))
    else:
        sys.exit(f"unknown command {command}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
