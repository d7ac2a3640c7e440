"""Many boxes, one league, over MQTT.

- :mod:`~farmbox.firmware.league.publisher`: on the box, follows ``box.events`` and publishes
  them through a local SQLite outbox (``farmbox/<box>/events``, QoS 1) and the box's latest
  summary (``farmbox/<box>/state``, retained), with Home Assistant discovery;
- :mod:`~farmbox.firmware.league.store`: the league's SQLite (games, players, wins, Elo with
  history), fed by :mod:`~farmbox.firmware.league.service` (``farmbox league``), which
  acknowledges what it stored on ``farmbox/<box>/ack`` so a box resends until then.
"""
