"""``whist play``: the terminal game, driven through ``run_play`` with scripted input.

Standard output is a ``Transcript`` that remembers the last ``Legal:`` line (and the hand
and trick shown); standard input is a ``Typist`` that answers each prompt, first from a
script, then with the first legal choice, so that whole matches can be played to the end.
"""

from __future__ import annotations

import argparse
import io
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from whist import records
from whist.bots import make_bot
from whist.cli import main
from whist.core.cards import parse_card
from whist.core.match import Match
from whist.core.views import view_for
from whist.terminal import BOT_BUDGET, LEGAL_PREFIX, parse_card_input, parse_options, run_play
from whist.variants import new_match

LINE = re.compile(r"^(?P<key>Your hand|Trick): (?P<rest>.*)$")


class Transcript(io.StringIO):
    """Standard output that remembers the last legal list, hand and trick it showed."""

    def __init__(self) -> None:
        super().__init__()
        self.legal: list[str] = []
        self.hand: list[str] = []
        self.trick = ""

    def write(self, text: str) -> int:
        for line in text.splitlines():
            if line.startswith(LEGAL_PREFIX):
                self.legal = line.split()[1:]
            elif line.startswith("Your hand: "):
                self.hand = hand_cards(line.removeprefix("Your hand: "))
            elif line.startswith("Trick: "):
                self.trick = line.removeprefix("Trick: ")
        return super().write(text)


Answer = str | Callable[[Transcript], str | None]


class Typist(io.StringIO):
    """Standard input: the scripted answers first (a callable may return None for end of
    input, or raise), then the first legal choice shown (through ``form``) if ``auto``;
    end of input once ``limit`` answers are given."""

    def __init__(
        self,
        out: Transcript,
        script: Sequence[Answer] = (),
        *,
        auto: bool = True,
        limit: int = 20_000,
        form: Callable[[str], str] = str,
    ) -> None:
        super().__init__()
        self.out = out
        self.script = list(script)
        self.auto = auto
        self.limit = limit
        self.form = form
        self.answers = 0

    def readline(self, size: int | None = -1) -> str:
        self.answers += 1
        if self.answers > self.limit:
            return ""
        text: str | None
        if self.script:
            item = self.script.pop(0)
            text = item(self.out) if callable(item) else item
        elif self.auto:
            text = self.form(self.out.legal[0])
        else:
            text = None
        return "" if text is None else text + "\n"


def hand_cards(text: str) -> list[str]:
    """``S: A Q  H: 10  D: -  C: 2`` -> ``["AS", "QS", "10H", "2C"]``."""
    cards: list[str] = []
    for group in text.split("  "):
        suit, _, ranks = group.partition(": ")
        cards += [rank + suit for rank in ranks.split() if rank != "-"]
    return cards


def auto(out: Transcript) -> str:
    return out.legal[0]


def play(
    variant: str,
    *options: str,
    seat: int | None = 0,
    seed: int | None = 1,
    dealer: int | None = None,
    record: Path | None = None,
    bots: str | None = None,
    script: Sequence[Answer] = (),
    **typist: object,
) -> tuple[int, str, str]:
    """Run ``whist play``; ``bots=None`` leaves ``--bots`` out (every computer seat medium)."""
    args = argparse.Namespace(
        variant=variant,
        options=list(options),
        seat=seat,
        record=None if record is None else str(record),
        seed=seed,
        dealer=dealer,
    )
    if bots is not None:
        args.bots = bots
    out, err = Transcript(), io.StringIO()
    stdin = Typist(out, script, **typist)  # type: ignore[arg-type]
    status = run_play(args, stdin, out, err)
    return status, out.getvalue(), err.getvalue()


def final_score(out: str) -> list[int]:
    found = re.search(r"^Final score: .+ (-?\d+), .+ (-?\d+)\.$", out, re.MULTILINE)
    assert found, "no final score printed"
    return [int(found[1]), int(found[2])]


def replayed(path: Path) -> tuple[records.Record, Match]:
    record = records.loads(path.read_text(encoding="utf-8"))
    match, error = records.replay(record)
    assert error is None, error
    return record, match


def human_actions(match: Match, seat: int = 0) -> int:
    return sum(1 for actions in match.log for action in actions if action.seat == seat)


# ------------------------------------------------------------------ complete matches
def test_german_match_is_played_to_the_end_and_recorded(tmp_path: Path) -> None:
    path = tmp_path / "german.json"
    status, out, err = play("german", record=path)
    assert (status, err) == (0, "")
    assert "Match over: " in out and "Traceback" not in out
    scores = final_score(out)
    assert max(scores) >= 13
    assert out.count("--- Deal ") >= 2
    record, match = replayed(path)
    assert record.players == ["You", "Bot 1 (medium)"]
    assert match.over and list(match.scores) == scores
    # The status shown on every turn: hand by suit, trump, stock, tricks, score.
    assert re.search(r"^Your hand: S: .*  H: .*  D: .*  C: .*$", out, re.MULTILINE)
    assert re.search(r"^Stage 1: stock \d+ cards, upcard (10|[2-9JQKA])[SHDC]$", out, re.M)
    assert "Stage 2: the stock is empty" in out
    assert re.search(r"^Trump: (spades|hearts|diamonds|clubs)$", out, re.MULTILINE)
    assert re.search(r"^Score: You \d+, Bot 1 \(medium\) \d+ \(first to 13\)$", out, re.M)
    assert re.search(
        r"^Deal 1 is over\. Counted tricks: You \d+, Bot 1 \(medium\) \d+\.$", out, re.M
    )


def test_minnesota_match_is_played_to_the_end_and_shows_only_revealed_bids(
    tmp_path: Path,
) -> None:
    path = tmp_path / "minnesota.json"
    status, out, _ = play("minnesota", seed=5, record=path)
    assert status == 0
    _, match = replayed(path)
    assert match.over and list(match.scores) == final_score(out)
    names = ["You", "Bot 1 (medium)", "Bot 2 (medium)", "Bot 3 (medium)"]
    printed = re.findall(r"^Revealed from the dealer's left: (.*?)( \(the rest.*\))?\.$", out, re.M)
    assert len(printed) == len(match.deals)
    for (shown, _rest), deal in zip(printed, match.deals, strict=True):
        # Exactly the bids the rules reveal: up to the first high, never the rest.
        assert shown == ", ".join(f"{names[s]} {c}" for s, c in deal.revealed)
    assert out.count(" chosen.") == 4 * len(match.deals)
    assert "Your bid: high (red) or low (black)> " in out


@pytest.mark.parametrize(
    ("variant", "options", "dealer", "expected"),
    [
        ("classic", ["target=2"], 1, ["Trump: ", "(turned card ", "is known to hold: "]),
        (
            "japanese",
            ["target=3"],
            1,
            [
                "Trump suit (S/H/D/C)> ",
                "Tables (* = a face-down card lies under it):",
                "Your hand: 6 cards, unseen until trick 1 is complete",
                "Your table cards: ",
                "Turned up on your table: ",
            ],
        ),
        ("plockwhist", ["target=3"], 1, ["Your bid: spel (red) or pass (black)> ", "Upcard"]),
        ("swedish", [], None, ["Your bottom card (red = spel, black = pass)> ", "has chosen."]),
        ("swedish", ["bid_input=button"], None, ["Your bid: spel (red) or pass (black)> "]),
        ("german", ["talon_discard=true,match=single"], None, ["Keep or discard "]),
        ("minnesota", ["colours=american", "target=3"], None, ["high (black) or low (red)"]),
    ],
)
def test_every_variant_prompts_its_decisions_and_finishes(
    tmp_path: Path, variant: str, options: list[str], dealer: int | None, expected: list[str]
) -> None:
    path = tmp_path / "record.json"
    status, out, _ = play(variant, *options, dealer=dealer, record=path)
    assert status == 0
    for text in expected:
        assert text in out
    assert "Not allowed" not in out and "is not a" not in out
    _, match = replayed(path)
    assert match.over and list(match.scores) == final_score(out)


def test_another_seat_plays_too(tmp_path: Path) -> None:
    path = tmp_path / "seat2.json"
    status, out, _ = play("minnesota", "target=3", seat=2, record=path)
    assert status == 0
    record, match = replayed(path)
    assert record.players == ["Bot 0 (medium)", "Bot 1 (medium)", "You", "Bot 3 (medium)"]
    assert human_actions(match, seat=2) > 0 and human_actions(match, seat=0) > 0
    assert "Score: Bot 0 (medium) & You " in out


# ------------------------------------------------------------------------ typed input
@pytest.mark.parametrize(
    ("typed", "card"),
    [
        ("qh", "QH"),
        ("QH", "QH"),
        ("Qh", "QH"),
        ("qH", "QH"),
        (" q h ", "QH"),
        ("q♥", "QH"),
        ("♥Q", "QH"),
        ("10h", "TH"),
        ("10H", "TH"),
        ("th", "TH"),
        ("Th", "TH"),
        ("TH", "TH"),
        ("10♠", "TS"),
        ("a♣", "AC"),
        ("2d", "2D"),
    ],
)
def test_cards_are_read_as_typed(typed: str, card: str) -> None:
    assert parse_card_input(typed) == parse_card(card)


@pytest.mark.parametrize("typed", ["", "q", "h", "1h", "11h", "qx", "hh", "10", "zz", "high"])
def test_other_text_is_not_a_card(typed: str) -> None:
    assert parse_card_input(typed) is None


def test_typed_forms_are_accepted_in_play(tmp_path: Path) -> None:
    forms: list[Callable[[str], str]] = [
        str.lower,  # 10h, qh
        lambda t: t.replace("10", "t").lower(),  # th
        lambda t: t.replace("10", "T")[:-1] + t[-1].lower(),  # Th, Qh
        lambda t: t[:-1] + "♠♥♦♣"["SHDC".index(t[-1])],  # 10♥, Q♥
    ]
    typed: list[str] = []

    def answer(out: Transcript) -> str:
        """A ten if one is legal (to type it in every form in turn), else the first card."""
        label = next((c for c in out.legal if c.startswith("10")), out.legal[0])
        typed.append(forms[len(typed) % len(forms)](label))
        return typed[-1]

    path = tmp_path / "forms.json"
    status, out, _ = play("german", "match=deals:2", script=[answer] * 52, record=path)
    assert status == 0
    for form in (r"10[shdc]", r"t[shdc]", r"T[shdc]", r"10[♠♥♦♣]"):  # every form of a ten
        assert any(re.fullmatch(form, t) for t in typed), form
    assert "Not allowed" not in out and "is not a card" not in out
    _, match = replayed(path)
    assert match.over


def test_an_illegal_card_is_explained_and_the_prompt_repeats(tmp_path: Path) -> None:
    tried: list[tuple[str, list[str]]] = []

    def off_suit(out: Transcript) -> str | None:
        """Play a card of another suit while following suit is possible (once)."""
        wrong = [c for c in out.hand if c not in out.legal]
        if tried or not out.trick or "lead" in out.trick or not wrong:
            return out.legal[0]
        tried.append((wrong[0], list(out.legal)))
        return wrong[0]

    path = tmp_path / "refused.json"
    status, out, _ = play("german", "match=single", script=[off_suit] * 60, record=path)
    assert status == 0 and tried, "no chance to try an off-suit card"
    wrong, legal = tried[0]
    led = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}[legal[0][-1]]
    expected = (
        f"Your card> {wrong}\n"
        "Not allowed (must_follow_suit): you must follow suit. "
        f"{led} were led and you have {led.lower()}: play one of them.\n"
        f"{LEGAL_PREFIX} {' '.join(legal)}\n"
        f"Your card> {legal[0]}\n"
        f"You play {legal[0]}.\n"
    )
    assert expected in out
    _, match = replayed(path)  # the refused card left no trace in the match
    assert match.over


def test_refused_inputs_are_explained_and_change_nothing(tmp_path: Path) -> None:
    def not_mine(out: Transcript) -> str:
        return next(c for c in ("AS", "KS", "QS", "JS", "10S") if c not in out.hand)

    path = tmp_path / "refused.json"
    script: list[Answer] = ["zz", not_mine, "help", "", auto, "high"]
    status, out, _ = play("german", script=script, limit=6, record=path)
    assert status == 1
    assert "'zz' is not a card: type rank then suit, e.g. QH, 10h." in out
    assert re.search(
        r"^Not allowed \(card_not_available\): that card is not yours to play\. "
        r"(AS|KS|QS|JS|10S) is not in your hand\.$",
        out,
        re.MULTILINE,
    )
    assert "Commands: help (this text)" in out
    assert "'high' is not a card" in out
    assert "Type one of the choices listed, or help." in out
    # One status for the first turn, five prompts for it (four refused or not a choice).
    first_turn = out.split("You play ")[0]
    assert first_turn.count("== german · deal 1") == 1
    assert first_turn.count("Your card> ") == 5
    _, match = replayed(path)
    assert human_actions(match) == 1


def test_non_play_decisions_are_typed_as_words() -> None:
    status, out, _ = play(
        "minnesota",
        "target=1",
        script=["spel", "h"],
        limit=2,
    )
    assert status == 1
    assert "Now choose high or low." in out
    assert "You have chosen." in out


# ------------------------------------------------------------- leaving and records
def test_end_of_input_mid_match_still_writes_the_record(tmp_path: Path) -> None:
    path = tmp_path / "eof.json"
    status, out, err = play("german", limit=25, record=path)
    assert (status, err) == (1, "")
    assert "End of input: the match is left unfinished." in out
    assert "Traceback" not in out
    _, match = replayed(path)
    assert not match.over
    assert human_actions(match) == 25


def test_quit_ends_the_match_and_writes_the_record(tmp_path: Path) -> None:
    path = tmp_path / "quit.json"
    status, out, _ = play("minnesota", script=[auto] * 5 + ["quit"], record=path)
    assert status == 1
    assert "You left the match unfinished." in out
    _, match = replayed(path)
    assert not match.over and human_actions(match) == 5


def test_ctrl_c_writes_the_record_without_a_traceback(tmp_path: Path) -> None:
    def interrupt(out: Transcript) -> str:
        raise KeyboardInterrupt

    path = tmp_path / "interrupted.json"
    status, out, err = play("classic", script=[auto] * 3 + [interrupt], record=path)
    assert (status, err) == (130, "")
    assert "Interrupted." in out and "Traceback" not in out
    _, match = replayed(path)
    assert not match.over and human_actions(match) == 3


def test_resign_asks_first_and_then_ends_the_match(tmp_path: Path) -> None:
    path = tmp_path / "resigned.json"
    script: list[Answer] = ["resign", "no", auto, "resign", "yes"]
    status, out, _ = play("german", script=script, auto=False, record=path)
    assert status == 0
    assert out.count("Resign? Your side loses the match. (yes/no)> ") == 2
    assert "Match over: Bot 1 (medium) wins. (You resigned.)" in out
    _, match = replayed(path)
    assert match.over and match.resigned == 0 and match.winner == 1
    assert human_actions(match) == 2  # one card, then the resignation


def test_a_seed_deals_the_same_decks_with_or_without_dealer(tmp_path: Path) -> None:
    def decks(path: Path) -> list[tuple[int, tuple[int, ...]]]:
        record = records.loads(path.read_text(encoding="utf-8"))
        return [(deal.dealer, deal.deck) for deal in record.deals]

    paths = [tmp_path / f"{n}.json" for n in range(4)]
    play("german", seed=7, limit=3, record=paths[0])
    play("german", seed=7, limit=3, record=paths[1])
    drawn = decks(paths[0])[0][0]
    play("german", seed=7, dealer=1 - drawn, limit=3, record=paths[2])
    play("german", seed=8, limit=3, record=paths[3])
    assert decks(paths[0]) == decks(paths[1])
    assert decks(paths[2]) == [(1 - drawn, decks(paths[0])[0][1])]
    assert decks(paths[3])[0][1] != decks(paths[0])[0][1]


def test_hidden_draws_are_told_without_the_card() -> None:
    status, out, _ = play("german", "match=single")
    assert status == 0
    assert "Bot 1 (medium) draws a card from the stock, unseen." in out
    assert re.search(r"^You draw (10|[2-9JQKA])[SHDC] from the stock\.$", out, re.MULTILINE)
    assert not re.search(r"^Bot 1 \(medium\) draws (10|[2-9JQKA])[SHDC]", out, re.MULTILINE)


@pytest.mark.parametrize(
    ("variant", "options", "seat", "dealer", "message"),
    [
        ("seven_card", [], 0, None, "unknown variant 'seven_card'"),
        ("seven_houses", [], 0, None, "Seven Little Houses"),
        ("german", ["scoring=most"], 0, None, "option scoring: 'most' is not one of"),
        ("german", ["colours=red"], 0, None, "unknown option 'colours'"),
        ("german", ["scoring"], 0, None, "option 'scoring': write NAME=VALUE"),
        ("german", [], 2, None, "--seat: must be a seat 0..1"),
        ("minnesota", [], 0, 4, "--dealer: must be a seat 0..3"),
    ],
)
def test_bad_command_lines_exit_2_with_one_line(
    tmp_path: Path,
    variant: str,
    options: list[str],
    seat: int,
    dealer: int | None,
    message: str,
) -> None:
    path = tmp_path / "never.json"
    status, out, err = play(variant, *options, seat=seat, dealer=dealer, record=path)
    assert status == 2 and out == ""
    assert err.startswith("whist play: ") and message in err
    assert err.count("\n") == 1
    assert not path.exists()


def test_an_unwritable_record_path_exits_2(tmp_path: Path) -> None:
    status, _, err = play("german", record=tmp_path / "missing" / "r.json")
    assert status == 2 and "cannot write the record" in err


def test_options_split_on_commas() -> None:
    assert parse_options(["scoring=difference,match=target:7", "counted=all26"]) == {
        "scoring": "difference",
        "match": "target:7",
        "counted": "all26",
    }


# ------------------------------------------------------------------- computer players
def test_every_computer_seat_plays_what_its_levels_bot_chooses(tmp_path: Path) -> None:
    """Replaying the record, each computer move is ``make_bot(level).choose`` on that seat's
    view, with the session's bot generator and a budget of one second."""
    path = tmp_path / "levels.json"
    status, _, _ = play("minnesota", "target=3", seat=1, seed=4, bots="hard,easy,hard", record=path)
    assert status == 0
    record, final = replayed(path)
    levels = {0: "hard", 2: "easy", 3: "hard"}
    assert record.players == ["Bot 0 (hard)", "You", "Bot 2 (easy)", "Bot 3 (hard)"]
    rng = random.Random("players:4")
    match = new_match(record.variant.key, record.options)
    moves = 0
    for deal, actions in zip(record.deals, final.log, strict=True):
        match.start_deal(deal.deck, deal.dealer)
        for action in actions:
            if action.seat != 1:
                view = view_for(match, action.seat)
                assert make_bot(levels[action.seat]).choose(view, rng, BOT_BUDGET) == action
                moves += 1
            match.apply(action)
    assert match.over and moves > 3 * len(record.deals) * 13
    assert BOT_BUDGET == 1.0


@pytest.mark.parametrize(
    ("variant", "options", "seat"),
    [
        ("german", [], 0),
        ("classic", ["target=3"], 1),
        ("japanese", ["target=3"], 1),
        ("plockwhist", ["target=3"], 0),
        ("minnesota", ["target=3"], 2),
        ("swedish", ["match=target:5"], 3),
    ],
)
def test_a_match_against_hard_bots_is_played_to_the_end(
    tmp_path: Path, variant: str, options: list[str], seat: int
) -> None:
    path = tmp_path / "hard.json"
    status, out, err = play(variant, *options, seat=seat, bots="hard", record=path)
    assert (status, err) == (0, "")
    assert "Not allowed" not in out and "Traceback" not in out
    record, match = replayed(path)
    assert match.over and list(match.scores) == final_score(out)
    assert record.players == [
        "You" if s == seat else f"Bot {s} (hard)" for s in range(len(record.players))
    ]


def test_the_partner_in_a_four_player_game_is_a_bot_of_the_chosen_level(tmp_path: Path) -> None:
    path = tmp_path / "partner.json"
    status, out, _ = play("swedish", "match=target:3", seat=0, bots="easy", record=path)
    assert status == 0
    record, match = replayed(path)
    assert record.players == ["You", "Bot 1 (easy)", "Bot 2 (easy)", "Bot 3 (easy)"]
    assert "Score: You & Bot 2 (easy) " in out
    assert human_actions(match, seat=2) > 0


@pytest.mark.parametrize(
    ("variant", "seat", "bots", "names"),
    [
        ("german", 0, "hard", ["You", "Bot 1 (hard)"]),
        ("german", 1, "EASY", ["Bot 0 (easy)", "You"]),
        ("minnesota", 0, "hard", ["You", "Bot 1 (hard)", "Bot 2 (hard)", "Bot 3 (hard)"]),
        (
            "minnesota",
            0,
            "hard,easy,medium",
            ["You", "Bot 1 (hard)", "Bot 2 (easy)", "Bot 3 (medium)"],
        ),
        (
            "minnesota",
            2,
            "hard, easy ,hard",
            ["Bot 0 (hard)", "Bot 1 (easy)", "You", "Bot 3 (hard)"],
        ),
        (
            "swedish",
            3,
            "easy,medium,hard",
            ["Bot 0 (easy)", "Bot 1 (medium)", "Bot 2 (hard)", "You"],
        ),
    ],
)
def test_bot_levels_are_given_per_seat_skipping_yours(
    tmp_path: Path, variant: str, seat: int, bots: str, names: list[str]
) -> None:
    path = tmp_path / "names.json"
    status, out, _ = play(variant, seat=seat, bots=bots, script=["quit"], auto=False, record=path)
    assert status == 1
    record, _ = replayed(path)
    assert record.players == names
    assert f": {', '.join(names)} (seats 0..{len(names) - 1})." in out


def test_the_command_line_takes_bots_and_defaults_to_medium(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def run(*argv: str) -> list[str]:
        path = tmp_path / "cli.json"
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
        status = main(["play", *argv, "--seed", "2", "--record", str(path)])
        assert status == 1
        record, _ = replayed(path)
        return list(record.players)

    assert run("german") == ["You", "Bot 1 (medium)"]
    assert run("german", "--bots", "hard") == ["You", "Bot 1 (hard)"]
    assert run("minnesota", "--seat", "1", "--bots", "hard,easy,hard") == [
        "Bot 0 (hard)",
        "You",
        "Bot 2 (easy)",
        "Bot 3 (hard)",
    ]
    capsys.readouterr()
    assert main(["play", "minnesota", "--bots", "hard,expert,easy"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "whist play: --bots: unknown level 'expert'; choose one of easy, medium, hard, master\n"
    )


@pytest.mark.parametrize(
    ("variant", "bots", "message"),
    [
        ("german", "expert", "--bots: unknown level 'expert'; choose one of easy, medium, hard"),
        ("german", "", "--bots: unknown level ''"),
        ("minnesota", "hard,,easy", "--bots: unknown level ''"),
        ("minnesota", "hard,easy", "exactly 3 (one per computer seat, comma-separated), not 2"),
        ("minnesota", "hard,easy,hard,easy", "exactly 3"),
        ("german", "hard,easy", "exactly 1 (one per computer seat, comma-separated), not 2"),
    ],
)
def test_a_bad_bot_level_exits_2_with_one_line(
    tmp_path: Path, variant: str, bots: str, message: str
) -> None:
    path = tmp_path / "never.json"
    status, out, err = play(variant, bots=bots, record=path)
    assert status == 2 and out == ""
    assert err.startswith("whist play: ") and message in err
    assert err.count("\n") == 1
    assert not path.exists()
