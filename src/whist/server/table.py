"""A table's state, rebuilt from its log: seats, status and the match.

``TableState.apply(kind, data)`` is the only way it changes, both live (after the log
entry is committed) and when a table comes back after a stop (replaying every entry), so
the two can never disagree. Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from whist.core.actions import action_from_json
from whist.core.cards import parse_card
from whist.core.match import Match
from whist.variants import resolve

BOT_LEVELS = ("easy", "medium", "hard", "master")
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
    # player -> the message ids of its applied acts -> the version they made. From the log
    # (an action entry keeps its message id as "mid"), so that an act re-sent after a
    # reconnect is recognised by whichever process runs the table now, never applied twice.
    acked: dict[int, dict[str, int]] = field(default_factory=dict)

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

    def full(self) -> bool:
        return all(not s.empty for s in self.seats)

    # ------------------------------------------------------------------ changes
    def apply(self, kind: str, data: dict[str, Any]) -> None:
        """Adopt one committed log entry."""
        self.version += 1
        if kind == "seat":
            seat = self.seats[data["seat"]]
            why = data["why"]
            if why == "join":
                seat.player_id = data["player"]
                seat.nickname = data.get("nickname", "")
                seat.bot = None
                seat.replaced = False
            elif why == "bot":
                seat.bot = data["bot"]
            elif why in ("leave", "timeout"):
                if self.status == "open":
                    self.seats[data["seat"]] = Seat()
                else:
                    seat.bot = data["bot"]
                    seat.replaced = True
                    match = self.match
                    seat.lost_at = (len(match.deals) - 1, len(match.log[-1]) if match.log else 0)
                    if seat.player_id is not None and why == "leave":
                        self.left.add(seat.player_id)
            else:
                raise ValueError(f"unknown seat change {why!r}")
        elif kind == "start":
            self.status = "playing"
        elif kind == "deal":
            deck = [parse_card(text) for text in data["deck"]]
            self.match.start_deal(deck, data["dealer"])
        elif kind == "action":
            mid = data.get("mid")
            if mid is not None:
                data = {key: value for key, value in data.items() if key != "mid"}
            self.match.apply(action_from_json(data))
            player = self.seats[data["seat"]].player_id
            if isinstance(mid, str) and player is not None:
                seen = self.acked.setdefault(player, {})
                seen[mid] = self.version
                if len(seen) > MESSAGE_IDS_KEPT:
                    seen.pop(next(iter(seen)))
        elif kind == "suspend":
            self.status = "suspended"
        elif kind == "resume":
            self.status = "playing"
        elif kind == "end":
            self.status = "abandoned" if data["reason"] == "abandoned" else "finished"
            self.end_reason = data["reason"]
        else:
            raise ValueError(f"unknown log entry {kind!r}")
