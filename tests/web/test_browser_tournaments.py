"""Tournaments in Chromium, as people play them: four people (four browser contexts, signed up) and two
ladder bots play a three-round Swiss to the end, and the test works out the standings and tie-breaks
itself from every game's result and compares them with the page; an arena of a minute never pairs
anyone with the same opponent twice in a row; the form that creates an event and the buttons that join
one say the server's refusals in words; both pages pass axe-core in English and German and fit a phone.

Nobody moves: each person's tournament page takes them to their game as soon as it is given, and there,
on a live clock of two seconds a move, their turns are played on the clock and then by the bot that keeps
an absent player's seat, as in any game; the ladder's bots play their own seats.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Page, Server, new_page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from test_accessibility import audit
from test_profiles_browser import SMALL_TARGETS

from tendays.web.pages import page_html

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip("tendays.server.face.app", reason="the server (tendays serve) is not available")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

PEOPLE = ("Ada", "Bob", "Cyd", "Dee")
PASSWORD = "a tournament of ten days"
PACE = {"kind": "live", "per_move": 2, "bank": 0}  # seconds: a game nobody plays ends within a minute
OPTIONS = {"days": 5}  # the short game
JOIN_SECONDS = 25  # from creating an event to its start: time for four people to press Join
EVENT_SECONDS = 300  # the longest a tournament of these tests may take to finish, on a loaded machine

# The page's own words for an event that has finished.
FINISHED = "Finished"
CLICKED = "(clicked)"  # in the games a page went to: the next one was reached by a click on its link

# A REST call made by the page (its cookies; a change carries the session's CSRF token).
CALL = """async ([method, path, body]) => {
  const headers = {"Content-Type": "application/json"};
  const session = await fetch("/api/session").then((r) => (r.ok ? r.json().catch(() => null) : null));
  if (session && session.csrf) headers["X-CSRF-Token"] = session.csrf;
  const answer = await fetch(path, {method, headers, body: body === null ? undefined : JSON.stringify(body)});
  return {status: answer.status, body: await answer.json().catch(() => null)};
}"""

# The standings table as the page shows it: one object per row.
STANDINGS = """() => [...document.querySelectorAll("#standings tr")].map((row) => ({
  name: row.dataset.name,
  rank: Number(row.cells[0].textContent),
  score: Number(row.querySelector("td:nth-of-type(2) strong").textContent),
  games: Number(row.querySelector("td:nth-of-type(3)").textContent),
  tiebreaks: Object.fromEntries([...row.querySelectorAll("td[data-tiebreak]")]
    .map((cell) => [cell.dataset.tiebreak, Number(cell.textContent)])),
  fire: Boolean(row.querySelector(".fire")),
}))"""


def call(page: Page, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    answer = page.evaluate(CALL, [method, path, body])
    return int(answer["status"]), answer["body"]


def opened(browser: Any, url: str, locale: str = "en-US", width: int = 1280) -> Page:
    page = new_page(browser, width, 900, locale=locale)
    page.goto(url)
    page.wait_for_selector("body[data-ready]", state="attached")
    return page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # clocks of a second or two, and arenas of a minute or two
    running = Server(
        tmp_path_factory.mktemp("tournaments") / "tendays.db", {"paces": {"live_min": 1}, "tournament_min_minutes": 1}
    )
    running.start()
    try:
        yield running
    finally:
        running.kill()


@pytest.fixture(scope="module")
def people(browser: Any, server: Server) -> dict[str, Page]:
    """Four people, each signed up in a browser context of their own, on the tournaments page."""
    pages = {}
    for name in PEOPLE:
        page = opened(browser, f"{server.url}/tournaments")
        status, answer = call(page, "POST", "/api/accounts", {"name": name, "password": PASSWORD})
        assert status == 201, answer
        pages[name] = page
    return pages


def create(page: Page, **fields: Any) -> int:
    body = {
        "edition": "usa",
        "clock": PACE,
        "options": OPTIONS,
        "rated": False,
        "starts_at": time.time() + JOIN_SECONDS,
        **fields,
    }
    status, answer = call(page, "POST", "/api/tournaments", body)
    assert status == 201, answer
    return int(answer["id"])


def join(page: Page, server: Server, event: int) -> None:
    """Open the event's page and press Join, as a person does."""
    page.goto(f"{server.url}/tournaments/{event}")
    page.wait_for_selector("body[data-ready]", state="attached")
    page.click("#join-button")
    page.wait_for_selector("#withdraw-button:not([hidden])")
    assert page.inner_text("#action-said") == "You joined the tournament."


def play_out(server: Server, event: int, players: dict[str, Page], watcher: Page) -> dict[str, list[str]]:
    """Until the watcher's page says the event finished: each person is taken to their game by the event's
    page, and back to the event's page once the game is over. The games each person's page went to by itself
    (without a click), by name."""
    event_url = f"{server.url}/tournaments/{event}"
    gone_to: dict[str, list[str]] = {name: [] for name in players}
    deadline = time.monotonic() + EVENT_SECONDS
    while watcher.inner_text("#event-status") != FINISHED:
        assert time.monotonic() < deadline, f"the tournament did not finish: {watcher.inner_text('main')}"
        for name, page in players.items():
            if "/play/" in page.url:
                game = page.url.split("/play/")[1].split("#")[0]
                if game not in gone_to[name]:
                    gone_to[name].append(game)
                if page.locator(".turn-banner.over").count():
                    page.goto(event_url)
                    page.wait_for_selector("body[data-ready]", state="attached")
            elif page.locator("#your-game:not([hidden])").count():
                # back from a game after the next one was given: the page offers it with a link. The offer
                # may go between the look and the click (that game ended, or the page went to the next
                # one by itself): then the next pass of the loop sees what the page shows instead.
                try:
                    page.click("#your-game:not([hidden]) #your-game-link", timeout=5000)
                except PlaywrightTimeoutError:
                    continue
                page.wait_for_url("**/play/**")
                gone_to[name].append(CLICKED)
        watcher.wait_for_timeout(250)
    for page in players.values():
        if "/play/" in page.url:
            page.goto(event_url)
    return gone_to


def game_results(page: Page, games: list[dict[str, Any]]) -> list[tuple[list[str], list[int]]]:
    """The seats' names and places of each game with a result, in the order of ``games``, from the game's
    replay (GET /api/games/{id}/replay), not from the tournament: a game played out ranks its winner first
    and the others second (all first when nobody won); a game ended early (abandoned) has no result."""
    results = []
    for game in games:
        status, replay = call(page, "GET", f"/api/games/{game['id']}/replay")
        assert status == 200, replay
        names = [seat["name"] for seat in replay["seats"]]
        assert sorted(names) == sorted(game["seats"]), (names, game)
        if replay["ended"] is not None:
            continue
        winner = replay["winner"]
        results.append((names, [1 if winner is None or seat == winner else 2 for seat in range(len(names))]))
    return results


def table_points(places: list[int]) -> list[float]:
    """Each seat's points at a table of k: place p scores (k - p) / (k - 1), tied places share the mean of
    the points of the places they cover."""
    k = len(places)
    ordered = sorted(places)
    points = []
    for place in places:
        covered = [i for i, other in enumerate(ordered) if other == place]  # 0-based positions it spans
        points.append(sum((k - 1 - i) / (k - 1) for i in covered) / len(covered))
    return points


def swiss_standings(entrants: dict[str, float], tables: list[tuple[list[str], list[int]]]) -> list[dict[str, Any]]:
    """Score, Buchholz, Sonneborn-Berger and rank of each entrant (name -> rating), from the tables that
    ended with a result (their seats' names and places), worked out here as docs/server.md says."""
    scored = [(seats, table_points(places)) for seats, places in tables]
    score = dict.fromkeys(entrants, 0.0)
    games = dict.fromkeys(entrants, 0)
    for seats, points in scored:
        for name, got in zip(seats, points, strict=True):
            score[name] += got
            games[name] += 1
    buchholz = dict.fromkeys(entrants, 0.0)
    sonneborn = dict.fromkeys(entrants, 0.0)
    for seats, points in scored:
        for name, got in zip(seats, points, strict=True):
            mates = [score[other] for other in seats if other != name]
            buchholz[name] += sum(mates)
            sonneborn[name] += got * sum(mates) / len(mates)
    key = {
        name: (round(score[name], 6), round(buchholz[name], 6), round(sonneborn[name], 6), entrants[name])
        for name in entrants
    }
    order = sorted(entrants, key=lambda name: tuple(-part for part in key[name]))
    lines = []
    for position, name in enumerate(order):
        shared = next(i for i, other in enumerate(order) if key[other] == key[name])
        lines.append(
            {
                "name": name,
                "rank": shared + 1 if shared < position else position + 1,
                "score": score[name],
                "games": games[name],
                "tiebreaks": {"buchholz": buchholz[name], "sonneborn_berger": sonneborn[name]},
            }
        )
    return lines


def rounded(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Numbers as the page writes them (two decimals at most)."""
    return [
        {**line, "score": round(line["score"], 2), "tiebreaks": {k: round(v, 2) for k, v in line["tiebreaks"].items()}}
        for line in lines
    ]


def test_four_people_and_two_bots_play_a_three_round_swiss_to_the_end(
    browser: Any, server: Server, people: dict[str, Page]
) -> None:
    ada = people["Ada"]
    event = create(ada, name="Friday Swiss", kind="swiss", rounds=3, bots=["beginner", "easy"])
    for page in people.values():
        join(page, server, event)
    watcher = opened(browser, f"{server.url}/tournaments/{event}")  # nobody signed in
    assert watcher.inner_text("#event-status") == "Starting soon", "the start came before everyone joined"
    assert watcher.inner_text("#event-clock").startswith("Starts in ")
    assert watcher.is_visible("#sign-in-link") and not watcher.is_visible("#join-button")
    watcher.wait_for_selector("#event-status.running", timeout=JOIN_SECONDS * 2000)
    gone_to = play_out(server, event, people, watcher)

    status, state = call(watcher, "GET", f"/api/tournaments/{event}")
    assert status == 200 and state["status"] == "finished"
    games = state["games"]
    # three rounds of three tables, everyone once a round, and nobody meets anyone twice
    assert sorted(game["round"] for game in games) == [1, 1, 1, 2, 2, 2, 3, 3, 3]
    for round_number in (1, 2, 3):
        seated = [name for game in games if game["round"] == round_number for name in game["seats"]]
        assert len(seated) == 6 and len(set(seated)) == 6, seated
    met = [frozenset(game["seats"]) for game in games]
    assert len(set(met)) == len(met), met
    # every person's page took them to each game of theirs that began while it was open
    for name in PEOPLE:
        theirs = [game["id"] for game in reversed(games) if name in game["seats"]]
        went = [game for game in gone_to[name] if game != CLICKED]
        assert gone_to[name][:1] == theirs[:1], (name, gone_to[name], theirs)  # the first without a click
        assert set(went) <= set(theirs), (name, gone_to[name], theirs)

    # the standings and tie-breaks, worked out here from each game's own record
    tables = game_results(watcher, games)
    assert len(tables) >= 6, tables  # most games were played out: the standings are not all zeros
    ratings = {line["name"]: line["rating"] for line in state["standings"]}
    expected = rounded(swiss_standings(ratings, tables))
    watcher.wait_for_selector("#podium-part:not([hidden])")
    shown = watcher.evaluate(STANDINGS)
    assert [{k: v for k, v in line.items() if k != "fire"} for line in shown] == expected
    assert not any(line["fire"] for line in shown)
    headings = watcher.eval_on_selector_all("#standings-head abbr", "nodes => nodes.map(n => n.title)")
    assert headings[0].startswith("Buchholz: ") and headings[1].startswith("Sonneborn-Berger: ")
    # the podium is the first three; every game links to its replay
    podium = watcher.eval_on_selector_all("#podium li", "nodes => nodes.map(n => n.dataset.name)")
    assert podium == [line["name"] for line in expected[:3]]
    replays = watcher.eval_on_selector_all("#ended a", "nodes => nodes.map(n => n.getAttribute('href'))")
    assert sorted(replays) == sorted(f"/replay/{game['id']}" for game in games)
    assert watcher.locator("#playing li.muted").count() == 1  # "No game is being played now."
    # each person's profile lists the event with their rank
    for line in expected:
        if line["name"] in PEOPLE:
            profile = opened(browser, f"{server.url}/players/{line['name']}")
            profile.wait_for_selector("#tournaments-part:not([hidden])")
            said = profile.inner_text("#tournament-results")
            assert "Friday Swiss" in said and f"place {line['rank']} of 6" in said, said
            assert profile.js_errors == []
            profile.context.close()
    for page in [watcher, *people.values()]:
        assert page.js_errors == []
    watcher.context.close()


def arena_scores(names: list[str], games: list[tuple[list[str], list[int]]]) -> dict[str, int]:
    """An arena's scores, worked out here: a win 2, a tie 1, a loss 0; after two wins in a row each win
    (and tie) scores double until a game that is not a win. ``games``: in the order they were played."""
    score = dict.fromkeys(names, 0)
    streak = dict.fromkeys(names, 0)
    for seats, places in games:
        for me, mine in zip(seats, places, strict=True):
            theirs = next(p for s, p in zip(seats, places, strict=True) if s != me)
            times = 2 if streak[me] >= 2 else 1
            if mine < theirs:
                score[me] += 2 * times
                streak[me] += 1
            else:
                score[me] += times if mine == theirs else 0
                streak[me] = 0
    return score


def test_an_arena_never_pairs_the_same_opponents_twice_in_a_row(
    browser: Any, server: Server, people: dict[str, Page]
) -> None:
    players = {name: people[name] for name in ("Ada", "Bob", "Cyd")}
    event = create(people["Bob"], name="One-minute arena", kind="arena", minutes=1, bots=["beginner"])
    for page in players.values():
        join(page, server, event)
    # Dee joins, pauses (and says so), then withdraws: she is never paired
    dee = people["Dee"]
    join(dee, server, event)
    dee.click("#pause-button")
    dee.wait_for_selector("#pause-button[aria-pressed=true]")
    assert dee.inner_text("#pause-button") == "Come back"
    dee.wait_for_selector("#standings tr[data-name=Dee] >> text=paused")
    dee.click("#withdraw-button")
    dee.wait_for_selector("#join-button:not([hidden])")
    watcher = opened(browser, f"{server.url}/tournaments/{event}")
    assert watcher.inner_text("#event-clock").startswith("Starts in ")
    watcher.wait_for_selector("#event-status.running", timeout=JOIN_SECONDS * 2000)
    watcher.wait_for_function("document.getElementById('event-clock').textContent.startsWith('Ends in ')")
    play_out(server, event, players, watcher)

    status, state = call(watcher, "GET", f"/api/tournaments/{event}")
    assert status == 200 and state["status"] == "finished"
    played = list(reversed(state["games"]))  # in the order they were paired
    assert all(game["round"] == 0 and len(game["seats"]) == 2 for game in played)
    assert not any("Dee" in game["seats"] for game in played)
    for name in ("Ada", "Bob", "Cyd", "Beginner bot"):
        opponents = [next(s for s in game["seats"] if s != name) for game in played if name in game["seats"]]
        assert len(opponents) >= 2, (name, opponents)  # enough games for the rule to matter
        assert all(one != two for one, two in pairwise(opponents)), (name, opponents)
    # the scores with their streaks, worked out here from each game's own record, as the page shows them
    results = game_results(watcher, played)
    names = [line["name"] for line in state["standings"]]
    expected = arena_scores(names, results)
    shown = {line["name"]: line for line in watcher.evaluate(STANDINGS)}
    assert {name: shown[name]["score"] for name in names} == expected
    assert list(shown) == sorted(shown, key=lambda name: -expected[name])  # best first
    assert watcher.eval_on_selector_all("#standings-head abbr", "nodes => nodes.map(n => n.title)")[0].startswith(
        "Performance: "
    )
    for page in [watcher, *people.values()]:
        assert page.js_errors == []
    watcher.context.close()


def test_the_form_and_the_buttons_say_the_servers_refusals_in_words(
    browser: Any, server: Server, people: dict[str, Page]
) -> None:
    cyd = people["Cyd"]
    cyd.goto(f"{server.url}/tournaments")
    cyd.wait_for_selector("#create-form:not([hidden])")
    cyd.fill("#t-name", "Cyd's Swiss")
    cyd.check("input[name=kind][value=swiss]")
    assert cyd.is_visible("#t-rounds") and not cyd.is_visible("#t-minutes")
    cyd.fill("#t-rounds", "25")
    cyd.click("#create-button")
    cyd.wait_for_selector("#create-error:not(:empty)")
    assert cyd.inner_text("#create-error") == "Rounds: must be at most 20 (not '25')."
    cyd.fill("#t-rounds", "2")
    cyd.select_option("#t-table", "3")
    cyd.fill("input[name=rating_max]", "10")  # below every newcomer's rating
    cyd.check("input[name=bot][value=easy]")
    cyd.click("#create-button")
    cyd.wait_for_url("**/tournaments/*")
    cyd.wait_for_selector("body[data-ready]", state="attached")
    assert cyd.inner_text("#event-name") == "Cyd's Swiss"
    facts = cyd.inner_text("#event-facts") + cyd.inner_text("#event-rules")
    assert "2 rounds, tables of 3" in facts and "for ratings up to 10" in facts and "easy" in facts, facts
    cyd.wait_for_selector("#standings tr[data-name='Easy bot']")
    cyd.click("#join-button")
    cyd.wait_for_selector("#action-error:not(:empty)")
    assert "rating" in cyd.inner_text("#action-error").lower()
    assert cyd.is_visible("#join-button")  # not joined
    # no such tournament: said in words, with no empty tables beneath
    nowhere = opened(browser, f"{server.url}/tournaments/999999")
    assert nowhere.inner_text("#event-error") == "There is no tournament 999999."
    assert nowhere.locator(".standings-part").is_hidden()
    assert cyd.js_errors == [] and nowhere.js_errors == []
    nowhere.context.close()


@pytest.fixture(scope="module")
def upcoming(server: Server, people: dict[str, Page]) -> int:
    """An arena starting in an hour, with two people and a bot in it."""
    event = create(
        people["Dee"], name="Evening arena", kind="arena", minutes=30, bots=["normal"], starts_at=time.time() + 3600
    )
    for name in ("Dee", "Ada"):
        status, answer = call(people[name], "POST", f"/api/tournaments/{event}/join")
        assert status == 200, answer
    return event


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_the_tournament_pages_pass_axe_in_both_languages(
    browser: Any, server: Server, upcoming: int, locale: str
) -> None:
    for path, german in (("/tournaments", "Beginnen bald"), (f"/tournaments/{upcoming}", "Tabelle")):
        page = opened(browser, f"{server.url}{path}", locale)
        page.wait_for_selector(".tournament-list table, #standings tr")
        assert audit(page) == [], (path, locale)
        if locale == "de-DE":
            assert page.get_attribute("html", "lang") == "de"
            assert german in page.inner_text("main")
        assert page.js_errors == []
        page.context.close()


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_on_a_phone_the_tournament_pages_fit(browser: Any, server: Server, upcoming: int, locale: str) -> None:
    for path in ("/tournaments", f"/tournaments/{upcoming}"):
        phone = new_page(browser, 390, 844, is_mobile=True, has_touch=True, locale=locale)
        phone.goto(f"{server.url}{path}")
        phone.wait_for_selector("body[data-ready]", state="attached")
        phone.wait_for_selector(".tournament-list table, #standings tr")
        widths = phone.evaluate("""() => ({page: document.documentElement.scrollWidth,
          standings: Math.max(0, ...[...document.querySelectorAll('#standings td, #standings th')]
            .map((cell) => cell.getBoundingClientRect().right))})""")
        assert widths["page"] <= 390 and widths["standings"] <= 390, (path, widths)
        assert phone.evaluate(SMALL_TARGETS, ".topbar a, main a, summary") == [], path
        phone.context.close()


def test_on_a_phone_the_form_fits_too(server: Server, people: dict[str, Page]) -> None:
    dee = people["Dee"]  # signed in: the form is shown
    dee.set_viewport_size({"width": 390, "height": 844})
    try:
        dee.goto(f"{server.url}/tournaments")
        dee.wait_for_selector("#create-form:not([hidden])")
        for kind in ("arena", "swiss"):
            dee.check(f"input[name=kind][value={kind}]")
            assert dee.evaluate("document.documentElement.scrollWidth") <= 390, kind
    finally:
        dee.set_viewport_size({"width": 1280, "height": 900})


def test_the_tournament_pages_are_used_by_keyboard(
    browser: Any, server: Server, upcoming: int, people: dict[str, Page]
) -> None:
    bob = people["Bob"]
    bob.goto(f"{server.url}/tournaments/{upcoming}")
    bob.wait_for_selector("#join-button:not([hidden])")
    bob.focus("#join-button")
    bob.keyboard.press("Enter")
    bob.wait_for_selector("#withdraw-button:not([hidden])")
    # the focus went on to the button that took the pressed one's place
    assert bob.evaluate("document.activeElement.id") == "withdraw-button"
    bob.keyboard.press("Enter")
    bob.wait_for_selector("#join-button:not([hidden])")
    assert bob.evaluate("document.activeElement.id") == "join-button"
    bob.fill("#event-chat-input", "Good luck, everyone! <b>bold</b>")
    bob.keyboard.press("Enter")
    bob.wait_for_selector("#event-chat .chat-line >> text=<b>bold</b>")
    assert bob.input_value("#event-chat-input") == ""
    # a line typed while the page refreshes is kept
    bob.fill("#event-chat-input", "half a sentence")
    loads = int(bob.get_attribute("body", "data-loads") or 0)
    bob.wait_for_function("([before]) => Number(document.body.dataset.loads) > before + 1", arg=[loads])
    assert bob.input_value("#event-chat-input") == "half a sentence"
    assert bob.evaluate("document.activeElement.id") == "event-chat-input"
    # so is the focus on a link of the standings, which the refresh leaves alone when nothing changed
    bob.focus("#standings a.account-mark")
    loads = int(bob.get_attribute("body", "data-loads") or 0)
    bob.wait_for_function("([before]) => Number(document.body.dataset.loads) > before + 1", arg=[loads])
    assert bob.evaluate("document.activeElement.matches('#standings a.account-mark')")
    assert bob.js_errors == []


# The screens of one game (a table, a replay, the guided game, TV) keep their top bar to the game.
GAME_SCREENS = {"play.html", "replay.html", "learn.html", "tv.html"}


def test_every_page_but_the_game_screens_links_to_the_tournaments() -> None:
    static = Path(__file__).resolve().parents[2] / "src" / "tendays" / "web" / "static"
    pages = sorted(page for page in static.glob("*.html") if page.name not in GAME_SCREENS)
    assert len(pages) >= 10
    for page in pages:
        header = page_html(page).split("</header>")[0]
        assert 'href="/tournaments"' in header, page.name
