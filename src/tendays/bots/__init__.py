"""Bots: computer players that choose a move from a player view."""

from .base import Bot, RandomBot

__all__ = ["Bot", "RandomBot"]
