"""Both scalar environments check their settings in one place (``tendays.rl.common.env_settings``),
so the same bad settings get the same answer from each."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pettingzoo")

from tendays.rl import TenDaysEnv, raw_env  # noqa: E402
from tendays.rl.common import DEFAULT_TURNS_PER_PLAYER, env_settings  # noqa: E402

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
    edition, options = env_settings("germany", 3, 7, True, False, None, None, ["ansi"])
    assert edition.id == "germany"
    assert (options.players, options.days, options.swap, options.open_hands) == (3, 7, True, False)
    assert options.turn_limit == 3 * DEFAULT_TURNS_PER_PLAYER
    assert env_settings("usa", 2, 10, False, False, 40, "ansi", ["ansi"])[1].turn_limit == 40
    with pytest.raises(
        ValueError, match="render_mode must be one of \\['ansi'\\], not 'rgb_array'"
    ):
        env_settings("usa", 2, 10, False, False, None, "rgb_array", ["ansi"])
