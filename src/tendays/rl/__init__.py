"""Reinforcement-learning environments (PettingZoo, Gymnasium)."""
