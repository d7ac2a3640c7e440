"""Alert LEDs (fox, wolf, dog, ok) on gpiozero LED or PWMLED outputs."""

from __future__ import annotations

from collections.abc import Mapping

from gpiozero import LED, PWMLED
from gpiozero.pins import Factory

from farmbox.hw.patterns import LIGHT_PATTERNS, PatternOutput, PatternPlayer


class Lights(PatternOutput[frozenset[str]]):
    """The alert LEDs; :meth:`alert` plays a pattern in the background.

    ``pwm=True`` uses PWMLED (needs PWM-capable pins; mock pins from
    :func:`farmbox.hw.pins.pin_factory` are). ``tempo`` scales pattern durations.
    """

    patterns = LIGHT_PATTERNS

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

    def set(self, name: str, on: bool) -> None:
        """Light or darken one LED steadily (stops any pattern)."""
        self._player.stop()
        led = self.leds[name]
        led.on() if on else led.off()

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
