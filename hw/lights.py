"""Alert LEDs (fox, wolf, dog, ok) on gpiozero LED or PWMLED outputs."""

from __future__ import annotations

from collections.abc import Mapping

from gpiozero import LED, PWMLED
from gpiozero.pins import Factory

from hw.patterns import LIGHT_PATTERNS, PatternPlayer, check_alert


class Lights:
    """The alert LEDs; :meth:`alert` plays a pattern in the background.

    ``pwm=True`` uses PWMLED (needs PWM-capable pins; mock pins from
    :func:`hw.pins.pin_factory` are). ``tempo`` scales pattern durations.
    """

    def __init__(self, pins: Mapping[str, int], pin_factory: Factory | None = None,
                 pwm: bool = False, tempo: float = 1.0) -> None:
        kind = PWMLED if pwm else LED
        self.leds: dict[str, LED | PWMLED] = {}
        try:
            for name, pin in pins.items():
                self.leds[name] = kind(pin, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise
        self._player: PatternPlayer[frozenset[str]] = PatternPlayer(self._light, frozenset(), tempo)

    def alert(self, name: str, wait: bool = False) -> None:
        """Play the pattern for alert ``name`` (see :data:`hw.patterns.ALERTS`); non-blocking."""
        check_alert(name)
        self._player.play(LIGHT_PATTERNS[name], wait=wait)

    def set(self, name: str, on: bool) -> None:
        """Light or darken one LED steadily (stops any pattern)."""
        self._player.stop()
        led = self.leds[name]
        led.on() if on else led.off()

    @property
    def tempo(self) -> float:
        """Speed factor for pattern durations (1.0: as designed; tests play faster)."""
        return self._player.tempo

    @tempo.setter
    def tempo(self, value: float) -> None:
        self._player.tempo = value

    @property
    def playing(self) -> bool:
        return self._player.playing

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the current pattern ends."""
        return self._player.wait(timeout)

    def off(self) -> None:
        """Stop any pattern; all LEDs dark."""
        self._player.stop()
        for led in self.leds.values():
            led.off()

    def close(self) -> None:
        if hasattr(self, "_player"):
            self._player.stop()
        for led in self.leds.values():
            led.close()
        self.leds.clear()

    def _light(self, lit: frozenset[str]) -> None:
        for name, led in self.leds.items():
            if name in lit:
                led.on()
            else:
                led.off()
