"""The piezo: gpiozero TonalBuzzer (passive piezo, tunes) or Buzzer (active, beeps)."""

from __future__ import annotations

from gpiozero import Buzzer as OnOffBuzzer
from gpiozero import TonalBuzzer
from gpiozero.pins import Factory
from gpiozero.tones import Tone

from farmbox.hw.patterns import SOUND_PATTERNS, PatternOutput, PatternPlayer

#: TonalBuzzer range: A5 +- 2 octaves = 220-3520 Hz, where small piezos are loud.
MID_TONE = "A5"
OCTAVES = 2


class Buzzer(PatternOutput[str | None]):
    """Alert sounds; ``tonal=False`` turns every note into a plain beep of the same length."""

    patterns = SOUND_PATTERNS

    def __init__(self, pin: int, tonal: bool = True, pin_factory: Factory | None = None,
                 tempo: float = 1.0) -> None:
        self.tonal = tonal
        if tonal:
            self.device: TonalBuzzer | OnOffBuzzer = TonalBuzzer(
                pin, mid_tone=Tone(MID_TONE), octaves=OCTAVES, pin_factory=pin_factory)
        else:
            self.device = OnOffBuzzer(pin, pin_factory=pin_factory)
        self._player: PatternPlayer[str | None] = PatternPlayer(self._sound, None, tempo)

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
