"""The decisions a seat can take, one class per kind of the ``whist-record/1`` action table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from whist.core.cards import Card, Suit, card_text, parse_card, parse_suit, suit_text
from whist.core.errors import BAD_ACTION, WhistError


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    card: Card
    kind: ClassVar[str] = "play"

    def value_json(self) -> Any:
        return card_text(self.card)


@dataclass(frozen=True, slots=True)
class Bid:
    """``high``/``low`` (Minnesota), ``spel``/``pass`` (Plockwhist, Swedish with buttons)."""

    seat: int
    bid: str
    kind: ClassVar[str] = "bid"

    def value_json(self) -> Any:
        return self.bid


@dataclass(frozen=True, slots=True)
class Bottom:
    """Swedish Whist: the card shown as bottom card (red = spel, black = pass)."""

    seat: int
    card: Card
    kind: ClassVar[str] = "bottom"

    def value_json(self) -> Any:
        return card_text(self.card)


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """Japanese Whist: the non-dealer names the trump suit."""

    seat: int
    suit: Suit
    kind: ClassVar[str] = "trump"

    def value_json(self) -> Any:
        return suit_text(self.suit)


@dataclass(frozen=True, slots=True)
class Take:
    """German Whist with ``talon_discard``: keep the stock card offered, or discard it."""

    seat: int
    keep: bool
    kind: ClassVar[str] = "take"

    def value_json(self) -> Any:
        return "keep" if self.keep else "discard"


@dataclass(frozen=True, slots=True)
class Resign:
    seat: int
    kind: ClassVar[str] = "resign"

    def value_json(self) -> Any:
        return True


Action = Play | Bid | Bottom | ChooseTrump | Take | Resign
KINDS = ("play", "bid", "bottom", "trump", "take", "resign")


def action_to_json(action: Action) -> dict[str, Any]:
    return {"seat": action.seat, action.kind: action.value_json()}


def action_sort_key(action: Action) -> str:
    """Actions are listed sorted by their JSON text (docs/record-format.md, ``next.legal``)."""
    import json

    return json.dumps(action_to_json(action))


def action_from_json(obj: Any) -> Action:
    """Parse ``{"seat": s, KIND: VALUE}``.

    Raises ``ValueError`` for a string that is not a card (records treat that as a malformed
    record) and ``WhistError(bad_action)`` for any other malformed action.
    """
    if not isinstance(obj, dict):
        raise WhistError(BAD_ACTION, "an action must be an object")
    seat = obj.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise WhistError(BAD_ACTION, "an action needs an integer seat")
    kinds = [k for k in obj if k != "seat"]
    if len(kinds) != 1 or kinds[0] not in KINDS:
        raise WhistError(BAD_ACTION, "an action needs exactly one of " + ", ".join(KINDS))
    kind = kinds[0]
    value = obj[kind]
    if kind == "play":
        return Play(seat, _card(value))
    if kind == "bottom":
        return Bottom(seat, _card(value))
    if kind == "bid":
        if not isinstance(value, str):
            raise WhistError(BAD_ACTION, "a bid is a string")
        return Bid(seat, value)
    if kind == "trump":
        try:
            return ChooseTrump(seat, parse_suit(value))
        except ValueError:
            raise WhistError(BAD_ACTION, "trump must be one of S, H, D, C") from None
    if kind == "take":
        if value not in ("keep", "discard"):
            raise WhistError(BAD_ACTION, 'take must be "keep" or "discard"')
        return Take(seat, value == "keep")
    if value is not True:
        raise WhistError(BAD_ACTION, "resign must be true")
    return Resign(seat)


def _card(value: Any) -> Card:
    if not isinstance(value, str):
        raise ValueError(f"not a card: {value!r}")
    return parse_card(value)
