"""The compiled search: null-window alpha-beta over card plays, numba ``njit(cache=True)``.

Everything here works on ``int64`` bit masks (52 bits fit, and staying signed avoids numba's
``uint64``/``int64`` promotion to ``float64``).  The public, typed and checked entry point is
:func:`whist.solver.solve`; nothing here validates its input.

Search (after Haglund & Hein, "Search algorithms for a bridge double dummy solver"):

* The root side R is the side of the seat to act.  ``score`` counts the tricks R wants: its
  own tricks (``most``) or the other side's tricks (misère), so R always maximises ``score``
  and the other side minimises it; both objectives are zero-sum.
* ``_search(..., target)`` answers "can R reach ``score >= target`` from here?" (a null
  window), depth-first with an explicit stack (numba cannot cache self-recursive code).  The
  root first finds the position's value by bisection on such tests, then each card's value
  from there down (usually one test a card).
* At every trick start: trivial bounds (0..tricks left), sure-trick bounds (the leader's
  quick tricks with its partner's winners when no trumps are left, for most tricks; trumps
  that beat all of the other side's, both modes; in misère, the tricks a side cannot avoid
  when the other side helps it to them: this trick, or every trick when it holds only top
  cards), and a transposition table of lower/upper
  bounds on *relative ranks with winning ranks*: an entry fixes the suit lengths of every
  hand and the owners of the top cards of each suit only down to the lowest card whose rank
  decided a trick in the search below it, so it serves every position that differs just in
  cards already played or in small cards that never mattered.  Buckets of 32 entries are
  picked by the lengths and the leader (from 6 tricks left also by each suit's top owner).
  With blockers (two hands) the key is the exact cards instead.
* Cards of one hand adjacent in rank among the cards still in play are equivalent: only one
  of each run is searched (and a result covering every card then depends on its rank).
* Move ordering: the table's best lead, then per-seat heuristics (cash sure winners, lead to
  partner's winners or towards a ruff, win as cheaply as is safe, discard low; in misère lead
  cards the opponents must beat, duck under with the highest card, throw high cards).

``stats`` (for benchmarks and tuning): [0] nodes, [1] table probes, [2..5] cut-offs by
position in the trick and [6..9] the summed index of the cutting card, [10 + n] nodes with n
tricks left, [30] table cut-offs, [31..34] sure-trick cut-offs, [37..38] misère forced-trick
cut-offs at a trick start and [39] within a trick.

The functions the search runs are compiled with ``_nrt=False`` (numba's own switch, as in its
``register_jitable`` example): they allocate nothing, and without it every call that passes an
array pays an atomic reference-count increment and decrement, a third of the search's time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numba
import numpy as np

_F = TypeVar("_F", bound=Callable[..., Any])


def _njit_no_refcount(fn: _F) -> _F:
    """``numba.njit(cache=True)`` without reference counting, for code that allocates
    nothing (see the module docstring)."""
    return numba.njit(cache=True, _nrt=False)(fn)  # type: ignore[call-overload, no-any-return]


# Tables over 13-bit suit holdings.
_POP = np.zeros(8192, dtype=np.int64)
_HIGH = np.full(8192, -1, dtype=np.int64)  # index of the highest set bit, -1 for 0
for _v in range(1, 8192):
    _POP[_v] = _POP[_v >> 1] + (_v & 1)
    _HIGH[_v] = _v.bit_length() - 1
del _v

SUIT_BITS = 0x1FFF
_M1 = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64
_M2 = -4417276706812531889  # 0xC2B2AE3D27D4EB4F as int64
MAX_MOVES = 32  # per ply: hands hold at most 26 cards (two-hand games)
NO_TRUMP = -1


@numba.njit(cache=True)
def _suit_bits(mask: int, s: int) -> int:
    return (mask >> (13 * s)) & SUIT_BITS


@numba.njit(cache=True)
def _beats(c: int, best: int, trump: int) -> bool:
    sc = c // 13
    sb = best // 13
    if sc == sb:
        return c > best
    return sc == trump


@numba.njit(cache=True)
def _side(seat: int, players: int) -> int:
    if players == 4:
        return seat & 1
    return seat


@numba.njit(cache=True)
def _low_card(mask: int) -> int:
    """The lowest card of a non-empty mask."""
    for s in range(4):
        v = _suit_bits(mask, s)
        if v != 0:
            return 13 * s + int(_HIGH[v & -v])
    return -1


@_njit_no_refcount
def _blocked(hand: int, blk: np.ndarray, nblk: int) -> int:
    """Cards of ``hand`` that cannot be played yet (their up card is still in ``hand``)."""
    out = 0
    for i in range(nblk):
        d = blk[i, 0]
        u = blk[i, 1]
        if (hand >> d) & 1 and (hand >> u) & 1:
            out |= 1 << d
    return out


@_njit_no_refcount
def _involved(hand: int, blk: np.ndarray, nblk: int) -> int:
    """Cards of ``hand`` in a pending blocker pair: never merged into an equivalent sequence."""
    out = 0
    for i in range(nblk):
        d = blk[i, 0]
        u = blk[i, 1]
        if (hand >> d) & 1 and (hand >> u) & 1:
            out |= (1 << d) | (1 << u)
    return out


@_njit_no_refcount
def _legal(
    hands: np.ndarray, trick: np.ndarray, row: int, seat: int, pos: int, blk: np.ndarray, nblk: int
) -> int:
    """``trick[row]``: the cards of the current trick."""
    hand = hands[seat]
    if nblk > 0:
        hand &= ~_blocked(hand, blk, nblk)
    if pos > 0:
        led = trick[row, 0] // 13
        follow = hand & (SUIT_BITS << (13 * led))
        if follow != 0:
            return int(follow)
    return int(hand)


@numba.njit(cache=True)
def _representatives(legal: int, hand: int, rem: int, invol: int) -> int:
    """The lowest card of each run of ``legal`` cards that are adjacent among ``rem`` (cards
    in play) and held by this hand; cards in ``invol`` stand alone and break runs."""
    out = 0
    free = legal & ~invol
    out |= legal & invol
    for s in range(4):
        h = _suit_bits(free, s)
        if h == 0:
            continue
        r = _suit_bits(rem, s)
        hand_s = _suit_bits(hand, s) & ~_suit_bits(invol, s)
        x = h
        while x != 0:
            low = x & -x
            x ^= low
            below = r & (low - 1)
            # the lowest of its run: the next card in play below it is not ours (or none)
            if below == 0 or not (hand_s >> _HIGH[below]) & 1:
                out |= low << (13 * s)
    return out


@numba.njit(cache=True)
def _merged(reps: int, free: int, rem: int) -> int:
    """The representatives that stand for more than one card (the next card in play above
    them is in the same run).  Their equivalence holds only while the cards from them up
    are placed as now, so a result that covers every card must depend on their ranks."""
    out = 0
    for s in range(4):
        rs = _suit_bits(reps, s)
        if rs == 0:
            continue
        r = _suit_bits(rem, s)
        f = _suit_bits(free, s)
        while rs != 0:
            low = rs & -rs
            rs ^= low
            above = r & ~((low << 1) - 1)
            if above != 0 and f & (above & -above):
                out |= low << (13 * s)
    return out


@numba.njit(cache=True)
def _cover_merged(w: int, merged: int, hand: int, rem: int) -> int:
    """Extend the winning ranks ``w`` of a result that covers every card: a representative
    whose run reaches the lowest winning rank of its suit joins ``w``, so that the run is a
    run in every position the table entry will match."""
    for s in range(4):
        ms = _suit_bits(merged, s)
        ws = _suit_bits(w, s)
        if ms == 0 or ws == 0:
            continue  # no winning rank in the suit: all its cards are interchangeable
        thr = _HIGH[ws & -ws]
        r = _suit_bits(rem, s)
        h = _suit_bits(hand, s)
        while ms != 0:
            b = _HIGH[ms]  # highest remaining representative
            ms ^= 1 << b
            top = b
            above = r >> (top + 1)
            while above != 0 and (h >> (top + 1 + _HIGH[above & -above])) & 1:
                top = top + 1 + _HIGH[above & -above]
                above = r >> (top + 1)
            if top >= thr and b < thr:
                thr = b
                w |= 1 << (13 * s + b)
    return w


@_njit_no_refcount
def _shape(hands: np.ndarray, players: int) -> int:
    """Suit lengths of every hand, 4 bits each: the part of a table key that is exact."""
    out = 0
    for h in range(players):
        for s in range(4):
            out |= _POP[_suit_bits(hands[h], s)] << (16 * h + 4 * s)
    return out


@_njit_no_refcount
def _owners(hands: np.ndarray, players: int, s: int) -> int:
    """Owners (2 bits each) of the cards of suit ``s`` in play, highest card first (in the
    most significant place)."""
    h1 = _suit_bits(hands[1], s)
    h2 = _suit_bits(hands[2], s) if players == 4 else 0
    h3 = _suit_bits(hands[3], s) if players == 4 else 0
    rem = _suit_bits(hands[0], s) | h1 | h2 | h3
    code = 0
    while rem != 0:
        b = _HIGH[rem]
        rem ^= 1 << b
        code = (code << 2) | ((h1 >> b) & 1) | (((h2 >> b) & 1) << 1) | (((h3 >> b) & 1) * 3)
    return code


@numba.njit(cache=True)
def _depth_of(w: int, rem: int, s: int) -> int:
    """How many top cards of suit ``s`` in play are at or above the lowest card of ``w``."""
    ws = _suit_bits(w, s)
    if ws == 0:
        return 0
    return int(_POP[_suit_bits(rem, s) >> _HIGH[ws & -ws]])


@numba.njit(cache=True)
def _nth_card(rem: int, s: int, k: int) -> int:
    """The ``k``-th highest card (1-based) of suit ``s`` in play, as a one-bit mask."""
    sm = _suit_bits(rem, s)
    while k > 1:
        sm ^= 1 << _HIGH[sm]
        k -= 1
    return 1 << (13 * s + int(_HIGH[sm]))


@numba.njit(cache=True)
def _top_run(mine: int, rem: int) -> int:
    """How many of the top cards of ``rem`` (one suit) in a row are in ``mine``."""
    others = rem & ~mine
    if others == 0:
        return int(_POP[mine])
    return int(_POP[mine >> (_HIGH[others] + 1)])


@_njit_no_refcount
def _sure_trumps(
    hands: np.ndarray, players: int, trump: int, rem: int, side: int
) -> tuple[int, int]:
    """Tricks ``side`` cannot fail to take: each trump of one of its hands that beats every
    trump of the other side wins the trick it is played to (and every card gets played);
    and the cards that bound depends on."""
    if trump < 0:
        return 0, 0
    theirs = 0
    for h in range(players):
        if _side(h, players) != side:
            theirs |= _suit_bits(hands[h], trump)
    above = 0 if theirs == 0 else _HIGH[theirs] + 1
    best = 0
    for h in range(players):
        if _side(h, players) == side:
            k = _POP[_suit_bits(hands[h], trump) >> above]
            if k > best:
                best = k
    if best == 0 or theirs == 0:
        return best, 0  # without their trumps, only lengths count
    # the lowest counted trump: the best hand's trumps from it up are matched exactly
    return best, _nth_card(rem, trump, _POP[_suit_bits(rem, trump) >> above])


@_njit_no_refcount
def _quick_tricks(
    hands: np.ndarray, players: int, trump: int, rem: int, leader: int
) -> tuple[int, int]:
    """Tricks the leader can cash at once from the top (a sound lower bound for its side),
    and the cards that count depends on (the lowest winner counted in each suit)."""
    hand = hands[leader]
    ls = _side(leader, players)
    opp_trumps = 0
    max_opp_trumps = 0
    if trump >= 0:
        for h in range(players):
            if _side(h, players) != ls:
                t = _POP[_suit_bits(hands[h], trump)]
                if t > 0:
                    opp_trumps += 1
                    if t > max_opp_trumps:
                        max_opp_trumps = t
    total = 0
    w = 0
    ktrump = 0
    if trump >= 0:
        ktrump = _top_run(_suit_bits(hand, trump), _suit_bits(rem, trump))
        if ktrump > 0:
            total = ktrump
            w |= _nth_card(rem, trump, ktrump)
    drawn = ktrump >= max_opp_trumps  # cashing the top trumps leaves the opponents none
    for s in range(4):
        if s == trump:
            continue
        mine = _suit_bits(hand, s)
        if mine == 0:
            continue
        k = _top_run(mine, _suit_bits(rem, s))
        if k == 0:
            continue
        if trump >= 0 and opp_trumps > 0 and not drawn:
            for h in range(players):
                if _side(h, players) != ls and _suit_bits(hands[h], trump) != 0:
                    ln = _POP[_suit_bits(hands[h], s)]
                    if ln < k:
                        k = ln
        if k > 0:
            total += k
            w |= _nth_card(rem, s, k)
    if players == 4 and (trump < 0 or _suit_bits(rem, trump) == 0):
        # No trumps in play: after the leader's winners, a low card to the partner's top
        # card, whose winners then all cash too.  The partner keeps its winners through
        # the leader's run if it has enough other cards to follow or throw.
        partner = hands[(leader + 2) % 4]
        runs = 0
        wp = 0
        entry = False
        for s in range(4):
            k = _top_run(_suit_bits(partner, s), _suit_bits(rem, s))
            if k > 0:
                runs += k
                wp |= _nth_card(rem, s, k)
                if _suit_bits(hand, s) != 0:
                    entry = True
        if (
            entry
            and _POP[_suit_bits(partner, 0)]
            + _POP[_suit_bits(partner, 1)]
            + _POP[_suit_bits(partner, 2)]
            + _POP[_suit_bits(partner, 3)]
            - runs
            >= total
        ):
            total += runs
            w |= wp
    return total, w


@numba.njit(cache=True)
def _only_trumps(hand: int, trump: int) -> bool:
    """Does ``hand`` (not empty) hold nothing but trumps?"""
    return trump >= 0 and (hand & ~(SUIT_BITS << (13 * trump))) == 0


@_njit_no_refcount
def _forced(
    hands: np.ndarray, players: int, trump: int, leader: int, side: int, left: int
) -> tuple[int, int]:
    """Misère, at a trick start: tricks ``side`` (X) takes however it plays, when the other
    side (Y) plays to make it take them; and the cards that count depends on.  Both sides
    want to lose tricks, so this is a lower bound on X's tricks.  Returns ``left`` when X
    takes every trick, 1 when Y can make X take this trick, else 0.

    * X leads and every card of the leader L beats all of Y's cards of its suit: whatever
      L leads wins unless a Y hand ruffs, and a Y hand void in the suit throws a non-trump
      if it has one.  If moreover Y holds no trumps and L's partner P can never win a trick
      (its cards of L's suits are all below L's, and it holds no trump to ruff with) or
      holds only such top cards itself, X keeps the lead and wins every trick.
    * Y leads: with X holding only top cards in every suit and Y no trumps, a lead of a
      suit X holds wins X this trick and then every other (X leads a top card each time).
      Else the leader's lowest card of a suit, its partner's lowest (or a throw), below
      every card of that suit of one X hand, makes that hand win the trick.
    The winning ranks: the lowest card of each counted holding, so that a table entry fixes
    the owners of every card from it up.
    Blockers change what may be played: callers skip this with blockers."""
    ts = trump >= 0
    if players == 4:
        y1 = hands[(leader + 1) % 4]
        y2 = hands[(leader + 3) % 4]
        other = hands[(leader + 2) % 4]
    else:
        y1 = hands[1 - leader]
        y2 = 0
        other = 0
    lead = hands[leader]
    if _side(leader, players) == side:
        # X leads: L = lead, P = other, Y = y1, y2
        ys_all = y1 | y2
        w = 0
        for s in range(4):
            ls_ = _suit_bits(lead, s)
            if ls_ == 0:
                continue
            low = _HIGH[ls_ & -ls_]
            if (_suit_bits(ys_all, s) >> low) != 0:
                return 0, 0
            if ts and s != trump:
                if _suit_bits(y1, s) == 0 and _only_trumps(y1, trump):
                    return 0, 0
                if y2 != 0 and _suit_bits(y2, s) == 0 and _only_trumps(y2, trump):
                    return 0, 0
            w |= 1 << (13 * s + low)
        if ts and _suit_bits(ys_all, trump) != 0:
            return 1, w
        if other == 0:
            return left, w
        # P: no card above L's lowest of a suit L holds, and nothing to ruff with ...
        blocked = not ts or _suit_bits(other, trump) == 0
        if blocked:
            for s in range(4):
                ls_ = _suit_bits(lead, s)
                if ls_ != 0 and (_suit_bits(other, s) >> _HIGH[ls_ & -ls_]) != 0:
                    blocked = False
                    break
        if blocked:
            return left, w
        # ... or only top cards itself
        wp = 0
        for s in range(4):
            ps = _suit_bits(other, s)
            if ps == 0:
                continue
            low = _HIGH[ps & -ps]
            if (_suit_bits(ys_all, s) >> low) != 0:
                return 1, w
            wp |= 1 << (13 * s + low)
        return left, w | wp
    # Y leads: lead and other are Y's, y1 and y2 are X's hands
    xs_all = y1 | y2
    ys_all = lead | other
    if not ts or _suit_bits(ys_all, trump) == 0:
        dom = True
        can = False  # a suit of the leader's that X must follow
        wd = 0
        for s in range(4):
            xs = _suit_bits(xs_all, s)
            if xs == 0:
                continue
            if _suit_bits(lead, s) != 0:
                can = True
            low = _HIGH[xs & -xs]
            if (_suit_bits(ys_all, s) >> low) != 0:
                dom = False
                break
            wd |= 1 << (13 * s + low)
        if dom and can:
            return left, wd
    for s in range(4):
        ls_ = _suit_bits(lead, s)
        if ls_ == 0:
            continue
        m = _HIGH[ls_ & -ls_]
        if players == 4:
            os_ = _suit_bits(other, s)
            if os_ != 0:
                lo = _HIGH[os_ & -os_]
                if lo > m:
                    m = lo
            elif ts and s != trump and _only_trumps(other, trump):
                continue
        for x in (y1, y2):
            xs = _suit_bits(x, s)
            if xs != 0 and _HIGH[xs & -xs] > m:
                return 1, 1 << (13 * s + _HIGH[xs & -xs])
    return 0, 0


@_njit_no_refcount
def _holds(
    c: int, hands: np.ndarray, players: int, trump: int, seat: int, led: int, after: int
) -> bool:
    """Does card ``c`` (now winning the trick) beat whatever the ``after`` opponents of
    ``seat`` still to play can put on it?"""
    side = _side(seat, players)
    cs = c // 13
    for j in range(1, after + 1):
        o = (seat + j) % players
        if _side(o, players) == side:
            continue
        follow = _suit_bits(hands[o], led)
        if follow != 0:
            if cs == led and (follow >> (c % 13 + 1)) != 0:
                return False
        elif trump >= 0:
            tr = _suit_bits(hands[o], trump)
            if tr != 0 and (cs != trump or (tr >> (c % 13 + 1)) != 0):
                return False
    return True


@_njit_no_refcount
def _order(
    cands: int,
    hands: np.ndarray,
    trick: np.ndarray,
    row: int,
    players: int,
    trump: int,
    misere: bool,
    seat: int,
    pos: int,
    rem: int,
    best_card: int,
    out: np.ndarray,
    ply: int,
) -> int:
    """Write the candidate cards of ``seat`` to ``out[ply, :n]`` best first (their sort keys
    go to ``out[ply, MAX_MOVES:]``); return ``n``."""
    n = 0
    side = _side(seat, players)
    wbest = 0
    led = -1
    wcard = -1
    partner_wins = False
    if pos > 0:
        led = trick[row, 0] // 13
        for i in range(1, pos):
            if _beats(trick[row, i], trick[row, wbest], trump):
                wbest = i
        wcard = trick[row, wbest]
        if players == 4:
            partner_wins = _side((seat - pos + wbest) % 4, 4) == side
    for s in range(4):
        sv = _suit_bits(cands, s)
        rs = _suit_bits(rem, s)
        while sv != 0:
            r = _HIGH[sv]
            sv ^= 1 << r
            c = 13 * s + r
            if c == best_card:
                key = 10000
            elif pos == 0:
                above = rs >> (r + 1)
                if not misere:
                    if above == 0:
                        if _holds(c, hands, players, trump, seat, s, players - 1):
                            key = 300 + r  # a winner: cash it
                        else:
                            key = 150 - r  # a top card they can ruff
                    elif players == 4 and (
                        (_suit_bits(hands[(seat + 2) % 4], s) >> (_HIGH[above] + r + 1)) & 1
                    ):
                        top = 13 * s + _HIGH[above] + r + 1
                        # partner holds the top card: lead low to it (unless ruffed)
                        key = 250 - r if _holds(top, hands, players, trump, seat, s, 3) else 120 - r
                    else:
                        key = 100 - r
                        if trump >= 0 and s != trump and players == 4:
                            pt = hands[(seat + 2) % 4]
                            if _suit_bits(pt, s) == 0 and _suit_bits(pt, trump) != 0:
                                key = 220 - r  # partner ruffs
                else:
                    # misère lead: a card the opponents must beat; few of their cards of
                    # the suit below it, and they must not be void (free to discard)
                    below = (1 << r) - 1
                    lower = 0
                    higher = 0
                    top_opp = 0
                    for h in range(players):
                        if _side(h, players) != side:
                            hs = _suit_bits(hands[h], s)
                            lower += _POP[hs & below]
                            if hs >> (r + 1):
                                higher += 1
                            top_opp |= hs
                    key = 300 - 12 * lower - 4 * r + 200 * higher  # first: hands above it
                    if higher == 0:
                        key -= 150
                    elif players == 4:
                        ps = _suit_bits(hands[(seat + 2) % 4], s)
                        if ps != 0 and (ps & -ps) > top_opp:
                            key -= 100  # partner would have to overtake them
            else:
                wins = _beats(c, wcard, trump)
                if not misere:
                    after = players - 1 - pos
                    if partner_wins:
                        if after == 0 or _holds(wcard, hands, players, trump, seat, led, after):
                            key = 50 - r if wins else 300 - r  # partner has it: play low
                        elif wins and _holds(c, hands, players, trump, seat, led, after):
                            key = 350 - r  # make sure of the trick, cheaply
                        else:
                            key = 100 - r if wins else 250 - r
                    elif wins:
                        if after == 0 or _holds(c, hands, players, trump, seat, led, after):
                            key = 400 - r  # a sure winner, as cheap as possible
                        else:
                            key = 300 - r  # force out their higher cards
                    else:
                        key = 250 - r
                elif not wins or (partner_wins and pos == players - 1):
                    key = 300 + r  # duck with the highest card that still ducks
                    if s != led and (rs >> (r + 1)) == 0:
                        key += 20  # throw a card that would win its own suit
                else:
                    key = 100 + r  # a trick we must take: the highest card goes
            # insertion sort, descending by key
            j = n
            while j > 0 and out[ply, MAX_MOVES + j - 1] < key:
                out[ply, MAX_MOVES + j] = out[ply, MAX_MOVES + j - 1]
                out[ply, j] = out[ply, j - 1]
                j -= 1
            out[ply, MAX_MOVES + j] = key
            out[ply, j] = c
            n += 1
    return n


# Fields of a search frame (one row of ``frames`` per depth).
(F_LEADER, F_POS, F_LEFT, F_TARGET, F_SEAT, F_MAX, F_CNT, F_IDX, F_SLOT, F_W, F_TW, F_MERGED) = (
    range(12)
)
N_FIELDS = 12
MAX_DEPTH = 64
ROOT_ROW = MAX_DEPTH - 1  # row of ``moves`` that holds the root's cards
ENTER, ADVANCE, CHILD_DONE, RETURN = range(4)

# The transposition table: ``tt[bucket, field, way]``.  An entry holds a bound on the score
# from a trick's start, valid for every position with the same leader and suit lengths in
# every hand (E_SHAPE) whose top ``depth[s]`` cards of each suit s have the same owners
# (E_TOP01, E_TOP23): the cards below those "winning ranks" never decided a trick in the
# search that proved the bound (Haglund & Hein's winning-rank table, on relative ranks).
E_SHAPE, E_INFO, E_TOP01, E_TOP23, E_BEST = range(5)
TT_FIELDS = 5
TT_WAYS = 32
DEEP = 6  # from this many tricks left
MIN_DEPTH = 1  # every entry fixes the owners of at least this many top cards of each suit
ABSOLUTE_DEPTHS = 0xFFFF
# E_INFO bits: lo 0-4, hi 5-9, leader 10-11, depths 12-27 (4 bits a suit), left 28-32,
# generation 33-62.


@numba.njit(cache=True)
def _bucket(shape: int, leader: int, sig: int, nbuckets: int) -> int:
    h = (shape ^ (leader << 62)) * _M1
    h ^= h >> 29
    h ^= sig * _M2
    h ^= h >> 32
    h *= _M1
    h ^= h >> 29
    return h & (nbuckets - 1)


@_njit_no_refcount
def _signature(hands: np.ndarray, players: int, rem: int, left: int) -> int:
    """Owners of the top MIN_DEPTH cards of each suit: every entry is that exact at least,
    so they can pick the bucket (the shape alone crowds too many positions into one)."""
    sig = 0
    if left < DEEP:
        return sig
    for s in range(4):
        n = _POP[_suit_bits(rem, s)]
        k = MIN_DEPTH if n > MIN_DEPTH else n
        sig = (sig << 8) | ((_owners(hands, players, s) >> (2 * (n - k))) << 4) | k
    return sig


@_njit_no_refcount
def _tops(hands: np.ndarray, players: int, rem: int, depths: int) -> tuple[int, int]:
    """The owners of the top ``depth[s]`` cards of each suit, packed 26 bits a suit."""
    t01 = 0
    t23 = 0
    for s in range(4):
        k = (depths >> (4 * s)) & 0xF
        if k == 0:
            continue
        code = _owners(hands, players, s) >> (2 * (_POP[_suit_bits(rem, s)] - k))
        if s < 2:
            t01 |= code << (26 * s)
        else:
            t23 |= code << (26 * (s - 2))
    return t01, t23


@numba.njit(cache=True)
def _depths(w: int, rem: int, left: int) -> int:
    out = 0
    for s in range(4):
        k = _depth_of(w, rem, s)
        n = _POP[_suit_bits(rem, s)]
        floor = 0 if left < DEEP else MIN_DEPTH if n > MIN_DEPTH else n
        out |= (k if k > floor else floor) << (4 * s)
    return out


@numba.njit(cache=True)
def _depth_cards(depths: int, rem: int) -> int:
    """The winning-rank cards of the current position for a stored entry's depths."""
    w = 0
    for s in range(4):
        k = (depths >> (4 * s)) & 0xF
        if k > 0:
            w |= _nth_card(rem, s, k)
    return w


@_njit_no_refcount
def _store(
    tt: np.ndarray,
    hands: np.ndarray,
    players: int,
    absolute: bool,
    leader: int,
    gen: int,
    left: int,
    target: int,
    result: bool,
    w: int,
    chosen: int,
) -> None:
    """Record "score >= target" (``result``) or "score < target" for the trick-start
    position in ``hands``, valid down to the winning ranks ``w``."""
    rem = 0
    for h in range(players):
        rem |= hands[h]
    if absolute:
        shape = hands[0]
        depths = ABSOLUTE_DEPTHS
        t01 = hands[1]
        t23 = 0
    else:
        shape = _shape(hands, players)
        depths = _depths(w, rem, left)
        t01, t23 = _tops(hands, players, rem, depths)
    b = _bucket(
        shape, leader, t01 if absolute else _signature(hands, players, rem, left), tt.shape[0]
    )
    victim = -1
    victim_left = 99
    for e in range(TT_WAYS):
        info = tt[b, E_INFO, e]
        if (info >> 33) != gen:
            # a bucket fills from the front within a search: the rest is free too
            victim = e
            break
        if (
            tt[b, E_SHAPE, e] == shape
            and ((info >> 10) & 3) == leader
            and ((info >> 12) & 0xFFFF) == depths
            and tt[b, E_TOP01, e] == t01
            and tt[b, E_TOP23, e] == t23
        ):
            victim = e
            break
        eleft = (info >> 28) & 0x1F
        if eleft < victim_left:
            victim = e
            victim_left = eleft
    info = tt[b, E_INFO, victim]
    if (
        (info >> 33) == gen
        and tt[b, E_SHAPE, victim] == shape
        and ((info >> 10) & 3) == leader
        and ((info >> 12) & 0xFFFF) == depths
        and tt[b, E_TOP01, victim] == t01
        and tt[b, E_TOP23, victim] == t23
    ):
        lo = info & 0x1F
        hi = (info >> 5) & 0x1F
    else:
        lo = 0
        hi = left
        tt[b, E_BEST, victim] = -1
    if result:
        if target > lo:
            lo = target
    elif target - 1 < hi:
        hi = target - 1
    if chosen >= 0:
        # the best lead as (suit, how many cards in play are above it)
        s = chosen // 13
        tt[b, E_BEST, victim] = (s << 4) | _POP[_suit_bits(rem, s) >> (chosen % 13 + 1)]
    tt[b, E_SHAPE, victim] = shape
    tt[b, E_TOP01, victim] = t01
    tt[b, E_TOP23, victim] = t23
    tt[b, E_INFO, victim] = (
        lo | (hi << 5) | (leader << 10) | (depths << 12) | (left << 28) | (gen << 33)
    )


@_njit_no_refcount
def _search(
    hands: np.ndarray,
    trick: np.ndarray,
    blk: np.ndarray,
    nblk: int,
    tt: np.ndarray,
    moves: np.ndarray,
    frames: np.ndarray,
    stats: np.ndarray,
    players: int,
    trump: int,
    misere: bool,
    root_side: int,
    gen: int,
    use_tt: bool,
    absolute: bool,
    leader0: int,
    pos0: int,
    left0: int,
    target0: int,
    only: int,
) -> bool:
    """Can the root side reach ``score >= target0`` over the ``left0`` tricks from here (the
    current trick, ``trick[left0]``, has ``pos0`` cards), when the seat to act plays
    ``only`` (or any card if ``only < 0``)?

    Depth-first search with an explicit stack (``frames``, ``moves`` rows by depth): numba
    cannot cache self-recursive functions.  Every node also returns ``wres``, the cards
    whose ranks the result depends on (winning ranks)."""
    nbuckets = tt.shape[0]
    d = 0
    frames[0, F_LEADER] = leader0
    frames[0, F_POS] = pos0
    frames[0, F_LEFT] = left0
    frames[0, F_TARGET] = target0
    state = ENTER
    result = False
    wres = 0
    while True:
        if state == ENTER:
            leader = frames[d, F_LEADER]
            pos = frames[d, F_POS]
            left = frames[d, F_LEFT]
            target = frames[d, F_TARGET]
            frames[d, F_SLOT] = -1
            frames[d, F_W] = 0
            frames[d, F_MERGED] = 0
            state = RETURN
            wres = 0
            if target <= 0:
                result = True
                continue
            if target > left:
                result = False
                continue
            stats[0] += 1
            stats[10 + left] += 1
            seat = (leader + pos) % players
            frames[d, F_SEAT] = seat
            maxing = _side(seat, players) == root_side
            frames[d, F_MAX] = 1 if maxing else 0
            rem = 0
            for h in range(players):
                rem |= hands[h]
            table = 0
            for i in range(pos):
                table |= 1 << trick[left, i]
            best_card = -1
            if d == 0 and only >= 0:
                moves[0, 0] = only
                frames[0, F_CNT] = 1
                frames[0, F_IDX] = 0
                state = ADVANCE
                continue
            if misere and pos > 0 and (target == 1 or target == left):
                # Misère, a trick under way, and one more trick for one side decides: the
                # side now winning it (Z) takes it if every hand of the other side still to
                # play can put on a card that does not beat the winning card (and the other
                # side wants Z to take tricks, so it will).
                wbest = 0
                for i in range(1, pos):
                    if _beats(trick[left, i], trick[left, wbest], trump):
                        wbest = i
                wc = trick[left, wbest]
                zs = _side((leader + wbest) % players, players)
                if (zs == root_side) == (target == left):
                    ws = wc // 13
                    beaters = (SUIT_BITS << (13 * ws)) & ~((2 << wc) - 1)
                    if trump >= 0 and ws != trump:
                        beaters |= SUIT_BITS << (13 * trump)
                    ducks = True
                    for j in range(pos, players):
                        sj = (leader + j) % players
                        if (
                            _side(sj, players) != zs
                            and (_legal(hands, trick, left, sj, j, blk, nblk) & ~beaters) == 0
                        ):
                            ducks = False
                            break
                    if ducks:
                        stats[39] += 1
                        result = zs != root_side
                        wres = 1 << wc  # the followers' cards below it: its rank counts
                        continue
            if pos == 0:
                ls = _side(leader, players)
                if nblk == 0 and not misere:
                    q, wq = _quick_tricks(hands, players, trump, rem, leader)
                    if ls == root_side:
                        if q >= target:
                            stats[31] += 1
                            result = True
                            wres = wq
                            continue
                    elif left - q < target:
                        stats[32] += 1
                        result = False
                        wres = wq
                        continue
                if trump >= 0:
                    # Top trumps are taken by their side whatever it wants.
                    sure_r, w_r = _sure_trumps(hands, players, trump, rem, root_side)
                    sure_o, w_o = _sure_trumps(hands, players, trump, rem, 1 - root_side)
                    if misere:
                        sure_r, sure_o = sure_o, sure_r
                        w_r, w_o = w_o, w_r
                    if sure_r >= target:
                        stats[33] += 1
                        result = True
                        wres = w_r
                        continue
                    if left - sure_o < target:
                        stats[34] += 1
                        result = False
                        wres = w_o
                        continue
                if misere and nblk == 0:
                    # Tricks a side cannot avoid when the other side helps it to them.
                    f_o, wf_o = _forced(hands, players, trump, leader, 1 - root_side, left)
                    if f_o >= target:
                        stats[37] += 1
                        result = True
                        wres = wf_o
                        continue
                    f_r, wf_r = _forced(hands, players, trump, leader, root_side, left)
                    if left - f_r < target:
                        stats[38] += 1
                        result = False
                        wres = wf_r
                        continue
                if use_tt:
                    stats[1] += 1
                    shape = hands[0] if absolute else _shape(hands, players)
                    b = _bucket(
                        shape,
                        leader,
                        hands[1] if absolute else _signature(hands, players, rem, left),
                        nbuckets,
                    )
                    frames[d, F_SLOT] = b
                    o0 = -1
                    o1 = -1
                    o2 = -1
                    o3 = -1
                    cut = False
                    for e in range(TT_WAYS):
                        info = tt[b, E_INFO, e]
                        if (info >> 33) != gen:
                            break  # the bucket's used entries come first
                        if tt[b, E_SHAPE, e] != shape or ((info >> 10) & 3) != leader:
                            continue
                        depths = (info >> 12) & 0xFFFF
                        if absolute:
                            if tt[b, E_TOP01, e] != hands[1]:
                                continue
                        else:
                            # compare the owners of the top cards, suit by suit
                            ok = True
                            for s in range(4):
                                k = (depths >> (4 * s)) & 0xF
                                if k == 0:
                                    continue
                                if s == 0:
                                    if o0 < 0:
                                        o0 = _owners(hands, players, 0)
                                    cur = o0
                                elif s == 1:
                                    if o1 < 0:
                                        o1 = _owners(hands, players, 1)
                                    cur = o1
                                elif s == 2:
                                    if o2 < 0:
                                        o2 = _owners(hands, players, 2)
                                    cur = o2
                                else:
                                    if o3 < 0:
                                        o3 = _owners(hands, players, 3)
                                    cur = o3
                                cur >>= 2 * (_POP[_suit_bits(rem, s)] - k)
                                word = tt[b, E_TOP01, e] if s < 2 else tt[b, E_TOP23, e]
                                if cur != ((word >> (26 * (s & 1))) & 0x3FFFFFF):
                                    ok = False
                                    break
                            if not ok:
                                continue
                        if (info & 0x1F) >= target:
                            result = True
                            cut = True
                        elif ((info >> 5) & 0x1F) < target:
                            result = False
                            cut = True
                        if cut:
                            stats[30] += 1
                            if not absolute:
                                wres = _depth_cards(depths, rem)
                            break
                        bc = tt[b, E_BEST, e]
                        if bc >= 0 and best_card < 0:
                            s = bc >> 4
                            sm = _suit_bits(rem, s)
                            for _ in range(bc & 0xF):
                                sm ^= 1 << _HIGH[sm]
                            best_card = 13 * s + _HIGH[sm]
                    if cut:
                        continue
            hand = hands[seat]
            legal = _legal(hands, trick, left, seat, pos, blk, nblk)
            invol = _involved(hand, blk, nblk) if nblk > 0 else 0
            cands = _representatives(legal, hand, rem | table, invol)
            frames[d, F_MERGED] = _merged(cands, legal & ~invol, rem | table)
            frames[d, F_CNT] = _order(
                cands,
                hands,
                trick,
                left,
                players,
                trump,
                misere,
                seat,
                pos,
                rem | table,
                best_card,
                moves,
                d,
            )
            frames[d, F_IDX] = 0
            state = ADVANCE
        elif state == ADVANCE:
            i = frames[d, F_IDX]
            if i >= frames[d, F_CNT]:
                # every card tried, none reached the node's goal
                result = frames[d, F_MAX] == 0
                wres = frames[d, F_W]  # every card's line counts
                if frames[d, F_MERGED] != 0:
                    pos = frames[d, F_POS]
                    left = frames[d, F_LEFT]
                    inplay = 0
                    for h in range(players):
                        inplay |= hands[h]
                    for j in range(pos):
                        inplay |= 1 << trick[left, j]
                    wres = _cover_merged(
                        wres, frames[d, F_MERGED], hands[frames[d, F_SEAT]], inplay
                    )
                if frames[d, F_SLOT] >= 0:
                    _store(
                        tt,
                        hands,
                        players,
                        absolute,
                        frames[d, F_LEADER],
                        gen,
                        frames[d, F_LEFT],
                        frames[d, F_TARGET],
                        result,
                        wres,
                        -1,
                    )
                state = RETURN
                continue
            c = moves[d, i]
            frames[d, F_TW] = 0
            seat = frames[d, F_SEAT]
            leader = frames[d, F_LEADER]
            pos = frames[d, F_POS]
            left = frames[d, F_LEFT]
            target = frames[d, F_TARGET]
            hands[seat] ^= 1 << c
            trick[left, pos] = c
            if pos + 1 == players:
                wbest = 0
                for j in range(1, players):
                    if _beats(trick[left, j], trick[left, wbest], trump):
                        wbest = j
                wc = trick[left, wbest]
                # the winner's rank matters if it beat a card of its own suit
                frames[d, F_TW] = 0
                for j in range(players):
                    if j != wbest and trick[left, j] // 13 == wc // 13:
                        frames[d, F_TW] = 1 << wc
                w = (leader + wbest) % players
                delta = 1 if (_side(w, players) == root_side) != misere else 0
                if left == 1:
                    result = delta >= target
                    wres = 0
                    state = CHILD_DONE
                    continue
                frames[d + 1, F_LEADER] = w
                frames[d + 1, F_POS] = 0
                frames[d + 1, F_LEFT] = left - 1
                frames[d + 1, F_TARGET] = target - delta
            else:
                frames[d + 1, F_LEADER] = leader
                frames[d + 1, F_POS] = pos + 1
                frames[d + 1, F_LEFT] = left
                frames[d + 1, F_TARGET] = target
            d += 1
            state = ENTER
        elif state == CHILD_DONE:
            # the card moves[d, idx] led to ``result`` with winning ranks ``wres``
            c = moves[d, frames[d, F_IDX]]
            hands[frames[d, F_SEAT]] ^= 1 << c
            if result == (frames[d, F_MAX] == 1):
                # one card suffices: the node's result rests on this line alone
                wres |= frames[d, F_TW]
                stats[2 + frames[d, F_POS]] += 1
                stats[6 + frames[d, F_POS]] += frames[d, F_IDX]
                if frames[d, F_SLOT] >= 0:
                    _store(
                        tt,
                        hands,
                        players,
                        absolute,
                        frames[d, F_LEADER],
                        gen,
                        frames[d, F_LEFT],
                        frames[d, F_TARGET],
                        result,
                        wres,
                        c,
                    )
                state = RETURN
            else:
                frames[d, F_W] |= wres | frames[d, F_TW]
                frames[d, F_IDX] += 1
                state = ADVANCE
        else:  # RETURN: node d is done with ``result`` and ``wres``
            if d == 0:
                return result
            d -= 1
            state = CHILD_DONE


@numba.njit(cache=True)
def solve_kernel(
    hands_in: np.ndarray,
    trick_in: np.ndarray,
    ntrick: int,
    players: int,
    trump: int,
    leader: int,
    misere: bool,
    blk: np.ndarray,
    nblk: int,
    tt: np.ndarray,
    gen: int,
    use_tt: bool,
    out: np.ndarray,
    stats: np.ndarray,
) -> int:
    """Fill ``out[card]`` with the tricks of the side to act for each legal card (others
    -1).  Returns the number of tricks left (current trick included)."""
    hands = hands_in.copy()
    seat = (leader + ntrick) % players
    root_side = _side(seat, players)
    left = 0
    x = hands[seat]
    while x != 0:
        x &= x - 1
        left += 1
    trick = np.zeros((left + 1, 4), dtype=np.int64)
    for i in range(ntrick):
        trick[left, i] = trick_in[i]
    moves = np.zeros((MAX_DEPTH, 2 * MAX_MOVES), dtype=np.int64)
    frames = np.zeros((MAX_DEPTH, N_FIELDS), dtype=np.int64)
    for c in range(52):
        out[c] = -1
    absolute = nblk > 0
    if absolute and players != 2:
        use_tt = False
    rem = 0
    for h in range(players):
        rem |= hands[h]
    table = 0
    for i in range(ntrick):
        table |= 1 << trick[left, i]
    hand = hands[seat]
    legal = _legal(hands, trick, left, seat, ntrick, blk, nblk)
    invol = _involved(hand, blk, nblk) if nblk > 0 else 0
    reps = _representatives(legal, hand, rem | table, invol)
    cnt = _order(
        reps,
        hands,
        trick,
        left,
        players,
        trump,
        misere,
        seat,
        ntrick,
        rem | table,
        -1,
        moves,
        ROOT_ROW,
    )
    root_moves = moves[ROOT_ROW, :cnt].copy()
    # The position's value first (any card), by bisection on null-window tests ...
    lo = 0
    hi = left
    only = root_moves[0] if cnt == 1 else -1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _search(
            hands,
            trick,
            blk,
            nblk,
            tt,
            moves,
            frames,
            stats,
            players,
            trump,
            misere,
            root_side,
            gen,
            use_tt,
            absolute,
            leader,
            ntrick,
            left,
            mid,
            only,
        ):
            lo = mid
        else:
            hi = mid - 1
    best = lo
    # ... then each card from there down: most cards reach it or fall short by a trick.
    for i in range(cnt):
        c = root_moves[i]
        v = best
        if cnt > 1:
            while v > 0 and not _search(
                hands,
                trick,
                blk,
                nblk,
                tt,
                moves,
                frames,
                stats,
                players,
                trump,
                misere,
                root_side,
                gen,
                use_tt,
                absolute,
                leader,
                ntrick,
                left,
                v,
                c,
            ):
                v -= 1
        out[c] = v if not misere else left - v
    # Equivalent cards share their representative's value.
    free = legal & ~invol
    for s in range(4):
        h = _suit_bits(free, s)
        if h == 0:
            continue
        r = _suit_bits(rem | table, s)
        cur = -1
        for b in range(13):
            if (r >> b) & 1:
                if (h >> b) & 1:
                    c = 13 * s + b
                    if out[c] >= 0:
                        cur = out[c]
                    else:
                        out[c] = cur
                else:
                    cur = -1
    return left
