"""Players for sixtysix, imported as ``sixtysix.agents`` (the agent protocol comes with the
tournament issue)."""
