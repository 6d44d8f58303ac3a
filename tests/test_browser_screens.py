"""Pictures of every variant (issue 19, point 11): at desktop (1366×800) and phone (390×844)
size, mid-trick, at the deal summary and at the match end, saved by the test as
artifacts/screenshots/screens-<variant>-<desktop|phone>-<mid-trick|deal-summary|match-end>.png.

Each picture's state is checked the way a person would look at it, so the test fails when the
screen is wrong, not only when no picture can be taken:

- mid-trick: the human's turn to play ("Your turn"), the trick on the felt holds at least one
  card of the trick in play, the hand is face up with a card to play, nothing beside the felt,
  and the page is no wider than the screen;
- deal summary: after deal 1 (of a match to 50, which one deal cannot reach), the summary
  panel "Deal 1 is over" with its breakdown, covering no seat and not the hand;
- match end: a match played to its real end on a second table (a target of one point, German
  "single"; deals are played until the match is over: a Japanese deal of equal tricks scores
  nothing): the match-end panel with its headline, final score sheet, XP line, Rematch and
  Back to the lobby, covering no seat and not the hand.

The human (seat 0) plays the first playable card, the others are EASY bots; the table
animations are off and auto-play of a forced card too (the player's settings), and the clock is
off, so a deal takes seconds and nothing moves while a picture is taken at the human's turn.
(The deal summary steps aside once the next deal needs the human and it has been open 6 s: if
it does so while its pictures are taken, it is opened again, stays open, and they are retaken.)
Desktop and phone share one page: the desktop picture, then the phone's (the window resized),
then back to desktop to play on. About 30 s a variant (two deals, six pictures), parametrized
per variant for xdist.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from browser import (
    DESKTOP,
    PHONE,
    SCREENSHOTS,
    STEP_MS,
    Player,
    Server,
    covers_nothing,
    expect,
    make_move,
    no_page_errors,
    open_table,
    resize,
    save_settings,
    wait_next_move,
)

VARIANTS = ("classic", "german", "plockwhist", "japanese", "minnesota", "swedish")
SIZES = {"desktop": DESKTOP, "phone": PHONE}

# The options of a match that one deal cannot end, and of one that one deal (mostly) ends.
LONG = {
    "classic": {"target": 50},
    "german": {"match": "target:50"},
    "plockwhist": {"target": 50},
    "japanese": {"target": 50},
    "minnesota": {"target": 50},
    "swedish": {"match": "target:50"},
}
SHORT = {
    "classic": {"target": 1},
    "german": {"match": "single"},
    "plockwhist": {"target": 1},
    "japanese": {"target": 1},
    "minnesota": {"target": 1},
    "swedish": {"match": "target:1"},
}
MOST_DEALS = 4  # a match to one point is over well before this
MOVES = 200  # more than a deal's decisions and cards
# The match end's headline: one deal to one point has a winner (a Japanese deal of equal
# tricks scores nothing and the match goes on).
WON_OR_LOST = re.compile(r"^(You|Your team) (won|lost) the match[.!]$")

# The cards of the trick in play on the felt (not a finished trick waiting to be gathered).
OPEN_TRICK = '[data-testid="trick-card"]:not([data-done="true"])'


def shoot(page: Page, variant: str, size: str, moment: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"screens-{variant}-{size}-{moment}.png"
    # A full-page picture waits for the renderer's next frame; with two test workers
    # solving and playing on two cores, that once took longer than one page step.
    page.screenshot(path=str(path), full_page=True, timeout=3 * STEP_MS)


def resize_to(page: Page, size: str) -> None:
    resize(page, *SIZES[size])


def mid_trick(page: Page, variant: str) -> None:
    """At the human's turn with a card on the felt and the hand face up: both pictures."""
    trick = page.get_by_test_id("trick")
    hand = page.get_by_test_id("hand")
    for size in SIZES:
        resize_to(page, size)
        expect(page.get_by_test_id("table-page")).to_have_attribute("data-phase", "play")
        expect(trick).to_be_visible()
        expect(trick.locator(OPEN_TRICK).first).to_be_visible()
        expect(hand.get_by_test_id("card").first).to_be_visible()  # face up
        # (Japanese Whist also plays from the piles on the table)
        expect(page.locator('[data-testid="card"][data-playable="true"]').first).to_be_visible()
        expect(page.get_by_test_id("status")).to_contain_text("Your turn")
        expect(page.get_by_test_id("match-panel")).to_be_empty()  # nothing beside the felt
        width = page.evaluate("innerWidth")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (variant, size)
        shoot(page, variant, size, "mid-trick")
    resize_to(page, "desktop")


def at_my_turn_mid_trick(page: Page) -> bool:
    return bool(
        page.evaluate(
            """(sel) => document.querySelector('[data-testid="table-page"]').dataset.phase
                === 'play' && document.querySelectorAll(sel).length > 0
                && !!document.querySelector('[data-testid="hand"] [data-testid="card"]')""",
            OPEN_TRICK,
        )
    )


def play_to_deal_end(page: Page, at_mid_trick: Callable[[], None] | None = None) -> bool:
    """Click the first playable card (or decision) until the deal is over. `at_mid_trick` is
    called once, at the human's first turn to play to a trick already begun with the hand face
    up (a Japanese hand is face down until trick 1 is complete); whether it was."""
    for _ in range(MOVES):
        move = wait_next_move(page)
        if move == "done":
            return at_mid_trick is None
        if at_mid_trick is not None and move.startswith("card:") and at_my_turn_mid_trick(page):
            at_mid_trick()
            at_mid_trick = None
        make_move(page, move)
    raise AssertionError("the deal did not end")


def play_to_match_end(page: Page) -> None:
    """Play until the match end shows. A deal that does not end the match (a Japanese deal of
    equal tricks scores nothing): its summary is hidden and play goes on."""
    for _ in range(MOST_DEALS * MOVES):
        move = wait_next_move(page)
        if page.get_by_test_id("match-result").count():
            return
        if move == "done":
            with contextlib.suppress(PlaywrightError):  # (unless it stepped aside by itself)
                page.get_by_test_id("fold-summary").click(timeout=2_000)
            continue
        make_move(page, move)
    raise AssertionError(f"the match did not end within {MOST_DEALS} deals")


def summary_pictures(page: Page, variant: str) -> bool:
    """Both pictures of the deal summary; false if it stepped aside (folded to a line) while
    they were taken: the next deal asked the human for a move after it had been open 6 s."""
    summary = page.get_by_test_id("deal-summary")
    for size in SIZES:
        resize_to(page, size)
        try:
            expect(summary.get_by_role("heading", name="Deal 1 is over")).to_be_visible()
            expect(summary.get_by_test_id("deal-breakdown")).to_be_visible()
            expect(summary.get_by_test_id("fold-summary")).to_be_visible()
        except AssertionError:
            if summary.count():
                raise
            return False
        covers_nothing(page, SIZES[size][0], f"{variant} {size} deal summary")
        shoot(page, variant, size, "deal-summary")
        if not summary.count():
            return False
    resize_to(page, "desktop")
    return True


def match_end_pictures(page: Page, variant: str) -> None:
    result = page.get_by_test_id("match-result")
    for size in SIZES:
        resize_to(page, size)
        expect(result).to_be_visible()
        expect(result.get_by_role("heading", level=2)).to_have_text(WON_OR_LOST)
        expect(
            result.get_by_test_id("xp-gained").or_(result.get_by_test_id("xp-none"))
        ).to_be_visible()
        expect(result.get_by_test_id("rematch")).to_be_visible()
        expect(result.get_by_test_id("rematch")).to_have_text("Rematch")
        expect(result.get_by_test_id("back-to-lobby")).to_be_visible()
        expect(result.get_by_test_id("sheet-table").locator('tr[data-deal="0"]')).to_be_visible()
        covers_nothing(page, SIZES[size][0], f"{variant} {size} match end")
        shoot(page, variant, size, "match-end")
    resize_to(page, "desktop")


@pytest.mark.parametrize("variant", VARIANTS)
def test_pictures_mid_trick_deal_summary_and_match_end(
    start_server: Callable[..., Server],
    new_player: Callable[..., Player],
    variant: str,
) -> None:
    server = start_server(WHIST_BOT_BUDGET="0.05")
    width, height = SIZES["desktop"]
    ann = new_player(server, "Ann", width=width, height=height)
    page = ann.page
    save_settings(ann, animation="off", auto_play=False, preselect=False, sound=False)
    players = {v["key"]: v["players"] for v in page.request.get("/api/variants").json()["variants"]}
    bots = {str(seat): "easy" for seat in range(1, players[variant])}

    def table(options: dict[str, Any]) -> None:
        open_table(
            ann, {"variant": variant, "options": options, "clock": False, "seat": 0, "bots": bots}
        )
        expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "playing")
        expect(page.get_by_test_id("table-page")).to_have_attribute("data-variant", variant)
        expect(page.locator("html")).to_have_attribute("data-animation", "off")  # (loaded)

    # Deal 1 of a long match: mid-trick, then its summary.
    table(LONG[variant])
    shot = play_to_deal_end(page, lambda: mid_trick(page, variant))
    assert shot, "the human never played to a trick already begun"
    summary, line = page.get_by_test_id("deal-summary"), page.get_by_test_id("deal-summary-line")
    expect(summary.or_(line)).to_be_visible()
    for _ in range(2):  # once it has stepped aside and been opened again, it stays open
        if line.count():
            line.get_by_role("button").click()
            expect(summary).to_be_visible()
        if summary_pictures(page, variant):
            break
    else:
        raise AssertionError("the deal summary did not stay open for its pictures")

    # A match to one point, played to its end.
    table(SHORT[variant])
    play_to_match_end(page)
    # The panel comes with the match's result, not before it (read at once, not waited for):
    # not "The match is a draw." with the old score while the last trick is still drawn.
    headline = page.get_by_test_id("match-result").get_by_role("heading", level=2).inner_text()
    assert WON_OR_LOST.match(headline), headline
    match_end_pictures(page, variant)
    no_page_errors(ann)
