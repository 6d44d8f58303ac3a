"""The lobby's create form (issue 19, point 9), in a real browser: the server's clock length,
yes/no options as switches with their label, option help texts in the player's language."""

from __future__ import annotations

import json
from collections.abc import Callable

from playwright.sync_api import expect

from browser import CATALOGUES, Player, Server, no_page_errors


def test_the_lobby_shows_the_clock_switches_and_translated_help(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    server = start_server(WHIST_CLOCK_SECONDS="45")
    ann = new_player(server, "Ann")
    page = ann.page
    form = page.get_by_test_id("create-form")

    # The clock is the server's, in the form and in the list of open tables.
    expect(form.get_by_label("45 seconds per move")).to_be_checked()
    form.get_by_test_id("create-variant").select_option("german")
    form.get_by_test_id("create-bot-1").select_option("human")  # it waits for a player
    form.get_by_test_id("create-submit").click()
    expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "open")
    page.goto("/#/lobby")
    expect(page.get_by_test_id("open-table").first).to_contain_text("45 s clock")

    # A yes/no option is a switch named by its label; the keyboard and the label flip it.
    form.get_by_test_id("create-variant").select_option("german")
    switch = form.get_by_role("switch", name="Stock cards may be discarded")
    expect(switch).not_to_be_checked()
    switch.focus()
    page.keyboard.press("Space")
    expect(switch).to_be_checked()
    form.get_by_text("Stock cards may be discarded", exact=True).click()
    expect(switch).not_to_be_checked()
    # No hint repeating the label beside it.
    expect(form.get_by_text("a stock card may be discarded")).to_have_count(0)

    # Help texts are in the player's language.
    sv = json.loads((CATALOGUES / "sv.json").read_text(encoding="utf-8"))
    page.get_by_test_id("language-switcher").select_option("sv")
    expect(page.locator("html")).to_have_attribute("lang", "sv")  # the page is relabelled
    form.get_by_test_id("create-variant").select_option("classic")
    expect(form.get_by_text(sv["first team to N points"], exact=True)).to_be_visible()
    expect(form.get_by_text(sv["{n} seconds per move"].replace("{n}", "45"))).to_be_visible()
    no_page_errors(ann)
