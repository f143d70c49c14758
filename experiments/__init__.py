"""Tournaments and studies for sixtysix, imported as ``sixtysix.experiments`` (to come)."""
