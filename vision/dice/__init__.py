"""Dice vision: find the green and red Super Farmer dice and read their top faces.

Learned from a few enrollment photos of the owner's own dice (nothing is fixed to one artwork).
"""

from vision.dice.enroll import DiceEnrollment, EnrollmentPlan, enroll_folder
from vision.dice.faces import DICE, FACES
from vision.dice.model import DiceModel
from vision.dice.motion import Stillness
from vision.dice.reader import DiceReader, DiceReading

__all__ = ["DICE", "FACES", "DiceEnrollment", "DiceModel", "DiceReader", "DiceReading",
           "EnrollmentPlan", "Stillness", "enroll_folder"]
