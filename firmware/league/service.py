"""``farmbox league``: subscribe to every box's events, keep the league, acknowledge, and
serve the leaderboard page.

The league's MQTT session is persistent (a fixed client id, clean_session False), so the
broker keeps QoS 1 events for it while it is away; whatever a broker loses on a restart the
boxes send again, because the league acknowledges (``farmbox/<box>/ack``, retained) only
what it has stored.
"""

from __future__ import annotations

import html
import logging
import queue
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
from aiohttp import web

from farmbox.firmware.league import wire
from farmbox.firmware.league.store import League

log = logging.getLogger("farmbox.league")

STOP: Any = object()  # the store thread's end


class LeagueService:
    """Follow ``farmbox/+/events`` on ``broker``:``port`` into ``league``."""

    def __init__(self, league: League, *, broker: str = "localhost", port: int = 1883,
                 username: str = "", password: str = "", client_id: str = "farmbox-league") -> None:
        self.league = league
        self.broker, self.port = broker, port
        self.stored = 0
        self.doubles = 0
        self._queue: queue.Queue[Any] = queue.Queue()
        self._states: dict[str, dict[str, Any]] = {}
        self._thread = threading.Thread(target=self._store, name="league-store", daemon=True)
        self._changed = threading.Condition()
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False)
        if username:
            client.username_pw_set(username, password or None)
        client.reconnect_delay_set(min_delay=1, max_delay=4)
        client.on_connect = self._on_connect
        client.on_message = self._on_message
        self.client = client
        self.connected = threading.Event()
        client.on_disconnect = lambda *a: self.connected.clear()

    #: At most this many messages in one transaction.
    BATCH = 500

    def start(self) -> LeagueService:
        self._thread.start()
        self.client.connect_async(self.broker, self.port, keepalive=15)
        self.client.loop_start()
        return self

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        self._queue.put(STOP)
        self._thread.join(10)

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any = None) -> None:
        if reason.is_failure:
            log.warning("league: broker refused: %s", reason)
            return
        client.subscribe([(f"{wire.PREFIX}/+/events", 1), (f"{wire.PREFIX}/+/state", 1)])
        self.connected.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        """On paho's thread: hand the message to the store's thread."""
        box = wire.box_of(message.topic)
        if box is None:
            return
        try:
            data = wire.decode(message.payload)
        except ValueError as exc:
            log.warning("league: bad message on %s ignored: %s", message.topic, exc)
            return
        if message.topic.endswith("/state"):
            self._states[box] = data
            self._queue.put(None)
        else:
            self._queue.put((box, data, time.time()))

    def _store(self) -> None:
        """The store's thread: everything queued in one transaction, then the acks."""
        while True:
            first = self._queue.get()
            if first is STOP:
                return
            batch = [first]
            while len(batch) < self.BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            stopping = STOP in batch
            items = [b for b in batch if isinstance(b, tuple)]
            states, self._states = self._states, {}
            for box, state in states.items():
                self.league.box_state(box, state)
            if items:
                self._take(items)
            with self._changed:
                self._changed.notify_all()
            if stopping:
                return

    def _take(self, items: list[tuple[str, dict[str, Any], float]]) -> None:
        try:
            fresh = self.league.take_many(items)
        except ValueError:  # one bad message: store the others one by one
            fresh = []
            for item in items:
                try:
                    fresh.append(self.league.take(*item))
                except ValueError as exc:
                    log.warning("league: bad message from %s ignored: %s", item[0], exc)
                    fresh.append(False)
        new = sum(fresh)
        self.stored += new
        self.doubles += len(fresh) - new
        for box in {box for box, _, _ in items}:
            self.client.publish(wire.ack_topic(box), wire.encode({"n": self.league.acked(box)}),
                                qos=1, retain=True)

    def wait(self, test: Any, timeout: float) -> bool:
        """Wait until ``test()`` is true, woken by each stored message; False on timeout."""
        end = time.monotonic() + timeout
        with self._changed:
            while not test():
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(min(left, 0.5))
        return True


def leaderboard_html(report: dict[str, Any]) -> str:
    """The leaderboard page (server-side HTML, the table view's look, no script needed)."""
    parts = ['<!doctype html><html lang="en"><head><meta charset="utf-8">'
             '<meta name="viewport" content="width=device-width, initial-scale=1">'
             '<meta http-equiv="refresh" content="10"><title>farmbox league</title>'
             '<link rel="stylesheet" href="/static/style.css"></head><body>'
             '<header><h1>farmbox league</h1><span class="turn">'
             f'{len(report["games"])} games, {len(report["players"])} players</span></header><main>']
    for game_type, rows in sorted(report["leaderboard"].items()):
        parts.append(f'<section class="panel" data-game-type="{html.escape(game_type)}">'
                     f'<h2>{html.escape(game_type)}</h2><table><tr><th>player</th><th>rating</th>'
                     '<th>games</th><th>wins</th></tr>')
        for r in rows:
            parts.append(f'<tr class="player"><td>{html.escape(r["name"])}</td><td>{r["rating"]:.0f}</td>'
                         f'<td>{r["games"]}</td><td>{r["wins"]}</td></tr>')
        parts.append("</table></section>")
    parts.append('<section class="panel"><h2>Boxes</h2><table><tr><th>box</th><th>game</th><th>turn</th>'
                 '<th>leader</th><th>last predator</th></tr>')
    for box, st in sorted(report["boxes"].items()):
        st = st or {}
        parts.append(f'<tr><td>{html.escape(box)}</td><td>{html.escape(str(st.get("game", "")))}</td>'
                     f'<td>{st.get("turn", "")}</td><td>{st.get("leader", "")}</td>'
                     f'<td>{html.escape(str(st.get("predator") or ""))}</td></tr>')
    parts.append("</table></section></main></body></html>")
    return "".join(parts)


def leaderboard_app(league: League) -> web.Application:
    """``/`` the leaderboard, ``/report.json`` the report, ``/static/style.css``."""
    from farmbox.firmware.web.server import _static

    style = _static("style.css")

    async def page(request: web.Request) -> web.Response:
        return web.Response(text=leaderboard_html(league.report()), content_type="text/html")

    async def report(request: web.Request) -> web.Response:
        return web.json_response(league.report())

    async def css(request: web.Request) -> web.Response:
        return web.Response(body=style, content_type="text/css")

    app = web.Application()
    app.add_routes([web.get("/", page), web.get("/report.json", report), web.get("/static/style.css", css)])
    return app
