"""The "Review deal" dialog (issue 20, point 4): a deal played against bots, then its
review from the deal summary — "Analysing…" while the server works, then the four hands by
compass seat, every card's value and the best alternative, stepping by buttons and keys,
autoplay and pause — and again from My games, where the analysis is already kept. On a
phone too, without horizontal scrolling.

Screenshots land in artifacts/screenshots/ (review-*.png)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page

from browser import (
    DESKTOP,
    SCREENSHOTS,
    Player,
    Server,
    expect,
    no_page_errors,
    open_table,
    play_deal,
    resize,
)

PHONE = (360, 740)
ANALYSIS_MS = 90_000  # the first analysis starts its process too (a loaded machine: slow)

CLASSIC_WITH_BOTS = {  # to 8: a deal gives 7 points at most, so the summary comes first
    "variant": "classic",
    "options": {"target": 8},
    "clock": False,
    "bots": {"1": "easy", "2": "easy", "3": "easy"},
}

# The dialog's box and the page's scroll width: nothing may stick out on a phone.
FITS_JS = """() => {
  const box = document.querySelector('[data-testid="review"]').getBoundingClientRect();
  const inside = Array.from(document.querySelectorAll('[data-testid="review"] *'))
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.width > 0)
    .reduce((most, r) => Math.max(most, r.right), 0);
  const scrollWidth = document.documentElement.scrollWidth;
  return {left: box.left, right: box.right, inside, scrollWidth};
}"""


def shoot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"review-{name}.png"), full_page=False)


def count(review: Locator) -> str:
    return review.get_by_test_id("review-count").inner_text()


def fits(page: Page, width: int) -> None:
    found: dict[str, float] = page.evaluate(FITS_JS)
    assert found["left"] >= 0 and found["right"] <= width, found
    assert found["inside"] <= width + 0.5 and found["scrollWidth"] <= width, found


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_review_a_deal_from_the_summary_and_from_my_games(
    start_server: Callable[..., Server],
    new_player: Callable[..., Player],
    size: tuple[int, int],
) -> None:
    server = start_server()
    ann = new_player(server, "Ann")
    page = ann.page
    table = open_table(ann, CLASSIC_WITH_BOTS)
    play_deal([ann])
    resize(page, *size)
    summary = page.get_by_test_id("deal-summary")
    expect(summary).to_be_visible()
    summary.get_by_test_id("review-deal").click()

    review = page.get_by_test_id("review")
    expect(review).to_be_visible()
    # The first request starts the analysis: the dialog says so while the server works.
    expect(review.get_by_test_id("review-status")).to_have_text(re.compile("Analysing"))
    seats = review.get_by_test_id("review-seat")
    expect(seats).to_have_count(4, timeout=ANALYSIS_MS)
    expect(review.get_by_test_id("review-status")).to_be_empty()
    # Every hand as card play began: 13 cards each, yours (South) at the bottom.
    for seat in range(4):
        expect(seats.nth(seat).locator("[data-card]")).to_have_count(13)
    expect(review.locator('[data-seat="0"]')).to_have_class(re.compile("at-bottom"))
    expect(review.locator('[data-seat="0"]')).to_contain_text("South")
    expect(review.locator('[data-seat="2"]')).to_have_class(re.compile("at-top"))
    assert count(review) == "Card 0 of 52"
    expect(review.get_by_test_id("review-next")).to_be_focused()
    shoot(page, f"start-{size[0]}")

    # Forward by the button: the first card, graded.
    review.get_by_test_id("review-next").click()
    assert count(review) == "Card 1 of 52"
    value = review.get_by_test_id("review-value")
    expect(value).to_contain_text(re.compile(r"\d+ with this card"))
    expect(review.locator(".review-trick-card")).to_have_count(1)
    # By the keys: on and back.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert count(review) == "Card 3 of 52"
    page.keyboard.press("ArrowLeft")
    assert count(review) == "Card 2 of 52"
    expect(review.locator(".review-trick-card")).to_have_count(2)
    review.get_by_test_id("review-prev").click()
    assert count(review) == "Card 1 of 52"
    # A whole trick: four cards, one of them the winner's.
    review.get_by_test_id("review-next-trick").click()
    assert count(review) == "Card 4 of 52"
    expect(review.locator(".review-trick-card")).to_have_count(4)
    expect(review.locator(".review-trick-card.winner")).to_have_count(1)

    # Autoplay moves on by itself until paused.
    autoplay = review.get_by_test_id("review-autoplay")
    autoplay.click()
    expect(autoplay).to_have_attribute("aria-pressed", "true")
    expect(review.get_by_test_id("review-count")).not_to_have_text("Card 4 of 52", timeout=5_000)
    autoplay.click()
    expect(autoplay).to_have_attribute("aria-pressed", "false")
    paused = count(review)
    page.wait_for_timeout(1_600)
    assert count(review) == paused

    # Every play the analysis says cost tricks is listed as a mistake (EASY bots make some),
    # and a listed one is highlighted with the tricks it cost.
    graded = page.request.get(f"/api/games/{table}/deals/0/analysis").json()
    costly = [p for p in graded["analysis"]["plays"] if p["lost"] > 0]
    mistakes = review.get_by_test_id("review-mistakes").locator("button")
    expect(mistakes).to_have_count(len(costly))
    if costly:
        mistakes.first.click()
        expect(review.get_by_test_id("review-mistake")).to_contain_text("Tricks lost: ")
        expect(review.get_by_test_id("review-focus")).to_have_class(re.compile("mistake"))
    else:
        expect(review.get_by_test_id("review-mistakes")).to_contain_text("No mistakes")
    shoot(page, f"step-{size[0]}")
    fits(page, size[0])

    review.get_by_test_id("review-last").click()
    assert count(review) == "Card 52 of 52"
    expect(review.get_by_test_id("review-next")).to_be_disabled()
    review.get_by_test_id("review-close").click()
    expect(review).to_have_count(0)

    # My games: the same deal, its analysis kept (no "Analysing…" this time).
    page.goto(f"/#/games/{table}")
    panel = page.get_by_test_id("review-deals")
    panel.get_by_role("button", name="Review deal 1").click()
    expect(review.get_by_test_id("review-seat")).to_have_count(4)
    review.get_by_test_id("review-next").click()
    expect(review.get_by_test_id("review-value")).to_contain_text("with this card")
    fits(page, size[0])
    shoot(page, f"games-{size[0]}")
    page.keyboard.press("Escape")
    expect(review).to_have_count(0)
    no_page_errors(ann)


def test_two_hands_in_czech_on_a_phone(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    """German Whist: two hands (South and North), the stock's plays estimated, in Czech on a
    360 px phone."""
    server = start_server()
    eva = new_player(server, "Eva")
    page = eva.page
    open_table(eva, {"variant": "german", "options": {"match": "single"}, "clock": False,
                     "bots": {"1": "easy"}})  # fmt: skip
    play_deal([eva])
    resize(page, *PHONE)
    page.get_by_test_id("language-switcher").select_option("cs")
    # the catalogue loads first: a click before the page is relabelled can be lost in it
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    page.get_by_test_id("review-deal").click()
    review = page.get_by_test_id("review")
    expect(review.get_by_role("heading", name="Rozbor rozdání 1")).to_be_visible()
    seats = review.get_by_test_id("review-seat")
    expect(seats).to_have_count(2, timeout=ANALYSIS_MS)
    expect(review.locator('[data-seat="0"]')).to_contain_text("Jih")
    expect(review.locator('[data-seat="1"]')).to_have_class(re.compile("at-top"))
    expect(review.locator('[data-seat="1"]')).to_contain_text("Sever")
    review.get_by_test_id("review-next").click()
    # A play while the stock lasts: graded by an estimate, and said so.
    expect(review.get_by_test_id("review-focus")).to_contain_text("Odhad")
    expect(review.get_by_test_id("review-value")).to_contain_text("s touto kartou")
    assert count(review) == "Karta 1 z 52"
    fits(page, PHONE[0])
    shoot(page, "german-cs-360")
    no_page_errors(eva)
