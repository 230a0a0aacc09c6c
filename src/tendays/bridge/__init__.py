"""``tendays bridge``: a program that speaks the engine protocol, playing on a tendays site as a bot
account through the Bot API.

The bridge is a client of the site and nothing more: it reads the account's event stream, accepts
or declines challenges by its :class:`~tendays.bridge.policy.Policy`, follows each game on its game
stream (:class:`~tendays.bridge.table_game.TableGame` turns the table into the engine's view), asks
the program (:class:`~tendays.bridge.program.Program`) for each move and sends it back. It imports
the engine and the engine client, never the server. The loop itself
(:class:`~tendays.bridge.runner.Bridge`) needs httpx (the ``bridge`` extra); what this package
exports does not.
"""

from __future__ import annotations

from .policy import ClockChoice, Decline, Policy, RatedChoice
from .table_game import TableGame

__all__ = [
    "ClockChoice",
    "Decline",
    "Policy",
    "RatedChoice",
    "TableGame",
]
