"""agents for sixtysix (to come)."""
