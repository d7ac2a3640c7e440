"""box/drawing."""
