"""The piezo: gpiozero TonalBuzzer (passive piezo, tunes) or Buzzer (active, beeps)."""

from __future__ import annotations

from gpiozero import Buzzer as OnOffBuzzer
from gpiozero import TonalBuzzer
from gpiozero.pins import Factory
from gpiozero.tones import Tone

from hw.patterns import SOUND_PATTERNS, PatternPlayer, check_alert

#: TonalBuzzer range: A5 +- 2 octaves = 220-3520 Hz, where small piezos are loud.
MID_TONE = "A5"
OCTAVES = 2


class Buzzer:
    """Alert sounds; ``tonal=False`` turns every note into a plain beep of the same length."""

    def __init__(self, pin: int, tonal: bool = True, pin_factory: Factory | None = None,
                 tempo: float = 1.0) -> None:
        self.tonal = tonal
        if tonal:
            self.device: TonalBuzzer | OnOffBuzzer = TonalBuzzer(
                pin, mid_tone=Tone(MID_TONE), octaves=OCTAVES, pin_factory=pin_factory)
        else:
            self.device = OnOffBuzzer(pin, pin_factory=pin_factory)
        self._player: PatternPlayer[str | None] = PatternPlayer(self._sound, None, tempo)

    def alert(self, name: str, wait: bool = False) -> None:
        """Play the sound for alert ``name`` (see :data:`hw.patterns.ALERTS`); non-blocking."""
        check_alert(name)
        self._player.play(SOUND_PATTERNS[name], wait=wait)

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
        """Block until the current sound ends."""
        return self._player.wait(timeout)

    def off(self) -> None:
        self._player.stop()

    def close(self) -> None:
        self._player.stop()
        self.device.close()

    def _sound(self, note: str | None) -> None:
        if isinstance(self.device, TonalBuzzer):
            if note is None:
                self.device.stop()
            else:
                self.device.play(Tone(note))
        elif note is None:
            self.device.off()
        else:
            self.device.on()
