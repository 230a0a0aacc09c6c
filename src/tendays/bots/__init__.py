"""Bots: computer players that choose a move from a player view."""
