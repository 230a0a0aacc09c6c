"""A bot at a person's table is named on their profile in the reader's language, from the level its
seat stores, whatever language the game was played in ("Bot (normal)" on a German profile, "Normal
bot" on an English one)."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from sqlalchemy import insert, text

from tendays.engine import use_language
from tendays.server.matches.text import name_key
from tendays.server.matches.wire import stored_bot_name
from tendays.server.people.profiles import profile
from tendays.server.storage.schema import AccountTable, GameTable, SeatTable
from tendays.server.storage.store import Store


def test_a_bot_on_a_profile_is_named_in_the_readers_language(db_url: str) -> None:
    store = Store(db_url)
    try:
        with store.engine.begin() as db:
            db.execute(
                insert(AccountTable),
                {"name": "Ada", "name_key": name_key("Ada"), "password_hash": "-", "created": time.time()},
            )
            ada = db.execute(text("SELECT id FROM accounts")).scalar_one()
            db.execute(
                insert(GameTable),
                {
                    "id": "g1",
                    "edition": "germany",
                    "options": "{}",
                    "seed": 1,
                    "rated": False,
                    "finished": True,
                    "created": datetime.fromtimestamp(1_700_000_000, UTC),
                    "finished_at": 1.0,
                },
            )
            db.execute(
                insert(SeatTable),
                [
                    {
                        "game_id": "g1",
                        "seat": 0,
                        "kind": "human",
                        "name": "Ada",
                        "bot": None,
                        "account_id": ada,
                        "token_hash": "0" * 64,
                    },
                    # as the server stores every bot seat, in whatever language the game was created
                    {
                        "game_id": "g1",
                        "seat": 1,
                        "kind": "bot",
                        "name": stored_bot_name("normal"),
                        "bot": "normal",
                        "account_id": None,
                        "token_hash": None,
                    },
                ],
            )
        with use_language("de"):
            german = profile(store.engine, "Ada")
        english = profile(store.engine, "Ada")
        assert german is not None and english is not None
        assert german["games"][0]["others"][0] == {
            "name": "Bot (normal)",
            "bot": "normal",
            "place": None,
            "bot_account": False,
            "profile": None,
        }
        assert english["games"][0]["others"][0]["name"] == "Normal bot"
    finally:
        store.close()
