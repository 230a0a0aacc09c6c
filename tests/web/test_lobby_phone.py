"""The lobby on a phone: every field of the new-game form fits inside the form, in the longer German words."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import Server, new_page, open_lobby

pytestmark = pytest.mark.slow  # starts tendays serve (and Chromium)


def test_the_new_game_form_fits_a_phone(browser: Any, server: Server) -> None:
    phone = new_page(browser, 390, 844, is_mobile=True, has_touch=True, locale="de-DE")
    open_lobby(phone, server.url)
    phone.check("input[name='seats'][value='3']", force=True)
    phone.wait_for_selector("#seat-list select >> nth=1")
    overflowing = phone.evaluate("""() => {
      const form = document.getElementById("create-form").getBoundingClientRect();
      return [...document.querySelectorAll("#create-form select, #create-form input, #create-form button")]
        .filter(field => field.offsetParent !== null && field.getBoundingClientRect().right > form.right + 0.5)
        .map(field => field.id || field.name);
    }""")
    assert overflowing == [], f"fields wider than the form on a phone: {overflowing}"
