"""The table view's server: aiohttp on its own thread, following one box.

- ``GET /`` the page (``static/``), ``GET /icons/NAME.svg`` our icons,
  ``GET /api/view`` the game now (JSON), ``GET /events`` every change (server-sent events);
- ``GET /api/crop/DIE.jpg`` the camera's picture of each die of the last read roll;
- ``POST /api/command`` ``{"pin", "command", ...}``: a correction, undo, new game or the
  players' names. A wrong PIN is 403 and changes nothing; too many wrong PINs from one
  address are 429 for a while (:class:`~farmbox.firmware.web.guard.PinGuard`).

The box's thread only schedules an update (``loop.call_soon_threadsafe``) when it publishes
an event; the view is built and sent on the server's thread, so 50 viewers cost the box's
button-to-OLED path nothing but that call.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import time
from importlib import resources
from typing import Any

from aiohttp import web

from farmbox.firmware.box.events import Event
from farmbox.firmware.web import commands, icons, views
from farmbox.firmware.web.guard import PinGuard
from farmbox.firmware.web.serving import AppThread, loopback_or

log = logging.getLogger("farmbox.web")

#: How often the page's view is checked for changes that publish no event (an unsure read
#: asking for confirmation, a phase change), in seconds.
POLL = 0.25
#: A comment line on every event stream this often keeps proxies and phones from closing it.
KEEPALIVE = 15.0
#: The largest command body read (bytes).
MAX_BODY = 4096

STATIC_TYPES = {"index.html": "text/html", "app.js": "text/javascript", "style.css": "text/css"}


def _static(name: str) -> bytes:
    return resources.files("farmbox.firmware.web").joinpath("static", name).read_bytes()


class TableServer(AppThread):
    """Serve the live view of ``box`` (a game ``mode``) on ``bind``:``port`` (0: any free port)."""

    thread_name = "table-view"

    def __init__(self, box: Any, mode: str, *, port: int = 8080, bind: str = "0.0.0.0",
                 pin: str = "", clock: Any = time.monotonic) -> None:
        if mode not in views.VIEWS:
            raise ValueError(f"no table view for {mode!r}")
        super().__init__(port=port, bind=bind, max_body=MAX_BODY)
        self.box = box
        self.mode = mode
        self.guard = PinGuard(pin, clock=clock)
        self.memory = views.Memory()
        self.view: dict[str, Any] = {}
        self.text = "{}"
        self.revision = 0
        #: monotonic ns of the newest event from the box (for the bench's latency).
        self.event_ns = 0
        self._clients: set[asyncio.Queue[str | None]] = set()
        self._dirty = False
        self._assets = {name: _static(name) for name in STATIC_TYPES}

    # -- life ---------------------------------------------------------------------
    def start(self) -> TableServer:
        """Start serving on a thread; returns once the port is bound (OSError if it is not)."""
        self.start_serving()
        self.box.events.subscribe(self._follow)
        self.box.table_url = self.lan_url
        return self

    @property
    def url(self) -> str:
        """The page on this machine (the loopback address when serving every address)."""
        return f"http://{loopback_or(self.bind)}:{self.port}/"

    @property
    def lan_url(self) -> str:
        """The page as the phones at the table reach it: the box's LAN address (what the
        OLED's table-view screen shows and encodes as a QR code)."""
        host = lan_address() if self.bind in ("0.0.0.0", "", "::") else self.bind
        return f"http://{host}:{self.port}/"

    def stop(self) -> None:
        """Stop serving (every event stream is closed)."""
        self.box.events.unsubscribe(self._follow)
        self.box.table_url = None
        self.stop_serving()

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/", self._page), web.get("/static/{name}", self._asset),
            web.get("/icons/{name}.svg", self._icon), web.get("/api/view", self._view),
            web.get("/events", self._events), web.post("/api/command", self._command),
            web.get("/api/crop/{die}.jpg", self._crop),
            web.get("/enroll", _enroll_elsewhere),  # served by `farmbox enroll` (farmbox.firmware.web.enroll)
        ]

    async def opened(self) -> None:
        self._rebuild()

    def running(self, loop: asyncio.AbstractEventLoop) -> list[asyncio.Task[None]]:
        return [loop.create_task(self._poll())]

    async def closing(self) -> None:
        for queue in list(self._clients):
            queue.put_nowait(None)

    # -- following the box -----------------------------------------------------------
    def _follow(self, event: Event) -> None:
        """On the box's thread: remember the event, schedule the update; nothing more."""
        self.event_ns = time.monotonic_ns()
        if event.kind == "action":
            self.memory.event = event
        loop = self._loop
        if loop is not None and not self._dirty:
            self._dirty = True
            loop.call_soon_threadsafe(self._update)

    def _update(self) -> None:
        self._dirty = False
        self._rebuild()

    def _rebuild(self) -> bool:
        """Build the view; send it to every viewer if it changed. True if it changed."""
        view = views.VIEWS[self.mode](self.box, self.memory)
        view["names"] = self._seat_names(view)
        if not view.get("seq"):
            view["seq"] = int(getattr(getattr(self.box, "journal", None), "seq", 0))
        view["pin"] = self.guard.enabled
        if view == self.view:
            return False
        self.view = view
        self.revision += 1
        self.text = json.dumps({**view, "revision": self.revision}, separators=(",", ":"))
        for queue in self._clients:
            queue.put_nowait(self.text)
        return True

    def _seat_names(self, view: dict[str, Any]) -> list[str]:
        names = tuple(getattr(self.box, "names", ()))
        players = int(view.get("players") or len(names))
        return [names[i] if i < len(names) else f"Farmer {i + 1}" for i in range(players)]

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(POLL)
            try:
                self._rebuild()
            except Exception:  # a half-updated session: the next poll sees it whole
                log.debug("view not built this time", exc_info=True)

    # -- handlers -----------------------------------------------------------------------
    async def _page(self, request: web.Request) -> web.Response:
        return web.Response(body=self._assets["index.html"], content_type="text/html")

    async def _asset(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC_TYPES:
            raise web.HTTPNotFound()
        return web.Response(body=self._assets[name], content_type=STATIC_TYPES[name],
                            headers={"Cache-Control": "max-age=3600"})

    async def _icon(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in icons.DRAW:
            raise web.HTTPNotFound()
        return web.Response(text=icons.svg(name), content_type="image/svg+xml",
                            headers={"Cache-Control": "max-age=86400"})

    async def _crop(self, request: web.Request) -> web.Response:
        """The camera's picture of one die of the roll shown (``green`` or ``red``)."""
        jpeg = views.die_crop(self.box, request.match_info["die"])
        if jpeg is None:
            raise web.HTTPNotFound()
        return web.Response(body=jpeg, content_type="image/jpeg",
                            headers={"Cache-Control": "no-store"})

    async def _view(self, request: web.Request) -> web.Response:
        return web.Response(text=self.text, content_type="application/json",
                            headers={"Cache-Control": "no-store"})

    async def _events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-store",
            "X-Accel-Buffering": "no"})
        await response.prepare(request)
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._clients.add(queue)
        try:
            await response.write(f"data: {self.text}\n\n".encode())
            while True:
                try:
                    text = await asyncio.wait_for(queue.get(), KEEPALIVE)
                except TimeoutError:
                    await response.write(b": keep-alive\n\n")
                    continue
                if text is None:
                    break
                while not queue.empty():  # a slow phone skips to the newest view
                    newer = queue.get_nowait()
                    if newer is None:
                        return response
                    text = newer
                await response.write(f"data: {text}\n\n".encode())
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self._clients.discard(queue)
        return response

    async def _command(self, request: web.Request) -> web.Response:
        client = request.remote or "?"
        try:
            body = await request.json()
        except (ValueError, web.HTTPRequestEntityTooLarge):
            return _answer(400, "the body must be a JSON object")
        if not isinstance(body, dict):
            return _answer(400, "the body must be a JSON object")
        pin = body.get("pin")
        verdict = self.guard.check(client, pin if isinstance(pin, str) else "")
        if verdict == "no_pin":
            return _answer(403, "this box's table view is read-only (no [web] pin set)")
        if verdict == "locked":
            wait = self.guard.retry_after(client)
            return _answer(429, f"too many wrong PINs: try again in {wait:.0f} s",
                           {"Retry-After": str(max(1, round(wait)))})
        if verdict != "ok":
            return _answer(403, "wrong PIN")
        if getattr(self.box, "saving", False):  # the box retries a journal write: wait
            return _answer(409, "not saved yet: the box cannot write its journal (disk full?); "
                                "try again once it can")
        try:
            if body.get("command") == "names":
                items = commands.names_command(body, int(self.view.get("players") or 0))
            else:
                items = commands.COMMANDS[self.mode](self.box, body)
        except commands.BadCommand as exc:
            return _answer(400, str(exc))
        except commands.NotNow as exc:
            return _answer(409, str(exc))
        for item in items:
            self.box.inbox.put(item)
        return _answer(202, "sent to the table", seq=self.view.get("seq", 0))


#: /enroll while a game runs: enrollment owns the camera, so `farmbox enroll` serves that page.
ENROLL_ELSEWHERE = ("<!doctype html><meta name=viewport content='width=device-width'><title>farmbox"
                    "</title><p>A game is running. To enroll, stop it on the box (<code>systemctl stop "
                    "farmbox</code>) and run <code>farmbox enroll cards</code> (or <code>dice</code>, "
                    "<code>colour-dice</code>), then open this page again.")


async def _enroll_elsewhere(request: web.Request) -> web.Response:
    return web.Response(text=ENROLL_ELSEWHERE, content_type="text/html", status=409)


def _answer(status: int, message: str, headers: dict[str, str] | None = None,
            **extra: Any) -> web.Response:
    return web.json_response({"ok": status < 300, "message": message, **extra}, status=status,
                             headers=headers)


def serve_beside(box: Any, config: Any) -> TableServer | None:
    """The table view for ``farmbox run`` as ``[web]`` asks (None when port = 0)."""
    if config.web.port == 0:
        return None
    server = TableServer(box, config.game.mode, port=config.web.port, bind=config.web.bind,
                         pin=config.web.pin).start()
    log.info("table view on %s%s", server.lan_url,
             "" if config.web.pin else " (read-only: no [web] pin)")
    return server


def lan_address() -> str:
    """This machine's address on its LAN: the one its default route leaves from (no packet
    is sent), else its hostname's, else the loopback address (a box with no network)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routed like any other address
            return str(probe.getsockname()[0])
        except OSError:
            pass
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"
