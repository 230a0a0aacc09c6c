"""Helpers shared by the server tests."""

from __future__ import annotations

import warnings
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about httpx versions says nothing about this code
    from fastapi.testclient import TestClient

from tendays.server.master import MasterSettings

__all__ = ["HUMAN", "SEED", "TestClient", "Ticker", "bot", "join", "new_game", "settings"]

SEED = 20261130


def settings(**changes: Any) -> MasterSettings:
    """Bots move at once and think on threads; every game gets the same seed."""
    values: dict[str, Any] = {"bot_delay": 0.0, "draft_delay": 0.0, "bot_processes": 0, "seed_source": lambda: SEED}
    values.update(changes)
    return MasterSettings(**values)


class Ticker:
    """A clock for the rate limiter that advances a little at every look: messages seem evenly spaced."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def new_game(client: TestClient, seats: list[dict[str, Any]], name: str = "Alice", **options: Any) -> dict[str, Any]:
    answer = client.post("/api/games", json={"edition": "usa", "name": name, "seats": seats, "options": options})
    assert answer.status_code == 201, answer.text
    ticket: dict[str, Any] = answer.json()
    return ticket


def join(client: TestClient, game_id: str, name: str = "Bob") -> dict[str, Any]:
    answer = client.post(f"/api/games/{game_id}/join", json={"name": name})
    assert answer.status_code == 200, answer.text
    ticket: dict[str, Any] = answer.json()
    return ticket


HUMAN = {"kind": "human"}


def bot(level: str = "normal") -> dict[str, Any]:
    return {"kind": "bot", "bot": level}
