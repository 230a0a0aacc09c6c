"""End-to-end tests of the browser client in a real headless Chromium, against the real server.

The server runs as ``tendays serve`` in a subprocess (a temporary SQLite file, bots without pacing);
Playwright drives Debian's Chromium. People are played by clicking and dragging, as people do: the
client marks every button that makes a legal move with ``data-move``, and the tests pick from those.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from typing import Any

import pytest
from browser_helpers import (
    CHROMIUM,
    Page,
    Server,
    click_move,
    drag,
    held_request,
    is_over,
    legal_buttons,
    new_page,
    open_lobby,
    post,
    rack_tiles,
    wait_for_turn_or_end,
)

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip("tendays.server.face.app", reason="the server (tendays serve) is not available")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]


def create_game(
    page: Page,
    server: Server,
    name: str,
    edition: str,
    seats: list[str],
    days: int,
    turn_limit: int | None = None,
    swap: bool = False,
    first_seat: int | None = None,
) -> str:
    """Fill in the lobby's form and create the game; returns the game's id once the table shows."""
    open_lobby(page, server.url + "/")
    page.fill("#player-name", name)
    page.check(f"input[name=edition][value={edition}]")
    page.check(f"input[name=seats][value='{len(seats) + 1}']")
    for seat, kind in enumerate(seats, start=2):
        page.select_option(f"#seat-{seat}", kind)
    page.check(f"input[name=days][value='{days}']")
    if turn_limit is not None:
        page.fill("input[name=turn_limit]", str(turn_limit))
    if swap:
        page.check("input[name=swap]")
    if first_seat is not None:
        page.select_option("#first-seat", str(first_seat))
    page.click("#create-button")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("#turn strong")
    return str(page.url.split("/play/")[1].split("#")[0])


# -- the tests -----------------------------------------------------------------------------


def test_two_people_and_a_bot_play_a_game_to_the_end(browser: Any, server: Server) -> None:
    alice = new_page(browser)
    bob = new_page(browser)
    game_id = create_game(alice, server, "Alice", "usa", ["human", "easy"], days=5, turn_limit=9)
    assert "#token=" in alice.url

    # Alice waits and shares the link; Bob opens it and joins with his name.
    alice.wait_for_selector(".turn-banner.waiting")
    link = alice.input_value(".turn-banner .share")
    assert link.endswith(f"/play/{game_id}") and "token" not in link
    bob.goto(link)
    bob.wait_for_selector("#join:not([hidden])")
    bob.fill("#join-name", "Bob")
    bob.click("#join-button")
    bob.wait_for_selector("#rack .day")
    assert "#token=" in bob.url
    for page in (alice, bob):
        page.wait_for_function("document.querySelectorAll('#players .player').length === 3")
        page.wait_for_selector("#players .player:has-text('Alice')")
        page.wait_for_selector("#players .player:has-text('Bob')")

    pages = [alice, bob]
    # The draft: each places the drafted tile on the first empty day (a click on the day).
    while True:
        page = wait_for_turn_or_end(pages)
        if page is None:
            break
        moves = legal_buttons(page)
        draft = [m for m in moves if m.startswith("draft")]
        if not draft:
            break
        click_move(page, draft[0])
    assert all(None not in rack_tiles(p) for p in pages) or any(is_over(p) for p in pages)
    assert alice.locator("#players .mini-rack").count() == 0, "another rack is visible before the end"
    assert bob.locator("#players .mini-rack").count() == 0, "another rack is visible before the end"

    # A reload mid-game resumes the same view: the same rack, the same seat, from the link or from memory.
    if not is_over(alice):
        before = rack_tiles(alice)
        alice.reload()
        alice.wait_for_selector("#rack .day [data-tile]")
        assert rack_tiles(alice) == before
        alice.goto(f"{server.url}/play/{game_id}")  # no token in the link: this device remembers it
        alice.wait_for_selector("#rack .day [data-tile]")
        assert rack_tiles(alice) == before
        assert "#token=" in alice.url

    # The turns. Alice replaces a day by clicking the day, then the pile for the old tile; Bob drags the
    # top of a discard pile onto a day and then chooses the pile. After that both draw and discard.
    replaced = {"Alice": False, "Bob": False}
    turns = 0
    while turns < 40:
        page = wait_for_turn_or_end(pages)
        if page is None:
            break
        who = "Alice" if page is alice else "Bob"
        moves = legal_buttons(page)
        if who == "Bob" and not replaced["Bob"] and "take 1" in moves:
            rack_before = rack_tiles(page)
            taken = page.get_attribute(".discard-pile[data-pile='1'] [data-tile]", "data-tile")
            drag(page, ".discard-pile[data-pile='1'] [data-tile]", "#rack .day[data-day='2']")
            page.wait_for_selector("#rack .day[data-day='2'].selected")
            replace = [m for m in legal_buttons(page) if m.startswith("replace 2 ")]
            assert replace, "after dragging a pile's top tile onto day 2, day 2 waits for a pile"
            click_move(page, replace[0])
            replaced["Bob"] = True
            if not is_over(page):
                assert rack_tiles(page)[1] == taken and rack_tiles(page)[0] == rack_before[0]
        elif "draw" in moves:
            if who == "Alice" and not replaced["Alice"]:
                # A hint: how far the rack is from a complete journey, with the days to change highlighted.
                page.click("#hint-button")
                page.wait_for_selector("#hint-text:not([hidden])")
                text = page.inner_text("#hint-text")
                assert "journey" in text, text
                if "complete journey:" in text:
                    assert page.locator("#rack .day.hinted").count() >= 1
            click_move(page, "draw")
            page.wait_for_selector("#piles .in-hand.holding")
            if who == "Alice" and not replaced["Alice"]:
                # With the keyboard: Enter on day 1 selects it and moves on to the first pile it may go to.
                held = page.get_attribute("#piles .in-hand [data-tile]", "data-tile")
                page.focus("#rack .day[data-day='1']")
                page.keyboard.press("Enter")
                assert page.get_attribute("#rack .day[data-day='1']", "aria-pressed") == "true"
                focused = page.evaluate("document.activeElement.dataset.move")
                assert focused and focused.startswith("replace 1 "), focused
                before = page.get_attribute("body", "data-version")
                page.keyboard.press("Enter")
                page.wait_for_function("([v]) => document.body.dataset.version !== v", arg=[before])
                replaced["Alice"] = True
                if not is_over(page):
                    assert rack_tiles(page)[0] == held
            else:
                discard = [m for m in legal_buttons(page) if m.startswith("discard")]
                click_move(page, discard[0])
        else:
            click_move(page, moves[0])
        turns += 1

    assert replaced == {"Alice": True, "Bob": True}, "the game ended before both could replace a day"

    # The end: both see it; every rack is revealed with its verdict, and the map shows a journey.
    for page in pages:
        page.wait_for_selector(".turn-banner.over")
        page.wait_for_selector("#end:not([hidden])")
        assert page.locator("#end .end-rack").count() == 3
        assert page.locator("#end .end-rack .mini-rack li").count() == 15
        assert page.locator("#map svg .day-badge").count() >= 1
        assert page.locator("#log li").count() > 20
        assert not page.js_errors, page.js_errors
    # Showing another player's journey on the map.
    alice.click("#end .end-rack[data-seat='1'] button")
    alice.wait_for_selector("#end .end-rack[data-seat='1'] button[aria-pressed='true']")
    assert "Bob" in alice.inner_text("#map-caption")


def test_phone_map_credit_spectator_and_reconnect(browser: Any, server: Server) -> None:
    phone = new_page(browser, 390, 844, is_mobile=True, has_touch=True, device_scale_factor=2)
    game_id = create_game(phone, server, "Carla", "germany", ["hard"], days=5)
    phone.wait_for_selector("#map svg path.region")
    regions = json.loads(urllib.request.urlopen(f"{server.url}/static/maps/germany.json").read())["regions"]
    assert phone.locator("#map svg path.region").count() == len(regions)
    credit = phone.locator("#credit a")
    assert credit.inner_text() == "© GeoBasis-DE / BKG 2021 (Daten verändert)"
    assert credit.get_attribute("href") == "https://www.bkg.bund.de"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390, "the table is wider than the phone"

    # Tap through the draft on the phone (the hard bot may begin it: first wait for Carla's turn).
    wait_for_turn_or_end([phone])
    while moves := [m for m in legal_buttons(phone) if m.startswith("draft")]:
        phone.locator(f"[data-move='{moves[-1]}']").tap()
        phone.wait_for_function("([m]) => !document.querySelector(`[data-move='${m}']`)", arg=[moves[-1]])
        phone.wait_for_function(
            "document.querySelectorAll('[data-move]:not([disabled])').length > 0 || "
            "!!document.querySelector('.turn-banner.over')"
        )
    assert None not in rack_tiles(phone)
    assert phone.locator("#map svg .day-badge").count() >= 1
    assert phone.locator("#rack .step").count() == 4
    box = phone.locator("#rack").bounding_box()
    assert box and box["width"] <= 390

    # A spectator sees the table but no rack (a German reader reads so in German).
    watcher = new_page(browser, locale="de-DE")
    watcher.goto(f"{server.url}/play/{game_id}#spectate")
    watcher.wait_for_selector("#players .player:has-text('Carla')")
    assert watcher.locator("#rack [data-tile]").count() == 0
    assert "Zuschauer sehen" in watcher.inner_text("#rack")

    # A seat link with a wrong token is refused in words, forgotten, and the page offers to join or watch.
    stranger = new_page(browser, locale="de-DE")
    stranger.goto(f"{server.url}/play/{game_id}#token=not-the-seat-token")
    stranger.wait_for_selector("#join:not([hidden])")
    assert "gilt nicht" in stranger.inner_text("#error-text")  # the server's refusal, in the table's language
    assert stranger.evaluate("localStorage.getItem('tendays.games')") in (None, "{}")
    assert "token" not in stranger.url
    assert not stranger.js_errors, stranger.js_errors

    # The server goes down and comes back: the page reconnects by itself and resumes the same table.
    before = rack_tiles(phone)
    server.kill()
    phone.wait_for_selector(".connection.waiting, .connection.connecting")
    server.start()
    phone.wait_for_selector(".connection.open", timeout=20_000)
    phone.wait_for_function("document.querySelectorAll('#rack [data-tile]').length === 5")
    assert rack_tiles(phone) == before
    if not is_over(phone):
        wait_for_turn_or_end([phone])
        assert legal_buttons(phone), "after reconnecting, the player can move again"
    assert not phone.js_errors, phone.js_errors
    assert not watcher.js_errors, watcher.js_errors


def test_the_lobby_lists_an_open_game_and_joins_it(browser: Any, server: Server) -> None:
    request = urllib.request.Request(
        f"{server.url}/api/games",
        method="POST",
        headers={"Content-Type": "application/json"},
        data=json.dumps(
            {
                "edition": "germany",
                "name": "Dora",
                "seats": [{"kind": "human"}, {"kind": "human"}],
                "options": {"days": 5},
            }
        ).encode(),
    )
    with urllib.request.urlopen(request) as answer:
        game_id = json.load(answer)["id"]
    page = new_page(browser)
    open_lobby(page, server.url + "/")
    item = page.locator(f".game-item[data-game='{game_id}']")
    item.wait_for()
    assert "Dora" in item.inner_text() and "free seat" in item.inner_text()
    page.fill("#player-name", "")
    page.click(f"[data-join='{game_id}']")
    assert "name" in page.inner_text("#games-error")  # joining needs a name first
    page.fill("#player-name", "Emil")
    page.click(f"[data-join='{game_id}']")
    page.wait_for_url(f"**/play/{game_id}#token=*")
    page.wait_for_selector("#players .player:has-text('Emil')")
    page.wait_for_function("document.querySelectorAll('#rack .day').length === 5")
    # Back in the lobby, the game is one of this device's games, to resume.
    open_lobby(page, server.url + "/")
    page.locator(f".game-item[data-game='{game_id}'] a:has-text('Resume')").wait_for()
    assert not page.js_errors, page.js_errors


def test_who_begins_the_bots_offered_and_the_swap_variant(browser: Any, server: Server) -> None:
    page = new_page(browser)
    open_lobby(page, server.url + "/")
    # The seats offer the bots the server lists: its levels first, then the particular bots.
    with urllib.request.urlopen(f"{server.url}/api/bots") as answer:
        offered = json.load(answer)
    page.check("input[name=seats][value='2']")
    page.wait_for_selector(f"#seat-2 option[value='{offered['levels'][0]['name']}']", state="attached")
    values = page.eval_on_selector_all("#seat-2 option", "options => options.map(o => o.value)")
    levels = [level["name"] for level in offered["levels"]]
    assert values[: len(levels) + 1] == ["human", *levels]
    assert set(values) == {"human", *levels, *(bot["name"] for bot in offered["bots"])}
    # Each level shows its rating from the published ladder, so people see how far apart they are.
    labels = page.eval_on_selector_all("#seat-2 option", "options => options.map(o => o.textContent)")
    for level, label in zip(offered["levels"], labels[1:], strict=False):
        assert label == f"Bot: {level['name']} (rated {level['rating']:.1f})"
    # Who begins: by chance, or any seat of the game.
    page.check("input[name=seats][value='3']")
    assert page.eval_on_selector_all("#first-seat option", "options => options.map(o => o.textContent)") == [
        "Chosen by chance",
        "Seat 1 (you)",
        "Seat 2",
        "Seat 3",
    ]

    # Seat 1 begins, so the draft starts with this player; with the swap variant a turn may swap two days.
    sent: list[Any] = []
    page.on("request", lambda r: sent.append(r.post_data_json) if r.method == "POST" else None)
    create_game(page, server, "Fay", "usa", ["easy"], days=5, swap=True, first_seat=0)
    assert sent[0]["options"]["first_seat"] == 0 and sent[0]["options"]["swap"] is True
    page.wait_for_selector("[data-move='draft 1']")
    assert page.locator("#log li").count() == 0, "somebody moved before the first player"
    swapped = 0
    while swapped < 2:
        mover = wait_for_turn_or_end([page])
        assert mover is not None, "the game ended before two swaps"
        moves = legal_buttons(page)
        if any(m.startswith("draft") for m in moves):
            click_move(page, next(m for m in moves if m.startswith("draft")))
        elif "draw" in moves:
            before = rack_tiles(page)
            version = page.get_attribute("body", "data-version")
            if swapped == 0:  # clicking one day, then the other
                page.click("#rack .day[data-day='1']")
                assert page.get_attribute("#rack .day[data-day='1']", "aria-pressed") == "true"
                page.click("#rack .day[data-day='2']")
            else:  # dragging one day onto the other
                drag(page, "#rack .day[data-day='4']", "#rack .day[data-day='5']")
            page.wait_for_function("([v]) => document.body.dataset.version !== v", arg=[version])
            first, second = (0, 1) if swapped == 0 else (3, 4)
            after = rack_tiles(page)
            assert (after[first], after[second]) == (before[second], before[first]), (before, after)
            swapped += 1
        else:
            click_move(page, moves[0])
    assert not page.js_errors, page.js_errors


def test_a_name_typed_while_the_lobby_loads_is_kept(browser: Any, server: Server) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")  # this device remembers a name from an earlier game
    page.evaluate("localStorage.setItem('tendays.name', 'Earlier')")
    # The language catalogues are held back: the page is on screen while its script waits for its words.
    held: list[Any] = []
    holding = True
    page.route("**/static/i18n/*.json", lambda route: held.append(route) if holding else route.continue_())
    page.goto(server.url + "/", wait_until="commit")
    page.fill("#player-name", "Gina")
    held_request(page, held)  # the script has started and asked for its words
    holding = False
    for route in held:
        route.continue_()
    open_lobby(page)
    assert page.input_value("#player-name") == "Gina"
    page.select_option("#seat-2", "easy")
    page.click("#create-button")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("#players .player:has-text('Gina')")
    assert not page.js_errors, page.js_errors


def test_the_table_speaks_its_readers_language(browser: Any, server: Server) -> None:
    # A German browser opens a friend's link to a USA game: the join form and the table are in German.
    ticket = post(
        server.url,
        "/api/games",
        {"edition": "usa", "name": "Jack", "seats": [{"kind": "human"}, {"kind": "human"}], "options": {"days": 5}},
    )
    german = new_page(browser, locale="de-DE")
    german.goto(f"{server.url}/play/{ticket['id']}")
    german.wait_for_selector("#join:not([hidden])")
    assert german.inner_text("#join-title") == "Diesem Spiel beitreten"
    german.fill("#join-name", "Hanna")
    german.click("#join-button")
    german.wait_for_selector("#rack .day")
    assert german.get_attribute("html", "lang") == "de"
    assert german.inner_text("#rack-title") == "Deine Reise"
    # An English browser creates a game of the German edition: the table is in English, until the switch.
    english = new_page(browser, locale="en-GB")
    create_game(english, server, "Ian", "germany", ["easy"], days=5)
    assert english.get_attribute("html", "lang") == "en"
    assert english.inner_text("#rack-title") == "Your journey"
    english.select_option("#language", "de")
    english.wait_for_function("document.getElementById('rack-title').textContent === 'Deine Reise'")
    assert english.get_attribute("html", "lang") == "de"
    assert not german.js_errors and not english.js_errors, german.js_errors + english.js_errors


def test_a_broken_step_on_a_phone_map_explains_itself_when_tapped(browser: Any, server: Server) -> None:
    ticket = post(
        server.url,
        "/api/games",
        {
            "edition": "usa",
            "name": "Kim",
            "options": {"first_seat": 0},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
        },
    )
    phone = new_page(browser, 390, 844, is_mobile=True, has_touch=True)
    phone.goto(server.url + ticket["url"])
    # Kim drafts first: a finger taps, and the phone says so.
    phone.wait_for_function("document.getElementById('prompt').textContent.startsWith('You drew')")
    prompt = phone.inner_text("#prompt")
    assert "tap the day" in prompt and "click" not in prompt, prompt
    mark = phone.locator(".journey .broken-mark, .journey .via-badge.broken").first
    deadline = time.monotonic() + 90  # a draft with no broken step at all fails here rather than hanging
    while not mark.count():  # draft by tapping until two neighbouring days make a broken step
        assert time.monotonic() < deadline, "the draft made no broken step to tap"
        draft = [m for m in legal_buttons(phone) if m.startswith("draft")]
        if not draft:
            phone.wait_for_timeout(50)
            continue
        phone.locator(f"[data-move='{draft[0]}']").tap()
        phone.wait_for_function("([m]) => !document.querySelector(`[data-move='${m}']`)", arg=[draft[0]])
    # The reason of a broken step between two days, shown on its own, is a sentence.
    reasons = phone.eval_on_selector_all("#rack .step.broken", "marks => marks.map(m => m.title)")
    assert reasons and all(r[0].isupper() and r.endswith(".") for r in reasons), reasons
    mark.scroll_into_view_if_needed()
    box = mark.bounding_box()
    assert box and box["width"] >= 24 and box["height"] >= 24, f"the ✗ is a tap target of {box}"
    assert phone.inner_text("#map-explain") == ""
    phone.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    phone.wait_for_function("document.getElementById('map-explain').textContent.startsWith('Broken: day ')")
    assert not phone.js_errors, phone.js_errors


def test_german_pages_say_it_all_in_german(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="de-DE")
    open_lobby(page, server.url + "/")
    # The particular bots and what each does, in German (the server describes them in English).
    with urllib.request.urlopen(f"{server.url}/api/bots") as answer:
        english = {bot["name"]: bot["description"] for bot in json.load(answer)["bots"]}
    offered = page.eval_on_selector_all(
        "#seat-2 optgroup option", "options => options.map(o => [o.value, o.textContent, o.title])"
    )
    assert {value for value, _, _ in offered} == set(english)
    for value, _, title in offered:
        assert title and title != english[value], (value, title)
    assert ["greedy", "Bot: gierig"] in [[value, label] for value, label, _ in offered]

    # A link to a game that does not exist: said in German, with the way to the lobby, nothing to watch.
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"{server.url}/play/NOSUCHGAME")
    page.wait_for_selector("#join-lobby:not([hidden])")
    assert page.inner_text("#join-summary").startswith("Dieses Spiel gibt es nicht")
    assert page.is_disabled("#join-button") and page.is_disabled("#spectate-button")
    assert sum(url.endswith("/api/games/NOSUCHGAME") for url in asked) == 1
    page.goto(f"{server.url}/play/ANOTHERMISSING#spectate")  # a watch link to a game that is gone
    page.wait_for_selector("#join-lobby:not([hidden])")
    assert page.inner_text("#join-summary").startswith("Dieses Spiel gibt es nicht")

    # A refusal of the server is a sentence: capital first letter, full stop.
    ticket = post(
        server.url,
        "/api/games",
        {"edition": "usa", "name": "Lena", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]},
    )
    page.goto(f"{server.url}/play/{ticket['id']}#token=not-the-seat-token")
    page.wait_for_selector("#error:not([hidden])")
    refusal = page.inner_text("#error-text")
    assert refusal[0].isupper() and refusal.endswith("."), refusal

    assert not page.js_errors, page.js_errors
    # The map's legend: no brackets inside brackets.
    page = new_page(browser, locale="de-DE")
    page.goto(server.url + ticket["url"])
    page.wait_for_selector("#map-legend li", state="attached")  # in a folded legend
    legend = [
        " ".join(item.split())
        for item in page.eval_on_selector_all("#map-legend li", "items => items.map(i => i.textContent)")
    ]
    assert "AK Alaska (jede Farbe, lila)" in legend
    assert [item for item in legend if re.search(r"\([^)]*\(", item)] == []
    assert not page.js_errors, page.js_errors


def test_the_german_map_names_its_regions_where_they_fit(browser: Any, server: Server) -> None:
    ticket = post(
        server.url,
        "/api/games",
        {"edition": "germany", "name": "Mia", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]},
    )
    page = new_page(browser, locale="de-DE")
    page.goto(server.url + ticket["url"])
    page.wait_for_selector("#map svg path.region")
    names = page.eval_on_selector_all("#map svg .region-name", "nodes => nodes.map(n => n.textContent)")
    assert len(names) * 2 > page.locator("#map svg path.region").count(), names  # most regions have room
    assert "Oberbayern" in names
    # Every name lies inside its own region, so none covers a neighbour.
    outside = page.evaluate("""() => [...document.querySelectorAll('#map svg .region-name')].filter(text => {
        const region = document.querySelector(`#map svg path.region[data-region='${text.dataset.region}']`);
        const box = text.getBBox();
        const corners = [[box.x, box.y], [box.x + box.width, box.y], [box.x, box.y + box.height],
                         [box.x + box.width, box.y + box.height]];
        return !corners.every(([x, y]) => region.isPointInFill(new DOMPoint(x, y)));
    }).map(text => text.textContent)""")
    assert outside == [], outside
    # What a screen reader hears of the map counts in German: one place, "1 Ort".
    page.wait_for_selector("[data-move^='draft']")
    click_move(page, page.get_attribute("[data-move^='draft']", "data-move"))
    page.wait_for_function("document.querySelector('#map svg').getAttribute('aria-label').includes(': 1 Ort, ')")
    assert not page.js_errors, page.js_errors
