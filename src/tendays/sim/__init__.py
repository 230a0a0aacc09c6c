"""Tournaments, ratings and statistics over many bot games."""
