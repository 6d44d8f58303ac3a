"""Cards, suits and hands as small integers.

A card is an ``int`` 0..51: ``suit * 13 + (rank - 2)``, suits in the order S, H, D, C.
Integers (and hands as 52-bit masks) keep the rules core fast enough to drive
millions of random deals and to share one representation with the solver.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

Card = int
Suit = int
Hand = int  # bit mask: bit c set <=> card c held

SUITS = "SHDC"
RANKS = "23456789TJQKA"
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
RED_SUITS = frozenset({HEARTS, DIAMONDS})

DECK: tuple[Card, ...] = tuple(range(52))
SUIT_MASK: Final[tuple[Hand, ...]] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
FULL_MASK: Hand = (1 << 52) - 1

_TEXT = tuple(RANKS[c % 13] + SUITS[c // 13] for c in DECK)
_PARSE: dict[str, Card] = {}
for _c, _t in enumerate(_TEXT):
    _PARSE[_t] = _c
    _PARSE[_t.lower()] = _c
    _PARSE[_t[0].lower() + _t[1]] = _c
    _PARSE[_t[0] + _t[1].lower()] = _c


def suit_of(card: Card) -> Suit:
    return card // 13


def rank_of(card: Card) -> int:
    """Rank 2..14 (ace high)."""
    return card % 13 + 2


def is_red(card: Card) -> bool:
    return card // 13 in RED_SUITS


def make_card(suit: Suit, rank: int) -> Card:
    return suit * 13 + rank - 2


def card_text(card: Card) -> str:
    """``QH``, ``TS``, ``2C``: rank then suit, ten written ``T``."""
    return _TEXT[card]


def parse_card(text: object) -> Card:
    """Parse a card as written in records (``QH``, ``qh``); raises ``ValueError`` for
    anything else, a string or not (records are untrusted JSON)."""
    card = _PARSE.get(text) if isinstance(text, str) else None
    if card is None:
        raise ValueError(f"not a card: {text!r}")
    return card


def suit_text(suit: Suit) -> str:
    return SUITS[suit]


def parse_suit(text: object) -> Suit:
    if not isinstance(text, str) or len(text) != 1 or text.upper() not in SUITS:
        raise ValueError(f"not a suit: {text!r}")
    return SUITS.index(text.upper())


def mask_of(cards: Iterable[Card]) -> Hand:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_in(mask: Hand) -> Iterator[Card]:
    """Cards of a mask in ascending order (by suit, then rank)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: Hand) -> int:
    return mask.bit_count()


def sorted_texts(cards: Iterable[Card]) -> list[str]:
    """Card texts sorted by text, the order records and views use for sets of cards."""
    return sorted(_TEXT[c] for c in cards)
