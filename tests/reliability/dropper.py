"""A TCP proxy in front of PostgreSQL that drops the connection carrying the next COMMIT: before
the server sees it (the transaction is lost) or right after (it commits, but the client never
hears so). Real fault injection on the wire, for case 14."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Literal

Drop = Literal["before", "after"]


class CommitDropper:
    def __init__(self, host: str = "127.0.0.1", port: int = 5432) -> None:
        self.target = (host, port)
        self.port = 0
        self.armed: Drop | None = None
        self.dropped = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="commit-dropper", daemon=True)

    def __enter__(self) -> CommitDropper:
        self._thread.start()
        assert self._ready.wait(10), "the proxy did not start"
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def arm(self, drop: Drop) -> None:
        self.dropped.clear()
        self.armed = drop

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(asyncio.start_server(self._relay, "127.0.0.1", 0))
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()
        server.close()

    async def _relay(self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter) -> None:
        server_in, server_out = await asyncio.open_connection(*self.target)

        async def upstream() -> None:
            while data := await client_in.read(65536):
                drop = self.armed
                # COMMIT goes as a simple Query ('Q') message whose text is "COMMIT;".
                if drop is not None and b"COMMIT" in data:
                    self.armed = None
                    if drop == "after":
                        server_out.write(data)
                        await server_out.drain()
                        server_out.close()  # flushed, then FIN: the server commits, then sees EOF
                    else:
                        server_out.transport.abort()
                    client_out.transport.abort()
                    self.dropped.set()
                    return
                server_out.write(data)
                await server_out.drain()
            server_out.close()

        async def downstream() -> None:
            while data := await server_in.read(65536):
                client_out.write(data)
                await client_out.drain()
            client_out.close()

        with contextlib.suppress(Exception):
            await asyncio.gather(upstream(), downstream(), return_exceptions=True)
