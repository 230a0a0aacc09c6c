"""The bodies and answers of the API-token calls (``/api/tokens``), as the API page describes
them."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ...people.api_tokens import MOST_LIVE_TOKENS, NAME_CHARS, TokenScope
from ..routing import STRICT

__all__ = [
    "NewTokenAnswer",
    "RevokedToken",
    "TokenAsked",
    "TokenEntry",
    "TokenList",
    "TokenOwner",
]

_SCOPES = ", ".join(scope.value for scope in TokenScope)


class TokenAsked(BaseModel):
    model_config = STRICT

    name: str = Field(description=f"what the token is for, 1 to {NAME_CHARS} characters")
    scopes: list[str] = Field(
        max_length=len(TokenScope) * 2,
        description=f"what the token may do, at least one of: {_SCOPES}",
    )


class NewTokenAnswer(BaseModel):
    id: int
    name: str
    scopes: list[str]
    token: str = Field(
        description="the token, shown this once: the server keeps only its SHA-256, so nobody "
        "can show it again"
    )


class TokenEntry(BaseModel):
    id: int
    name: str
    scopes: list[str]
    created: float = Field(description="when it was made, Unix seconds")
    last_used: float | None = Field(
        description="when it was last used, Unix seconds, to the minute; null if never"
    )
    revoked: float | None = Field(description="when it was revoked, Unix seconds; null if live")


class TokenList(BaseModel):
    tokens: list[TokenEntry] = Field(
        description=f"your tokens, newest first, revoked ones too; at most {MOST_LIVE_TOKENS} "
        "live at once. Never their values."
    )


class RevokedToken(BaseModel):
    id: int
    revoked: bool = Field(description="always true: the token is refused from now on")


class TokenOwner(BaseModel):
    """What a program learns of the token it holds."""

    id: int = Field(description="the token's id, as its owner's list shows it")
    name: str = Field(description="the account the token acts for")
    bot_account: bool = Field(description="whether that account is a bot account")
    scopes: list[str] = Field(description="what the token may do")
