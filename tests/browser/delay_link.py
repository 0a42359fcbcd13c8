"""A small user-space link for the prediction tests: a TCP proxy between Chromium and the real server that
delays every chunk by a fixed time in each direction (order kept) and can stall both directions for a
while, as a phone's Wi-Fi power saving does (issue 18's table was measured through such a proxy). It sits
where the network is, so the page, the WebSocket and the server are all the real ones.

The delays are the link being modelled, not waits of the test: the tests wait for states."""
from __future__ import annotations

import asyncio
import socket
import threading


class DelayLink:
    def __init__(self, target_port: int, delay_ms: float, host: str = "127.0.0.1", port: int = 0):
        self.target = (host, target_port)
        self.delay = delay_ms / 1000.0
        self.stall_until = 0.0
        self.loop = asyncio.new_event_loop()
        self.sock = socket.create_server((host, port))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://{host}:{self.port}"
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.started = threading.Event()
        self.thread.start()
        self.started.wait(5)

    def _run(self):
        asyncio.set_event_loop(self.loop)

        async def main():
            server = await asyncio.start_server(self._accept, sock=self.sock)
            self.started.set()
            await server.serve_forever()

        self.main = self.loop.create_task(main())
        try:
            self.loop.run_until_complete(self.main)
        except asyncio.CancelledError:
            pass
        rest = asyncio.all_tasks(self.loop)
        for task in rest:
            task.cancel()
        self.loop.run_until_complete(asyncio.gather(*rest, return_exceptions=True))
        self.loop.close()

    async def _accept(self, client_r, client_w):
        try:
            server_r, server_w = await asyncio.open_connection(*self.target)
        except OSError:
            client_w.close()
            return
        try:
            await asyncio.gather(self._pipe(client_r, server_w), self._pipe(server_r, client_w))
        except (asyncio.CancelledError, OSError):  # the link closes; a cancelled handler would be logged as an error
            client_w.close()
            server_w.close()

    async def _pipe(self, reader, writer):
        queue: asyncio.Queue = asyncio.Queue()

        async def read():
            while True:
                chunk = await reader.read(65536)
                await queue.put((self.loop.time() + self.delay, chunk))
                if not chunk:
                    return

        async def write():
            while True:
                due, chunk = await queue.get()
                while True:  # a stall that begins while a chunk waits holds it too
                    wait = max(due, self.stall_until) - self.loop.time()
                    if wait <= 0:
                        break
                    await asyncio.sleep(wait)
                if not chunk:
                    writer.close()
                    return
                writer.write(chunk)
                await writer.drain()

        await asyncio.gather(read(), write(), return_exceptions=True)
        writer.close()

    def stall(self, ms: float):
        """Holds everything in both directions for `ms` from now (what is sent meanwhile arrives after)."""
        def begin():
            self.stall_until = self.loop.time() + ms / 1000.0
        self.loop.call_soon_threadsafe(begin)

    def close(self):
        self.loop.call_soon_threadsafe(self.main.cancel)
        self.thread.join(5)
