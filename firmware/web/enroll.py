"""Enrollment from a phone: the page ``/enroll`` beside the box's buttons and OLED.

Served by ``farmbox enroll cards|colour-dice`` itself (the enrollment owns the camera while it
runs; see :mod:`farmbox.firmware.cli.enroll`), on the ``[web]`` port and PIN of the table view:

- ``GET /enroll`` the page, ``GET /enroll/static/NAME`` its script;
- ``GET /enroll/api/state`` where the enrollment is (JSON): which card or colour to show
  next, the photos kept, the actions that apply now, the weak subjects to shoot again;
- ``GET /enroll/preview.jpg`` (PIN in the ``X-Farmbox-Pin`` header) what the camera sees, the
  found card or die outlined (the photo under review while one is);
- ``GET /enroll/picture.png`` our own picture of the card or colour to show next;
- ``POST /enroll/api/action`` ``{"pin", "action"}``: take, keep, retake, undo, redo, finish.

Every action goes to :meth:`GuidedBox.send`, the queue the box's own loop empties between two
button events, so it goes through the same session as a button press. A wrong PIN is 403
and changes nothing; too many from one address are 429 for a while (:class:`PinGuard`).
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from importlib import resources
from typing import Any

import cv2
import numpy as np
from aiohttp import web
from PIL import Image

from farmbox.firmware.games.enroll.guided import GuidedBox
from farmbox.firmware.games.enroll.shots import ACTIONS
from farmbox.firmware.web.guard import PinGuard
from farmbox.firmware.web.serving import AppThread, loopback_or

log = logging.getLogger("farmbox.web.enroll")

#: The largest action body read (bytes).
MAX_BODY = 1024
#: Width of the preview picture sent to the phone (pixels).
PREVIEW_W = 640
STATIC_TYPES = {"enroll.html": "text/html", "enroll.js": "text/javascript"}
#: Where the found card or die is outlined (BGR).
OUTLINE = (60, 220, 60)


def _static(name: str) -> bytes:
    return resources.files("farmbox.firmware.web").joinpath("static", name).read_bytes()


def state(box: GuidedBox) -> dict[str, Any]:
    """What the page shows, read under the box's lock (one consistent picture)."""
    with box.lock:
        view = box.view()
        view["picture"] = box.picture() is not None
        return view


def subject_png(box: GuidedBox, scale: int = 4) -> bytes | None:
    """Our own picture of the card, colour or die face to show next (the OLED's), as a PNG."""
    with box.lock:
        picture = box.picture()
    if picture is None:
        return None
    big = picture.convert("L").resize((picture.width * scale, picture.height * scale),
                                      Image.Resampling.NEAREST)
    out = io.BytesIO()
    big.save(out, "PNG")
    return out.getvalue()


def preview_jpeg(frame: np.ndarray, outline: np.ndarray | None) -> bytes:
    """``frame`` shrunk for a phone, ``outline`` drawn on it, as JPEG bytes."""
    h, w = frame.shape[:2]
    scale = min(1.0, PREVIEW_W / w)
    small = cv2.resize(frame, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA) \
        if scale < 1.0 else frame.copy()
    if outline is not None and len(outline) >= 2:
        pts = np.round(np.asarray(outline, np.float32) * scale).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(small, [pts], True, OUTLINE, 3, cv2.LINE_AA)
    ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:
        raise RuntimeError("the preview could not be encoded as JPEG")
    return data.tobytes()


class EnrollServer(AppThread):
    """Serve ``/enroll`` for ``box`` on ``bind``:``port`` (0: any free port)."""

    thread_name = "enroll-page"

    def __init__(self, box: GuidedBox, *, port: int = 8080, bind: str = "0.0.0.0", pin: str = "",
                 clock: Any = time.monotonic) -> None:
        super().__init__(port=port, bind=bind, max_body=MAX_BODY)
        self.box = box
        self.guard = PinGuard(pin, clock=clock)
        self._assets = {name: _static(name) for name in STATIC_TYPES}

    @property
    def url(self) -> str:
        return f"http://{loopback_or(self.bind)}:{self.port}/enroll"

    def start(self) -> EnrollServer:
        """Serve on a thread; returns once the port is bound (OSError if it is not)."""
        self.start_serving()
        return self

    def stop(self) -> None:
        """Stop serving (the page then finds the box gone)."""
        self.stop_serving()

    def routes(self) -> list[web.RouteDef]:
        return routes(self)

    # -- handlers -----------------------------------------------------------------------
    async def page(self, request: web.Request) -> web.Response:
        """``GET /enroll``: the page."""
        return web.Response(body=self._assets["enroll.html"], content_type="text/html",
                            headers={"Cache-Control": "no-store"})

    async def asset(self, request: web.Request) -> web.Response:
        """``GET /enroll/static/NAME``: the page's script."""
        name = request.match_info["name"]
        if name not in STATIC_TYPES:
            raise web.HTTPNotFound()
        return web.Response(body=self._assets[name], content_type=STATIC_TYPES[name])

    async def status(self, request: web.Request) -> web.Response:
        """``GET /enroll/api/state``: where the enrollment is (JSON, no PIN needed)."""
        return web.json_response({**state(self.box), "pin": self.guard.enabled},
                                 headers={"Cache-Control": "no-store"})

    def _refused(self, request: web.Request, pin: Any) -> web.Response | None:
        verdict = self.guard.check(request.remote or "?", pin if isinstance(pin, str) else "")
        if verdict == "ok":
            return None
        if verdict == "no_pin":
            return _answer(403, "enrollment from a phone needs a PIN: set [web] pin")
        if verdict == "locked":
            wait = self.guard.retry_after(request.remote or "?")
            return _answer(429, f"too many wrong PINs: try again in {wait:.0f} s",
                           {"Retry-After": str(max(1, round(wait)))})
        return _answer(403, "wrong PIN")

    async def preview(self, request: web.Request) -> web.Response:
        """``GET /enroll/preview.jpg``: what the camera sees, outlined (PIN in a header)."""
        refused = self._refused(request, request.headers.get("X-Farmbox-Pin", ""))
        if refused is not None:
            return refused
        frame, outline = await asyncio.get_running_loop().run_in_executor(None, self.box.preview)
        if frame is None:
            return _answer(503, "no picture from the camera yet", {"Retry-After": "1"})
        data = await asyncio.get_running_loop().run_in_executor(None, preview_jpeg, frame, outline)
        return web.Response(body=data, content_type="image/jpeg",
                            headers={"Cache-Control": "no-store",
                                     "X-Found": "1" if outline is not None else "0"})

    async def picture(self, request: web.Request) -> web.Response:
        """``GET /enroll/picture.png``: our own picture of what to lay down next."""
        data = subject_png(self.box)
        if data is None:
            raise web.HTTPNotFound()
        return web.Response(body=data, content_type="image/png", headers={"Cache-Control": "no-store"})

    async def action(self, request: web.Request) -> web.Response:
        """``POST /enroll/api/action``: one of the owner's actions, with the PIN."""
        try:
            body = await request.json()
        except (ValueError, web.HTTPRequestEntityTooLarge):
            return _answer(400, "the body must be a JSON object")
        if not isinstance(body, dict):
            return _answer(400, "the body must be a JSON object")
        refused = self._refused(request, body.get("pin"))
        if refused is not None:
            return refused
        action = body.get("action")
        if action not in ACTIONS:
            return _answer(400, f"unknown action {action!r}")
        if action not in state(self.box)["actions"]:
            return _answer(409, f"{action} does not apply now")
        self.box.send(str(action))
        return _answer(202, "sent to the box")


def routes(server: EnrollServer) -> list[web.RouteDef]:
    """The enrollment's routes (a table view's app could add the same)."""
    return [web.get("/enroll", server.page), web.get("/enroll/static/{name}", server.asset),
            web.get("/enroll/api/state", server.status), web.get("/enroll/preview.jpg", server.preview),
            web.get("/enroll/picture.png", server.picture), web.post("/enroll/api/action", server.action)]


def _answer(status: int, message: str, headers: dict[str, str] | None = None) -> web.Response:
    return web.json_response({"ok": status < 300, "message": message}, status=status,
                             headers=headers)


__all__ = ["EnrollServer", "preview_jpeg", "routes", "state", "subject_png"]
