"""Ratings (issue 19, point 8): which matches are rated and how, and the bots' reference
ratings. The model and the storage are store/ratings.py's; server/leaderboard.py shows them.

The rules, decided here and in docs/protocol.md:

- A match is rated when it ends with a result, in the same transaction as its end (the
  actor's ``_end``): the two sides are the teams (one player each in a two-player variant,
  a partnership in a four-player one), the winning side ranks first, a draw ties them.
- A resigned match is rated as a loss for the side that resigned: a resignation is how a
  lost match ends early, not a way out of the rating.
- A human who leaves a match under way is rated then, as a loss for their side (in the
  same transaction as the leave): leaving may not dodge a loss. The match goes on with a bot
  in that seat and is rated at its end for the humans still seated; the leaver has had
  their rating for it. When the last human leaves, the match is abandoned: that leave is
  the last rating it makes.
- A human whose clock ran out and whose seat a bot took over is not rated for that match
  (a dropped connection is not a decision); nor are they given XP.
- A match where hints were shown (``TableState.hints_shown``, issue 20) is not rated.
- Bots are members of the teams with fixed reference ratings per level (``BOT_RATINGS``):
  never moved, so that the numbers keep one scale.
"""

from __future__ import annotations

from whist.bots import LEVELS
from whist.server.table import TableState
from whist.store.ratings import Fixed, Member, RatedMatch

# The bots' fixed ratings. MEDIUM sits at openskill's start (mu 25): a newcomer is first
# taken for as strong as the bots of a quickplay table. Each level up is a smaller step
# (5, 4, 3: MASTER is HARD plus search), so that the level above wins about two matches in
# three against the one below (Plackett-Luce with beta 25/6: 68 %, 65 %, 61 %), as the bot
# ladder (bench/ladder.py) finds each level beating the one below in every variant. Sigma
# 2 is about what a human settles at after some dozens of matches, so a bot's shown rating
# (mu - 3 sigma) compares with a seasoned player's.
BOT_RATINGS: dict[str, Fixed] = {
    "easy": Fixed(20.0, 2.0),
    "medium": Fixed(25.0, 2.0),
    "hard": Fixed(29.0, 2.0),
    "master": Fixed(32.0, 2.0),
}
assert set(BOT_RATINGS) == set(LEVELS), "every bot level has its reference rating"


def _teams(state: TableState) -> tuple[tuple[Member, ...], ...]:
    """The two sides as they sit now: seated humans by player id, bots by their level's
    reference rating."""
    sides: list[list[Member]] = [[], []]
    for seat, info in enumerate(state.seats):
        level = state.bot_level(seat)
        if level is not None:
            sides[seat % 2].append(BOT_RATINGS[level])
        elif info.player_id is not None:
            sides[seat % 2].append(info.player_id)
    return tuple(tuple(side) for side in sides)


def end_rating(state: TableState) -> RatedMatch | None:
    """What the match that just ended rates: every human still seated, by the result."""
    match = state.match
    if state.hints_shown or not state.humans():
        return None
    ranks = {None: (0, 0), 0: (0, 1), 1: (1, 0)}[match.winner]  # None: a draw, tied
    return RatedMatch(state.variant, _teams(state), ranks, tuple(state.humans()))


def leave_rating(state: TableState, seat: int) -> RatedMatch | None:
    """What a human leaving ``seat`` of a match under way rates: a loss for them alone."""
    player = state.seats[seat].player_id
    if state.hints_shown or player is None or state.status not in ("playing", "suspended"):
        return None
    ranks = (1, 0) if seat % 2 == 0 else (0, 1)
    return RatedMatch(state.variant, _teams(state), ranks, (player,))
