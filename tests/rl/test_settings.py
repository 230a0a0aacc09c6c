"""Both scalar environments check their settings in one place (``tendays.rl.common``), so the same
bad settings get the same answer from each, and each takes its rules as an ``Options`` or as the
rule keywords."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pettingzoo")

from tendays.engine import Options  # noqa: E402
from tendays.rl import TenDaysEnv, raw_env  # noqa: E402
from tendays.rl.common import DEFAULT_TURNS_PER_PLAYER, checked_edition, env_options  # noqa: E402

BAD = [
    ({"players": 5}, "1 to 4 players"),
    ({"days": 1}, "days"),
    ({"edition": "mars"}, "unknown edition 'mars'"),
    ({"render_mode": "human"}, "render_mode must be one of \\['ansi'\\], not 'human'"),
]


@pytest.mark.parametrize("make", [TenDaysEnv, raw_env], ids=["gymnasium", "pettingzoo"])
@pytest.mark.parametrize(("settings", "message"), BAD)
def test_both_environments_refuse_the_same_settings(
    make: Any, settings: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        make(**settings)


def test_the_settings_of_an_environment() -> None:
    options = env_options(players=3, days=7, swap=True)
    edition = checked_edition("germany", options, None, ["ansi"])
    assert edition.id == "germany"
    assert (options.players, options.days, options.swap, options.open_hands) == (3, 7, True, False)
    assert options.turn_limit == 3 * DEFAULT_TURNS_PER_PLAYER
    assert env_options(turn_limit=40).turn_limit == 40
    assert env_options() == Options(turn_limit=2 * DEFAULT_TURNS_PER_PLAYER)
    with pytest.raises(
        ValueError, match="render_mode must be one of \\['ansi'\\], not 'rgb_array'"
    ):
        checked_edition("usa", options, "rgb_array", ["ansi"])


def test_options_given_whole_keep_their_turn_limit_or_get_the_default() -> None:
    assert env_options(Options(players=4, turn_limit=9)) == Options(players=4, turn_limit=9)
    assert env_options(Options(players=4)).turn_limit == 4 * DEFAULT_TURNS_PER_PLAYER


@pytest.mark.parametrize("make", [TenDaysEnv, raw_env], ids=["gymnasium", "pettingzoo"])
def test_an_environment_takes_options_as_it_takes_the_rule_keywords(make: Any) -> None:
    whole = make(options=Options(players=3, days=5, swap=True, turn_limit=30))
    spelled = make(players=3, days=5, swap=True, turn_limit=30)
    assert whole.options == spelled.options == Options(players=3, days=5, swap=True, turn_limit=30)
    assert whole.codec.size == spelled.codec.size


@pytest.mark.parametrize("make", [TenDaysEnv, raw_env], ids=["gymnasium", "pettingzoo"])
def test_options_and_rule_keywords_together_are_refused(make: Any) -> None:
    with pytest.raises(ValueError, match=r"rule options or the rule keywords \(days, players\)"):
        make(options=Options(players=3), players=2, days=5)


@pytest.mark.parametrize("make", [TenDaysEnv, raw_env], ids=["gymnasium", "pettingzoo"])
def test_options_the_edition_cannot_play_are_refused(make: Any) -> None:
    with pytest.raises(ValueError, match="1 to 4 players"):
        make(options=Options(players=5))
