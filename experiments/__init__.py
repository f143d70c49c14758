"""experiments for sixtysix (to come)."""
