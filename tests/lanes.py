"""The two lanes of the test suite: everything (``bash scripts/test.sh``, as CI runs it) and the
fast lane, ``pytest -m "not slow"``, which is what one runs while working.

A test is *slow* when it starts a browser, a server process, a database, a proxy or a terminal, or
runs for more than a second. The marking is done here, at collection, so that it cannot be
forgotten:

- a test that uses a fixture which starts one of those (``SLOW_FIXTURES``, and the PostgreSQL half
  of the server tests' ``db_url``) is marked slow, wherever it lives;
- so is every test of a module that imports a helper which starts one (``SLOW_HELPERS``: the browser
  tests' server and pages, the terminal tests' tmux, the server tests' processes and PostgreSQL);
- the other slow tests are named in ``SLOW_TESTS`` (measured with ``pytest --durations=0``);
- and a guard watches every process a test starts: a test that is not marked slow and starts
  Chromium, tmux, nginx, PostgreSQL or ``tendays serve`` fails and says how to mark it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

MARK = "slow"

# Fixtures that start a browser, a server process or a database, and what they start.
SLOW_FIXTURES = {
    "browser": "a browser",  # tests/web/conftest.py: Chromium
    "server": "a server process",  # tests/web: tendays serve in a subprocess
    "postgres": "a database",  # tests/server/conftest.py: a PostgreSQL cluster
    "postgres_url": "a database",
}
# Parametrised fixtures whose one value starts something: the server tests
# run on SQLite and PostgreSQL.
SLOW_PARAMS = {("db_url", "postgresql"): "a database"}

# Helpers of the tests that start a browser, a server process, a database or a terminal, by (module,
# name): a test module that imports one is slow as a whole.
SLOW_HELPERS = {
    ("browser_helpers", "Server"): "a server process",  # tests/web: tendays serve in a subprocess
    ("browser_helpers", "new_page"): "a browser",
    ("test_tmux", "Terminal"): "a terminal",  # tests/cli: a tmux server of its own
    ("server_helpers", "wait_until_serving"): "a server process",  # tests/server: tendays serve
    ("cluster_nodes", "Node"): "a server process",
    ("postgres", "PostgresCluster"): "a database",
}

# Tests slow for other reasons (a process of their own, or over a second of work), by node id: a
# folder (ending in "/"), a module, a test (every parametrisation of it), or one parametrisation.
# Measured as the CPU seconds of each test (its own and its subprocesses'), which a loaded machine
# does not inflate.
SLOW_TESTS: tuple[str, ...] = (
    # tendays serve
    "tests/server/test_migrations.py::test_a_missing_postgresql_driver_is_named_in_one_line",
    # Accounts: every sign-up and sign-in hashes a password with Argon2id (64 MiB, on purpose slow).
    "tests/server/test_accounts.py",
    "tests/server/test_session_end.py",
    "tests/server/test_account_security.py",
    "tests/server/test_atomic_limits.py",
    "tests/server/test_device_cookies.py",
    "tests/server/test_password_strength.py::test_an_account_with_an_older_hash_signs_in_and_gets_a_normalised_one",
    "tests/server/test_password_strength.py::test_full_width_digits_sign_in_as_the_same_password",
    # a game played out over the socket, and an account's password hashed and checked
    "tests/server/test_headers_and_bodies.py::test_a_deleted_accounts_name_leaves_the_cached_replay",
    # the operator's moderation: a sign-up and three sign-ins of a suspended account (Argon2id)
    "tests/server/test_moderation_admin.py::"
    "test_suspending_ends_the_sessions_refuses_the_sign_in_and_gives_the_seats_to_bots",
    "tests/server/test_seeks_api.py",
    "tests/server/test_tournaments_api.py",  # sign-ups: Argon2id
    # whole tournaments run by the director, their bots' games played out
    "tests/server/test_tournament_director.py",
    # the arena benchmark in a process of its own, its database migrated and a small arena run
    "tests/server/test_arena_benchmark.py",
    # Hypothesis over whole Swiss events, every round paired
    "tests/server/test_tournament_rules.py::test_nobody_sits_out_twice_while_someone_has_not",
    "tests/server/test_notifications.py",  # sign-ups: Argon2id
    "tests/server/test_notifications_games.py",  # sign-ups: Argon2id
    # the Bot API's streams, served by uvicorn on a thread: a whole game played through them, and more
    "tests/server/test_bot_streams.py",
    "tests/server/test_challenges.py",  # sign-ups: Argon2id
    "tests/server/test_bot_accounts.py",  # sign-ups: Argon2id
    "tests/server/test_seating_api.py",  # sign-ups: Argon2id
    "tests/server/test_people_api_review.py",
    "tests/server/test_people_loose_ends.py",
    "tests/cli/test_accounts_cmd.py",
    # tendays serve, and a tendays admin process per command
    "tests/cli/test_admin_moderation_cmd.py",
    "tests/cli/test_admin_tournament_cmd.py",
    # JAX: every test compiles the batched engine (1 to 12 s each), or runs a benchmark or trainer;
    # the modules that only import JAX, pgx or OpenSpiel pay seconds for it in
    # every process that collects them.
    "tests/batch/",
    "tests/rl/test_vector_env.py",
    "tests/rl/test_vector_compact.py",
    "tests/rl/test_pgx_env.py",
    "tests/rl/test_pgx_ppo_example.py",
    "tests/rl/test_openspiel.py",
    "tests/rl/test_action_rule_batched.py",
    "tests/rl/test_batched_view.py",
    "tests/rl/test_batched_policy_engine.py",
    # colour-science, which simulates colour vision, takes over a second to import.
    "tests/engine/test_colour_blind.py",
    # Every test runs tendays in a process of its own (most of a second each, 13 of them).
    "tests/cli/test_bad_files.py",
    "tests/cli/test_hostile_files.py",
    # The terminal game's screens through whole games, and its commands in subprocesses.
    "tests/cli/test_german_screens.py::test_german_screens_say_moves_turns_and_keys_in_german_words",
    "tests/cli/test_german_screens.py::test_help_rules_verdict_prompts_and_notices_speak_german_at_80x24",
    "tests/cli/test_german_screens.py::test_the_colour_blind_palette_is_a_key_away_and_kept_in_the_save",
    "tests/cli/test_german_screens.py::test_the_replay_speaks_german_and_shows_each_colours_shape",
    "tests/cli/test_german_screens.py::test_the_setup_screen_and_the_hot_seat_screen_speak_german",
    "tests/cli/test_keys.py::test_a_whole_game_with_the_arrow_keys_and_enter_alone",
    "tests/cli/test_keys.py::test_every_day_key_drafts_onto_its_day_and_the_footer_offers_no_draw",
    "tests/cli/test_keys.py::test_every_key_of_the_end_screen_the_help_and_the_verdict",
    "tests/cli/test_keys.py::test_every_key_of_the_game_screen",
    "tests/cli/test_keys.py::test_every_key_of_the_replay",
    "tests/cli/test_keys.py::test_the_log_never_takes_the_focus_so_the_arrows_stay_with_the_rack",
    "tests/cli/test_keys.py::test_the_privacy_screen_asks_before_quitting_an_unsaved_game",
    "tests/cli/test_keys.py::test_the_refusals_in_the_docs_are_what_the_command_says",
    "tests/cli/test_layout.py::test_a_finished_game_not_saved_asks_before_quitting",
    "tests/cli/test_layout.py::test_a_long_paste_in_the_move_box_is_refused_without_covering_the_board",
    "tests/cli/test_layout.py::test_a_pop_up_in_a_terminal_too_small_says_so_too",
    "tests/cli/test_layout.py::test_a_terminal_too_small_says_so_and_the_game_comes_back",
    "tests/cli/test_layout.py::test_every_days_link_is_explained_in_full_under_the_rack_at_80x24",
    "tests/cli/test_layout.py::test_every_screen_fits_80x24_without_cutting_the_footer",
    "tests/cli/test_layout.py::test_resizing_rewraps_the_log_without_a_sideways_scrollbar_and_keeps_its_end",
    "tests/cli/test_layout.py::test_the_setup_screen_at_80x24_shows_every_field_and_mends_its_refusals",
    "tests/cli/test_layout.py::test_the_setup_screen_takes_typing_at_once_and_refuses_a_misspelt_level",
    "tests/cli/test_layout.py::test_the_verdict_scrolls_and_always_shows_how_to_close_it",
    "tests/cli/test_play_app.py::test_a_game_against_an_engine_program_to_the_end",
    "tests/cli/test_play_app.py::test_a_person_plays_a_whole_game_against_a_bot_with_keys_and_mouse",
    "tests/cli/test_play_app.py::test_bad_input_is_explained_never_ignored",
    "tests/cli/test_play_app.py::test_germany_five_days_to_the_end_at_a_large_size",
    "tests/cli/test_play_app.py::test_help_verdict_and_hint",
    "tests/cli/test_play_app.py::test_hot_seat_shows_a_privacy_screen_and_never_another_rack",
    "tests/cli/test_play_app.py::test_play_again_with_the_same_options",
    "tests/cli/test_play_app.py::test_resizing_never_crashes",
    "tests/cli/test_play_app.py::test_save_and_resume_continue_the_same_game",
    "tests/cli/test_play_app.py::test_setup_screen_starts_a_game_and_explains_bad_seats",
    "tests/cli/test_play_app.py::test_swap_variant_by_keys",
    "tests/cli/test_play_german.py::test_a_whole_german_game_at_80x24_speaks_german_and_fits",
    "tests/cli/test_play_options.py::test_an_old_save_file_resumes_under_the_rules_it_was_played_by",
    "tests/cli/test_play_options.py::test_the_bots_move_as_the_engines_turn_loop_would",
    "tests/cli/test_play_options.py::test_the_setup_screen_offers_who_begins_and_shows_the_engines_refusal",
    "tests/cli/test_replay_app.py::test_an_unfinished_game_keeps_its_racks_hidden_unless_revealed",
    "tests/cli/test_replay_app.py::test_space_plays_the_game_back_to_its_end",
    "tests/cli/test_replay_app.py::test_the_person_called_you_holds_a_tile_in_the_replay",
    "tests/cli/test_saves_and_quitting.py::test_ctrl_q_and_the_palettes_quit_ask_first_with_moves_not_saved",
    "tests/cli/test_saves_and_quitting.py::test_saving_beside_another_games_save_keeps_it_and_says_where",
    "tests/cli/test_replay_app.py::test_arrow_keys_step_through_a_finished_game_showing_every_rack",
    "tests/cli/test_play_app.py::test_keys_during_a_bots_turn_say_to_wait",
    "tests/cli/test_layout.py::test_a_wide_terminal_shows_every_link_in_words_beside_the_rack",
    "tests/cli/test_german_screens.py::test_every_tile_on_the_board_shows_its_colours_shape_in_full_at_80x24",
    # Waiting on a clock or a timeout: an absent seat's turns, a silent engine, a lost lease.
    "tests/server/test_leaks.py::test_no_hidden_tile_leaks_while_the_clock_plays_for_an_absent_seat",
    "tests/server/test_absence.py::test_timeouts_are_played_by_the_bot_then_the_seat_is_handed_over_and_taken_back",
    "tests/server/test_lease_loss.py::test_a_bot_move_refused_after_its_driver_stopped_is_taken_back",
    "tests/server/test_ratings.py::test_away_until_a_bot_takes_the_seat_loses_a_rated_game",
    "tests/server/test_rated_results.py::test_timing_out_before_a_first_move_of_ones_own_aborts_a_rated_game",
    "tests/commands/test_simulate_cmd.py::test_an_engine_that_never_answered_is_reported_as_such",
    "tests/sim/test_engine_protocol.py::test_broken_engines_lose_with_a_reason"
    "[slow-took longer than 0.5 s to answer 'go']",
    "tests/sim/test_engine_protocol.py::test_broken_engines_lose_with_a_reason"
    "[mute-took longer than 0.5 s to answer the greeting]",
    # Over a second of CPU each: bots thinking, whole games, subprocesses, Ray.
    "tests/bots/test_draft.py::test_draft_move_is_legal_deterministic_and_greedy_without_work",
    "tests/bots/test_draft.py::test_the_drafting_expert_drafts_legally_and_reproducibly_within_any_budget",
    "tests/bots/test_hidden_information_bench.py::test_benchmark_prints_every_row",
    "tests/bots/test_rivals.py::test_the_expert_reading_its_rivals_plays_legal_moves_reproducibly",
    "tests/commands/test_plain_install.py::test_every_offered_bot_plays_on_the_plain_install",
    "tests/commands/test_simulate_cmd.py::test_the_table_fits_80_columns",
    # six tendays processes: map, puzzles and check in the edition's language
    "tests/commands/test_map_check.py::test_check_map_and_puzzles_speak_the_editions_language_when_nothing_asks_for_another",
    "tests/engine/test_properties.py::test_a_record_replays_identically",
    "tests/engine/test_properties.py::test_the_draw_pile_is_never_empty_while_buried_tiles_could_refill_it",
    "tests/engine/test_properties.py::test_every_tile_is_in_exactly_one_place",
    "tests/engine/test_properties.py::test_a_view_never_shows_other_racks_or_the_draw_order",
    "tests/i18n/test_catalogues.py::test_the_checking_command_finds_nothing",
    "tests/i18n/test_catalogues.py::test_the_template_holds_every_sentence_of_the_source",
    "tests/server/test_leaks.py::test_no_hidden_tile_ever_reaches_a_seat_or_a_spectator",
    "tests/server/test_expiry.py::test_ended_games_are_deleted_after_the_retention_time_or_kept_forever",
    "tests/server/test_expiry.py::test_idle_games_expire_across_a_restart_and_are_not_replayed",
    "tests/server/test_ratings.py::test_rated_games_over_the_api",
    # Rated results: two processes of their own racing to rate; 30 games through the API.
    "tests/server/test_rated_results.py::test_the_last_counted_game_of_a_pair_is_decided_once_by_two_processes_at_once",
    "tests/server/test_rated_results.py::test_the_farming_run_moves_no_rating",
    "tests/server/test_rated_results.py::"
    "test_farming_with_one_move_after_the_draft_moves_a_rating_no_more_than_a_day_of_honest_play",
    "tests/server/test_seeks.py::test_many_seeks_paired_at_once_through_two_pools_are_each_paired_at_most_once",
    "tests/server/test_table.py::test_rate_limit_refuses_the_excess_and_a_flood_closes",
    "tests/server/test_limits.py::test_names_are_normalised_and_emoji_allowed",
    "tests/server/test_lobby.py::test_the_lobby_pages_thousands_of_games_quickly",
    "tests/sim/test_tournament.py::test_ray_gives_the_same_results_as_local",
    "tests/sim/test_tournament.py::test_workers_do_not_change_the_results",
    "tests/sim/test_duplicate.py::test_the_command_plays_duplicate_and_reports_the_deals",
    "tests/sim/test_duplicate.py::test_the_command_refuses_games_that_are_not_a_multiple_of_the_players",
    "tests/sim/test_engine_protocol.py::test_a_good_engine_plays_whole_games",
    "tests/rl/test_observation_reference.py::test_fast_encoder_equals_reference",
    "tests/rl/test_progress.py::test_gain_table_and_sound_gaps_agree_with_the_gap_by_gap_definitions",
    "tests/rl/test_env_speed_script.py::test_env_speed_json",
    "tests/server/test_table.py::test_the_end_reveals_every_rack_and_journey",
    "tests/server/test_lobby.py::test_bots_come_from_the_registry",
    "tests/server/test_hardening.py::test_creates_are_limited_for_the_forwarded_client_not_its_forged_line",
    "tests/server/test_migrations.py::test_a_database_made_before_migrations_upgrades_and_keeps_its_games",
    "tests/cli/test_play_app.py::test_a_failing_bot_is_reported_and_the_game_can_still_be_saved",
    "tests/server/test_replays.py::test_a_game_deleted_after_its_end_is_gone_from_the_replays_too",
    "tests/server/test_table.py::test_hint_names_the_days_to_change",
    "tests/server/test_languages.py::test_the_log_names_a_bot_in_the_readers_language",
    "tests/server/test_server_layout.py::test_each_room_imports_only_the_rooms_below_it",
    "tests/bots/test_learned.py::test_it_reads_nothing_a_player_cannot_see",
    "tests/bots/test_learned_yardstick.py::test_the_first_multiples_choose_as_greedy_does",
    # The learned bot analyses every rack its legal moves leave: about 20 ms a move.
    "tests/bots/test_learned.py::test_it_is_deterministic_given_its_seed",
    "tests/bots/test_learned.py::test_it_plays_three_and_four_player_games_too",
    "tests/bots/test_learned.py::test_it_plays_whole_games_with_legal_moves",
)

# Programs whose start makes a test slow, by the name of the program, and what they are.
_PROGRAMS = {
    "chromium": "a browser",
    "chrome": "a browser",
    "headless_shell": "a browser",
    "tmux": "a terminal",
    "nginx": "a proxy",
    "initdb": "a database",
    "pg_ctl": "a database",
    "postgres": "a database",
    "postmaster": "a database",
    "uvicorn": "a server process",
}


def started(argv: Sequence[str]) -> str | None:
    """What a process started with ``argv`` is, if it is one that makes a test slow (else None)."""
    names = [os.path.basename(str(arg)) for arg in argv]
    for name, arg in zip(names, argv, strict=True):
        if name in _PROGRAMS:
            return _PROGRAMS[name]
        # Playwright's driver, which starts the browser
        if "playwright" in str(arg) and "driver" in str(arg):
            return "a browser"
    program, words = (names[0] if names else ""), [str(arg) for arg in argv[1:]]
    serving = (program.startswith("python") and words[:3] == ["-m", "tendays", "serve"]) or (
        program == "tendays" and words[:1] == ["serve"]
    )
    app = program.startswith("python") and words[:1] == ["-c"] and "uvicorn" in "".join(words[1:2])
    return "a server process" if serving or app else None


def slow_reason(item: pytest.Item) -> str | None:
    """Why ``item`` is slow by its fixtures or by name, or None."""
    for fixture in getattr(item, "fixturenames", ()):
        if fixture in SLOW_FIXTURES:
            return f"it uses the fixture {fixture!r}, which starts {SLOW_FIXTURES[fixture]}"
    params = getattr(getattr(item, "callspec", None), "params", {})
    for (name, value), what in SLOW_PARAMS.items():
        if params.get(name) == value:
            return f"its {name} is {value!r}, which starts {what}"
    helper = _helper_in(getattr(item, "module", None))
    if helper is not None:
        return f"its module uses {helper[0]}.{helper[1]}, which starts {SLOW_HELPERS[helper]}"
    node = item.nodeid
    for entry in SLOW_TESTS:
        if node == entry or node.startswith(
            (entry + "[", entry + "::") if entry[-1] != "/" else entry
        ):
            return "it is named in tests/lanes.py's SLOW_TESTS"
    return None


def _helper_in(module: Any) -> tuple[str, str] | None:
    """The first helper of ``SLOW_HELPERS`` that a test module holds, or None."""
    for value in vars(module).values() if module is not None else ():
        key = (getattr(value, "__module__", None), getattr(value, "__name__", None))
        if key in SLOW_HELPERS:
            return key  # type: ignore[return-value]
    return None


def whole_and_slow(path: Path, config: pytest.Config) -> bool | None:
    """True for a folder or module of ``SLOW_TESTS`` in the fast lane (``-m "not slow"``): it is not
    even imported, so the fast lane neither pays for its imports (JAX) nor forks a process that
    holds JAX's threads. None otherwise: pytest decides."""
    if config.getoption("markexpr", "").strip() != f"not {MARK}":
        return None
    relative = path.relative_to(config.rootpath).as_posix() + ("/" if path.is_dir() else "")
    return True if relative in SLOW_TESTS else None


def mark(items: list[pytest.Item]) -> None:
    """Mark the slow ones of ``items``."""
    for item in items:
        if slow_reason(item) is not None:
            item.add_marker(MARK)


# -- what the fast lane still spends a second on
# -----------------------------------------------------------

# CPU seconds of a test (its own and its subprocesses') beyond which it belongs in the slow lane
SECOND = 1.0
_heavy: list[tuple[float, str]] = []


def _cpu() -> float:
    used = os.times()
    return used.user + used.system + used.children_user + used.children_system


def started_at(item: pytest.Item) -> None:
    """Note the CPU seconds spent so far, before ``item`` runs."""
    item.stash[_START] = _cpu()


def weigh(item: pytest.Item, report: pytest.TestReport) -> None:
    """After ``item``'s last phase, attach its CPU seconds to ``report`` if it
    is unmarked and over a second."""
    start = item.stash.get(_START, None)
    if report.when == "teardown" and start is not None and item.get_closest_marker(MARK) is None:
        spent = _cpu() - start
        if spent > SECOND:
            report.user_properties.append(("cpu_seconds", round(spent, 2)))


def note(report: pytest.TestReport) -> None:
    """Keep the unmarked tests over a second, from their reports (which also
    come back from xdist's workers)."""
    for name, value in report.user_properties:
        if name == "cpu_seconds":
            _heavy.append((float(value), report.nodeid))


def summary(write: Any) -> None:
    """Name the unmarked tests that took over a second of CPU, so
    they can be named in SLOW_TESTS."""
    if _heavy:
        write(
            f"Over {SECOND:g} s of CPU and not marked slow (name them in tests/lanes.py's "
            f"SLOW_TESTS):"
        )
        for spent, node in sorted(_heavy, reverse=True):
            write(f"  {spent:6.2f} s  {node}")


_START = pytest.StashKey[float]()


# -- the guard
# --------------------------------------------------------------------------------------------

_running: pytest.Item | None = None
_seen: list[str] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    """An audit hook: note what an unmarked test starts (args of
    subprocess.Popen: executable, argv, ...)."""
    if (
        event != "subprocess.Popen"
        or _running is None
        or _running.get_closest_marker(MARK) is not None
    ):
        return
    argv = args[1]
    argv = [argv] if isinstance(argv, str | bytes | os.PathLike) else list(argv)
    what = started(
        [os.fsdecode(arg) if isinstance(arg, bytes | os.PathLike) else str(arg) for arg in argv]
    )
    if what is not None:
        _seen.append(what)


def install() -> None:
    """Watch the processes that tests start (an audit hook stays for the life of the process)."""
    sys.addaudithook(_audit)


def watching(item: pytest.Item) -> None:
    """From now on, processes are started by ``item`` (None: by no test)."""
    global _running
    _running = item
    _seen.clear()


def verdict(item: pytest.Item, report: pytest.TestReport) -> None:
    """Fail ``report`` if its phase of ``item`` started something that makes
    a test slow without the mark."""
    # A teardown is not judged: the session's and modules' fixtures end in the teardown of whichever
    # test ran last (a shared PostgreSQL cluster's pg_ctl stop), and stopping a
    # service is not starting one.
    if not _seen or report.failed or report.when == "teardown":
        _seen.clear()
        return
    what = ", ".join(sorted(set(_seen)))
    _seen.clear()
    report.outcome = "failed"
    report.longrepr = (
        f"{item.nodeid} starts {what} but is not marked slow, so it would run in the fast lane "
        f'(pytest -m "not slow"): decorate it with @pytest.mark.slow, or name it in '
        f"tests/lanes.py's SLOW_TESTS"
    )
