"""farmbox firmware: rules engines, game sessions, journal, screens and the command line."""

__version__ = "0.1.0"
