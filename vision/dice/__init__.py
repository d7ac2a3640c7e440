"""Dice vision: find the green and red Super Farmer dice and read their top faces.

Learned from a few enrollment photos of the owner's own dice (nothing is fixed to one artwork).
"""

from farmbox.vision.dice.enroll import DiceEnrollment, EnrollmentPlan, enroll_folder
from farmbox.vision.dice.faces import DICE, FACES
from farmbox.vision.dice.model import DiceModel
from farmbox.vision.dice.motion import Stillness
from farmbox.vision.dice.reader import DiceReader, DiceReading

__all__ = ["DICE", "FACES", "DiceEnrollment", "DiceModel", "DiceReader", "DiceReading",
           "EnrollmentPlan", "Stillness", "enroll_folder"]
