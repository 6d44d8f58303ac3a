"""Ratings in the browser (issue 19, point 8): a German Whist match of one deal against a
bot, played to its end by clicking, rates the player; the profile shows the rating, the
rated matches and wins and the history chart; the leaderboard lists the player, marked as
them, with the bots' ratings for comparison; neither page is wider than a phone.

Run: .venv/bin/python -m pytest -q -p no:warnings tests/test_browser_ratings.py"""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from browser import SCREENSHOTS, Player, Server, no_page_errors, play_deal

CREATE_JS = """async () => {
  const response = await fetch('/api/tables', {
    method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({variant: 'german', options: {match: 'single'}, clock: false,
                          bots: {'1': 'easy'}}),
  });
  if (!response.ok) throw new Error('create: ' + response.status + ' ' + await response.text());
  return (await response.json()).id;
}"""

OVERFLOW_JS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
# What sticks out on the right (for the failure message).
WIDE_JS = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > width + 0.5)
    .slice(0, 5).map((e) => `${e.tagName}.${e.className}: ${(e.textContent || '').slice(0, 30)}`);
}"""


def shoot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"ratings-{name}.png"), full_page=True)


def check_pages(page: Page, nickname: str, size: str) -> None:
    page.goto("/#/profile")
    ratings = page.get_by_test_id("ratings")
    row = ratings.locator('tr[data-variant="german"]')
    expect(row).to_be_visible()
    expect(row.locator("th")).to_have_text("German Whist")
    cells = row.locator("td")
    expect(cells.nth(0)).to_have_text(re.compile(r"^−?\d+\.\d$"))
    expect(cells.nth(1)).to_have_text("1")  # one rated match
    expect(cells.nth(2)).to_have_text(re.compile(r"^[01]$"))
    chart = page.get_by_test_id("rating-chart-german").locator("svg.rating-chart")
    expect(chart).to_have_attribute("aria-label", "Rating history: German Whist")
    expect(chart.locator("circle")).to_have_count(2)  # the start at 0, then the match
    expect(chart.locator("circle.start title")).to_have_text("Start: rating 0.0")
    shown = cells.nth(0).inner_text()
    assert page.evaluate(OVERFLOW_JS) <= 0
    shoot(page, f"profile-{size}")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Leaderboard").click()
    expect(page.locator("main#main")).to_have_attribute("data-view", "leaderboard")
    page.get_by_test_id("leaderboard-german").click()
    expect(page.get_by_test_id("leaderboard-german")).to_have_attribute("aria-current", "page")
    mine = page.get_by_test_id("leaderboard").locator("tbody tr.me")
    expect(mine).to_have_count(1)
    expect(mine.locator("th")).to_contain_text(nickname)
    expect(mine.locator("td.rating")).to_have_text(shown)
    expect(page.get_by_test_id("bot-ratings")).to_contain_text("Master")
    assert page.evaluate(OVERFLOW_JS) <= 0
    shoot(page, f"leaderboard-{size}")
    # Another variant: nobody rated yet.
    page.get_by_test_id("leaderboard-minnesota").click()
    expect(page.get_by_test_id("leaderboard-empty")).to_be_visible()


def test_a_finished_match_shows_on_the_profile_and_the_leaderboard(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    server = start_server()
    ann = new_player(server, "Ann", width=1366, height=800)
    page = ann.page
    table = page.evaluate(CREATE_JS)
    page.goto(f"/#/table/{table}")
    expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "playing")
    play_deal([ann])
    expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "finished")
    check_pages(page, "Ann", "desktop")

    phone = new_player(server, "Ann", width=390, height=844, mobile=True, same_as=ann)
    check_pages(phone.page, "Ann", "phone")

    # The narrowest phone, in every language: the navigation and both pages still fit.
    narrow = new_player(server, "Ann", width=360, height=740, mobile=True, same_as=ann)
    for language in ("sv", "nb", "cs", "en"):
        for route in ("#/leaderboard/german", "#/profile"):
            narrow.page.goto(f"/{route}")
            narrow.page.get_by_test_id("language-switcher").select_option(language)
            expect(narrow.page.locator("html")).to_have_attribute("lang", language)
            expect(narrow.page.locator(".rating").first).to_be_visible()
            overflow = narrow.page.evaluate(OVERFLOW_JS)
            wide = narrow.page.evaluate(WIDE_JS)
            assert overflow <= 0, f"{route} in {language}: {overflow} px too wide: {wide}"

    # Another player finds Ann on the leaderboard and opens her profile.
    bob = new_player(server, "Bob")
    bob.page.goto("/#/leaderboard/german")
    bob.page.get_by_test_id("leaderboard").get_by_role("link", name="Ann").click()
    expect(bob.page.get_by_test_id("player-page").locator("h1")).to_have_text("Ann")
    row = bob.page.get_by_test_id("ratings").locator('tr[data-variant="german"]')
    expect(row.locator("td").nth(1)).to_have_text("1")
    expect(bob.page.get_by_test_id("rating-chart-german").locator("circle")).to_have_count(2)
    shoot(bob.page, "player-desktop")
    no_page_errors(ann, phone, narrow, bob)
