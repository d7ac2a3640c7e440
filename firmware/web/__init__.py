"""The table view: a small aiohttp server on the box that shows the game live on phones and TVs.

:class:`~farmbox.firmware.web.server.TableServer` follows a box through ``box.events`` and
sends every change to the page by server-sent events; with the PIN the page sends
corrections through ``box.inbox``, so they go through the same session and journal as a
button press.
"""
