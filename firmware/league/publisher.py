"""The box's side of the league: ``box.events`` -> outbox -> MQTT.

The box's thread only puts each event on a queue (:meth:`Publisher.follow`); the
publisher's thread turns it into messages, stores them in the :class:`Outbox` and sends
what the league has not acknowledged: at once (at most :attr:`Publisher.WINDOW` on the
way), again on every reconnect and again when the league's ack has not moved for
:attr:`Publisher.RESEND` seconds. So a broker that is down,
restarts or loses its queue, or a box off the network for a while, loses nothing; the
league drops the doubles (same box and ``n``).
"""

from __future__ import annotations

import logging
import queue
import ssl
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from farmbox.firmware.box.events import Event
from farmbox.firmware.league import wire
from farmbox.firmware.league.outbox import Outbox

log = logging.getLogger("farmbox.league")

ENTITIES = {"game": "Game", "turn": "Turn", "leader": "Leader", "predator": "Last predator"}


class Publisher:
    """Publish one box's games as ``box`` to ``broker``:``port``."""

    #: Unacknowledged messages are sent again when the league's ack has not moved for this long (s).
    RESEND = 3.0
    #: At most this many messages on the way without the league's ack.
    WINDOW = 64

    def __init__(self, box: Any, game_type: str, name: str, outbox: Outbox, *,
                 broker: str = "localhost", port: int = 1883, username: str = "",
                 password: str = "", tls: bool = False, ca_file: str = "",
                 clock: Any = time.time) -> None:
        self.box = box
        self.game_type = game_type
        self.name = name
        self.outbox = outbox
        self.broker, self.port = broker, port
        self.clock = clock
        self._queue: queue.Queue[Event | threading.Event | None] = queue.Queue()
        self._wake = threading.Event()
        #: outbox n -> when it was last sent (monotonic); only the publisher's thread uses it.
        self._sent: dict[int, float] = {}
        self._resend_all = False
        self._acked_seen = 0
        self._state_sent = b""
        self._progress_at = 0.0
        self._connected = threading.Event()
        self._thread: threading.Thread | None = None
        self.summary: dict[str, Any] = {"game": game_type, "turn": None, "leader": None,
                                        "predator": None, "over": False}
        self.names: list[str] = [s for s in outbox.get("names").split("\t") if s]
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"farmbox-box-{name}",
                             clean_session=True)
        if username:
            client.username_pw_set(username, password or None)
        if tls:
            client.tls_set(ca_certs=ca_file or None, cert_reqs=ssl.CERT_REQUIRED)
        client.will_set(wire.state_topic(name), wire.encode({**self.summary, "online": False}),
                        qos=1, retain=True)
        client.reconnect_delay_set(min_delay=1, max_delay=4)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_ack
        self.client = client

    # -- life ---------------------------------------------------------------------
    def start(self) -> Publisher:
        """Follow the box and connect (in the background: a broker that is down is retried)."""
        self.box.events.subscribe(self.follow)
        self.client.connect_async(self.broker, self.port, keepalive=15)
        self.client.loop_start()
        self._thread = threading.Thread(target=self._run, name="league-publisher", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Publish what is queued, disconnect, close the outbox."""
        self.box.events.unsubscribe(self.follow)
        self._queue.put(None)
        self._wake.set()
        if self._thread is not None:
            self._thread.join(10)
        self.client.disconnect()
        self.client.loop_stop()
        self.outbox.close()

    def follow(self, event: Event) -> None:
        """On the box's thread: queue the event, nothing more."""
        self._queue.put(event)
        self._wake.set()

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every event followed so far is in the outbox; False on timeout."""
        done = threading.Event()
        self._queue.put(done)
        self._wake.set()
        return done.wait(timeout)

    def outbox_last(self) -> int:
        """The newest outbox number, once every event followed so far is stored."""
        self.flush()
        return self.outbox.last

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    # -- MQTT callbacks (paho's thread) ----------------------------------------------
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any = None) -> None:
        if reason.is_failure:
            log.warning("league broker refused: %s", reason)
            return
        client.subscribe(wire.ack_topic(self.name), qos=1)
        self._discovery()
        self._resend_all = True  # everything unacknowledged goes again
        self._connected.set()
        self._wake.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any = None) -> None:
        self._connected.clear()

    def _on_ack(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        try:
            n = int(wire.decode(message.payload)["n"])
        except (ValueError, KeyError, TypeError):
            log.warning("bad ack on %s ignored", message.topic)
            return
        self.outbox.acknowledge(n)
        self._wake.set()  # the window moves on

    # -- the publisher's thread ------------------------------------------------------------
    def _run(self) -> None:
        while True:
            self._wake.wait(self.RESEND / 2)
            self._wake.clear()
            while True:
                try:
                    event = self._queue.get_nowait()
                except queue.Empty:
                    break
                if event is None:
                    self._send()
                    return
                if isinstance(event, threading.Event):
                    event.set()
                    continue
                try:
                    self._take(event)
                except Exception:  # one odd event must not stop the league
                    log.exception("league: event %r not published", event)
            self._send()

    def _take(self, event: Event) -> None:
        if event.kind == "names":
            self.names = [str(n) for n in event.data.get("names", [])]
            self.outbox.put("names", "\t".join(self.names))
            return
        if event.kind != "action":
            return
        action = event.data.get("action") or {}
        state: Any = event.data.get("state")
        if hasattr(state, "to_dict"):
            state = state.to_dict()
        kind = str(action.get("action", ""))
        if kind == "new_game" or not self.outbox.get("game"):
            self.outbox.put("game", f"{self.name}-{int(self.clock() * 1000)}-{event.seq}")
            self.outbox.put("reported", "")
        game = self.outbox.get("game")
        now = self.clock()
        self.outbox.add({"type": "action", "box": self.name, "game_type": self.game_type,
                         "game": game, "seq": event.seq, "action": kind, "t": now})
        if isinstance(state, dict) or state is None:
            self.summary = {"game": self.game_type, **wire.summary(self.game_type, state or {})}
            order = None if state is None else wire.ranking(self.game_type, state)
            if order is not None and self.outbox.get("reported") != game:
                players = len(order)
                names = [self.names[s] if s < len(self.names) else f"{self.name}:farmer {s + 1}"
                         for s in range(players)]
                self.outbox.add({"type": "result", "box": self.name, "game_type": self.game_type,
                                 "game": game, "seq": event.seq, "players": names,
                                 "ranking": order, "t": now})
                self.outbox.put("reported", game)

    def _send(self) -> None:
        """Go-back-N: at most :attr:`WINDOW` messages unacknowledged on the way; when the
        league's ack has not moved for :attr:`RESEND` s, the whole window goes again."""
        if not self._connected.is_set():
            return
        now = time.monotonic()
        acked = self.outbox.acknowledged
        if self._resend_all:
            self._resend_all = False
            self._sent.clear()
            self._state_sent = b""
        if acked > self._acked_seen:
            self._acked_seen, self._progress_at = acked, now
        for n in [n for n in self._sent if n <= acked]:
            del self._sent[n]
        if self._sent and now - self._progress_at > self.RESEND:
            self._sent.clear()  # lost on the way (a broker restart): again
            self._progress_at = now
        state = wire.encode({**self.summary, "online": True})
        if state != self._state_sent:  # retained: sent when it changes and on each connect
            self.client.publish(wire.state_topic(self.name), state, qos=1, retain=True)
            self._state_sent = state
        if len(self._sent) >= self.WINDOW:
            return
        for message in self.outbox.pending(self.WINDOW):
            n = int(message["n"])
            if n in self._sent:
                continue
            if len(self._sent) >= self.WINDOW:
                break
            info = self.client.publish(wire.events_topic(self.name), wire.encode(message), qos=1)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                return  # disconnected meanwhile: all of it again on reconnect
            if not self._sent:
                self._progress_at = now
            self._sent[n] = now

    def _discovery(self) -> None:
        """Home Assistant MQTT discovery: a sensor for each of :data:`ENTITIES` (retained)."""
        device = {"identifiers": [f"farmbox_{self.name}"], "name": f"farmbox {self.name}",
                  "manufacturer": "farmbox"}
        for key, title in ENTITIES.items():
            uid = f"farmbox_{self.name}_{key}"
            config = {"name": title, "unique_id": uid, "object_id": uid,
                      "state_topic": wire.state_topic(self.name),
                      "value_template": f"{{{{ value_json.{key} }}}}",
                      "availability_topic": wire.state_topic(self.name),
                      "availability_template": "{{ 'online' if value_json.online else 'offline' }}",
                      "device": device}
            self.client.publish(f"{wire.DISCOVERY}/sensor/{uid}/config", wire.encode(config),
                                qos=1, retain=True)


def publish_beside(box: Any, config: Any) -> Publisher | None:
    """The publisher for ``farmbox run`` as ``[league]`` asks (None when it is off)."""
    lc = config.league
    if not lc.enabled:
        return None
    path = Path(lc.outbox) if lc.outbox else Path(config.journal.dir) / "outbox.sqlite"
    path.parent.mkdir(parents=True, exist_ok=True)
    publisher = Publisher(box, config.game.mode, lc.box, Outbox(path), broker=lc.broker,
                          port=lc.port, username=lc.username, password=lc.password, tls=lc.tls,
                          ca_file=lc.ca_file).start()
    log.info("league: box %r publishing to %s:%d", lc.box, lc.broker, lc.port)
    return publisher
