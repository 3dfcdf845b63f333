"""Generators that keep layoutx's man page, completions and README in step with its --help."""
