"""Find every card lying on the table and identify it against an enrolled deck (any deck)."""

from .find import FindOptions, find_cards
from .model import CardModel, ModelError, load_model, save_model
from .read import CardReader, CardReading, EnrollmentCheck, check_enrollment, enroll, enroll_shots, read_image

__all__ = ["CardModel", "CardReader", "CardReading", "EnrollmentCheck", "FindOptions", "ModelError",
           "check_enrollment", "enroll", "enroll_shots", "find_cards", "load_model", "read_image",
           "save_model"]
