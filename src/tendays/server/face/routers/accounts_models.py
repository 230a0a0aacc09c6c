"""The account calls' requests and answers (OpenAPI at ``/docs``). A password is never echoed back,
not even in a refusal (:func:`~tendays.server.face.routers.lobby_models.errors_in_words`)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from ..routing import STRICT, ErrorAnswer

__all__ = [
    "ACCOUNT_ERRORS",
    "AccountSeat",
    "Credentials",
    "DeleteAccount",
    "NewPassword",
    "SessionInfo",
]


class Credentials(BaseModel):
    model_config = STRICT

    name: str = Field(
        min_length=1,
        max_length=128,
        description="the account's name (1 to 32 characters once normalised; case does not matter)",
    )
    password: str = Field(
        min_length=1, max_length=1024, description="at least 10 characters, not a common one"
    )


class NewPassword(BaseModel):
    model_config = STRICT

    password: str = Field(min_length=1, max_length=1024, description="the current password")
    new_password: str = Field(
        min_length=1, max_length=1024, description="the new one: at least 10 characters"
    )


class DeleteAccount(BaseModel):
    model_config = STRICT

    password: str = Field(
        min_length=1, max_length=1024, description="the current password, to confirm"
    )


class SessionInfo(BaseModel):
    name: str = Field(description="the signed-in account's name")
    csrf: str = Field(
        description="the token every changing request of this session carries as X-CSRF-Token"
    )


class AccountSeat(BaseModel):
    id: str = Field(description="the game's id")
    seat: int = Field(description="the account's seat there, from 0")


ACCOUNT_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {
        "model": ErrorAnswer,
        "description": "nobody is signed in, or the name or password is wrong",
    },
    403: {"model": ErrorAnswer, "description": "the X-CSRF-Token header is missing or wrong"},
    409: {"model": ErrorAnswer, "description": "the name is taken (letter case aside)"},
    422: {
        "model": ErrorAnswer,
        "description": "a name or password that cannot be (the message says why)",
    },
    429: {
        "model": ErrorAnswer,
        "description": "too many failed sign-ins for this name or address, or too many "
        "accounts made from this address; see Retry-After",
    },
}
