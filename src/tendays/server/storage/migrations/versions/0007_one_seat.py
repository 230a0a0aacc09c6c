"""One person, one seat, and names compared by how they look.

The database decides, whoever writes: an account holds at most one seat of a game (the partial
unique index ``ux_seats_game_account``), no two people's names at a table share a look-alike key
(``seats.name_skeleton`` and ``ux_seats_game_skeleton``), and no two accounts do
(``accounts.name_skeleton`` and ``ux_accounts_name_skeleton``).

The keys of the rows already there are computed here. Where older rows already break a rule (two
accounts whose names look alike, two look-alike names at one table, one account in two seats of a
game), the older row keeps its key and the others get none: they stay as they were, and the rule
holds from now on. An account in two seats of one game keeps the first; the others become
anonymous seats under the same name.
"""

from __future__ import annotations

import unicodedata

import icu
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

HAS_ACCOUNT = sa.text("account_id IS NOT NULL")
HAS_SKELETON = sa.text("name_skeleton IS NOT NULL")
# as ``matches/wire.py`` stores it at this revision (DELETED_PLAYER): such seats have no key
DELETED_PLAYER = "deleted player"

# The look-alike key as ``matches/lookalikes.py`` computes it at this revision (with
# ``matches/text.py``'s name_letters): a revision that changes it computes the keys again.
_INVISIBLE = {
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\u2061",
    "\u2062",
    "\u2063",
    "\u2064",
    "\u00ad",
    "\u034f",
    "\u180e",
    "\ufeff",
    *map(chr, range(0xFE00, 0xFE10)),
    *map(chr, range(0xE0100, 0xE01F0)),
    *map(chr, range(0xE0000, 0xE0080)),
}
_CHECKER = icu.SpoofChecker()


def name_skeleton(name: str) -> str:
    kept = unicodedata.normalize("NFKC", name)
    letters = " ".join(
        "".join(c for c in kept if c not in _INVISIBLE and unicodedata.category(c) != "Cf").split()
    )
    first = str(_CHECKER.getSkeleton(0, letters))
    return str(_CHECKER.getSkeleton(0, first.casefold())).replace("i", "l")


def upgrade() -> None:
    op.add_column("seats", sa.Column("name_skeleton", sa.String(1024), nullable=True))
    op.add_column("accounts", sa.Column("name_skeleton", sa.String(1024), nullable=True))
    db = op.get_bind()
    _fill_accounts(db)
    _fill_seats(db)
    op.create_index("ux_accounts_name_skeleton", "accounts", ["name_skeleton"], unique=True)
    op.create_index(
        "ux_seats_game_account",
        "seats",
        ["game_id", "account_id"],
        unique=True,
        postgresql_where=HAS_ACCOUNT,
        sqlite_where=HAS_ACCOUNT,
    )
    op.create_index(
        "ux_seats_game_skeleton",
        "seats",
        ["game_id", "name_skeleton"],
        unique=True,
        postgresql_where=HAS_SKELETON,
        sqlite_where=HAS_SKELETON,
    )


def _fill_accounts(db: sa.Connection) -> None:
    rows = db.execute(sa.text("SELECT id, name FROM accounts ORDER BY id")).all()
    taken: set[str] = set()
    keyed = []
    for account_id, name in rows:
        key = name_skeleton(name)
        if key not in taken:
            taken.add(key)
            keyed.append({"b_id": account_id, "b_key": key})
    if keyed:
        db.execute(sa.text("UPDATE accounts SET name_skeleton = :b_key WHERE id = :b_id"), keyed)


def _fill_seats(db: sa.Connection) -> None:
    rows = db.execute(
        sa.text(
            "SELECT game_id, seat, kind, name, account_id FROM seats "
            "WHERE kind = 'human' AND name IS NOT NULL ORDER BY game_id, seat"
        )
    ).all()
    keys: set[tuple[str, str]] = set()
    accounts: set[tuple[str, int]] = set()
    keyed, anonymous = [], []
    for game_id, seat, _kind, name, account_id in rows:
        if account_id is not None:
            if (game_id, account_id) in accounts:
                anonymous.append({"b_game": game_id, "b_seat": seat})
            accounts.add((game_id, account_id))
        if name == DELETED_PLAYER:
            continue
        key = (game_id, name_skeleton(name))
        if key not in keys:
            keys.add(key)
            keyed.append({"b_game": game_id, "b_seat": seat, "b_key": key[1]})
    if keyed:
        db.execute(
            sa.text(
                "UPDATE seats SET name_skeleton = :b_key WHERE game_id = :b_game AND seat = :b_seat"
            ),
            keyed,
        )
    if anonymous:
        db.execute(
            sa.text(
                "UPDATE seats SET account_id = NULL WHERE game_id = :b_game AND seat = :b_seat"
            ),
            anonymous,
        )


def downgrade() -> None:
    op.drop_index("ux_seats_game_skeleton", table_name="seats")
    op.drop_index("ux_seats_game_account", table_name="seats")
    op.drop_index("ux_accounts_name_skeleton", table_name="accounts")
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("name_skeleton")
    with op.batch_alter_table("accounts") as accounts:
        accounts.drop_column("name_skeleton")
