"""The requests and answers of the inbox (``/api/notifications``) and of the "your move" list
(``/api/games/your-move``), as the API page describes them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from ..routing import STRICT

__all__ = ["InboxAnswer", "MarkRead", "MarkedAnswer", "NotificationAnswer", "YourMoveAnswer"]


class NotificationAnswer(BaseModel):
    id: int = Field(description="the notification's id (newer ones have greater ids)")
    kind: str = Field(
        description="challenge, challenge_answered, your_move, tournament_starting or game_ended"
    )
    data: dict[str, Any] = Field(
        description='what it is about: ids, names, and a "url" to open', examples=[{"url": "/"}]
    )
    created_at: float = Field(description="when it was written (Unix seconds)")
    read: bool = Field(description="whether it was marked read")


class InboxAnswer(BaseModel):
    notifications: list[NotificationAnswer] = Field(description="newest first")
    unread: int = Field(description="how many of the account's notifications are unread, in all")


class MarkRead(BaseModel):
    model_config = STRICT

    ids: list[int] | None = Field(
        None, max_length=200, description="the notifications to mark read; none or null: all"
    )


class MarkedAnswer(BaseModel):
    marked: int = Field(description="how many were unread and are read now")
    unread: int = Field(description="how many stay unread")


class YourMoveGame(BaseModel):
    game: str = Field(description="the game's id")
    seat: int = Field(description="your seat (0 for the first)")
    edition: str = Field(description="the edition's id")
    opponents: list[str] = Field(description="the names at the other seats")
    deadline: float | None = Field(description="until when your turn lasts (Unix seconds)")
    url: str = Field(description="the table's page")


class YourMoveAnswer(BaseModel):
    games: list[YourMoveGame] = Field(description="the nearest deadline first")
