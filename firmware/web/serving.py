"""An aiohttp application served on a thread and an event loop of its own (the table view,
the phone enrollment page): the box's own thread is never blocked by a viewer."""

from __future__ import annotations

import asyncio
import threading

from aiohttp import web

#: How long starting waits for the port to be bound, and stopping for the thread, in seconds.
WAIT = 30.0


def loopback_or(bind: str) -> str:
    """The host to reach a server bound to ``bind`` from this machine."""
    return "127.0.0.1" if bind in ("0.0.0.0", "", "::") else bind


class AppThread:
    """Serves :meth:`routes` on ``bind``:``port`` (0: any free port; :attr:`port` is then the
    one bound).  Subclasses give the routes and may hook :meth:`opened` (on the loop, once the
    port is bound), :meth:`running` (tasks that live as long as the loop) and
    :meth:`closing` (on the loop, before the connections are closed)."""

    thread_name = "web"

    def __init__(self, *, port: int, bind: str, max_body: int) -> None:
        self.port = port
        self.bind = bind
        self._max_body = max_body
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._failed: BaseException | None = None

    # -- hooks ----------------------------------------------------------------------
    def routes(self) -> list[web.RouteDef]:
        """What is served."""
        raise NotImplementedError

    async def opened(self) -> None:
        """On the loop, once the port is bound."""

    def running(self, loop: asyncio.AbstractEventLoop) -> list[asyncio.Task[None]]:
        """Tasks to run on the loop while it serves (cancelled when it stops)."""
        return []

    async def closing(self) -> None:
        """On the loop, before the connections are closed."""

    # -- life -----------------------------------------------------------------------
    def start_serving(self) -> None:
        """Serve on a thread; returns once the port is bound (the OSError if it is not)."""
        self._thread = threading.Thread(target=self._serve, name=self.thread_name, daemon=True)
        self._thread.start()
        self._ready.wait(WAIT)
        if self._failed is not None:
            raise self._failed

    def stop_serving(self) -> None:
        """Close every connection and stop the thread."""
        loop = self._loop
        if loop is not None and self._thread is not None and self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(self._shutdown(), loop).result(10)
            loop.call_soon_threadsafe(loop.stop)
            self._thread.join(10)

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._open())
        except BaseException as exc:  # reported to start_serving()
            self._failed = exc
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        tasks = self.running(loop)
        try:
            loop.run_forever()
        finally:
            for task in tasks:
                task.cancel()
            if tasks:
                loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
            loop.close()

    async def _open(self) -> None:
        app = web.Application(client_max_size=self._max_body)
        app.add_routes(self.routes())
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.bind, self.port)
        await site.start()
        sockets = getattr(site._server, "sockets", None) or []
        if sockets:
            self.port = sockets[0].getsockname()[1]
        await self.opened()

    async def _shutdown(self) -> None:
        await self.closing()
        if self._runner is not None:
            await self._runner.cleanup()
