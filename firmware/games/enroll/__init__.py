"""games/enroll."""
