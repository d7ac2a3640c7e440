"""The one runtime every game shares."""
