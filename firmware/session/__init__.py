"""Game sessions: state machines that turn button presses and camera observations into rules calls."""
