"""``whist play VARIANT``: one person against computer players, in the terminal.

The person sits at ``--seat`` (default 0); every other seat is played by a bot of
``whist.bots`` (``--bots LEVEL``: easy, medium or hard, default medium, for every computer
seat; or one level per computer seat, comma-separated in seat order, the person's seat
skipped, e.g. ``--bots hard,easy,hard``). In four-player games the person's partner is one
of those bots. Players are named ``You`` and ``Bot N (level)`` (N = seat number).
Everything printed about the game comes from ``view_for(match, your_seat)``: the status
shown on your turn, and the story of what happened, which is told from the difference
between your view before and after each action. Computer players decide from their own
seat's view only: ``bot.choose(view_for(match, seat), rng, budget)`` with a budget of
``BOT_BUDGET`` seconds.

Randomness: ``random.Random(seed)`` draws the first dealer (always, so that a seed deals
the same decks with or without ``--dealer``, which then replaces the draw) and then
shuffles one deck per deal. The computer players use a second generator seeded from the
same seed. Without ``--seed`` a seed is chosen and printed, so a game can be dealt again.

Input: cards as ``QH``, ``qh``, ``10h``, ``th``, ``Th``, ``q♥`` or ``♥Q``; bids, trump
suits and keep/discard as words (a unique prefix is enough); and the commands ``help``,
``show`` (the status again), ``resign`` (asks to confirm) and ``quit``.

With ``--record FILE`` the match is written as ``whist-record/1``: once at the start (so
that a path that cannot be written fails at once) and again when the session ends, however
it ends (finished, resigned, ``quit``, end of input, Ctrl-C).

Exit status:
    0    the match finished (a resignation finishes it too)
    1    the match was left unfinished (``quit``, end of input, or the output was closed),
         or the record could not be written at the end
    2    bad command line: unknown variant or option, bad seat, dealer or bot level, record
         path not writable (one line on standard error)
    130  interrupted by Ctrl-C
"""

from __future__ import annotations

import argparse
import io
import os
import random
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, TextIO

from whist import records
from whist.bots import LEVELS, make_bot
from whist.bots.base import Bot
from whist.core.actions import Action, Bid, Bottom, ChooseTrump, Play, Resign, Take
from whist.core.cards import SUITS, Card, Hand, Suit, cards_in, is_red, make_card, rank_of, suit_of
from whist.core.components import Pile
from whist.core.errors import CARD_NOT_AVAILABLE, MUST_FOLLOW_SUIT, WhistError
from whist.core.match import Match
from whist.core.state import Contract
from whist.core.views import View, view_for
from whist.variants import resolve

EXIT_FINISHED = 0
EXIT_UNFINISHED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

DEFAULT_LEVEL = "medium"  # the level of every computer seat without --bots
BOT_BUDGET = 1.0  # seconds per decision handed to ``Bot.choose``

LEGAL_PREFIX = "Legal:"  # the line listing the legal choices, printed before every prompt

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
_SUIT_SYMBOLS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}
_RANK_INPUT = {str(r): r for r in range(2, 10)} | {"10": 10, "T": 10, "J": 11, "Q": 12, "K": 13}
_RANK_INPUT["A"] = 14
_RANK_LABEL = {r: str(r) for r in range(2, 11)} | {11: "J", 12: "Q", 13: "K", 14: "A"}
_SUIT_INPUT: dict[str, Suit] = {}
for _suit, _name in enumerate(SUIT_NAMES):
    _SUIT_INPUT.update({SUITS[_suit].lower(): _suit, _name: _suit, _name[:-1]: _suit})
for _symbol, _letter in _SUIT_SYMBOLS.items():
    _SUIT_INPUT[_symbol] = SUITS.index(_letter)

HELP = """\
Type a card as rank then suit: QH, qh, 10h, th, Th (a suit symbol such as q♥ works too).
Other decisions are typed as words: high/low, spel/pass, keep/discard, a trump suit
(S, H, D, C or spades, hearts, ...); a unique prefix such as "h" for "high" is enough.
Commands: help (this text), show (the table again), resign (you lose the match; asks to
confirm), quit (leave now; the match stays unfinished).
The line "Legal:" lists what you may do now."""


class UsageError(Exception):
    """A bad command line: printed as one line on standard error, exit status 2."""


class _Quit(Exception):
    """The person typed ``quit``."""


class _EndOfInput(Exception):
    """Standard input ended."""


Command = Literal["help", "show", "quit", "resign"]
_COMMANDS: dict[str, Command] = {
    "help": "help",
    "?": "help",
    "show": "show",
    "quit": "quit",
    "exit": "quit",
    "resign": "resign",
}


@dataclass(frozen=True)
class Refusal:
    """Input that is not a choice of the current decision, with the reason in words."""

    message: str


# ------------------------------------------------------------------------------ seating
@dataclass(frozen=True)
class Seating:
    """Who sits where, and how to name seats and sides in sentences."""

    names: tuple[str, ...]
    human: int
    secret_bids: bool  # Minnesota and Swedish: bids are locked in secret, revealed later

    @property
    def players(self) -> int:
        return len(self.names)

    def name(self, seat: int) -> str:
        return self.names[seat]

    def does(self, seat: int, you: str, other: str) -> str:
        """``You play`` / ``Bot 1 plays``."""
        return f"{self.names[seat]} {you if seat == self.human else other}"

    def owner(self, seat: int) -> str:
        """``your`` / ``Bot 1's``."""
        return "your" if seat == self.human else f"{self.names[seat]}'s"

    def side(self, side: int) -> str:
        """A seat in two-player games, a team (``You & Bot 2``) in four-player ones."""
        if self.players == 2:
            return self.names[side]
        return f"{self.names[side]} & {self.names[side + 2]}"

    def side_does(self, side: int, plural: str, singular: str) -> str:
        one = self.players == 2 and side != self.human
        return f"{self.side(side)} {singular if one else plural}"

    def pairs(self, values: Sequence[int]) -> str:
        """``You 3, Bot 1 2``: one value per side."""
        return ", ".join(f"{self.side(s)} {values[s]}" for s in range(2))


def seat_names(
    players: int, human: int, levels: Sequence[str | None] | None = None
) -> tuple[str, ...]:
    """``You`` for the person, ``Bot N (level)`` (N = seat number) for the computer players
    (``Bot N`` for a seat without a level in ``levels``)."""
    names: list[str] = []
    for seat in range(players):
        level = levels[seat] if levels is not None else None
        if seat == human:
            names.append("You")
        else:
            names.append(f"Bot {seat}" + (f" ({level})" if level else ""))
    return tuple(names)


def parse_bot_levels(text: str, players: int, human: int) -> tuple[str | None, ...]:
    """``--bots``: one level for every computer seat, or one level per computer seat in seat
    order (the person's seat skipped), comma-separated. Returns the level of each seat,
    ``None`` for the person's seat. A level is easy, medium or hard (any case)."""
    levels = [part.strip().lower() for part in text.split(",")]
    for level in levels:
        if level not in LEVELS:
            raise UsageError(f"--bots: unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    computers = players - 1
    if len(levels) == 1:
        levels *= computers
    elif len(levels) != computers:
        raise UsageError(
            f"--bots: give one level for every computer seat or exactly {computers} "
            f"(one per computer seat, comma-separated), not {len(levels)}"
        )
    per_seat = iter(levels)
    return tuple(None if seat == human else next(per_seat) for seat in range(players))


# ----------------------------------------------------------------------- cards as text
def card_label(card: Card) -> str:
    """``QH``, ``10H``: rank then suit letter, ten written ``10``."""
    return _RANK_LABEL[rank_of(card)] + SUITS[suit_of(card)]


def _by_suit_high_first(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: (suit_of(c), -rank_of(c)))


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(card_label(c) for c in _by_suit_high_first(cards)) or "-"


def hand_text(hand: Hand) -> str:
    """``S: A Q 7  H: K 10 4  D: -  C: J 2``: grouped by suit, high to low."""
    groups: list[str] = []
    for suit in range(4):
        ranks = sorted((rank_of(c) for c in cards_in(hand) if suit_of(c) == suit), reverse=True)
        groups.append(f"{SUITS[suit]}: " + (" ".join(_RANK_LABEL[r] for r in ranks) or "-"))
    return "  ".join(groups)


def parse_card_input(text: str) -> Card | None:
    """A card as a person types it: ``QH``, ``qh``, ``10h``, ``th``, ``q♥``, ``♥Q``."""
    compact = "".join(text.split()).upper()
    for symbol, letter in _SUIT_SYMBOLS.items():
        compact = compact.replace(symbol, letter)
    if len(compact) < 2:
        return None
    for rank_text, suit_letter in ((compact[:-1], compact[-1]), (compact[1:], compact[0])):
        if suit_letter in SUITS and rank_text in _RANK_INPUT:
            return make_card(SUITS.index(suit_letter), _RANK_INPUT[rank_text])
    return None


def parse_suit_input(text: str) -> Suit | None:
    """``S``, ``spades``, ``spade``, ``♠`` (any case)."""
    return _SUIT_INPUT.get(text.strip().lower())


def _action_label(action: Action) -> str:
    if isinstance(action, Play | Bottom):
        return card_label(action.card)
    if isinstance(action, Bid):
        return action.bid
    if isinstance(action, Take):
        return "keep" if action.keep else "discard"
    if isinstance(action, ChooseTrump):
        return SUITS[action.suit]
    return "resign"


def format_legal(view: View) -> str:
    """``Legal: AS QS 7S`` (cards grouped by suit, high first) or ``Legal: high low``."""
    legal = list(view.legal)
    if legal and isinstance(legal[0], Play | Bottom):
        cards = {a.card: a for a in legal if isinstance(a, Play | Bottom)}
        legal = [cards[c] for c in _by_suit_high_first(cards)]
    return " ".join([LEGAL_PREFIX, *(_action_label(a) for a in legal)])


# --------------------------------------------------------------------- describing things
def _goal(options: dict[str, object]) -> str:
    if "target" in options:
        return f"first to {options['target']}"
    kind, _, number = str(options.get("match", "")).partition(":")
    if kind == "target":
        return f"first to {number}"
    if kind == "single":
        return "a single deal"
    if kind == "deals":
        return f"{number} deals"
    if kind == "rounds":
        return f"everyone deals {number} time(s)"
    return str(options.get("match", ""))


def _colours(options: dict[str, object]) -> tuple[str, str]:
    """Minnesota's colour labels for (high, low)."""
    if options.get("colours") == "american":
        return "black", "red"
    return "red", "black"


def contract_text(contract: Contract, seating: Seating) -> str:
    seat = contract.seat
    if contract.mode == "high" and seat is not None:
        needs = seating.side_does(seat % 2, "need", "needs")
        return f"high (grand): grander {seating.name(seat)}; {needs} 7 tricks"
    if contract.mode == "low":
        return "low (nullo): the side with fewer tricks scores"
    if contract.mode == "spel" and seat is not None:
        needs = seating.side_does(seat % 2, "need", "needs")
        return f"spel: {contract.role or 'bidder'} {seating.name(seat)}; {needs} 7 tricks"
    if contract.mode == "noll":
        return "nollspel: everyone tries to lose tricks"
    if contract.mode == "pass":
        return "pass game: the player with fewer tricks scores"
    return contract.mode


def _choice_text(choice: str | Card) -> str:
    if isinstance(choice, str):
        return choice
    return f"{card_label(choice)} ({'spel' if is_red(choice) else 'pass'})"


def _revealed_text(view: View, seating: Seating) -> str:
    return ", ".join(f"{seating.name(s)} {_choice_text(c)}" for s, c in view.revealed)


def _played_cards(view: View) -> set[Card]:
    played = {c for trick in view.tricks for c in trick.cards}
    return played | set(view.trick)


def _pile_text(pile: Pile) -> str:
    text = (card_label(pile.up) if pile.up is not None else "--") + ("*" if pile.down else "")
    return f"{text:4}"


# ------------------------------------------------------------- the status on your turn
def render_status(view: View, seating: Seating) -> list[str]:
    """What the person sees when it is their turn: only fields of their own view."""
    lines = [_header(view, seating), f"Score: {seating.pairs(view.scores)} ({_goal(view.options)})"]
    lines += _trump_lines(view, seating)
    lines += _bidding_lines(view, seating)
    lines += _stock_lines(view)
    lines += _table_lines(view, seating)
    lines += _known_lines(view, seating)
    if view.phase == "play" or view.tricks:
        lines.append(f"Counted tricks: {seating.pairs(view.won)} ({len(view.tricks)} played)")
    lines += _trick_lines(view, seating)
    lines += _hand_lines(view)
    return lines


def _header(view: View, seating: Seating) -> str:
    phase = {
        "bid": "bidding",
        "trump": "choosing trump",
        "take": "taking from the stock",
        "play": f"trick {len(view.tricks) + 1}",
    }.get(view.phase, view.phase)
    deal = (view.deal_index or 0) + 1
    dealer = seating.name(view.dealer) if view.dealer is not None else "-"
    return f"== {view.variant} · deal {deal} · {phase} · dealer {dealer} =="


def _trump_lines(view: View, seating: Seating) -> list[str]:
    if view.trump_card is not None and view.dealer is not None:
        return [
            f"Trump: {SUIT_NAMES[suit_of(view.trump_card)]} "
            f"(turned card {card_label(view.trump_card)} in {seating.name(view.dealer)}'s hand)"
        ]
    if view.trump is not None:
        return [f"Trump: {SUIT_NAMES[view.trump]}"]
    if view.phase == "trump":
        return ["Trump: not chosen yet"]
    return ["No trump"]


def _bidding_lines(view: View, seating: Seating) -> list[str]:
    lines: list[str] = []
    if "colours" in view.options:
        high, low = _colours(view.options)
        lines.append(f"Bids: high = {high}, low = {low} ({view.options['colours']} colours)")
    if view.phase == "bid" and seating.secret_bids:
        chosen = ", ".join(seating.name(s) for s in view.decided) or "nobody yet"
        lines.append(f"Has chosen (secret): {chosen}")
    if view.revealed:
        lines.append(f"Revealed: {_revealed_text(view, seating)}")
    if view.contract is not None:
        lines.append(f"Contract: {contract_text(view.contract, seating)}")
    return lines


def _stock_lines(view: View) -> list[str]:
    if not view.stage:
        return []
    if view.stage == 1:
        upcard = card_label(view.upcard) if view.upcard is not None else "none"
        lines = [f"Stage 1: stock {view.stock_size} cards, upcard {upcard}"]
    else:
        lines = ["Stage 2: the stock is empty"]
    if view.offer is not None:
        lines.append(f"Offered to you (only you see it): {card_label(view.offer)}")
    if view.discards:
        lines.append(f"Discarded: {cards_text(view.discards)}")
    return lines


def _table_lines(view: View, seating: Seating) -> list[str]:
    if not view.table:
        return []
    lines = ["Tables (* = a face-down card lies under it):"]
    order = [s for s in range(len(view.table)) if s != seating.human] + [seating.human]
    for seat in order:
        piles = " ".join(_pile_text(p) for p in view.table[seat]).rstrip()
        lines.append(f"  {seating.name(seat) + ':':7} {piles}")
    return lines


def _known_lines(view: View, seating: Seating) -> list[str]:
    """Cards everyone saw go into another hand and not played since."""
    played = _played_cards(view)
    lines: list[str] = []
    for seat, cards in enumerate(view.shown):
        known = [c for c in cards if c not in played]
        if seat != seating.human and known:
            lines.append(f"{seating.name(seat)} is known to hold: {cards_text(known)}")
    return lines


def _trick_lines(view: View, seating: Seating) -> list[str]:
    if view.phase != "play" or view.leader is None:
        return []
    if not view.trick:
        return [f"Trick: {seating.does(view.leader, 'lead', 'leads')}"]
    plays = (
        f"{seating.name((view.leader + i) % seating.players)} {card_label(card)}"
        for i, card in enumerate(view.trick)
    )
    return ["Trick: " + ", ".join(plays)]


def _hand_lines(view: View) -> list[str]:
    if view.seat is None:
        return []
    size = view.hand_sizes[view.seat] if view.hand_sizes else 0
    if view.table and not view.hand and size:
        lines = [f"Your hand: {size} cards, unseen until trick 1 is complete"]
    else:
        lines = [f"Your hand: {hand_text(view.hand)}"]
    if view.table:
        lines.append(f"Your table cards: {cards_text(cards_in(view.table_cards))}")
    return lines


def prompt_for(view: View, seating: Seating) -> str:
    kind = view.legal[0].kind if view.legal else "play"
    words = [_action_label(a) for a in view.legal]
    if kind == "bid" and "colours" in view.options:
        high, low = _colours(view.options)
        return f"Your bid: high ({high}) or low ({low})> "
    if kind == "bid":
        return "Your bid: spel (red) or pass (black)> "
    if kind == "bottom":
        return "Your bottom card (red = spel, black = pass)> "
    if kind == "trump":
        return "Trump suit (S/H/D/C)> "
    if kind == "take":
        card = view.offer if view.offer is not None else view.upcard
        shown = f" {card_label(card)}" if card is not None else ""
        return f"Keep or discard{shown}? ({'/'.join(words)})> "
    return "Your card> "


# -------------------------------------------------------------------------- narration
def narrate(before: View, after: View, actor: int, seating: Seating) -> list[str]:
    """What ``actor``'s action showed the person: their view before against after."""
    if after.resigned is not None and before.resigned is None:
        return [seating.does(actor, "resign.", "resigns.")]
    return [
        *_narrate_bid(before, after, actor, seating),
        *_narrate_trump(before, after, actor, seating),
        *_narrate_play(before, after, actor, seating),
        *_narrate_stock(before, after, actor, seating),
        *_narrate_table(before, after, seating),
        *_narrate_first_lead(before, after, seating),
        *_narrate_deal_end(before, after, seating),
    ]


def _narrate_bid(before: View, after: View, actor: int, seating: Seating) -> list[str]:
    if before.phase != "bid":
        return []
    new = after.revealed[len(before.revealed) :]
    lines: list[str] = []
    if seating.secret_bids:
        lines.append(seating.does(actor, "have chosen.", "has chosen."))
        if new:
            shown = ", ".join(f"{seating.name(s)} {_choice_text(c)}" for s, c in new)
            hidden = " (the rest stay secret)" if len(new) < seating.players else ""
            lines.append(f"Revealed from the dealer's left: {shown}{hidden}.")
    else:
        lines += [seating.does(s, "bid", "bids") + f" {_choice_text(c)}." for s, c in new]
    if after.contract is not None and before.contract is None:
        lines.append(f"Contract: {contract_text(after.contract, seating)}.")
    return lines


def _narrate_trump(before: View, after: View, actor: int, seating: Seating) -> list[str]:
    if before.phase != "trump" or after.trump is None:
        return []
    return [seating.does(actor, "choose", "chooses") + f" trump: {SUIT_NAMES[after.trump]}."]


def _narrate_play(before: View, after: View, actor: int, seating: Seating) -> list[str]:
    if before.phase != "play" or before.deal_index != after.deal_index:
        return []
    if len(after.tricks) > len(before.tricks):
        trick = after.tricks[-1]
        played = seating.does(actor, "play", "plays") + f" {card_label(trick.cards[-1])}."
        counted = (
            f". Counted tricks: {seating.pairs(after.won)}."
            if after.won != before.won
            else f" (stage {after.stage}, not counted)."
        )
        wins = seating.does(trick.winner, "win", "wins") + f" trick {len(after.tricks)}"
        return [played, wins + counted]
    if len(after.trick) > len(before.trick):
        return [seating.does(actor, "play", "plays") + f" {card_label(after.trick[-1])}."]
    return []


def _narrate_stock(before: View, after: View, actor: int, seating: Seating) -> list[str]:
    if before.deal_index != after.deal_index or not after.stage:
        return []
    lines: list[str] = []
    seats = range(seating.players) if before.stage == 1 else range(0)
    for seat in seats:
        lines += _narrate_upcard(before, after, seat, seating)
    lines += [f"{card_label(c)} is discarded." for c in after.discards[len(before.discards) :]]
    for seat in seats:
        lines += _narrate_draw(before, after, seat, actor, seating)
    if before.stage == 0 and after.stage == 1:
        lines.append("Seven more cards are dealt to each player.")
    if after.upcard is not None and after.upcard != before.upcard:
        lines.append(f"Upcard: {card_label(after.upcard)}.")
    if before.stage == 1 and after.stage == 2:
        lines.append("The stock is empty: stage 2, the last 13 tricks.")
    return lines


def _taken_upcards(before: View, after: View, seat: int) -> tuple[Card, ...]:
    return after.shown[seat][len(before.shown[seat]) :]


def _narrate_upcard(before: View, after: View, seat: int, seating: Seating) -> list[str]:
    return [
        seating.does(seat, "take", "takes") + f" the upcard {card_label(c)}."
        for c in _taken_upcards(before, after, seat)
    ]


def _narrate_draw(before: View, after: View, seat: int, actor: int, seating: Seating) -> list[str]:
    """A stock card taken unseen by the other player (German Whist's loser, or a card
    taken after a discard)."""
    taken = _taken_upcards(before, after, seat)
    played = 1 if before.phase == "play" and seat == actor else 0
    drawn = after.hand_sizes[seat] - before.hand_sizes[seat] + played - len(taken)
    if drawn <= 0:
        return []
    if seat == seating.human:
        new = [c for c in cards_in(after.hand & ~before.hand) if c not in taken]
        return [f"You draw {cards_text(new)} from the stock."]
    cards = "a card" if drawn == 1 else f"{drawn} cards"
    return [f"{seating.name(seat)} draws {cards} from the stock, unseen."]


def _narrate_table(before: View, after: View, seating: Seating) -> list[str]:
    if before.deal_index != after.deal_index:
        return []
    lines: list[str] = []
    for seat, (piles_before, piles_after) in enumerate(zip(before.table, after.table, strict=True)):
        turned = [
            a.up
            for b, a in zip(piles_before, piles_after, strict=True)
            if a.up is not None and a.up != b.up
        ]
        if turned:
            lines.append(f"Turned up on {seating.owner(seat)} table: {cards_text(turned)}.")
    return lines


def _narrate_first_lead(before: View, after: View, seating: Seating) -> list[str]:
    if before.phase not in ("bid", "trump") or after.phase != "play" or after.leader is None:
        return []
    if before.deal_index != after.deal_index:
        return []
    return [seating.does(after.leader, "lead", "leads") + " the first trick."]


def _narrate_deal_end(before: View, after: View, seating: Seating) -> list[str]:
    ended = after.phase in ("done", "waiting") and before.phase not in ("done", "waiting")
    if not ended or after.resigned is not None:
        return []
    points = [after.scores[s] - before.scores[s] for s in range(2)]
    gains = ", ".join(f"{seating.side(s)} {points[s]:+d}" for s in range(2) if points[s])
    return [
        f"Deal {(after.deal_index or 0) + 1} is over. Counted tricks: {seating.pairs(after.won)}.",
        f"Points: {gains or 'none'}. Score: {seating.pairs(after.scores)}.",
    ]


def announce_deal(view: View, seating: Seating) -> list[str]:
    """The start of a deal, from the person's view."""
    assert view.dealer is not None
    lines = [
        f"--- Deal {(view.deal_index or 0) + 1}: {seating.does(view.dealer, 'deal', 'deals')}."
    ]
    if view.trump_card is not None:
        card = view.trump_card
        lines.append(
            f"The dealer's last card {card_label(card)} is turned: trump is "
            f"{SUIT_NAMES[suit_of(card)]}."
        )
    elif view.upcard is not None:
        trump = f"trump is {SUIT_NAMES[view.trump]}" if view.trump is not None else "no trump"
        lines.append(f"Upcard {card_label(view.upcard)}: {trump}.")
    if view.phase == "bid" and seating.secret_bids:
        lines.append("Every player now chooses in secret.")
    elif view.phase == "bid":
        lines.append("Six cards each; the bidding comes first.")
    elif view.phase == "trump" and view.to_act:
        chooser = seating.does(view.to_act[0], "choose", "chooses")
        lines.append(f"{chooser} trump after seeing both tables.")
    return lines


def match_result(view: View, seating: Seating) -> list[str]:
    if view.winner is None:
        result = "Match over: a draw."
    else:
        result = f"Match over: {seating.side_does(view.winner, 'win', 'wins')}."
    if view.resigned is not None:
        result += f" ({seating.name(view.resigned)} resigned.)"
    return [result, f"Final score: {seating.pairs(view.scores)}."]


# ---------------------------------------------------------------------- reading input
def interpret(text: str, view: View) -> Action | Command | Refusal:
    """The person's input as an action of the current decision, a command or a refusal.
    The rules core still has the last word on whether an action is allowed."""
    word = text.strip().lower()
    if word in _COMMANDS:
        return _COMMANDS[word]
    if not view.legal or view.seat is None:
        return Refusal("There is nothing to decide now.")
    if not word:
        return Refusal("Type one of the choices listed, or help.")
    seat, kind = view.seat, view.legal[0].kind
    choices = " or ".join(_action_label(a) for a in view.legal)
    if kind in ("play", "bottom"):
        card = parse_card_input(text)
        if card is None and kind == "bottom":
            return Refusal(
                f"{text.strip()!r} is not a card: choose a red card for spel, black for pass."
            )
        if card is None:
            return Refusal(f"{text.strip()!r} is not a card: type rank then suit, e.g. QH, 10h.")
        return Play(seat, card) if kind == "play" else Bottom(seat, card)
    if kind == "trump":
        suit = parse_suit_input(word)
        if suit is None:
            return Refusal(f"{text.strip()!r} is not a suit: type S, H, D or C.")
        return ChooseTrump(seat, suit)
    matches = [a for a in view.legal if word and _action_label(a).startswith(word)]
    if len(matches) == 1:
        return matches[0]
    return Refusal(f"Now choose {choices}.")


def explain(error: WhistError, view: View, action: Action) -> str:
    """A refusal of the rules core in words, with what to do instead."""
    text = f"Not allowed ({error.code}): {error.message}."
    if error.code == MUST_FOLLOW_SUIT and view.trick:
        led = SUIT_NAMES[suit_of(view.trick[0])]
        text += f" {led.capitalize()} were led and you have {led}: play one of them."
    elif error.code == CARD_NOT_AVAILABLE and isinstance(action, Play | Bottom):
        where = "in your hand or face up on your table" if view.table else "in your hand"
        text += f" {card_label(action.card)} is not {where}."
    return text


# --------------------------------------------------------------------------- a session
@dataclass
class Session:
    match: Match
    seating: Seating
    inp: TextIO
    out: TextIO
    deal_rng: random.Random
    bot_rng: random.Random
    first_dealer: int
    bots: dict[int, Bot]  # seat -> the bot playing it (every seat but the person's)
    intro: str = ""
    budget: float = BOT_BUDGET

    @property
    def human(self) -> int:
        return self.seating.human

    def say(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def mute(self) -> None:
        """Drop all further output (the reader has gone away)."""
        if self.out is sys.stdout:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        self.out = io.StringIO()

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.out.write("\n")
            raise _EndOfInput
        if not self.inp.isatty():
            self.out.write(line if line.endswith("\n") else line + "\n")  # a readable transcript
        return line.strip()


def run_play(
    args: argparse.Namespace,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Play ``args.variant`` in the terminal; returns the exit status (module docstring)."""
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    record: str | None = getattr(args, "record", None)
    try:
        session = _setup(args, inp, out)
        if record is not None:
            _write_record(record, session)
    except UsageError as exc:
        err.write(f"whist play: {exc}\n")
        return EXIT_USAGE
    status = _run(session)
    if record is not None:
        try:
            _write_record(record, session)
        except UsageError as exc:
            err.write(f"whist play: {exc}\n")
            return status or EXIT_UNFINISHED
        session.say([f"Record written to {record}."])
    return status


def parse_options(items: Sequence[str]) -> dict[str, str]:
    """``["scoring=difference,match=target:7"]`` -> ``{"scoring": ..., "match": ...}``."""
    options: dict[str, str] = {}
    for item in items:
        for part in item.split(","):
            name, sep, value = (s.strip() for s in part.partition("="))
            if not part.strip():
                continue
            if not sep or not name or not value:
                raise UsageError(f"option {part.strip()!r}: write NAME=VALUE, e.g. target=7")
            options[name] = value
    return options


def _setup(args: argparse.Namespace, inp: TextIO, out: TextIO) -> Session:
    try:
        variant, options = resolve(str(args.variant), parse_options(args.options or []))
    except WhistError as exc:
        raise UsageError(exc.message) from None
    players = variant.players
    human = 0 if getattr(args, "seat", None) is None else int(args.seat)
    if not 0 <= human < players:
        raise UsageError(f"--seat: must be a seat 0..{players - 1}")
    dealer_arg = getattr(args, "dealer", None)
    if dealer_arg is not None and not 0 <= int(dealer_arg) < players:
        raise UsageError(f"--dealer: must be a seat 0..{players - 1}")
    seed = getattr(args, "seed", None)
    chosen_seed = seed is None
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    deal_rng = random.Random(seed)
    drawn_dealer = deal_rng.randrange(players)
    bots_arg = getattr(args, "bots", None)
    levels = parse_bot_levels(DEFAULT_LEVEL if bots_arg is None else str(bots_arg), players, human)
    names = seat_names(players, human, levels)
    seating = Seating(names, human, variant.secret_simultaneous)
    return Session(
        match=Match(variant, options),
        seating=seating,
        inp=inp,
        out=out,
        deal_rng=deal_rng,
        bot_rng=random.Random(f"players:{seed}"),
        first_dealer=drawn_dealer if dealer_arg is None else int(dealer_arg),
        bots={seat: make_bot(level) for seat, level in enumerate(levels) if level is not None},
        intro=f"Seed {seed} (deal the same cards again with --seed {seed})." if chosen_seed else "",
    )


def _write_record(path: str, session: Session) -> None:
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(records.dumps(session.match, session.seating.names))
    except OSError as exc:
        raise UsageError(f"{path}: cannot write the record ({exc.strerror or exc})") from None


def _run(session: Session) -> int:
    """Play until the match is over or the person leaves; never lets a traceback out for
    quitting, end of input or Ctrl-C."""
    try:
        _play(session)
        return EXIT_FINISHED
    except _Quit:
        session.say(["You left the match unfinished.", *_score_so_far(session)])
        return EXIT_UNFINISHED
    except _EndOfInput:
        session.say(["End of input: the match is left unfinished.", *_score_so_far(session)])
        return EXIT_UNFINISHED
    except KeyboardInterrupt:
        session.say(["", "Interrupted.", *_score_so_far(session)])
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the output was closed, e.g. piped into `head`
        session.mute()
        return EXIT_UNFINISHED


def _score_so_far(session: Session) -> list[str]:
    view = view_for(session.match, session.human)
    return [f"Score so far: {session.seating.pairs(view.scores)}."]


def _play(session: Session) -> None:
    match, seating = session.match, session.seating
    title = f"{match.variant.title}: {', '.join(seating.names)} (seats 0..{seating.players - 1})."
    session.say([line for line in (session.intro, title) if line])
    while not match.over:
        if match.needs_deal:
            _start_deal(session)
            continue
        before = view_for(match, session.human)
        actor = before.to_act[0]
        if actor == session.human:
            _human_turn(session)
        else:
            bot = session.bots[actor]
            match.apply(bot.choose(view_for(match, actor), session.bot_rng, session.budget))
        session.say(narrate(before, view_for(match, session.human), actor, seating))
    session.say(match_result(view_for(match, session.human), seating))


def _start_deal(session: Session) -> None:
    deck = list(range(52))
    session.deal_rng.shuffle(deck)
    first = session.match.deal is None
    session.match.start_deal(deck, session.first_dealer if first else None)
    session.say(announce_deal(view_for(session.match, session.human), session.seating))


def _human_turn(session: Session) -> None:
    """Ask until the person's input is an action the rules accept (or they leave)."""
    view = view_for(session.match, session.human)
    session.say(render_status(view, session.seating))
    while True:
        session.say([format_legal(view)])
        choice = interpret(session.ask(prompt_for(view, session.seating)), view)
        if choice == "help":
            session.say(HELP.splitlines())
        elif choice == "show":
            session.say(render_status(view, session.seating))
        elif choice == "quit":
            raise _Quit
        elif choice == "resign":
            if _confirm(session, "Resign? Your side loses the match. (yes/no)> "):
                session.match.apply(Resign(session.human))
                return
        elif isinstance(choice, Refusal):
            session.say([choice.message])
        else:
            try:
                session.match.apply(choice)
                return
            except WhistError as error:
                session.say([explain(error, view, choice)])


def _confirm(session: Session, prompt: str) -> bool:
    return session.ask(prompt).strip().lower() in ("y", "yes")
