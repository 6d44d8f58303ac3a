"""A table's state, rebuilt from its log: seats, status and the match.

``TableState.apply(entry)`` is the only way it changes, both live (after the log
entry is committed) and when a table comes back after a stop (replaying every entry), so
the two can never disagree. Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, assert_never

from whist.core.match import Match
from whist.server.entries import (
    Acted,
    BotSeated,
    Dealt,
    Declined,
    Ended,
    Entry,
    HintsAllowed,
    HintShown,
    Joined,
    Rematched,
    Reserved,
    Resumed,
    SeatLost,
    Started,
    Suspended,
    entry_from_log,
)
from whist.variants import resolve

MESSAGE_IDS_KEPT = 256  # per player: a client re-sends only its last few unanswered acts


@dataclass
class Seat:
    player_id: int | None = None  # a human sits here
    nickname: str = ""
    bot: str | None = None  # a bot plays here (chosen by the host, or a takeover)
    replaced: bool = False  # a human left or ran out of time: a bot took over for good
    # When the human lost the seat: (deal index, actions of that deal taken so far). What the
    # seat saw up to then stays the player's; nothing after it is (``TableState.knows``).
    lost_at: tuple[int, int] | None = None
    reserved_for: int | None = None  # a rematch keeps this empty seat for this player

    @property
    def human(self) -> bool:
        return self.player_id is not None and not self.replaced

    @property
    def empty(self) -> bool:
        return self.player_id is None and self.bot is None


@dataclass
class TableState:
    table_id: str
    variant: str
    options: dict[str, Any]
    clock_seconds: float | None
    match: Match
    seats: list[Seat]
    status: str = "open"  # open | playing | suspended | finished | abandoned
    version: int = 0
    end_reason: str | None = None
    left: set[int] = field(default_factory=set)  # humans who left (no XP, no result)
    # The host allowed hints (issue 20): given only while one human is seated (hints_open).
    hints_allowed: bool = False
    # Hints were shown at this table (issue 20): its match is not rated (server/ratings.py).
    hints_shown: bool = False
    # player -> the message ids of its applied acts -> the version they made. From the log
    # (an action entry keeps its message id as "mid"), so that an act re-sent after a
    # reconnect is recognised by whichever process runs the table now, never applied twice.
    acked: dict[int, dict[str, int]] = field(default_factory=dict)
    rematch: Rematched | None = None  # a finished table's rematch, once made

    @classmethod
    def new(
        cls, table_id: str, variant: str, options: dict[str, Any], clock: float | None
    ) -> TableState:
        rules, resolved = resolve(variant, options)
        match = Match(rules, resolved)
        seats = [Seat() for _ in range(rules.players)]
        return cls(table_id, rules.key, resolved, clock, match, seats)

    # ------------------------------------------------------------------ queries
    def seat_of(self, player_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.player_id == player_id and not seat.replaced:
                return index
        return None

    def humans(self) -> list[int]:
        return [s.player_id for s in self.seats if s.human and s.player_id is not None]

    def bot_level(self, seat: int) -> str | None:
        info = self.seats[seat]
        return info.bot if (info.bot is not None and not info.human) else None

    def hints_open(self) -> bool:
        """Whether the one human seated may ask for hints now: the host allowed them and no
        other person plays at the table (the rest are bots), so that a hint helps nobody
        against another person."""
        return self.hints_allowed and len(self.humans()) == 1

    def full(self) -> bool:
        return all(not s.empty for s in self.seats)

    def open_to(self, player_id: int) -> list[int]:
        """The empty seats this player may take: free ones and the one kept for them."""
        return [
            index
            for index, seat in enumerate(self.seats)
            if seat.empty and seat.reserved_for in (None, player_id)
        ]

    def kept_for(self, player_id: int) -> int | None:
        """The empty seat a rematch keeps for this player, if any."""
        for index, seat in enumerate(self.seats):
            if seat.empty and seat.reserved_for == player_id:
                return index
        return None

    # ------------------------------------------------------------------ changes
    def apply(self, entry: Entry) -> None:
        """Adopt one committed log entry."""
        self.version += 1
        match entry:
            case Joined(seat, player, nickname):
                info = self.seats[seat]
                info.player_id, info.nickname = player, nickname
                info.bot, info.replaced, info.reserved_for = None, False, None
            case BotSeated(seat, bot):
                self.seats[seat].bot = bot
            case SeatLost(seat, why, bot):
                if self.status == "open":
                    self.seats[seat] = Seat()
                    return
                info = self.seats[seat]
                info.bot = bot
                info.replaced = True
                played = self.match
                info.lost_at = (len(played.deals) - 1, len(played.log[-1]) if played.log else 0)
                if info.player_id is not None and why == "leave":
                    self.left.add(info.player_id)
            case Reserved(seat, player, nickname):
                self.seats[seat] = Seat(nickname=nickname, reserved_for=player)
            case Declined(seat):
                self.seats[seat] = Seat()
            case Rematched():
                self.rematch = entry
            case Started() | Resumed():
                self.status = "playing"
            case Dealt(dealer, deck):
                self.match.start_deal(list(deck), dealer)
            case Acted(action, mid):
                self.match.apply(action)
                acting = self.seats[action.seat].player_id
                if mid is not None and acting is not None:
                    seen = self.acked.setdefault(acting, {})
                    seen[mid] = self.version
                    if len(seen) > MESSAGE_IDS_KEPT:
                        seen.pop(next(iter(seen)))
            case Suspended():
                self.status = "suspended"
            case HintsAllowed():
                self.hints_allowed = True
            case HintShown():
                self.hints_shown = True
            case Ended(reason):
                self.status = "abandoned" if reason == "abandoned" else "finished"
                self.end_reason = reason
            case _:
                assert_never(entry)  # mypy: every entry has its case

    def replay(self, log: Iterable[tuple[str, dict[str, Any]]]) -> None:
        """Adopt stored log entries, ``(kind, data)`` each."""
        for kind, data in log:
            self.apply(entry_from_log(kind, data))
