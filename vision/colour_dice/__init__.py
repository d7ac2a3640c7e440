"""Read the Fun Farm colour dice: which colour is up on the white and on the black die."""

from .model import ColourDiceModel, DieModel, ModelError, load_model, save_model
from .read import DiceReading, enroll, read_frame, read_image, weak_colours

__all__ = ["ColourDiceModel", "DiceReading", "DieModel", "ModelError", "enroll", "load_model",
           "read_frame", "read_image", "save_model", "weak_colours"]
