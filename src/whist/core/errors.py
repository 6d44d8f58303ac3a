"""Errors as values with stable codes, shared by the core, the wire and the client."""

from __future__ import annotations

# The stable codes. Clients translate them; never rename one.
NOT_YOUR_TURN = "not_your_turn"
MUST_FOLLOW_SUIT = "must_follow_suit"
CARD_NOT_AVAILABLE = "card_not_available"
WRONG_PHASE = "wrong_phase"
ALREADY_DECIDED = "already_decided"
INVALID_BID = "invalid_bid"
INVALID_SEAT = "invalid_seat"
MATCH_OVER = "match_over"
DEAL_IN_PROGRESS = "deal_in_progress"
NO_DEAL_IN_PROGRESS = "no_deal_in_progress"
BAD_DEALER = "bad_dealer"
BAD_DECK = "bad_deck"
BAD_ACTION = "bad_action"
UNKNOWN_VARIANT = "unknown_variant"
UNKNOWN_OPTION = "unknown_option"
BAD_OPTION_VALUE = "bad_option_value"
UNAVAILABLE_VARIANT = "unavailable_variant"


class WhistError(Exception):
    """An action or request the rules refuse. The state it was tried on is unchanged."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"WhistError({self.code!r}, {self.message!r})"
