"""Phone and desktop layout (issue 19, point 6), measured in a real browser.

On a phone (360, 390 and 430 px wide) in every language, no page is wider than the screen:
the lobby, the create-table form with every variant chosen, a table of every variant with its
score sheet open, the profile, my games, a game page, the rules pages, the leaderboards, a
player's public profile and the sign-in page.
On every width "Sign out" is on screen, the score sheet needs no sideways swipe, and the cards
in the hand are bigger than they were (56 px). On a desktop of 1366×768 the hand is on screen
while the bids are asked; Japanese Whist lays each player's ten piles out in two rows of five.

One browser page visits each page once per language and is resized to each width there (the
layout follows the width without a reload). Screenshots: artifacts/screenshots/layout-*.png."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from browser import (
    SCREENSHOTS,
    Player,
    Server,
    bot_table,
    box_of,
    no_page_errors,
    play_deal,
    resize,
    site_pages,
    visit,
    wait_next_move,
)

WIDTHS = (360, 390, 430)
PHONE_HEIGHT = 844
LANGUAGES = ("en", "sv", "nb", "cs")
SHOT_LANGUAGE = "cs"  # long words (Rozdávající): its pages at 390 px are saved as screenshots

# The page's width against the window's, and what sticks out (for the failure message).
MEASURE_JS = """() => {
  const width = window.innerWidth;
  const wide = [];
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width && box.right > width + 1 && !el.closest('.sr-only, dialog:not([open])')) {
      wide.push(`${el.tagName.toLowerCase()}.${el.className}: ${Math.round(box.right)}`);
    }
  }
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: width,
          wide: wide.slice(0, 6)};
}"""

# How far the score sheet's table reaches beyond its box (0: it fits).
SHEET_JS = """() => {
  const box = document.querySelector('[data-testid="score-sheet"] .sheet-scroll');
  return box ? box.scrollWidth - box.clientWidth : null;
}"""

# The rows (distinct tops) of each player's Japanese piles, and the piles in each.
PILE_ROWS_JS = """() => Array.from(document.querySelectorAll('.piles'), (group) => {
  const rows = {};
  for (const pile of group.querySelectorAll('.pile')) {
    const top = Math.round(pile.getBoundingClientRect().top);
    rows[top] = (rows[top] || 0) + 1;
  }
  return Object.keys(rows).sort((a, b) => a - b).map((top) => rows[top]);
})"""


def shot_name(lang: str, page_name: str) -> str | None:
    return f"{lang}-{page_name}" if lang == SHOT_LANGUAGE else None


def fits(page: Page, what: str, width: int) -> None:
    # A card on its way (an animation) may stick out for a moment: the layout has a second
    # to settle, then it is measured.
    with contextlib.suppress(PlaywrightError):
        page.wait_for_function(
            "(width) => innerWidth === width && document.documentElement.scrollWidth <= width",
            arg=width,
            timeout=1000,
            polling=50,
        )
    layout: dict[str, Any] = page.evaluate(MEASURE_JS)
    assert layout["innerWidth"] == width, (what, layout)
    assert layout["scrollWidth"] <= layout["innerWidth"], (what, width, layout)


def at_every_width(page: Page, what: str, shot: str | None = None) -> Iterator[int]:
    """Resize the page to each phone width and check that it fits; yields each width for the
    caller's own checks there."""
    for width in WIDTHS:
        resize(page, width, PHONE_HEIGHT)
        fits(page, what, width)
        if shot and width == 390:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"layout-{shot}-{width}.png"), full_page=True)
        yield width


def check_widths(page: Page, what: str, shot: str | None = None) -> None:
    for _ in at_every_width(page, what, shot):
        pass


def use_language(page: Page, lang: str) -> None:
    page.evaluate("(lang) => localStorage.setItem('whist.lang', lang)", lang)
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", lang)


def test_no_page_is_wider_than_a_phone_in_any_language(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    server = start_server()
    # (Not an emulated phone: that would widen its viewport to a page that sticks out for a
    # moment, and keep it so; here the window stays as wide as the phone and the page's
    # scrollWidth says what sticks out.)
    ann = new_player(server, "Annabelle-Kristiansdottir", 390, PHONE_HEIGHT)
    page = ann.page
    variants = page.request.get(f"{server.url}/api/variants").json()
    players = {v["key"]: v["players"] for v in variants["variants"]}
    tables = {key: bot_table(ann, key, n) for key, n in players.items()}
    me = page.request.get(f"{server.url}/api/me").json()["id"]

    for lang in LANGUAGES:
        page.goto("/#/lobby")
        use_language(page, lang)
        form = page.get_by_test_id("create-form")
        expect(form).to_be_visible()
        for width in at_every_width(page, f"{lang} lobby", shot_name(lang, "lobby")):
            # Sign-out is on the phone's screen.
            where = box_of(page, "sign-out")
            assert where is not None and where["x"] >= 0 and where["x"] + where["width"] <= width, (
                lang,
                width,
                where,
            )
        for key in players:
            form.get_by_test_id("create-variant").select_option(key)
            check_widths(page, f"{lang} create form, {key}", shot_name(lang, f"create-{key}"))

        for key, table in tables.items():
            page.goto(f"/#/table/{table}")
            expect(page.get_by_test_id("table-page")).to_have_attribute("data-variant", key)
            expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "playing")
            shot = shot_name(lang, f"table-{key}")
            for width in at_every_width(page, f"{lang} {key} table", shot):
                cards = page.get_by_test_id("card")
                if cards.count() and key != "japanese":  # (Japanese plays from piles too)
                    card = box_of(page, "card")
                    assert card is not None and card["width"] >= 0.17 * width, (key, width, card)
            page.get_by_test_id("open-sheet").click()
            expect(page.get_by_test_id("score-sheet")).to_be_visible()
            for width in at_every_width(page, f"{lang} {key} score sheet"):
                assert page.evaluate(SHEET_JS) == 0, (lang, key, width, "the sheet scrolls")
            page.keyboard.press("Escape")
            expect(page.get_by_test_id("score-sheet")).to_be_hidden()

        for name, route, ready in site_pages(me, tables["minnesota"], list(players)):
            visit(page, route, ready)
            check_widths(page, f"{lang} {name}", shot_name(lang, name))

    # The sign-in page, signed out.
    page.get_by_test_id("sign-out").click()
    expect(page.get_by_test_id("guest-form")).to_be_visible()
    for lang in LANGUAGES:
        use_language(page, lang)
        expect(page.get_by_test_id("guest-form")).to_be_visible()
        check_widths(page, f"{lang} sign-in", shot_name(lang, "signin"))
    no_page_errors(ann)


def test_desktop_bidding_keeps_the_hand_on_screen_and_japanese_piles_in_two_rows(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    server = start_server()
    ann = new_player(server, "Ann", 1366, 768)
    page = ann.page
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for key, players in (("minnesota", 4), ("swedish", 4)):
        page.goto(f"/#/table/{bot_table(ann, key, players)}")
        expect(page.get_by_test_id("table-page")).to_have_attribute("data-phase", "bid")
        wait_next_move(page)  # the bid is asked
        page.screenshot(path=str(SCREENSHOTS / f"layout-bidding-{key}-1366x768.png"))
        for box in page.get_by_test_id("card").evaluate_all(
            "(cards) => cards.map((c) => c.getBoundingClientRect().bottom)"
        ):
            assert box <= 768, (key, "a card of the hand is below the screen", box)

    page.goto(f"/#/table/{bot_table(ann, 'japanese', 2)}")
    expect(page.get_by_test_id("my-piles")).to_be_visible()
    expect(page.get_by_test_id("their-piles")).to_be_visible()
    for size in ((1366, 768), (390, PHONE_HEIGHT)):
        resize(page, *size)
        assert page.evaluate(PILE_ROWS_JS) == [[5, 5], [5, 5]], size
        page.screenshot(path=str(SCREENSHOTS / f"layout-japanese-{size[0]}x{size[1]}.png"))
    no_page_errors(ann)


def test_a_played_score_sheet_fits_a_phone(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    """The score sheet with a finished deal in it, on the table and on the game page."""
    server = start_server()
    ann = new_player(server, "Ann")  # (played on a desktop: a click lands on a card's middle)
    page = ann.page
    table = bot_table(ann, "minnesota", 4)
    page.goto(f"/#/table/{table}")
    play_deal([ann])
    for lang in LANGUAGES:
        use_language(page, lang)
        expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "playing")
        page.get_by_test_id("open-sheet").click()
        sheet = page.get_by_test_id("score-sheet")
        expect(sheet.locator('tr[data-deal="0"]')).to_be_visible()
        for width in at_every_width(page, f"{lang} score sheet", shot_name(lang, "sheet")):
            assert page.evaluate(SHEET_JS) == 0, (lang, width, "the sheet scrolls")
        page.keyboard.press("Escape")
        expect(sheet).to_be_hidden()
    page.goto(f"/#/games/{table}")
    expect(page.locator('[data-testid="sheet-table"] tr[data-deal="0"]')).to_be_visible()
    for width in at_every_width(page, "game page", "game-sheet"):
        box = page.locator(".sheet-scroll").first
        assert box.evaluate("(el) => el.scrollWidth - el.clientWidth") == 0, width
    no_page_errors(ann)
