"""The deal summary and the match end in the browser (issue 19, points 3 and 4): panels beside
the table (below it on a phone) that never cover a seat or your hand, the match end with its
breakdown, XP line and Rematch, a rematch between two people, and seats you can tell apart
(compass points, distinct bot names with their level, avatars).

Screenshots land in artifacts/screenshots/ (match-*.png)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page

from browser import (
    DESKTOP,
    PHONE,
    SCREENSHOTS,
    Player,
    Server,
    covers_nothing,
    expect,
    no_page_errors,
    open_table,
    play_deal,
    quick_play,
    resize,
    table_id,
)


def shoot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"match-{name}.png"), full_page=True)


def phone_or_desktop(page: Page, size: tuple[int, int]) -> None:
    """The deal is clicked through at desktop size (on a phone the hand's cards overlap, which
    is the hand's concern); the panels are then looked at in the size under test."""
    resize(page, *size)


GERMAN_SINGLE = {"variant": "german", "options": {"match": "single"}, "clock": False}


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_match_end_covers_no_seat_and_a_rematch_keeps_the_seat(
    start_server: Callable[..., Server],
    new_player: Callable[..., Player],
    size: tuple[int, int],
) -> None:
    server = start_server()
    ann = new_player(server, "Ann", width=DESKTOP[0], height=DESKTOP[1])
    page = ann.page
    old = open_table(ann, {**GERMAN_SINGLE, "seat": 1, "bots": {"0": "easy"}})
    expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "playing")
    # Seats by compass point; the bot has a name and its level.
    bottom, top = page.get_by_test_id("seat-bottom"), page.get_by_test_id("seat-top")
    expect(bottom.get_by_test_id("seat-compass")).to_have_text(re.compile("north", re.I))
    expect(top.get_by_test_id("seat-compass")).to_have_text(re.compile("south", re.I))
    expect(top.get_by_test_id("seat-name")).to_have_text(re.compile(r"^\S+ \(Easy\)$"))

    play_deal([ann])
    phone_or_desktop(page, size)
    result = page.get_by_test_id("match-result")
    expect(result).to_be_visible()
    expect(result.get_by_test_id("deal-breakdown")).to_be_visible()
    expect(result.get_by_test_id("sheet-table")).to_be_visible()
    view = next(f["view"] for f in reversed(ann.frames.received) if f.get("type") == "state")
    if view["winner"] == 1:
        expect(result.get_by_test_id("xp-gained")).to_have_text("+100 XP")
    else:
        expect(result.get_by_test_id("xp-none")).to_be_visible()
    page.wait_for_timeout(400)  # the panel's fade-in
    covers_nothing(page, size[0])
    shoot(page, f"end-german-{'phone' if size == PHONE else 'desktop'}")

    result.get_by_test_id("rematch").click()
    page.wait_for_url(re.compile(r"#/table/(?!" + re.escape(old) + ")"))
    assert table_id(page) != old
    expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "playing")
    expect(page.get_by_test_id("seat-bottom")).to_have_attribute("data-seat", "1")
    expect(page.get_by_test_id("seat-top")).to_have_attribute("data-kind", "bot")
    expect(page.get_by_test_id("match-result")).to_have_count(0)
    no_page_errors(ann)


def test_two_people_rematch_the_other_accepts(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    server = start_server()
    ann, bob = new_player(server, "Ann"), new_player(server, "Bob")
    old = open_table(ann, GERMAN_SINGLE)
    joined = bob.page.request.post(f"/api/tables/{old}/join", data={"seat": 1})
    assert joined.ok, joined.text()
    bob.page.goto(f"/#/table/{old}")
    for player in (ann, bob):
        expect(player.page.get_by_test_id("table-page")).to_have_attribute("data-status", "playing")
    play_deal([ann, bob])
    for player in (ann, bob):
        expect(player.page.get_by_test_id("match-result")).to_be_visible()

    ann.page.get_by_test_id("rematch").click()
    ann.page.wait_for_url(re.compile(r"#/table/(?!" + re.escape(old) + ")"))
    new = table_id(ann.page)
    expect(ann.page.get_by_test_id("table-page")).to_have_attribute("data-status", "open")
    expect(ann.page.get_by_test_id("seat-top")).to_have_attribute("data-kind", "reserved")
    # Bob is asked, by name, on the finished table; accepting takes him to his same seat.
    offer = bob.page.get_by_test_id("rematch-offer")
    expect(offer).to_contain_text("Ann asks for a rematch")
    shoot(bob.page, "rematch-offer")
    offer.get_by_test_id("accept-rematch").click()
    bob.page.wait_for_url(f"**/#/table/{new}")
    for player, seat in ((ann, "0"), (bob, "1")):
        page = player.page
        expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "playing")
        expect(page.get_by_test_id("seat-bottom")).to_have_attribute("data-seat", seat)
    no_page_errors(ann, bob)


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_deal_summary_steps_aside_when_the_next_deal_needs_you(
    start_server: Callable[..., Server],
    new_player: Callable[..., Player],
    size: tuple[int, int],
) -> None:
    server = start_server()
    ann = new_player(server, "Ann", width=DESKTOP[0], height=DESKTOP[1])
    page = ann.page
    quick_play(ann)  # Minnesota against three MEDIUM bots
    # Four compass points; three bots with three different names, each with its level.
    names = [
        page.get_by_test_id(f"seat-{p}").get_by_test_id("seat-name").inner_text()
        for p in ("left", "top", "right")
    ]
    assert len(set(names)) == 3 and all(n.endswith("(Medium)") for n in names), names
    compass = {
        page.get_by_test_id(f"seat-{p}").get_by_test_id("seat-compass").inner_text().lower()
        for p in ("bottom", "left", "top", "right")
    }
    assert compass == {"north", "east", "south", "west"}, compass
    expect(page.get_by_test_id("status")).not_to_contain_text("Bot (")

    play_deal([ann])
    phone_or_desktop(page, size)
    summary = page.get_by_test_id("deal-summary")
    line = page.get_by_test_id("deal-summary-line")
    # The match may be over after one deal; then the match end stands in the same place.
    expect(summary.or_(line).or_(page.get_by_test_id("match-result"))).to_be_visible()
    kind = "phone" if size == PHONE else "desktop"
    if page.get_by_test_id("match-result").count():
        covers_nothing(page, size[0])
        return
    if summary.count():
        covers_nothing(page, size[0])
        shoot(page, f"summary-minnesota-{kind}")
    # The next deal's bid needs Ann: the summary folds to one line, which opens it again.
    expect(line).to_be_visible()
    expect(line).to_contain_text("Deal 1:")
    expect(page.get_by_test_id("deal-summary")).to_have_count(0)
    line.get_by_role("button").click()
    expect(summary).to_be_visible()
    covers_nothing(page, size[0])
    shoot(page, f"summary-reopened-minnesota-{kind}")
    summary.get_by_test_id("fold-summary").click()
    expect(line).to_be_visible()
    no_page_errors(ann)
