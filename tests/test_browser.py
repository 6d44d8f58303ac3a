"""The browser client in a real browser: Debian's Chromium driven by Playwright against a real
`whist serve` process on a free port of 127.0.0.1.

Every test signs in through the page and only clicks what a person could click: highlighted
(playable) cards, enabled bid buttons, the forms. Nothing is skipped: without
/usr/bin/chromium (scripts/setup.sh installs it) every test fails and says so."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable

from playwright.sync_api import expect

from browser import (
    CATALOGUES,
    LAYOUT_JS,
    SCREENSHOTS,
    STEP_MS,
    Player,
    Server,
    acked_actions,
    acts_and_answers,
    deal_complete_on_sheet,
    decide_until_a_card,
    frame_marks,
    make_move,
    no_page_errors,
    play_deal,
    quick_play,
    save_settings,
    table_id,
    wait_next_move,
)


def test_a_minnesota_deal_against_three_bots(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    server = start_server()
    ann = new_player(server, "Ann")
    page = ann.page
    # The create form: Minnesota, the first seat, three MEDIUM bots (the defaults), no clock.
    form = page.get_by_test_id("create-form")
    form.get_by_test_id("create-variant").select_option("minnesota")
    form.locator("#clock-none").check()
    form.get_by_test_id("create-submit").click()
    expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "playing")
    expect(page.get_by_test_id("table-page")).to_have_attribute("data-variant", "minnesota")
    expect(page.get_by_test_id("seat-bottom")).to_have_attribute("data-kind", "human")
    for position in ("left", "top", "right"):
        expect(page.get_by_test_id(f"seat-{position}")).to_have_attribute("data-kind", "bot")
    expect(page.get_by_test_id("card")).to_have_count(13)

    since = frame_marks(ann)
    play_deal([ann])

    # One bid and 13 cards went out, each acknowledged once.
    actions = acked_actions(ann, since)
    bids = [a["bid"] for a in actions if "bid" in a]
    cards = [a["play"] for a in actions if "play" in a]
    assert len(bids) == 1 and bids[0] in {"high", "low"} and len(actions) == 14, actions
    assert len(set(cards)) == 13, actions
    summary = page.get_by_test_id("deal-summary").or_(page.get_by_test_id("match-result"))
    expect(summary).to_be_visible()
    deal_complete_on_sheet(page)
    no_page_errors(ann)


def test_two_people_play_a_german_whist_deal(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    server = start_server()
    ann = new_player(server, "Ann")
    bob = new_player(server, "Bob")
    # Ann creates a German Whist table, the other seat left for a person, no clock.
    form = ann.page.get_by_test_id("create-form")
    form.get_by_test_id("create-variant").select_option("german")
    form.get_by_test_id("create-bot-1").select_option("human")
    form.locator("#clock-none").check()
    form.get_by_test_id("create-submit").click()
    expect(ann.page.get_by_test_id("table-page")).to_have_attribute("data-status", "open")
    expect(ann.page.get_by_test_id("invite-link")).to_be_visible()
    table = table_id(ann.page)

    # Bob finds it in the lobby's open tables and joins.
    lobby = bob.page.get_by_test_id("open-tables")
    row = lobby.locator(f'[data-testid="open-table"][data-table="{table}"]')
    bob.page.get_by_role("button", name="Refresh").click()  # (the lobby also polls every 5 s)
    expect(row).to_be_visible()
    expect(row).to_contain_text("German Whist")
    row.get_by_test_id("join-table").click()
    assert table_id(bob.page) == table

    for player in (ann, bob):
        page = player.page
        expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "playing")
        expect(page.get_by_test_id("table-page")).to_have_attribute("data-variant", "german")
        expect(page.get_by_test_id("card")).to_have_count(13)
        expect(page.get_by_test_id("stock")).to_be_visible()
        expect(page.get_by_test_id("seat-bottom")).to_contain_text("You")
    expect(ann.page.get_by_test_id("seat-top")).to_contain_text("Bob")
    expect(bob.page.get_by_test_id("seat-top")).to_contain_text("Ann")
    expect(ann.page.get_by_test_id("seat-top")).to_have_attribute("data-connected", "true")

    since = {p.name: frame_marks(p) for p in (ann, bob)}
    play_deal([ann, bob])

    # 13 tricks for the stock, 13 that count: each played 26 different cards, each card
    # acknowledged once.
    played = {}
    for player in (ann, bob):
        actions = acked_actions(player, since[player.name])
        played[player.name] = {a["play"] for a in actions}
        assert len(actions) == 26 and len(played[player.name]) == 26, actions
    assert not played["Ann"] & played["Bob"]
    for player in (ann, bob):
        summary = player.page.get_by_test_id("deal-summary")
        expect(summary.or_(player.page.get_by_test_id("match-result"))).to_be_visible()
    no_page_errors(ann, bob)


def played_once(player: Player, card: str, since: tuple[int, int]) -> None:
    """`card` went out in exactly one act, got exactly one ack (no error), and the newest
    state shows it played exactly once."""
    expect(player.page.locator(f'[data-testid="card"][data-card="{card}"]')).to_have_count(0)

    def played_cards() -> list[str]:
        states = [f for f in player.frames.received[since[1] :] if f.get("type") == "state"]
        if not states:
            return []
        view = states[-1]["view"]
        return [c for trick in view["tricks"] for c in trick["cards"]] + view["trick"]

    # The hand drops a card as soon as it is clicked, even while it waits for the connection:
    # the server has it once a state since the click shows it played.
    deadline = time.monotonic() + STEP_MS / 1000
    while card not in played_cards() and time.monotonic() < deadline:
        player.page.wait_for_timeout(50)
    assert acked_actions(player, since) == [{"play": card}]
    assert played_cards().count(card) == 1, player.frames.received[-1]


def test_the_page_recovers_when_the_server_comes_back(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    server = start_server()
    ann = new_player(server, "Ann")
    page = ann.page
    # She plays every card herself: a forced card would go by itself (auto-play, after a
    # short pause) and could beat her click to it on a loaded machine.
    save_settings(ann, auto_play=False)
    quick_play(ann)
    banner = page.get_by_test_id("connection-banner")
    presence = page.get_by_test_id("seat-bottom").get_by_test_id("presence")
    expect(banner).to_be_hidden()
    # Bid, then wait until a card is highlighted: Ann is to play.
    assert wait_next_move(page).startswith("bid:")
    move = decide_until_a_card(page)
    hand = page.get_by_test_id("card")
    in_hand = hand.count()

    # The server crashes: the page says it is reconnecting.
    server.kill()
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(re.compile(r"Reconnecting( in \d s)?…"))
    expect(presence).to_have_text("Reconnecting…")

    # A card clicked now waits for the connection, and says so.
    since = frame_marks(ann)
    card = move.split(":", 1)[1]
    assert make_move(page, move)
    expect(page.get_by_test_id("status")).to_contain_text(
        "Your move will be sent when the connection is back."
    )
    assert acts_and_answers(ann, since) == ([], [])

    # The server comes back on the same port with the same database: the banner goes, the
    # waiting card goes out once and is played once.
    server.start()
    expect(banner).to_be_hidden(timeout=30_000)
    expect(presence).to_have_text("Connected")
    played_once(ann, card, since)
    expect(hand).to_have_count(in_hand - 1)

    # And she plays on: a card clicked after the recovery is taken exactly once too.
    since = frame_marks(ann)
    move = decide_until_a_card(page)
    assert make_move(page, move)
    played_once(ann, move.split(":", 1)[1], since)
    expect(hand).to_have_count(in_hand - 2)
    no_page_errors(ann)


def test_a_bot_takes_the_seat_when_the_clock_runs_out(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    # Bots at a person's pace: with no pause, four bots can finish the whole match before
    # the page shows a trick, and a finished match shows none (one CI run saw that).
    server = start_server(WHIST_CLOCK_SECONDS="3", WHIST_BOT_DELAY="0.3")
    ann = new_player(server, "Ann")
    page = ann.page
    quick_play(ann)  # quick play tables have a clock
    me = page.get_by_test_id("seat-bottom")
    expect(me).to_have_attribute("data-seat", "0")
    expect(me).to_have_attribute("data-kind", "human")
    expect(page.get_by_test_id("card")).to_have_count(13)
    expect(me.get_by_test_id("clock")).to_have_text(re.compile(r"^0:0[0-3]$"))

    # Ann never bids: after 3 s a computer player takes her seat for good.
    expect(me).to_have_attribute("data-replaced", "true", timeout=15_000)
    expect(me).to_have_attribute("data-kind", "bot")
    expect(me.get_by_test_id("presence")).to_have_text("Replaced by a computer player")
    expect(page.get_by_test_id("card")).to_have_count(0)  # she watches now: no hand
    expect(page.locator("[data-bid]")).to_have_count(0)
    expect(page.get_by_text("You are watching this table.")).to_be_visible()
    # The bot plays on in her place.
    expect(page.get_by_test_id("trick-card").first).to_be_visible()
    no_page_errors(ann)


def test_the_language_switcher_relabels_the_page(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    server = start_server()
    ann = new_player(server, "Ann")
    page = ann.page
    sv = json.loads((CATALOGUES / "sv.json").read_text(encoding="utf-8"))
    texts = ["Quick play", "Open tables", "Create the table", "Sign out"]
    for text in texts:
        assert sv.get(text) and sv[text] != text, f"sv.json does not translate {text!r}"
    quick = page.get_by_test_id("quick-play")
    sign_out = page.get_by_test_id("sign-out")
    expect(quick).to_have_text("Quick play")
    expect(sign_out).to_have_text("Sign out")
    switcher = page.get_by_test_id("language-switcher")
    expect(switcher).to_have_value("en")

    switcher.select_option(label="Svenska")
    expect(page.locator("html")).to_have_attribute("lang", "sv")
    expect(quick).to_have_text(sv["Quick play"])
    expect(sign_out).to_have_text(sv["Sign out"])
    expect(page.get_by_test_id("create-submit")).to_have_text(sv["Create the table"])
    expect(page.get_by_role("heading", name=sv["Open tables"])).to_be_visible()
    expect(page.locator("h1")).to_have_text(sv.get("Lobby") or "Lobby")

    # The choice is remembered on this device.
    page.reload()
    expect(page.get_by_test_id("quick-play")).to_have_text(sv["Quick play"])
    expect(page.get_by_test_id("language-switcher")).to_have_value("sv")

    page.get_by_test_id("language-switcher").select_option("en")
    expect(page.get_by_test_id("quick-play")).to_have_text("Quick play")
    no_page_errors(ann)


def test_table_screenshots_on_a_phone_and_a_desktop(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    server = start_server()
    sizes = {"desktop": (1440, 900), "phone": (375, 667)}
    desktop = new_player(server, "Ann", *sizes["desktop"])
    save_settings(desktop, auto_play=False)  # a forced first card would leave her hand by itself
    table = quick_play(desktop)
    assert wait_next_move(desktop.page).startswith("bid:")
    decide_until_a_card(desktop.page)
    # The same player opens the table on her phone too (her cookie, a second connection).
    phone = new_player(server, "Ann", *sizes["phone"], mobile=True, same_as=desktop)
    phone.page.goto(f"/#/table/{table}")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    shots: dict[str, bytes] = {}
    for name, player in (("desktop", desktop), ("phone", phone)):
        width, height = sizes[name]
        page = player.page
        expect(page.get_by_test_id("seat-bottom")).to_contain_text("You")
        expect(page.get_by_test_id("card")).to_have_count(13)
        wait_next_move(page)  # her turn: the playable cards are highlighted
        path = SCREENSHOTS / f"table-{name}-{width}x{height}.png"
        shots[name] = page.screenshot(full_page=True)
        assert shots[name].startswith(b"\x89PNG") and len(shots[name]) > 1000, name
        partial = path.with_name(f"{path.name}.{os.getpid()}.part")  # never half a file
        partial.write_bytes(shots[name])
        partial.replace(path)
        assert path.is_file() and path.stat().st_size > 1000, path

        # Nothing sticks out sideways: no horizontal scrolling, every card in the viewport.
        # (Measured in one go: the hand is redrawn whenever a frame arrives.)
        layout = page.evaluate(LAYOUT_JS)
        assert layout["scrollWidth"] <= width + 1, (name, layout)
        assert len(layout["cards"]) == 13, (name, layout)
        for card, left, right in layout["cards"]:
            assert left >= -1 and right <= width + 1, (name, card, left, right, layout)
    assert shots["phone"] != shots["desktop"]
    no_page_errors(desktop, phone)
