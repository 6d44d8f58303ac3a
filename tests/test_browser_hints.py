"""Hints in practice games in the browser (issue 20, point 5): the host switches "Allow
hints" on in the create form, presses Hint at the table (from the keyboard), sees MASTER's
suggestion outlined in the hand and said in a line a screen reader hears, plays it; the
table and My games then say hints were used (the match is not rated). On a phone the line
wraps without widening the page.

Screenshots land in artifacts/screenshots/ (hints-*.png)."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page

from browser import SCREENSHOTS, Player, Server, expect, no_page_errors, resize, table_id

PHONE_WIDTHS = (360, 430)


def shoot(player: Player, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    player.page.screenshot(path=str(SCREENSHOTS / f"hints-{name}.png"), full_page=True)


def to_a_choice(page: Page) -> None:
    """Plays on until her turn offers cards of two suits: MASTER then searches and says what
    it expects. A card she must follow with is played (the first one), a forced card plays
    by itself (the client's auto-play)."""
    playable = page.locator('[data-testid="card"][data-playable="true"]')
    for _ in range(40):
        expect(playable.first).to_be_visible()
        cards: list[str] = playable.evaluate_all("cards => cards.map(c => c.dataset.card)")
        if not cards:  # the hand was drawn again between the two looks
            continue
        if len({card[-1] for card in cards}) >= 2:
            return
        if len(cards) > 1:
            playable.first.click()
        until_played(page, cards[0])
    raise AssertionError("no turn with cards of two suits to choose from")


def until_played(page: Page, card: str) -> None:
    """Waits until `card` has left her hand, played by her click or by the client's auto-play.
    A card still on offer after five seconds is clicked again, as a person would: once, on a
    loaded CI machine, a card stayed in her hand for the 20 s the test then waited. If it
    stays, the failure says what the table's status line said."""
    mine = page.locator(f'[data-testid="card"][data-card="{card}"]')
    for _ in range(4):
        try:
            expect(mine).to_have_count(0, timeout=5_000)
            return
        except AssertionError:
            on_offer = page.locator(
                f'[data-testid="card"][data-card="{card}"][data-playable="true"]'
            )
            if on_offer.count():
                print(f"{card} clicked again: {page.get_by_test_id('status').inner_text()!r}")
                on_offer.click()
    status = page.get_by_test_id("status").inner_text()
    raise AssertionError(f"{card} is still in her hand after 20 s; the status line: {status!r}")


def test_a_practice_table_with_hints_suggests_a_card_that_can_be_played(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    server = start_server(WHIST_BOT_BUDGET="0.2")
    ann = new_player(server, "Ann")
    page = ann.page
    form = page.get_by_test_id("create-form")
    form.get_by_test_id("create-variant").select_option("classic")
    switch = form.get_by_role("switch", name="Allow hints")
    expect(switch).not_to_be_checked()
    switch.check()
    expect(form.get_by_text("A match with hints is not rated")).to_be_visible()  # its help
    form.get_by_test_id("create-submit").scroll_into_view_if_needed()
    shoot(ann, "create-form")
    form.get_by_test_id("create-submit").click()
    table = table_id(page)
    expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "playing")

    # Her turn with a real choice (a forced card has no estimate and plays by itself), and
    # the Hint button (nothing hinted yet, the match rated).
    to_a_choice(page)
    hint = page.get_by_test_id("hint")
    expect(hint).to_be_visible()
    expect(page.get_by_test_id("hints-used")).to_have_count(0)
    line = page.get_by_test_id("hint-line")
    expect(line).to_be_hidden()
    expect(line).to_have_attribute("role", "status")  # announced to screen readers

    hint.focus()  # keyboard reachable: a button in the toolbar
    page.keyboard.press("Enter")
    expect(line).to_contain_text("MASTER would play")
    expect(line).to_contain_text("expects")
    hinted = page.locator('[data-testid="card"][data-hinted="true"]')
    expect(hinted).to_have_count(1)
    expect(hinted).to_have_attribute("data-playable", "true")
    expect(hinted).to_have_attribute("aria-describedby", "hint-line")
    expect(page.get_by_test_id("hints-used")).to_be_visible()  # the first hint is logged
    shoot(ann, "desktop")

    # The line names the card it outlines; playing it is accepted and the hint goes.
    card = hinted.get_attribute("data-card")
    assert card is not None
    sent = len(ann.frames.sent)
    hinted.click()
    expect(page.locator(f'[data-testid="card"][data-card="{card}"]')).to_have_count(0)
    acts = [f for f in ann.frames.sent[sent:] if f.get("type") == "act"]
    assert acts and acts[0]["action"] == {"play": card}
    expect(line).to_be_hidden()

    # A phone: the hint line wraps, the page does not scroll sideways. (At a turn with a real
    # choice again: a forced card plays by itself, and a hint asked meanwhile is refused.)
    to_a_choice(page)
    for width in PHONE_WIDTHS:
        resize(page, width, 800)
        page.get_by_test_id("hint").click()
        expect(line).to_contain_text("MASTER would play")
        overflow = page.evaluate("() => document.documentElement.scrollWidth")
        assert overflow <= width, f"{overflow} px wide at {width} px"
        shoot(ann, f"phone-{width}")

    # My games marks the match.
    page.goto("/#/games")
    row = page.locator(f'[data-testid="game"][data-game="{table}"]')
    expect(row.get_by_test_id("hints-used")).to_have_text("Hints used")
    shoot(ann, "games")
    row.get_by_test_id("open-game").click()
    expect(page.get_by_test_id("hints-used")).to_have_text("Hints used: this match is not rated")
    no_page_errors(ann)


def test_a_bid_is_hinted_on_its_button_and_hints_stop_with_a_second_person(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    server = start_server(WHIST_BOT_BUDGET="0.2")
    ann = new_player(server, "Ann")
    page = ann.page
    body = {
        "variant": "minnesota",
        "clock": False,
        "hints": True,
        "bots": {"1": "medium", "2": "medium", "3": "medium"},
    }
    response = page.request.post("/api/tables", data=body)
    assert response.ok, response.text()
    page.goto(f"/#/table/{response.json()['id']}")
    expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "playing")

    # Minnesota opens with a bid: the suggestion is the bid button, outlined.
    expect(page.locator("button[data-bid]:not([disabled])").first).to_be_visible()
    page.get_by_test_id("hint").click()
    line = page.get_by_test_id("hint-line")
    expect(line).to_contain_text("MASTER would bid")
    hinted = page.locator('button[data-bid][data-hinted="true"]')
    expect(hinted).to_have_count(1)
    word = hinted.get_attribute("data-bid")
    assert word in ("high", "low")
    expect(line).to_contain_text("High" if word == "high" else "Low")
    shoot(ann, "bid")
    hinted.click()
    expect(line).to_be_hidden()

    # Another table with a seat for a person: while Bo sits there, no Hint button.
    body = {"variant": "classic", "clock": False, "hints": True, "bots": {"2": "easy", "3": "easy"}}
    response = page.request.post("/api/tables", data=body)
    assert response.ok, response.text()
    table = response.json()["id"]
    bo = new_player(server, "Bo")
    joined = bo.page.request.post(f"/api/tables/{table}/join", data={"seat": 1})
    assert joined.ok, joined.text()
    page.goto(f"/#/table/{table}")
    expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "playing")
    expect(page.get_by_test_id("open-sheet")).to_be_visible()
    expect(page.get_by_test_id("hint")).to_have_count(0)
    no_page_errors(ann)
