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
  root finds the position's value by bisection on such tests (in misère, from 1 up); with
  every card's value wanted it does so for its first card alone, then tests each other card
  from the best value so far, up or down (mostly one or two tests a card).  (The cards a
  root test that succeeds tried before the one that reached its target fall short of it;
  keeping that bound for them saved under 0.3% of the nodes at 8 tricks in misère, three
  seeds, as the table answers their later tests at once: not done.)
* Each test also returns the bound it proved, which may pass its target ("fail-soft"): a
  bound or table entry that decides a node gives its own value, a node whose cards all
  failed the best of their upper bounds.  The table keeps that bound and the root skips
  the tests it already answers.  Most tests prove no more than they ask: 0.3-0.7% fewer
  nodes at 8 tricks (three seeds, both modes), 1-7% on four whole misère deals.
* At every trick start: trivial bounds (0..tricks left), sure-trick bounds (the leader's
  quick tricks, long cards included, with its partner's winners once the opponents hold
  no trumps, for most tricks: 6% fewer nodes at 13 tricks than top cards alone; and a
  suit whose top cards the two hands share, cashed last, with the rest of it once the
  opponents hold none (DDS's "communication" with the partner: DDS settled some 10- and
  11-trick no-trump starts of seed 1434304093 with a hundredth of our nodes or fewer; this
  cut one such start's trick starts fourfold, the seed's 13-trick nodes by 4.0% and its
  median time by a fifth, 3.54 to 2.81 times DDS's; on five other seeds 0.2-1.5% of the
  nodes, and on the four of them timed the median moved by -25% to +9%.  Not kept: the
  shared suit while the opponents still hold trumps, each of them with a trump following
  every round, -0.4% and -0.08% of the nodes, two seeds; DDS's "later tricks", that the
  side on lead takes every trick left only by leading each in a suit it holds the top card
  of, at most as often as its longer hand holds the suit: it decided 0.6% of the trick
  starts, and changed the nodes by -0.5% and +3.0% at 13 tricks, -1.6% to 0% at 8 tricks
  in misère, three seeds); trumps that
  beat all of the other side's, both modes; in misère, the tricks a side cannot avoid
  when the other side helps it to them: this trick, or every trick when it holds only top
  cards, or when one of its hands holds only cards above all three others' of their suits
  and must win this trick.  (Two stronger ones did not pay.  A side on lead takes the trick
  too when the other side can stay under its partner's lowest card of the suit led, which
  the partner must play over the leader's: 0.5-2.8% more nodes at 8 tricks, three seeds, and
  no time saved.  A count between one trick and every trick, the tricks a side on lead must
  take while the other side can duck each of its leads, as many as the fewest cards an
  opponent holds under the side's lowest card of a suit in which it also holds a higher
  one, would have decided trick starts holding 0.3% of the nodes at 8 tricks.)  And a
  transposition table of lower/upper bounds on *relative ranks with winning ranks*: an
  entry fixes the suit lengths of every hand and the owners of the top cards of each suit
  only down to the lowest card whose rank decided a trick in the search below it, so it
  serves every position that differs just in cards already played or in small cards that
  never mattered.  Buckets of 128 entries (512 in the big table of deep searches) are
  picked by the lengths, the leader and each suit's top owner for the entries that fix
  those owners (most do), by the lengths and the leader alone for the others; a probe
  looks in both.  (Picking every bucket by the lengths alone crowded too many positions
  into one: the two kinds halved the nodes of 13-trick most-tricks solves and saved a
  quarter at 12-trick misère, against the earlier rule of making every entry from 6 tricks
  left fix the top owners.)  With ``levels`` 2 (the huge table of whole misère deals),
  the entries that fix the top two owners of every suit get buckets of their own too,
  picked by those owners, and a probe looks in three buckets.  A full bucket keeps its
  entries and sends new ones to one overflow bucket, which a probe then looks in too:
  positions of one shape crowd a few buckets while the table is mostly empty (a whole misère
  deal fills 2 of its 8 million places, and 5% of its buckets), and evicting their entries
  cost up to a quarter of the nodes.
  A probe scans a bucket's entries in use (its header way says how many) by their keys
  alone, the suit lengths and the leader in one word, and compares a matching entry's top
  owners with the position's under one mask per two suits: a whole misère deal probes
  millions of times and scans about ninety entries a probe, and this made such deals
  15-25% faster than reading every entry's generation and comparing suit by suit.  The
  header also keeps a 64-bit filter of the keys its bucket holds: 43% of the buckets a
  whole misère deal looked in held no entry of the position's key (30% of the entries
  scanned), and skipping those saved another 5-7%.
  With blockers (two hands) the key is the exact cards instead.  Each entry also keeps a
  hash of its words and of the generation (``_check``), and is used only when that
  matches: two threads may search one table (the split solves of ``whist.solver``), and
  one may read an entry while the other is writing it.
* Most tricks, four hands, at the second card of a trick: the trick the second hand's side
  is sure to win (a ruff the third hand cannot beat, or the top card of the suit led) and,
  in no trump, the winner's top cards after it, when that decides the test.
* Misère, four hands at the start of the last two tricks: every line is played out at once
  (at most sixteen, ``_two_tricks``, see :func:`_play_out`), with no bounds and no table:
  that costs less than the search with them.  One trick earlier, at three tricks left, a
  test the bounds and the table do not decide is played out the same way (``_three_tricks``:
  each line of the first trick, then ``_two_tricks``), and its answer stored: at 8 tricks in
  misère that took 8-10% less time than searching it node by node (six seeds, each position
  timed 15 times by turns with the code before it, the fastest kept: this machine's timings
  vary by a third from one minute to the next); on whole misère deals it made no
  difference that could be measured.  As a function the search calls rather than inlines
  it saved only half of that.  (Played out before the table is probed, without
  storing it, it was no faster than the search; probed but not stored, 7% slower than
  stored; searching three tricks left node by node without the table searched 27% more
  nodes at 8 tricks, and on whole misère deals 13-20% more.  Played out one trick earlier
  too, at four tricks left, it took 30% more time at 8 tricks: there the bounds and the
  table at the next trick start decide too much to go without.  Trying one card of each
  run of a hand's cards adjacent among those in play, as the search does, left the nodes
  as they were (-0.2%) and took 4% more time at 8 tricks, three seeds, with a compile
  twice as long.)
* Cards of one hand adjacent in rank among the cards still in play are equivalent: only one
  of each run is searched (and a result covering every card then depends on its rank).
  And once a card has been searched at a node, the other cards of its suit below the lowest
  card that the node's lines so far depend on stand for it (Haglund & Hein's "one small
  card a suit"): on 13-trick most-tricks positions that halves the trick starts searched.
* Move ordering: the table's best lead (most tricks; failing an entry of the position, one
  of a position that differs only in the owners of top cards: 6-8% fewer nodes at 13
  tricks), then per-seat heuristics (cash sure winners, lead to partner's winners or
  towards a ruff, win as cheaply as is safe, discard low; in misère the last two leads that
  refuted a test at the trick first, then the lowest card of a suit (four hands: by a
  weighing of the suit and the card tuned on the nodes, ``_misere_lead``), duck under or throw
  the highest card that still ducks, and treat a card an opponent still to play must beat
  as a duck).  Leads of suits the opponents hold few cards of come first, and of suits an
  opponent lacks last (as DDS weighs its leads): the opponents' cards are the replies to
  search, and a hand without the suit may throw any card.  Of the leads that refute a test
  that is the smallest tree: it halved the nodes of 13-trick most-tricks solves (two
  seeds) and saved 10-20% in misère.  (In misère at 8 tricks the fourth hand's card that
  settles its node is nearly always the first it tries, a mean index of 0.035; trying
  first a card after which the forced-trick bounds decide the next trick saved under 1% of
  the nodes and no time, three seeds: not done.  Throwing, of the cards of other suits
  than the one led, the one with the fewest cards above it in play rather than the highest
  in rank saved 2.7% of the nodes at 8 tricks on the four seeds it was tried on, and 0.8%
  on three fresh ones, where the no-trump positions took 0.5% more: not done.  Trying a
  throwing hand's other cards lowest first once its first throw failed, so that a low card
  stands for more of its suit, searched 5.2% and 7.6% more nodes at 8 tricks, two seeds:
  not done either.)  In most tricks, leads that refute a test too often come second or later
  at 13 tricks (the cards tried before them took 33-78% of the nodes of five positions of
  seed 1434304093), but neither of two cures paid.  DDS's lead weights by who holds a suit's
  top three cards (leading through the top card on the left to the partner's second best,
  towards the partner's second and third best, away from a guarded top card on the right),
  at its scale against ours: 1.8-4.8% fewer nodes on three seeds and 0.2% more on a fourth,
  on three fresh ones 3.1% and 4.1% fewer and 15% more, no time saved; at twice that scale
  up to 9.7% more.  The killers first, as in misère: 8-39% more nodes at 13 tricks (four
  seeds), though up to 16% fewer on the no-trump positions alone.

Stopping: the search and ``solve_kernel`` run without the GIL (``nogil``), and every
``POLL_NODES`` nodes the search reads a stop flag another thread may set in ``ctl``
(``whist.solver.Control``) and returns at once; the root keeps, for every card, the bounds
its tests proved so far, which is what a stopped ``whist.solver.solve_bounds`` returns.

``stats`` (for benchmarks and tuning): [0] nodes (a misère test played out line by line,
two or three tricks from the end, counts as one), [1] table probes, [2..5] cut-offs by
position in the trick and [6..9] the summed index of the cutting card, [10 + n] nodes with n
tricks left, [24] nodes at a trick start (what DDS counts as its nodes), [30] table cut-offs
and [36] entries of the position found that did not decide the test, [31..34] sure-trick
cut-offs at a trick start and [35] at its second card, [37..38] misère forced-trick cut-offs
at a trick start and [39] within a trick.

Cost per node (this is the one place where speed rules over elegance):

* Every helper is inlined by numba into the search (``inline="always"``), which then runs
  as one function with no calls.  The search itself is compiled with ``_nrt=False`` (numba's
  own switch, as in its ``register_jitable`` example): it allocates nothing, and without it
  every array argument pays an atomic reference-count increment and decrement.  The price
  is the compile: about 1.8 minutes for the search of the solves and as much again for the
  search of a trace (one core, 2026), paid once into numba's cache.  ``solve_kernel`` hands
  the search no variable that starts as a literal 0: numba compiled a search for each of
  those too (the first solve compiled three searches, not one, and a trace two).
* What a trick start needs is kept per trick (``lv``) instead of recomputed: the cards in
  play, the suit lengths and the owners of each suit's cards, each derived from the
  previous trick's by removing the four cards played.  Within a trick each frame keeps the
  cards on the table and the index of the card winning it.
* Bits are counted and found by the CPU's instructions (``_popc``, ``_hib``), suits and
  ranks of cards read from tables, seats taken modulo the number of players by a mask.
* An equivalent-card result that must cover every card (``_merged``) is worked out only
  where it is needed, when a node has tried every card.
* numba checks every array index held in a signed variable for a negative value (Python's
  index from the end), which the search never uses.  ``_never_negative`` tells LLVM that a
  value is not negative, which drops the checks of the indices derived from it: said of
  the depth at each step of the search, of the frame fields it reads (leader, position in
  the trick, tricks left, seat, index of the card), of the card tried and of the table's
  buckets (18 places), the search took 5.3-6.4% less time at 8 tricks in misère (five
  seeds, each position timed 5 times by turns, the fastest kept) and 4.2-5.1% in most
  tricks (two seeds), with the same nodes; the depth and the frame fields alone, 4.0-4.7%.
  Casting every variable index to unsigned instead (numba skips the check for those: about
  380 casts) saved 6.2%; casting only those of ``hands`` and the card tables, 2.1-2.8%.
* Changes this small are near the noise of the code's layout: dropping every count of
  ``stats`` but the nodes' took 2.8-3.5% *more* time at 8 tricks in misère (two seeds).

Where the time goes (``perf record``): at 8 tricks in misère (89 ns a node) it is spread
over the whole search, with no part to win a large share back from; the dearest
instruction, the load of a probed bucket's header (a cache miss), takes 2.5% of the
samples.  On a whole misère deal (13 tricks, about 300 ns a node) the table's probes take
over half of it (see ``TT_WAYS``).

Where the nodes go at 8 tricks in misère (seed 1029074727, 40 positions): 70% of them four
and five tricks from the end (316,020 and 230,957 of 779,603).  Of the 103,909 trick starts
three tricks from the end, the bounds and the table decide all but 22,390, whose play-outs
(about 316 ns each, timed on random three-card hands) take about a tenth of the time: a
faster play-out cannot win much.  Valuing every card searches 1.9-2.1 times the nodes of
the value alone (two seeds), as DDS takes 1.85 times as long for every card as for the
value (its ``solutions`` 3 against 1): the per-card tests are not where misère loses to
DDS; its tree is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numba.core import cgutils, types
from numba.extending import intrinsic

_F = TypeVar("_F", bound=Callable[..., Any])


def _inline(fn: _F) -> _F:
    """A helper of the search: inlined into its caller when numba compiles it (numba's own
    ``inline="always"``, before LLVM sees the code), so that no call passes arrays."""
    return cast(_F, numba.njit(cache=True, inline="always")(fn))


def _njit_no_refcount(fn: _F) -> _F:
    """``numba.njit(cache=True)`` without reference counting, for the search, which
    allocates nothing (see the module docstring), and without the GIL (``nogil``: safe for
    the same reason), so that other Python threads run while it searches."""
    return numba.njit(  # type: ignore[call-overload, no-any-return]
        cache=True, nogil=True, _nrt=False
    )(fn)


def _popc_codegen(typingctx: Any, x: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


def _hib_codegen(typingctx: Any, x: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        zeros = builder.ctlz(args[0], cgutils.false_bit)  # 64 for 0: defined
        return builder.sub(context.get_constant(types.int64, 63), zeros)

    return types.int64(types.int64), codegen


def _never_negative_codegen(typingctx: Any, x: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        zero = context.get_constant(types.int64, 0)
        builder.assume(builder.icmp_signed(">=", args[0], zero))
        return args[0]

    return types.int64(types.int64), codegen


# The CPU's bit instructions, as numba intrinsics (LLVM's ctpop and ctlz): cheaper than the
# tables over 13-bit holdings they replace, which no longer crowd the cache.
# np.int64 for a variable that must not start as a literal (see ``solve_kernel``), typed
# as the int it is to mypy.
_int64 = cast("Callable[[int], int]", np.int64)
_popc = cast("Callable[[int], int]", intrinsic(_popc_codegen))  # number of set bits
_hib = cast("Callable[[int], int]", intrinsic(_hib_codegen))  # highest set bit, -1 for 0
# The value, which the caller knows is never negative, telling LLVM so (``llvm.assume``: a
# negative value would make the compiled code's behaviour undefined, so only for values
# that cannot be).  numba checks every array index held in a signed variable for a
# negative one (Python's index from the end), and LLVM drops that check for an index it
# knows is not: said of the depth, the bucket, the card tried and the frame fields read at
# each step of the search, 5-6% less time at 8 tricks (see the module's "Cost per node").
_never_negative = cast("Callable[[int], int]", intrinsic(_never_negative_codegen))


SUIT_BITS = 0x1FFF
# A card's suit and rank by table: Python's floor division compiles to more than a load.
_SUIT = np.array([c // 13 for c in range(52)], dtype=np.int64)
_RANK = np.array([c % 13 for c in range(52)], dtype=np.int64)
_M1 = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64
_M2 = -4417276706812531889  # 0xC2B2AE3D27D4EB4F as int64
MAX_MOVES = 32  # per ply: hands hold at most 26 cards (two-hand games)
# Lead order: the weight of each opponent's card of the suit led (see ``_order``), and the
# cards an opponent without the suit counts for.  Fitted to the nodes of bench/solver.py's
# positions of seed 77 (13 and 8 tricks; 10-trick no-trump misère of seed 5) and checked on
# seed 4242.  In misère the weight outweighs the rest of the key (it only breaks ties):
# 3-4% fewer nodes than a weight of 100.
REPLY_WEIGHT_MOST = 15
REPLY_WEIGHT_MISERE = 1000
VOID_REPLIES = 30
# A four-hand misère lead's weights (see ``_misere_lead``), row 0 in no trump, row 1 with
# trumps.  Per suit (a cost): each opponent void in it, each card of the leader's in it,
# its partner void in it (less), each card of the leader's above all of the opponents'
# (less), each card the opponents hold of it (up to 8 each), each opponent void in it who
# holds trumps (a plain suit).  Per card (a gain): each of the opponents' cards below it,
# and each rank lower.
LEAD_VOID, LEAD_LENGTH, LEAD_PARTNER_VOID, LEAD_TOPS, LEAD_REPLY = range(5)
LEAD_RUFF, LEAD_ABOVE, LEAD_RANK = range(5, 8)
_LEAD_WEIGHTS = np.array(
    [[320, 49, 40, 45, 27, 0, 22, 3], [320, 74, 48, 68, 34, 112, 16, 6]], dtype=np.int64
)


@_inline
def _suit_bits(mask: int, s: int) -> int:
    return (mask >> (13 * s)) & SUIT_BITS


@_inline
def _beats(c: int, best: int, trump: int) -> bool:
    sc = int(_SUIT[c])
    sb = int(_SUIT[best])
    if sc == sb:
        return c > best
    return sc == trump


@_inline
def _side(seat: int, players: int) -> int:
    if players == 4:
        return seat & 1
    return seat


@_inline
def _blocked(hand: int, blk: np.ndarray, nblk: int) -> int:
    """Cards of ``hand`` that cannot be played yet (their up card is still in ``hand``)."""
    out = 0
    for i in range(nblk):
        d = blk[i, 0]
        u = blk[i, 1]
        if (hand >> d) & 1 and (hand >> u) & 1:
            out |= 1 << d
    return out


@_inline
def _involved(hand: int, blk: np.ndarray, nblk: int) -> int:
    """Cards of ``hand`` in a pending blocker pair: never merged into an equivalent sequence."""
    out = 0
    for i in range(nblk):
        d = blk[i, 0]
        u = blk[i, 1]
        if (hand >> d) & 1 and (hand >> u) & 1:
            out |= (1 << d) | (1 << u)
    return out


@_inline
def _follow(hand: int, led: int) -> int:
    """The cards of ``hand`` it may play to a trick led in suit ``led``: that suit's, or any
    card if it has none."""
    follow = hand & (SUIT_BITS << (13 * led))
    return follow if follow != 0 else hand


@_inline
def _must_beat(holding: int, r: int) -> bool:
    """Does a hand holding ``holding`` (13-bit, one suit) have to play over rank ``r`` when
    it follows to that suit: it holds the suit, and nothing at or below ``r``?"""
    return holding != 0 and (holding & ((2 << r) - 1)) == 0


@_inline
def _legal(
    hands: np.ndarray, trick: np.ndarray, row: int, seat: int, pos: int, blk: np.ndarray, nblk: int
) -> int:
    """``trick[row]``: the cards of the current trick."""
    hand = hands[seat]
    if nblk > 0:
        hand &= ~_blocked(hand, blk, nblk)
    if pos > 0:
        return _follow(hand, _SUIT[trick[row, 0]])
    return int(hand)


_SUIT_TOPS = (1 << 12) | (1 << 25) | (1 << 38) | (1 << 51)
_SUIT_BOTTOMS = 1 | (1 << 13) | (1 << 26) | (1 << 39)
_ALL = (1 << 52) - 1


@_inline
def _representatives(legal: int, rem: int, invol: int) -> int:
    """The lowest card of each run of ``legal`` cards (one hand's) that are adjacent among
    ``rem`` (cards in play); cards in ``invol`` stand alone and break runs.

    All suits at once: cards out of play (``gap``) are transparent, so a run is a block of
    ``ours | gap`` bits; adding each block's lowest bit to its gap bits carries up to the
    first card of ours in it.  An ace out of play never lies between two cards, so it is left
    out of ``gap``, and no carry leaves its suit."""
    free = legal & ~invol
    gap = ~rem & (_ALL ^ _SUIT_TOPS)
    q = free | gap
    starts = (q & ~(q << 1)) | (q & _SUIT_BOTTOMS)
    return (((gap & q) + starts) & free) | (legal & invol)


@_inline
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


@_inline
def _cover_merged(w: int, merged: int, hand: int, rem: int) -> int:
    """Extend the winning ranks ``w`` of a result that covers every card: a representative
    whose run reaches the lowest winning rank of its suit joins ``w``, so that the run is a
    run in every position the table entry will match."""
    for s in range(4):
        ms = _suit_bits(merged, s)
        ws = _suit_bits(w, s)
        if ms == 0 or ws == 0:
            continue  # no winning rank in the suit: all its cards are interchangeable
        thr = _hib(ws & -ws)
        r = _suit_bits(rem, s)
        h = _suit_bits(hand, s)
        while ms != 0:
            b = _hib(ms)  # highest remaining representative
            ms ^= 1 << b
            top = b
            above = r >> (top + 1)
            while above != 0 and (h >> (top + 1 + _hib(above & -above))) & 1:
                top = top + 1 + _hib(above & -above)
                above = r >> (top + 1)
            if top >= thr and b < thr:
                thr = b
                w |= 1 << (13 * s + b)
    return w


@_inline
def _shape(hands: np.ndarray, players: int) -> int:
    """Suit lengths of every hand, 4 bits each: the part of a table key that is exact."""
    out = 0
    for h in range(players):
        for s in range(4):
            out |= _popc(_suit_bits(hands[h], s)) << (16 * h + 4 * s)
    return out


@_inline
def _owners(hands: np.ndarray, players: int, s: int) -> int:
    """Owners (2 bits each) of the cards of suit ``s`` in play, highest card first (in the
    most significant place)."""
    h1 = _suit_bits(hands[1], s)
    h2 = _suit_bits(hands[2], s) if players == 4 else 0
    h3 = _suit_bits(hands[3], s) if players == 4 else 0
    rem = _suit_bits(hands[0], s) | h1 | h2 | h3
    code = 0
    while rem != 0:
        b = _hib(rem)
        rem ^= 1 << b
        code = (code << 2) | ((h1 >> b) & 1) | (((h2 >> b) & 1) << 1) | (((h3 >> b) & 1) * 3)
    return code


@_inline
def _depth_of(w: int, rem: int, s: int) -> int:
    """How many top cards of suit ``s`` in play are at or above the lowest card of ``w``."""
    ws = _suit_bits(w, s)
    if ws == 0:
        return 0
    return int(_popc(_suit_bits(rem, s) >> _hib(ws & -ws)))


@_inline
def _nth_card(rem: int, s: int, k: int) -> int:
    """The ``k``-th highest card (1-based) of suit ``s`` in play, as a one-bit mask."""
    sm = _suit_bits(rem, s)
    while k > 1:
        sm ^= 1 << _hib(sm)
        k -= 1
    return 1 << (13 * s + int(_hib(sm)))


@_inline
def _top_run(mine: int, rem: int) -> int:
    """How many of the top cards of ``rem`` (one suit) in a row are in ``mine``."""
    others = rem & ~mine
    if others == 0:
        return int(_popc(mine))
    return int(_popc(mine >> (_hib(others) + 1)))


@_inline
def _sure_side(a: int, b: int, theirs: int, rem: int, trump: int) -> tuple[int, int]:
    """``_sure_trumps`` for the side whose hands hold the trumps ``a`` and ``b`` (13-bit)
    against the other side's ``theirs``."""
    above = 0 if theirs == 0 else _hib(theirs) + 1
    ka = _popc(a >> above)
    kb = _popc(b >> above)
    best = ka if ka > kb else kb
    if best == 0 or theirs == 0:
        return best, 0  # without their trumps, only lengths count
    # the lowest counted trump: the best hand's trumps from it up are matched exactly
    return best, _nth_card(rem, trump, _popc(_suit_bits(rem, trump) >> above))


@_inline
def _sure_trumps(
    hands: np.ndarray, players: int, trump: int, rem: int
) -> tuple[int, int, int, int]:
    """Tricks each side cannot fail to take, side 0's and then side 1's, each with the cards
    that bound depends on: each trump of one of its hands that beats every trump of the
    other side wins the trick it is played to (and every card gets played)."""
    t0 = _suit_bits(hands[0], trump)
    t1 = _suit_bits(hands[1], trump)
    t2 = _suit_bits(hands[2], trump) if players == 4 else 0
    t3 = _suit_bits(hands[3], trump) if players == 4 else 0
    sure0, w0 = _sure_side(t0, t2, t1 | t3, rem, trump)
    sure1, w1 = _sure_side(t1, t3, t0 | t2, rem, trump)
    return sure0, w0, sure1, w1


@_inline
def _need(ours: bool, target: int, left: int) -> int:
    """Sure tricks that decide a test (``score >= target`` with ``left`` tricks to play) for
    a side: the root side's (``ours``) reach the target, the other side's keep the root
    side below it.  Both directions of a sure-trick bound are then one comparison."""
    return target if ours else left - target + 1


@_inline
def _longest_against(hands: np.ndarray, players: int, leader: int, s: int) -> int:
    """The most cards of suit ``s`` an opponent of the leader holds."""
    longest = 0
    for o in range(1, players, 2):
        ln = _popc(_suit_bits(hands[(leader + o) & (players - 1)], s))
        if ln > longest:
            longest = ln
    return longest


@_inline
def _leader_run(mine: int, ps: int, rs: int, longest: int) -> tuple[int, int]:
    """Tricks the leader cashes in one suit on its own, no trumps against it (``mine``,
    ``ps`` and ``rs``: its cards of the suit, its partner's and all in play, 13-bit;
    ``longest``: the most an opponent holds): its top cards, and its long cards too once
    they have drawn the opponents' cards, if the partner has none left by then either (this
    depends on the lengths alone) or only cards below all of the leader's.  Also the card
    (13-bit, 0: none) whose rank that depends on besides the top cards."""
    k = _top_run(mine, rs)
    if k > 0 and longest <= k:
        if _popc(ps) <= k:
            return int(_popc(mine)), 0
        if _hib(ps) < _hib(mine & -mine):
            return int(_popc(mine)), mine & -mine
    return k, 0


@_inline
def _run_out(lead: int, other: int) -> int:
    """Tricks a side takes in a suit the opponents hold none of: ``lead`` its cards of it
    (13-bit) in the hand on lead, ``other`` the partner's.  Every card of the side wins, but
    a hand out of the suit on lead ends the run: the hand with more cards left takes or
    keeps the lead where it can (a way of playing the suit, so a sound count)."""
    n = 0
    while lead != 0:
        c = lead & -lead  # lead the lowest
        lead ^= c
        n += 1
        if other == 0:
            continue
        below = other & (c - 1)
        above = other & ~((c << 1) - 1)
        if above != 0 and (below == 0 or _popc(other) > _popc(lead) + 1):
            t = above & -above  # overtake as cheaply as it can
            other ^= t
            lead, other = other, lead
        else:
            other ^= 1 << _hib(below)  # stay under
    return n


@_inline
def _quick_tricks(
    hands: np.ndarray, players: int, trump: int, rem: int, leader: int, need: int
) -> tuple[int, int]:
    """Tricks the leader can cash at once from the top (a sound lower bound for its side),
    and the cards that count depends on (the lowest winner counted in each suit).  It stops
    at ``need`` tricks, the count the test needs: a bound on fewer cards lets the table
    entries above it serve more positions (about 1% fewer nodes at 13 tricks)."""
    hand = hands[leader]
    ls = _side(leader, players)
    opp_trumps = 0
    max_opp_trumps = 0
    if trump >= 0:
        for h in range(players):
            if _side(h, players) != ls:
                t = _popc(_suit_bits(hands[h], trump))
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
            if total >= need:
                return total, w
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
        top = k
        if trump >= 0 and opp_trumps > 0 and not drawn:
            for h in range(players):
                if _side(h, players) != ls and _suit_bits(hands[h], trump) != 0:
                    ln = _popc(_suit_bits(hands[h], s))
                    if ln < k:
                        k = ln
            top = k
        else:
            ps = _suit_bits(hands[(leader + 2) & 3], s) if players == 4 else 0
            k, low = _leader_run(
                mine, ps, _suit_bits(rem, s), _longest_against(hands, players, leader, s)
            )
            w |= low << (13 * s)
        if k > 0:
            total += k
            w |= _nth_card(rem, s, top)
            if total >= need:
                return total, w
    if players == 4 and drawn:
        # No trumps with the opponents (none, or the leader's top trumps draw theirs).
        # A suit whose top cards the side holds between its two hands (the leader's ace
        # and queen, the partner's king), cashed last: the leader cashes its own winners
        # in the other suits, then its winners of this one while the partner follows low,
        # crosses with a low card to the partner's winners, and plays out the rest of the
        # suit once the opponents hold none of it (``_run_out``).  The partner must keep
        # every card of the suit until then (enough other cards to follow or throw, not
        # counting its trumps), and the leader a low card to cross with.
        partner = hands[(leader + 2) & 3]
        spare = _popc(partner)
        if trump >= 0:
            spare -= _popc(_suit_bits(partner, trump))
        split = 0
        wsplit = 0
        for s in range(4):
            if s == trump:
                continue
            mine = _suit_bits(hand, s)
            ps = _suit_bits(partner, s)
            if mine == 0 or ps == 0:
                continue
            rs = _suit_bits(rem, s)
            theirs = rs & ~(mine | ps)
            run = rs if theirs == 0 else rs & ~((2 << _hib(theirs)) - 1)
            a = _popc(mine & run)
            b = _popc(ps & run)
            n_l = _popc(mine)
            n_p = _popc(ps)
            if a == 0 or b == 0 or n_p - b < a or n_l - a < 1:
                continue
            longest = _longest_against(hands, players, leader, s)
            own, _ = _leader_run(mine, ps, rs, longest)  # counted in ``total`` above
            before = total - own
            if spare - n_p < before:
                continue
            got = before + a + b
            wcut = _nth_card(rem, s, a + b)
            if longest <= a + b:
                # the opponents have none left: play it out (the leader's winners, the
                # partner ducking with its lowest cards, the leader's lowest to the
                # partner's lowest winner, the partner's other winners), then the rest
                lows_p = ps & ~run
                lows_l = mine & ~run
                for _ in range(a):
                    lows_p ^= lows_p & -lows_p
                lows_l ^= lows_l & -lows_l
                for _ in range(b - 1):
                    lows_l ^= lows_l & -lows_l
                more = _run_out(lows_p, lows_l)
                if more > 0:
                    got += more
                    low = (ps | mine) & ~run
                    wcut = (low & -low) << (13 * s)  # the ranks of them all count
            if got > split:
                split = got
                wsplit = wcut
        if split >= need:
            return split, w | wsplit
        # Else: after the leader's winners, a low card to the partner's top card, whose
        # winners (long cards too, as the leader's) then all cash.  The partner keeps its
        # winners through the leader's run if it has enough other cards to follow or
        # throw, not counting its trumps (played on a side suit, one would take the lead).
        runs = 0
        throws = 0  # the partner's cards of side suits, winners counted aside
        wp = 0
        entry = False
        for s in range(4):
            ps = _suit_bits(partner, s)
            k = _top_run(ps, _suit_bits(rem, s))
            if k > 0:
                wp |= _nth_card(rem, s, k)
                ms = _suit_bits(hand, s)
                if ms != 0:
                    entry = True
                if _longest_against(hands, players, leader, s) <= k:
                    # the partner's long cards, the leader's none left or all lower
                    if _popc(ms) <= k:
                        k = _popc(ps)
                    elif _hib(ms) < _hib(ps & -ps):
                        k = _popc(ps)
                        wp |= (ps & -ps) << (13 * s)
                runs += k
            if s != trump:
                throws += _popc(ps) - k if k > 0 else _popc(ps)
        if entry and throws >= total:
            total += runs
            w |= wp
    return total, w


@_inline
def _second_hand_tricks(
    hands: np.ndarray, trump: int, led: int, seat: int, need: int
) -> tuple[int, int]:
    """Most tricks, four hands, ``seat`` second to play to a trick led with ``led``: tricks
    its side takes for sure from this trick on (0 if it may lose this one), and the cards
    that depends on (Haglund & Hein's quick tricks of the second hand).  The side wins the
    trick when one of its hands can ruff and the third hand cannot, or when its highest
    card of the suit led beats the card led and every card the third hand holds there
    (and the third hand cannot ruff).  In no trump the hand winning it then cashes the next
    top card of that suit if it holds it too, and its top card of every other suit, unless
    the trick alone is the ``need`` the test has (as in :func:`_quick_tricks`)."""
    s = _SUIT[led]
    third = hands[(seat + 1) & 3]
    partner = hands[(seat + 2) & 3]
    ours = _suit_bits(hands[seat], s) | _suit_bits(partner, s)
    theirs = _suit_bits(third, s)
    third_ruffs = trump >= 0 and s != trump and theirs == 0 and _suit_bits(third, trump) != 0
    if third_ruffs:
        return 0, 0
    if (
        trump >= 0
        and s != trump
        and (
            (_suit_bits(hands[seat], s) == 0 and _suit_bits(hands[seat], trump) != 0)
            or (_suit_bits(partner, s) == 0 and _suit_bits(partner, trump) != 0)
        )
    ):
        return 1, 0  # a ruff the third hand cannot beat: no rank counts
    if ours == 0 or _hib(ours) < max(_RANK[led], _hib(theirs)):
        return 0, 0
    top = _hib(ours)
    w = 1 << (13 * s + top)
    if trump >= 0 or need <= 1:
        return 1, w
    # no trump: the hand holding the winner leads next
    hh = hands[seat] if (_suit_bits(hands[seat], s) >> top) & 1 else partner
    others = (
        hands[(seat + 1) & 3] | hands[(seat + 3) & 3] | (partner if hh != partner else hands[seat])
    )
    q = 1
    mine = _suit_bits(hh, s) ^ (1 << top)
    if mine != 0:
        nxt = _hib(mine)
        if _suit_bits(others, s) >> nxt == 0 and (_RANK[led] < nxt):
            q += 1
            w |= 1 << (13 * s + nxt)
    for t in range(4):
        if t == s:
            continue
        mt = _suit_bits(hh, t)
        if mt == 0:
            continue
        ot = _suit_bits(others, t)
        ht = _hib(mt)
        if ot == 0:
            q += _popc(mt)  # a suit nobody else holds: every card of it
        elif _hib(ot) < ht:
            q += 1
            w |= 1 << (13 * t + ht)
    return q, w


@_inline
def _only_trumps(hand: int, trump: int) -> bool:
    """Does ``hand`` (not empty) hold nothing but trumps?"""
    return trump >= 0 and (hand & ~(SUIT_BITS << (13 * trump))) == 0


@_inline
def _top_hand(hands: np.ndarray, trump: int, leader: int, side: int, left: int) -> tuple[int, int]:
    """Misère, four hands, at a trick start: ``left`` when a hand H of ``side`` (X) holds
    only top cards (each above every card of its suit in the three other hands, and those
    hold no trumps) and must win the trick: it leads, or an opponent leads and holds a suit
    H holds (the opponents lead it), or H's partner leads and holds only suits H holds.
    H's card then wins (it follows, no ruff), and H leads a top card each trick after: X
    takes every trick.  Else 0.  The winning ranks: H's lowest card of each suit."""
    for h in range(2):
        hs = (side + 2 * h) & 3
        mine = hands[hs]
        if mine == 0:
            continue
        others = hands[(hs + 1) & 3] | hands[(hs + 2) & 3] | hands[(hs + 3) & 3]
        if trump >= 0 and _suit_bits(others, trump) != 0:
            continue
        top = True
        w = 0
        held = 0  # 13-bit per suit masks: the suits H holds
        for s in range(4):
            ms = _suit_bits(mine, s)
            if ms == 0:
                continue
            low = _hib(ms & -ms)
            if (_suit_bits(others, s) >> low) != 0:
                top = False
                break
            w |= 1 << (13 * s + low)
            held |= SUIT_BITS << (13 * s)
        if not top:
            continue
        if leader == hs:
            return left, w
        lead = hands[leader]
        if _side(leader, 4) != side:
            if (lead & held) != 0:
                return left, w
        elif (lead & ~held) == 0:
            return left, w
    return 0, 0


@_inline
def _forced(
    hands: np.ndarray, players: int, trump: int, leader: int, side: int, left: int, need: int
) -> tuple[int, int]:
    """Misère, at a trick start: tricks ``side`` (X) takes however it plays, when the other
    side (Y) plays to make it take them; and the cards that count depends on.  Both sides
    want to lose tricks, so this is a lower bound on X's tricks.  Returns ``left`` when X
    takes every trick, 1 when Y can make X take this trick, else 0.

    * X leads, and in every suit the leader L holds each Y hand can play under L's lowest
      card (or throw a non-trump): whatever L leads, X takes the trick.  If every card of
      L beats all of Y's cards of its suit, Y holds no trumps and L's partner P can never
      win a trick (its cards of L's suits are all below L's, and it holds no trump to ruff
      with) or holds only such top cards itself, X keeps the lead and wins every trick.
    * Y leads: with X holding only top cards in every suit and Y no trumps, a lead of a
      suit X holds wins X this trick and then every other (X leads a top card each time).
      Else the leader's lowest card of a suit, its partner's lowest (or a throw), below
      every card of that suit of one X hand, makes that hand win the trick.
    The winning ranks: the lowest card of each counted holding, so that a table entry fixes
    the owners of every card from it up.
    Blockers change what may be played: callers skip this with blockers.  ``need``: the
    fewest tricks that would decide the caller's test; from 2 up only every trick does, and
    the tests for this trick alone are skipped (an answer under ``left`` then says only
    that it is not ``left``): the same nodes, 2-3% less time at 8 tricks in misère (five
    seeds)."""
    every = need >= 2
    ts = trump >= 0
    if players == 4:
        ft, wt = _top_hand(hands, trump, leader, side, left)
        if ft > 0:
            return ft, wt
        y1 = hands[(leader + 1) & 3]
        y2 = hands[(leader + 3) & 3]
        other = hands[(leader + 2) & 3]
    else:
        y1 = hands[1 - leader]
        y2 = 0
        other = 0
    lead = hands[leader]
    if _side(leader, players) == side:
        # X leads: L = lead, P = other, Y = y1, y2
        ys_all = y1 | y2
        w = 0
        top = True  # every card of L beats all of Y's cards of its suit
        for s in range(4):
            ls_ = _suit_bits(lead, s)
            if ls_ == 0:
                continue
            low = _hib(ls_ & -ls_)
            if ts and s != trump:
                if _suit_bits(y1, s) == 0 and _only_trumps(y1, trump):
                    return 0, 0
                if y2 != 0 and _suit_bits(y2, s) == 0 and _only_trumps(y2, trump):
                    return 0, 0
            if (_suit_bits(ys_all, s) >> low) != 0:
                # X still takes the trick if each Y hand can play under L's lowest card
                if every:
                    return 0, 0
                top = False
                for y in (y1, y2):
                    ys = _suit_bits(y, s)
                    if ys != 0 and (ys & ((1 << low) - 1)) == 0:
                        return 0, 0
            w |= 1 << (13 * s + low)
        if not top:
            return 1, w
        if ts and _suit_bits(ys_all, trump) != 0:
            return 1, w
        if other == 0:
            return left, w
        # P: no card above L's lowest of a suit L holds, and nothing to ruff with ...
        blocked = not ts or _suit_bits(other, trump) == 0
        if blocked:
            for s in range(4):
                ls_ = _suit_bits(lead, s)
                if ls_ != 0 and (_suit_bits(other, s) >> _hib(ls_ & -ls_)) != 0:
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
            low = _hib(ps & -ps)
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
            low = _hib(xs & -xs)
            if (_suit_bits(ys_all, s) >> low) != 0:
                dom = False
                break
            wd |= 1 << (13 * s + low)
        if dom and can:
            return left, wd
    if every:
        return 0, 0
    for s in range(4):
        ls_ = _suit_bits(lead, s)
        if ls_ == 0:
            continue
        m = _hib(ls_ & -ls_)
        if players == 4:
            os_ = _suit_bits(other, s)
            if os_ != 0:
                lo = _hib(os_ & -os_)
                if lo > m:
                    m = lo
            elif ts and s != trump and _only_trumps(other, trump):
                continue
        for x in (y1, y2):
            xs = _suit_bits(x, s)
            if xs != 0 and _hib(xs & -xs) > m:
                return 1, 1 << (13 * s + _hib(xs & -xs))
    return 0, 0


@_inline
def _trick_winner(c0: int, c1: int, c2: int, c3: int, trump: int) -> tuple[int, int]:
    """The index (0..3) of the card that wins a trick of four cards led by ``c0``, and that
    card as a one-bit mask if it beat a card of its own suit (its rank counted), else 0."""
    win = 0
    wc = c0
    if _beats(c1, wc, trump):
        win = 1
        wc = c1
    if _beats(c2, wc, trump):
        win = 2
        wc = c2
    if _beats(c3, wc, trump):
        win = 3
        wc = c3
    ws = _SUIT[wc]
    same = (_SUIT[c0] == ws) + (_SUIT[c1] == ws) + (_SUIT[c2] == ws) + (_SUIT[c3] == ws)
    return win, (1 << wc) if same > 1 else 0


@_inline
def _from_leader(hands: np.ndarray, leader: int) -> tuple[int, int, int, int]:
    """The four hands from ``leader`` round."""
    return (
        hands[leader],
        hands[(leader + 1) & 3],
        hands[(leader + 2) & 3],
        hands[(leader + 3) & 3],
    )


_Hands4 = tuple[int, int, int, int]
# A test of the tricks after a trick's line: (hands from the trick's leader round, trump,
# the leader's side is the root side, target, the trick's four cards) -> (reached, the
# cards whose ranks that depends on)
_Leaf = Callable[[_Hands4, int, bool, int, int, int, int, int], tuple[bool, int]]
# The same with the trick's cards so far as one tuple (-1: not played yet).
_Step = Callable[[_Hands4, int, bool, int, _Hands4], tuple[bool, int]]


def _hand_plays(k: int, after: _Step) -> _Step:
    """The ``k``-th hand of a trick (from the leader) tries each card it may play, ``after``
    testing the line from there: the test's answer and the cards its answer depends on.  As
    in the search, a hand that reaches its goal with one card depends on that card's line
    alone, and one that cannot on every line.  Both sides want to lose tricks, so the
    leader tries its lowest card first, a hand that follows its lowest of the suit led, and
    a hand that cannot follow throws its highest first.  (``k`` is a constant to numba: the
    branches on it are compiled away.)"""

    def plays(h: _Hands4, trump: int, max0: bool, target: int, trick: _Hands4) -> tuple[bool, int]:
        want = max0 if k % 2 == 0 else not max0  # the leader's side wants max0
        led = 0 if k == 0 else _SUIT[trick[0]]
        follows = k == 0 or _suit_bits(h[k], led) != 0
        cards = h[k] if k == 0 else _follow(h[k], led)
        result = not want
        depends = 0
        while cards != 0:
            x = _hib(cards & -cards) if follows else _hib(cards)
            cards ^= 1 << x
            played = (
                x if k == 0 else trick[0],
                x if k == 1 else trick[1],
                x if k == 2 else trick[2],
                x if k == 3 else trick[3],
            )
            ok, w = after(h, trump, max0, target, played)
            if ok == want:
                result = want
                depends = w
                break
            depends |= w
        return result, depends

    return cast(_Step, numba.njit(inline="always")(plays))


def _play_out(leaf: _Leaf) -> Callable[[_Hands4, int, bool, int], tuple[bool, int]]:
    """Misère, four hands ``h`` (from the leader round) at a trick start, no blockers: can
    the root side (``max0``: the leader's) reach ``score >= target``, and the cards whose
    ranks that depends on, with every line of this trick tried (``_hand_plays``) and
    ``leaf`` testing the tricks after each.  Near the end of a deal that is cheaper than
    searching the lines node by node.  (Each number of tricks left gets a function of its
    own, and each hand of the trick a level: numba cannot compile a recursive function.)"""

    def last(h: _Hands4, trump: int, max0: bool, target: int, trick: _Hands4) -> tuple[bool, int]:
        return leaf(h, trump, max0, target, trick[0], trick[1], trick[2], trick[3])

    step = cast(_Step, numba.njit(inline="always")(last))
    for k in (3, 2, 1, 0):
        step = _hand_plays(k, step)
    first = step

    def lines(h: _Hands4, trump: int, max0: bool, target: int) -> tuple[bool, int]:
        return first(h, trump, max0, target, (-1, -1, -1, -1))

    # (not cached on its own: numba cannot cache a closure; the search it is inlined into is)
    return cast(
        Callable[[_Hands4, int, bool, int], tuple[bool, int]], numba.njit(inline="always")(lines)
    )


@_inline
def _last_trick(
    h: _Hands4, trump: int, max0: bool, target: int, a: int, b: int, c: int, e: int
) -> tuple[bool, int]:
    """Two tricks left: does the line whose first trick is ``a, b, c, e`` give the root side
    ``score >= target`` (the score: the tricks of the side that is not the root side), and
    the cards of both tricks whose ranks decided them."""
    win, w1 = _trick_winner(a, b, c, e, trump)
    score = 0 if ((win & 1) == 0) == max0 else 1
    # the last trick: each hand's other card, from the first trick's winner round
    rest = (
        _hib(h[0] ^ (1 << a)),
        _hib(h[1] ^ (1 << b)),
        _hib(h[2] ^ (1 << c)),
        _hib(h[3] ^ (1 << e)),
    )
    last, w2 = _trick_winner(
        rest[win], rest[(win + 1) & 3], rest[(win + 2) & 3], rest[(win + 3) & 3], trump
    )
    if (((win + last) & 1) == 0) != max0:
        score += 1
    return score >= target, w1 | w2


_two_tricks = _play_out(_last_trick)


@_inline
def _last_two_tricks(
    h: _Hands4, trump: int, max0: bool, target: int, a: int, b: int, c: int, e: int
) -> tuple[bool, int]:
    """Three tricks left: the test of the line whose first trick is ``a, b, c, e``, the last
    two tricks played out from its winner."""
    win, w = _trick_winner(a, b, c, e, trump)
    ours = ((win & 1) == 0) == max0  # the root side won the trick
    need = target if ours else target - 1
    ok = need <= 0
    if 0 < need <= 2:
        g = (h[0] ^ (1 << a), h[1] ^ (1 << b), h[2] ^ (1 << c), h[3] ^ (1 << e))
        g = (g[win], g[(win + 1) & 3], g[(win + 2) & 3], g[(win + 3) & 3])
        ok, w2 = _two_tricks(g, trump, ours, need)
        w |= w2
    return ok, w


_three_tricks = _play_out(_last_two_tricks)


@_inline
def _holds(
    c: int, hands: np.ndarray, players: int, trump: int, seat: int, led: int, after: int
) -> bool:
    """Does card ``c`` (now winning the trick) beat whatever the ``after`` opponents of
    ``seat`` still to play can put on it?"""
    side = _side(seat, players)
    cs = _SUIT[c]
    for j in range(1, after + 1):
        o = (seat + j) & (players - 1)
        if _side(o, players) == side:
            continue
        follow = _suit_bits(hands[o], led)
        if follow != 0:
            if cs == led and (follow >> (_RANK[c] + 1)) != 0:
                return False
        elif trump >= 0:
            tr = _suit_bits(hands[o], trump)
            if tr != 0 and (cs != trump or (tr >> (_RANK[c] + 1)) != 0):
                return False
    return True


@_inline
def _card_code(c: int, inplay: int) -> int:
    """Card ``c`` as (suit, how many cards in play are above it): the same card in every
    position a table entry serves, whatever small cards have gone."""
    s = int(_SUIT[c])
    return (s << 4) | _popc(_suit_bits(inplay, s) >> (_RANK[c] + 1))


@_inline
def _code_card(code: int, inplay: int) -> int:
    """The card of ``_card_code`` among ``inplay``, -1 if that suit has too few cards."""
    s = code >> 4
    sm = _suit_bits(inplay, s)
    if _popc(sm) <= (code & 0xF):
        return -1
    for _ in range(code & 0xF):
        sm ^= 1 << _hib(sm)
    return 13 * s + _hib(sm)


@_inline
def _misere_lead(
    hands: np.ndarray, seat: int, s: int, trump: int, w: np.ndarray
) -> tuple[int, int]:
    """A four-hand misère lead of suit ``s`` by ``seat``: the cost of the suit (lower
    first) and the opponents' cards of it (for the cards' own terms, in ``_order``).  ``w``:
    the row of ``_LEAD_WEIGHTS`` for the denomination.

    Suits by their replies alone (as two hands still are: each opponent's card of the suit
    is a reply to search, and a void opponent may throw any card) put a lead that refutes
    the test first at only 54-57% of the trick starts the search searched four to seven
    tricks from the end (bench/solver.py's 8-trick no-trump positions, seeds 11-20 and
    41-50, each lead valued exactly).  The best no-trump leads are of the leader's short
    suits, of suits its partner lacks (which throws its high cards) or in which the leader
    holds cards above all of the opponents', and cards the opponents hold cards below (they
    cannot all duck them).  Weights fitted (a conditional logit) to put a refuting lead
    first put one first at 68-70% of those trick starts, but searched about as many nodes as
    the replies alone (1% fewer and 2% more on the no-trump positions of 200 each of seeds
    101, 202, 303, 404 and of 505, 606), and with trumps (with terms for ruffs) 0.1-8% more.
    These are those terms tuned on the nodes themselves, a weight at a time, with the
    replies' weight among them.  No trump (8 tricks, seeds 101 to 404; 10 tricks, seeds 101
    and 202): against the replies alone 5.0% and 4.8% fewer nodes there, and on fresh
    positions 2.9% fewer at 8 tricks (seeds 505, 606) and 5.6% at 10 (the same seeds); whole
    13-trick deals (six of seed 16950900, two threads) took 13% fewer nodes and a third less
    time.  With trumps (8 tricks, seeds 101, 202, 303): 3.0% fewer nodes there, 3.5% on
    fresh ones (seeds 505, 606).  (The killers still come first: without them 0.1-12% more
    nodes in no trump.)  On fresh seeds bench/solver.py's whole-deal median (15 deals) was
    1.42 s against 2.01 s before (seed 686761335; 12 of the 15 deals faster) and 2.34 s
    against 2.38 s (seed 2072359015, the no-trump weights alone), and its 8-trick misère
    nodes 0.5% fewer and 0.3% more: the lead order is not what keeps misère from DDS's speed
    at 8 tricks."""
    mine = _suit_bits(hands[seat], s)
    o1 = _suit_bits(hands[(seat + 1) & 3], s)
    o3 = _suit_bits(hands[(seat + 3) & 3], s)
    their = o1 | o3
    cost = w[LEAD_LENGTH] * _popc(mine) + w[LEAD_REPLY] * (min(_popc(o1), 8) + min(_popc(o3), 8))
    for o in (o1, o3):
        if o == 0:
            cost += w[LEAD_VOID]
    for k in (1, 3):
        h = hands[(seat + k) & 3]
        if trump >= 0 and s != trump and _suit_bits(h, s) == 0 and _suit_bits(h, trump) != 0:
            cost += w[LEAD_RUFF]
    cost -= w[LEAD_TOPS] * (_popc(mine >> (_hib(their) + 1)) if their != 0 else _popc(mine))
    if _suit_bits(hands[(seat + 2) & 3], s) == 0:
        cost -= w[LEAD_PARTNER_VOID]
    return cost, their


@_inline
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
    wbest: int,
    killer: int,
    killer2: int,
) -> int:
    """Write the candidate cards of ``seat`` to ``out[ply, :n]`` best first (their sort keys
    go to ``out[ply, MAX_MOVES:]``); return ``n``.  ``best_card`` (the table's best lead) comes
    first, then ``killer`` and ``killer2`` (the last two leads that refuted a test here)."""
    n = 0
    side = _side(seat, players)
    lead_w = _LEAD_WEIGHTS[1 if trump >= 0 else 0]  # a four-hand misère lead's weights
    led = -1
    wcard = -1
    partner_wins = False
    if pos > 0:
        led = _SUIT[trick[row, 0]]
        wcard = trick[row, wbest]
        if players == 4:
            partner_wins = _side((seat - pos + wbest) & 3, 4) == side
    ours_anyway = False
    if misere and pos == 1 and players == 4:
        # The partner, last to play, must beat the card led and whatever the leader's
        # partner can follow with: the trick is ours whatever this hand plays.
        pf = _suit_bits(hands[(seat + 2) & 3], led)
        nf = _suit_bits(hands[(seat + 1) & 3], led)
        low_p = _hib(pf & -pf)
        ours_anyway = pf != 0 and low_p > _RANK[wcard] and low_p > _hib(nf)
    if misere and partner_wins and pos == players - 2:
        # Partner led the card now winning, and the last hand, an opponent, can stay under
        # it: the trick is ours whatever this hand plays, which may as well be its highest.
        last = hands[(seat + 1) & (players - 1)]
        below = (1 << _RANK[wcard]) - 1
        follow = _suit_bits(last, led)
        if follow != 0:
            ours_anyway = (follow & below) != 0
        else:
            ours_anyway = not _only_trumps(last, trump) or (
                led == trump and (_suit_bits(last, trump) & below) != 0
            )
    for s in range(4):
        sv = _suit_bits(cands, s)
        rs = _suit_bits(rem, s)
        lead_cost = 0  # a lead's: see below (once a suit, not once a card)
        their = 0  # the opponents' cards of the suit, for a four-hand misère lead
        if misere and pos == 0 and sv != 0 and players == 4:
            lead_cost, their = _misere_lead(hands, seat, s, trump, lead_w)
        elif pos == 0 and sv != 0:
            # Fewer replies, a smaller tree: each opponent's card of the suit is a reply to
            # search, and an opponent without the suit may throw any card (DDS weighs its
            # leads so too).  Of the leads that refute a test, the one with the smallest
            # tree comes first (see the module's documentation for what it saved).
            replies = 0
            for o in (1, 3):
                n_o = _popc(_suit_bits(hands[(seat + o) & (players - 1)], s))
                replies += n_o if n_o > 0 else VOID_REPLIES
            lead_cost = (REPLY_WEIGHT_MISERE if misere else REPLY_WEIGHT_MOST) * replies
        while sv != 0:
            r = _hib(sv)
            sv ^= 1 << r
            c = 13 * s + r
            if c == best_card:
                key = 10000
            elif c == killer:
                key = 5000
            elif c == killer2:
                key = 4000
            elif pos == 0:
                above = rs >> (r + 1)
                if not misere:
                    if above == 0:
                        if _holds(c, hands, players, trump, seat, s, players - 1):
                            key = 300 + r  # a winner: cash it
                        else:
                            key = 150 - r  # a top card they can ruff
                    elif players == 4 and (
                        (_suit_bits(hands[(seat + 2) & 3], s) >> (_hib(above) + r + 1)) & 1
                    ):
                        top = 13 * s + _hib(above) + r + 1
                        # partner holds the top card: lead low to it (unless ruffed)
                        key = 250 - r if _holds(top, hands, players, trump, seat, s, 3) else 120 - r
                    else:
                        key = 100 - r
                        if trump >= 0 and s != trump and players == 4:
                            pt = hands[(seat + 2) & 3]
                            if _suit_bits(pt, s) == 0 and _suit_bits(pt, trump) != 0:
                                key = 220 - r  # partner ruffs
                elif players == 4:
                    # misère lead: see ``_misere_lead``
                    key = lead_w[LEAD_ABOVE] * _popc(their & ((1 << r) - 1)) - lead_w[LEAD_RANK] * r
                else:
                    key = -r  # misère lead, two hands: the lowest card of a suit
                key -= lead_cost
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
                elif ours_anyway:
                    key = 300 + r
                elif not wins or (partner_wins and pos == players - 1):
                    key = 300 + r  # duck (or throw) the highest card that still ducks
                else:
                    key = 100 + r  # a trick we must take: the highest card goes ...
                    if pos < players - 1 and s == led:
                        # ... unless an opponent still to play must beat this one: then it
                        # ducks after all
                        for j in range(1, players - pos):
                            o = (seat + j) & (players - 1)
                            if _side(o, players) != side and _must_beat(_suit_bits(hands[o], s), r):
                                key = 300 + r
                                break
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


@_inline
def _stands_for(c: int, card: int, free: int, inplay: int) -> bool:
    """Is ``card`` the root card ``c`` or in the run ``c`` stands for (see ``_run_length``)?"""
    if c == card:
        return True
    if (free >> c) & 1 == 0 or _SUIT[c] != _SUIT[card] or card < c:
        return False
    s = int(_SUIT[c])
    f = _suit_bits(free, s)
    r = _suit_bits(inplay, s)
    for b in range(int(_RANK[c]) + 1, int(_RANK[card]) + 1):
        if (r >> b) & 1 and (f >> b) & 1 == 0:
            return False
    return True


@_inline
def _run_length(c: int, free: int, inplay: int) -> int:
    """How many cards of ``free`` (one hand's) card ``c`` stands for as the representative
    of its run (see ``_representatives``): itself and those above it, adjacent among
    ``inplay``; 1 for a card outside ``free``."""
    if (free >> c) & 1 == 0:
        return 1
    s = int(_SUIT[c])
    f = _suit_bits(free, s)
    r = _suit_bits(inplay, s)
    n = 1
    for b in range(int(_RANK[c]) + 1, 13):
        if (r >> b) & 1:
            if (f >> b) & 1 == 0:
                break
            n += 1
    return n


# Fields of a search frame (one row of ``frames`` per depth).
(F_LEADER, F_POS, F_LEFT, F_TARGET, F_SEAT, F_MAX, F_CNT, F_IDX, F_STORE, F_W, F_TW) = range(11)
# (F_STORE: 1 if the node's result goes in the table, a trick start it probed; else 0)
F_TABLE = 11  # the cards on the table
F_WIN = 12  # the index in the trick of the card now winning it (pos > 0)
F_SKIP = 13  # cards left to try that a card tried already stands for (see CHILD_DONE)
F_TRACE = 14  # the node's row in ``trace``, if it is traced; else 0
# (with a trace) the nodes counted before this one; the nodes of its cards tried so far that
# failed, and those tried first within them; its own nodes tried first (see ``trace``)
F_N0, F_FAILED, F_FAILED_TRIED_FIRST, F_TRIED_FIRST = range(15, 19)
# the bound its cards so far proved (see ``_search``: the best of the failed cards' upper
# bounds at a node of the root side, the worst of the lower bounds at the other side's)
F_VAL = 19
F_DELTA = 20  # the score the trick the node's card ends adds (its fourth card), else 0
N_FIELDS = 21
MAX_DEPTH = 64
ROOT_ROW = MAX_DEPTH - 1  # row of ``moves`` that holds the root's cards
ENTER, ADVANCE, CHILD_DONE, RETURN = range(4)

# The control array shared with a watching thread (``whist.solver.Control``): it sets
# CTL_STOP; the search polls it every POLL_NODES nodes (well under a millisecond) and then
# returns at once, and publishes its progress there too.
CTL_STOP = 0  # non-zero: stop
CTL_NODES = 1  # nodes searched so far, counted POLL_NODES at a time
CTL_DONE = 2  # legal cards whose value is known
CTL_TOTAL = 3  # legal cards to value
CTL_FIELDS = 4
POLL_NODES = 1024
# ``trace`` (for studies of the search: whist.solver.search_trace): row 0 holds the rows
# written in its first field, and each row after it a trick start the search could not
# decide without searching it (no bound and no table entry did): the hands, the leader, the
# tricks left, the test's target and the root side; once it is searched, the nodes it took
# (itself not counted), ``stats[0]`` as it started, the answer (1 or 0) and its winning
# ranks.  Its second field (``TRACE_TRIED_FIRST``) adds up the nodes spent on cards tried
# before the card that settled their node's test (outside other such cards): what perfect
# move ordering would spare at most, had the subtrees been the same.  A solve passes None:
# numba then compiles the search with every ``trace is not None`` branch pruned away, so
# that tracing costs the solves nothing (a check of an array instead cost about 2% at 8
# tricks in misère); a trace compiles a search of its own.
(T_LEADER, T_LEFT, T_TARGET, T_ROOT_SIDE, T_NODES, T_FIRST, T_RESULT, T_WRES) = range(4, 12)
TRACE_FIELDS = 12
TRACE_TRIED_FIRST = 1

# The transposition table: ``tt[bucket, field, way]``.  An entry holds a bound on the score
# from a trick's start, valid for every position with the same leader and suit lengths in
# every hand (E_SHAPE) whose top ``depth[s]`` cards of each suit s have the same owners
# (E_TOP01, E_TOP23): the cards below those "winning ranks" never decided a trick in the
# search that proved the bound (Haglund & Hein's winning-rank table, on relative ranks).
E_SHAPE, E_INFO, E_TOP01, E_TOP23, E_BEST, E_CHECK = range(6)
TT_FIELDS = 6
# Entries a bucket (the table's last dimension; the caller may make a table with more):
# positions of one shape and leader crowd into few buckets, so ways pay more than buckets:
# for the same memory, 128 ways instead of 32 search 55-70% fewer nodes at 11-12 tricks in
# misère and a third fewer at 13 tricks most, the same at 8 (256: a few fewer nodes, no
# faster).
TT_WAYS = 128
ABSOLUTE_DEPTHS = 0xFFFF
# E_INFO bits: lo 0-4, hi 5-9, depths 12-27 (4 bits a suit), left 28-32.  Way 0 of a bucket
# is its header instead: the generation (bits 33-62) and the entries in use (bits 0-15),
# which fill ways 1 up, and in its E_SHAPE the filter of ``_key_bit``.  A probe then reads
# only the keys (E_SHAPE, leader included: see ``_key``) of the entries in use, and the
# rest of an entry only when its key matches.  On a whole misère deal that is about 235
# entries a probe, half of them of its key (85% of the probes find an entry that decides
# the test).  Yet the scan is not where most of the time goes: a second, full scan of every
# bucket probed made such deals 20-33% slower.  Tags that let a probe skip most of the
# entries of its key (a word an entry with its key's hash and top owners, compared eight
# at a time without branches; or two a word), prefetching a probe's buckets at the trick's
# start, and scanning the newest entries first all searched the same nodes (newest first:
# within 0.5%) in the same time or more (seed 1969759480, deals 0, 6 and 10 of
# bench/solver.py's whole deals, the root's value on one thread).  So did keeping each
# entry's other words together after the bucket's keys, so that checking an entry of the
# position's key reads one or two cache lines instead of four (seed 906032954, deals 3, 8
# and 13, the same measure, both layouts taking turns: 5.7-6.2 s against 5.6-6.0 s), though
# ``perf`` puts about 40% of such a deal's time in the probe's scan and checks and a sixth
# in the cache miss of reading the bucket's header.  Nor do the branches of the scan
# cost it (half the entries of a bucket have the position's key, a branch that mispredicts
# often): matching 32 entries at a time without one, their key and top owners together,
# then the matching ones in order, searched the same nodes in 3-12% more time (seed 777,
# deals 1, 2 and 4, one thread, two runs each by turns).
_KEY_SHAPE = (1 << 60) - 1


@_inline
def _bucket(shape: int, leader: int, sig: int, nbuckets: int) -> int:
    h = (shape ^ (leader << 62)) * _M1
    h ^= h >> 29
    h ^= sig * _M2
    h ^= h >> 32
    h *= _M1
    h ^= h >> 29
    return _never_negative(h & (nbuckets - 1))


@_inline
def _overflow(b: int, nbuckets: int) -> int:
    """The bucket that takes the entries of bucket ``b`` once it is full."""
    o = (((b + 1) * _M2) >> 24) & (nbuckets - 1)
    return _never_negative(o if o != b else b ^ 1)


@_inline
def _signature(lv: np.ndarray, rem: int, left: int, m: int) -> int:
    """Owners of the top ``m`` cards of each suit (all of a shorter suit's): they pick the
    bucket of the entries that fix them (the shape alone crowds too many positions into one
    bucket); never 0, the signature of the bucket of the entries that fix no top owner of
    some suit."""
    sig = 0
    for s in range(4):
        n = _popc(_suit_bits(rem, s))
        k = m if n > m else n
        sig = (sig << 8) | ((lv[left, s] >> (2 * (n - k))) << 4) | k
    return sig


def _pair_mask(depths: int) -> int:
    """The bits of a word of two suits' owners (see ``_owner_words``) that the top
    ``depths`` cards of each fill (4 bits a suit: the lower suit's in bits 0-3)."""
    out = 0
    for j in range(2):
        k = min((depths >> (4 * j)) & 0xF, 13)  # (a suit has 13 cards)
        out |= ((1 << (2 * k)) - 1) << (26 * j + 26 - 2 * k)
    return out


# ``_pair_mask`` of every pair of depths, by table: a probe compares every entry's top
# owners with one AND each word instead of suit by suit.
_PAIR_MASK = np.array([_pair_mask(d) for d in range(256)], dtype=np.int64)


@_inline
def _owner_words(lv: np.ndarray, left: int, rem: int) -> tuple[int, int]:
    """The owners of every card in play of suits 0-1 and of suits 2-3, 26 bits a suit with
    its top card's owner in the top two: the owners of a suit's top ``k`` cards are then
    the word's bits under ``_PAIR_MASK``, whatever the suit's length."""
    w01 = 0
    w23 = 0
    for s in range(4):
        code = lv[left, s] << (26 - 2 * _popc(_suit_bits(rem, s)))
        if s < 2:
            w01 |= code << (26 * s)
        else:
            w23 |= code << (26 * (s - 2))
    return w01, w23


@_inline
def _tops(lv: np.ndarray, left: int, rem: int, depths: int) -> tuple[int, int]:
    """The owners of the top ``depth[s]`` cards of each suit, as ``_owner_words`` under
    ``_PAIR_MASK``: what an entry keeps."""
    w01, w23 = _owner_words(lv, left, rem)
    return w01 & _PAIR_MASK[depths & 0xFF], w23 & _PAIR_MASK[(depths >> 8) & 0xFF]


@_inline
def _depths(w: int, rem: int) -> int:
    out = 0
    for s in range(4):
        out |= _depth_of(w, rem, s) << (4 * s)
    return out


@_inline
def _depth_cards(depths: int, rem: int) -> int:
    """The winning-rank cards of the current position for a stored entry's depths."""
    w = 0
    for s in range(4):
        k = (depths >> (4 * s)) & 0xF
        if k > 0:
            w |= _nth_card(rem, s, k)
    return w


@_inline
def _key(shape: int, leader: int) -> int:
    """An entry's E_SHAPE: the suit lengths with the leader in place of the length of the
    last hand's last suit (at a trick start every hand holds as many cards as the first,
    so that length follows from the others: bits 60-63 of a four-hand shape, unused in
    two-hand shapes and exact keys)."""
    return (shape & _KEY_SHAPE) | (leader << 60)


@_inline
def _key_bit(key: int) -> int:
    """The bit of a key in a bucket's filter (the header's E_SHAPE): the filter has the
    bits of every key the bucket holds, so a probe skips a bucket without its bit."""
    return 1 << (((key * _M1) >> 58) & 63)


@_inline
def _check(key: int, info: int, t01: int, t23: int, gen: int) -> int:
    """An entry's E_CHECK: a hash of its other words that count and of the generation.
    Two threads may share a table (``whist.solver``'s split solves), each reading entries
    while the other writes them, a word at a time: an entry is used only when its check
    is its words' (a reader that caught a write half done, or a slot left by an earlier
    generation, sees a mismatch and takes it for a miss).  Multiplied in turn, so that no
    two changed words cancel out, as they could in a plain XOR."""
    h = (key ^ gen) * _M1
    h = (h ^ (h >> 29) ^ info) * _M2
    h = (h ^ (h >> 32) ^ t01) * _M1
    h = (h ^ (h >> 29) ^ t23) * _M2
    return h ^ (h >> 32)


@_inline
def _used(tt: np.ndarray, b: int, gen: int) -> int:
    """Entries of bucket ``b`` in use (ways 1 up; way 0 is the bucket's header): none
    when the header is an earlier generation's."""
    head = tt[b, E_INFO, 0]
    return head & 0xFFFF if (head >> 33) == gen else 0


@_inline
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
    lv: np.ndarray,
    flip: bool,
    levels: int,
) -> None:
    """Record "score >= target" (``result``) or "score < target" for the trick-start
    position in ``hands``, valid down to the winning ranks ``w``.  The table holds side 0's
    tricks (so that solves from either side's seat share it): with ``flip`` the score is
    ``left`` minus those, and "score >= target" is "side 0's < left - target + 1"."""
    if flip:
        target = left - target + 1
        result = not result
    rem = lv[left, L_INPLAY]
    if absolute:
        shape = hands[0]
        depths = ABSOLUTE_DEPTHS
        t01 = hands[1]
        t23 = 0
    else:
        shape = lv[left, L_SHAPE]
        depths = _depths(w, rem)
        t01, t23 = _tops(lv, left, rem, depths)
    if absolute:
        sig = t01
    else:
        # the bucket of the deepest level (up to ``levels``) whose top owners the entry
        # fixes in every suit (see _signature); level 0: the shape's own bucket
        level = levels
        for s in range(4):
            k = (depths >> (4 * s)) & 0xF
            n = _popc(_suit_bits(rem, s))
            if k < n and k < level:
                level = k
        sig = 0 if level == 0 else _signature(lv, rem, left, level)
    key = _key(shape, leader)
    b = _bucket(shape, leader, sig, tt.shape[0])
    victim = -1
    found = False
    for part in range(2):
        if part == 1:
            # a full bucket keeps its entries and sends new ones to its overflow bucket
            # (where the shallowest entry makes room once that is full too)
            b = _overflow(b, tt.shape[0])
        used = _used(tt, b, gen)
        for e in range(1, used + 1):
            if (
                tt[b, E_SHAPE, e] == key
                and ((tt[b, E_INFO, e] >> 12) & 0xFFFF) == depths
                and tt[b, E_TOP01, e] == t01
                and tt[b, E_TOP23, e] == t23
            ):
                victim = e
                found = True
                break
        if found:
            break
        if used < tt.shape[2] - 1:
            victim = used + 1
            tt[b, E_INFO, 0] = (gen << 33) | victim
            tt[b, E_SHAPE, 0] = (tt[b, E_SHAPE, 0] if used > 0 else 0) | _key_bit(key)
            break
        if part == 1:
            victim_left = 99
            for e in range(1, used + 1):
                eleft = (tt[b, E_INFO, e] >> 28) & 0x1F
                if eleft < victim_left:
                    victim = e
                    victim_left = eleft
            tt[b, E_SHAPE, 0] |= _key_bit(key)
    lo = 0
    hi = left
    if found:
        info = tt[b, E_INFO, victim]
        if tt[b, E_CHECK, victim] == _check(key, info, t01, t23, gen):
            lo = info & 0x1F
            hi = (info >> 5) & 0x1F
    else:
        tt[b, E_BEST, victim] = -1
    if result:
        if target > lo:
            lo = target
    elif target - 1 < hi:
        hi = target - 1
    if chosen >= 0:
        tt[b, E_BEST, victim] = _card_code(chosen, rem)  # the best lead
    info = lo | (hi << 5) | (depths << 12) | (left << 28)
    tt[b, E_SHAPE, victim] = key
    tt[b, E_TOP01, victim] = t01
    tt[b, E_TOP23, victim] = t23
    tt[b, E_INFO, victim] = info
    tt[b, E_CHECK, victim] = _check(key, info, t01, t23, gen)


# Per trick (row ``left`` of ``lv``), kept as the search goes: the owners of the cards of
# each suit in play at the trick's start (as ``_owners``; the cards on the table count as
# their players'), the suit lengths (as ``_shape``) and the cards in play; and, for move
# ordering, each seat's two "killer" leads at that trick.
L_INPLAY = 4
L_SHAPE = 5
L_KILLER = 6  # + seat: 1 + the _card_code of its last lead that refuted a test (misère)
L_KILLER2 = 10  # + seat: the same for the one before that
L_FIELDS = 14


@_inline
def _init_level(
    hands: np.ndarray,
    trick: np.ndarray,
    left: int,
    pos: int,
    leader: int,
    players: int,
    lv: np.ndarray,
    held: np.ndarray,
) -> None:
    """Row ``left`` of ``lv`` for the search's first trick, whose first ``pos`` cards are on
    the table (``held``: a buffer of four hands)."""
    for h in range(players):
        held[h] = hands[h]
    for j in range(pos):
        held[(leader + j) & (players - 1)] |= 1 << trick[left, j]
    inplay = 0
    for h in range(players):
        inplay |= held[h]
    for s in range(4):
        lv[left, s] = _owners(held, players, s)
    lv[left, L_INPLAY] = inplay
    lv[left, L_SHAPE] = _shape(held, players)


@_inline
def _next_level(trick: np.ndarray, left: int, leader: int, players: int, lv: np.ndarray) -> None:
    """Row ``left - 1`` of ``lv`` from row ``left`` and the trick just completed."""
    ip = lv[left, L_INPLAY]
    sh = lv[left, L_SHAPE]
    o0 = lv[left, 0]
    o1 = lv[left, 1]
    o2 = lv[left, 2]
    o3 = lv[left, 3]
    for j in range(players):
        c = trick[left, j]
        s = _SUIT[c]
        r = _RANK[c]
        p = 2 * _popc(_suit_bits(ip, s) & ((1 << r) - 1))
        low = (1 << p) - 1
        if s == 0:
            o0 = ((o0 >> (p + 2)) << p) | (o0 & low)
        elif s == 1:
            o1 = ((o1 >> (p + 2)) << p) | (o1 & low)
        elif s == 2:
            o2 = ((o2 >> (p + 2)) << p) | (o2 & low)
        else:
            o3 = ((o3 >> (p + 2)) << p) | (o3 & low)
        ip ^= 1 << c
        sh -= 1 << (16 * ((leader + j) & (players - 1)) + 4 * s)
    lv[left - 1, 0] = o0
    lv[left - 1, 1] = o1
    lv[left - 1, 2] = o2
    lv[left - 1, 3] = o3
    lv[left - 1, L_INPLAY] = ip
    lv[left - 1, L_SHAPE] = sh


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
    lv: np.ndarray,
    table0: int,
    ctl: np.ndarray,
    flip: bool,
    levels: int,
    trace: np.ndarray | None,
) -> bool:
    """Can the root side reach ``score >= target0`` over the ``left0`` tricks from here (the
    current trick, ``trick[left0]``, has ``pos0`` cards), when the seat to act plays
    one of the cards in ``only`` (a mask; any card if 0)?  If ``ctl[CTL_STOP]`` is set it
    returns False at once, its answer meaningless (the caller checks the flag): what it
    stored in the table so far stays valid, every entry being a finished test's.  A root
    limited to some cards is neither looked up in the table nor stored (an entry bounds the
    best of all the cards).  After a test that
    succeeds with a card at the root, ``frames[0, F_IDX]`` is that card's index in
    ``moves[0]`` (-1 when the root was decided without trying a card), and after any test
    ``frames[0, F_VAL]`` is the bound on the score it proved: at least ``target0`` if it
    succeeds, below it if not.

    Depth-first search with an explicit stack (``frames``, ``moves`` rows by depth): numba
    cannot cache self-recursive functions.  Every node also returns ``wres``, the cards
    whose ranks the result depends on (winning ranks), and ``val``, the bound it proved."""
    nbuckets = tt.shape[0]
    d = 0
    frames[0, F_LEADER] = leader0
    frames[0, F_POS] = pos0
    frames[0, F_LEFT] = left0
    frames[0, F_TARGET] = target0
    frames[0, F_TABLE] = table0
    frames[0, F_IDX] = -1
    state = ENTER
    result = False
    wres = 0
    val = 0
    polls = 0
    while True:
        d = _never_negative(d)
        if state == ENTER:
            leader = _never_negative(frames[d, F_LEADER])
            pos = _never_negative(frames[d, F_POS])
            left = _never_negative(frames[d, F_LEFT])
            target = frames[d, F_TARGET]
            frames[d, F_STORE] = 0
            frames[d, F_W] = 0
            frames[d, F_SKIP] = 0
            if trace is not None:
                frames[d, F_TRACE] = 0
                frames[d, F_N0] = stats[0]
                frames[d, F_FAILED] = 0
                frames[d, F_FAILED_TRIED_FIRST] = 0
                frames[d, F_TRIED_FIRST] = 0
            state = RETURN
            wres = 0
            if target <= 0:
                result = True
                val = 0
                continue
            if target > left:
                result = False
                val = left
                continue
            stats[0] += 1
            stats[10 + left] += 1
            polls += 1
            if polls == POLL_NODES:
                polls = 0
                ctl[CTL_NODES] += POLL_NODES
                if ctl[CTL_STOP] != 0:
                    return False
            seat = (leader + pos) & (players - 1)
            frames[d, F_SEAT] = seat
            maxing = _side(seat, players) == root_side
            frames[d, F_MAX] = 1 if maxing else 0
            frames[d, F_VAL] = -1 if maxing else 99
            table = frames[d, F_TABLE]
            rem = lv[left, L_INPLAY] & ~table
            best_card = -1
            if d == 0 and only != 0 and only & (only - 1) == 0:
                moves[0, 0] = _hib(only)
                frames[0, F_CNT] = 1
                frames[0, F_IDX] = 0
                state = ADVANCE
                continue
            if misere and pos == 0 and left == 2 and players == 4 and nblk == 0:
                # (in most tricks the quick tricks decide most of these nodes on fewer
                # cards than every line depends on, which keeps the table's entries above
                # them coarser: there this made 13-trick solves 20% slower)
                around = _from_leader(hands, leader)
                result, wres = _two_tricks(around, trump, (leader & 1) == root_side, target)
                val = target if result else target - 1
                continue
            if not misere and pos == 1 and players == 4 and nblk == 0:
                # Most tricks, second hand: tricks its side takes for sure from here (the
                # trick, then the winner's top cards in no trump) decide the test.
                ours = _side(seat, players) == root_side
                need = _need(ours, target, left)
                q, wq = _second_hand_tricks(hands, trump, trick[left, 0], seat, need)
                if q >= need:
                    stats[35] += 1
                    result = ours
                    val = q if ours else left - q
                    wres = wq
                    continue
            if misere and pos > 0 and (target == 1 or target == left):
                # Misère, a trick under way, and one more trick for one side decides: the
                # side now winning it (Z) takes it if every hand of the other side still to
                # play can put on a card that does not beat the winning card (and the other
                # side wants Z to take tricks, so it will).
                wbest = _never_negative(frames[d, F_WIN])
                wc = trick[left, wbest]
                zs = _side((leader + wbest) & (players - 1), players)
                if (zs == root_side) == (target == left):
                    ws = _SUIT[wc]
                    beaters = (SUIT_BITS << (13 * ws)) & ~((2 << wc) - 1)
                    if trump >= 0 and ws != trump:
                        beaters |= SUIT_BITS << (13 * trump)
                    ducks = True
                    for j in range(pos, players):
                        sj = (leader + j) & (players - 1)
                        if (
                            _side(sj, players) != zs
                            and (_legal(hands, trick, left, sj, j, blk, nblk) & ~beaters) == 0
                        ):
                            ducks = False
                            break
                    if ducks:
                        stats[39] += 1
                        result = zs != root_side
                        val = 1 if result else left - 1
                        wres = 1 << wc  # the followers' cards below it: its rank counts
                        continue
            if pos == 0:
                stats[24] += 1
                ls = _side(leader, players)
                if nblk == 0 and not misere:
                    ours = ls == root_side
                    need = _need(ours, target, left)
                    q, wq = _quick_tricks(hands, players, trump, rem, leader, need)
                    if q >= need:
                        stats[31 if ours else 32] += 1
                        result = ours
                        val = q if ours else left - q
                        wres = wq
                        continue
                if trump >= 0:
                    # Top trumps are taken by their side whatever it wants.
                    sure_0, w_0, sure_1, w_1 = _sure_trumps(hands, players, trump, rem)
                    if root_side == 0:
                        sure_r, w_r, sure_o, w_o = sure_0, w_0, sure_1, w_1
                    else:
                        sure_r, w_r, sure_o, w_o = sure_1, w_1, sure_0, w_0
                    if misere:
                        sure_r, sure_o = sure_o, sure_r
                        w_r, w_o = w_o, w_r
                    if sure_r >= target:
                        stats[33] += 1
                        result = True
                        val = sure_r
                        wres = w_r
                        continue
                    if left - sure_o < target:
                        stats[34] += 1
                        result = False
                        val = left - sure_o
                        wres = w_o
                        continue
                if misere and nblk == 0:
                    # Tricks a side cannot avoid when the other side helps it to them.
                    f_o, wf_o = _forced(hands, players, trump, leader, 1 - root_side, left, target)
                    if f_o >= target:
                        stats[37] += 1
                        result = True
                        val = f_o
                        wres = wf_o
                        continue
                    f_r, wf_r = _forced(
                        hands, players, trump, leader, root_side, left, left - target + 1
                    )
                    if left - f_r < target:
                        stats[38] += 1
                        result = False
                        val = left - f_r
                        wres = wf_r
                        continue
                if use_tt and (d > 0 or only == 0):
                    stats[1] += 1
                    shape = hands[0] if absolute else lv[left, L_SHAPE]
                    key = _key(shape, leader)
                    kbit = _key_bit(key)
                    frames[d, F_STORE] = 1
                    cut = False
                    near_card = -1  # a similar position's best lead (other top owners)
                    # the bucket of the entries that fix the top two owners of every suit
                    # (with ``levels`` 2), the bucket of those that fix the top owner, then
                    # the bucket of the others (the same bucket is looked in once)
                    prev_sig = -1
                    cur01, cur23 = (0, 0) if absolute else _owner_words(lv, left, rem)
                    for level in range(levels, -1, -1):
                        if absolute:
                            if level > 0:
                                continue
                            sig = hands[1]
                        else:
                            sig = 0 if level == 0 else _signature(lv, rem, left, level)
                            if sig == prev_sig:
                                continue
                            prev_sig = sig
                        b = _bucket(shape, leader, sig, nbuckets)
                        used = tt.shape[2] - 1
                        for part in range(2):
                            if part == 1:
                                if used < tt.shape[2] - 1:
                                    break
                                b = _overflow(b, nbuckets)  # a full bucket's: see _store
                            used = _used(tt, b, gen)
                            scan = used if tt[b, E_SHAPE, 0] & kbit else 0
                            for e in range(1, scan + 1):
                                if tt[b, E_SHAPE, e] != key:
                                    continue
                                info = tt[b, E_INFO, e]
                                depths = (info >> 12) & 0xFFFF
                                if absolute:
                                    t01 = hands[1]
                                    t23 = 0
                                else:
                                    t01 = cur01 & _PAIR_MASK[depths & 0xFF]
                                    t23 = cur23 & _PAIR_MASK[(depths >> 8) & 0xFF]
                                if tt[b, E_TOP01, e] != t01 or tt[b, E_TOP23, e] != t23:
                                    if near_card < 0 and not misere:
                                        bc = tt[b, E_BEST, e]
                                        if bc >= 0:
                                            near_card = _code_card(bc, rem)
                                    continue
                                if tt[b, E_CHECK, e] != _check(key, info, t01, t23, gen):
                                    continue  # half written by another thread: a miss
                                elo = info & 0x1F  # side 0's tricks: see _store
                                ehi = (info >> 5) & 0x1F
                                if flip:
                                    elo, ehi = left - ehi, left - elo
                                if elo >= target:
                                    result = True
                                    val = elo
                                    cut = True
                                elif ehi < target:
                                    result = False
                                    val = ehi
                                    cut = True
                                if cut:
                                    stats[30] += 1
                                    if not absolute:
                                        wres = _depth_cards(depths, rem)
                                    break
                                stats[36] += 1
                                bc = tt[b, E_BEST, e]
                                # (in misère the killers below order better than the table's
                                # lead: that lead first, then the killers, searched 0.4% more
                                # nodes at 8 tricks, three seeds)
                                if bc >= 0 and best_card < 0 and not misere:
                                    best_card = _code_card(bc, rem)
                            if cut:
                                break
                        if cut:
                            break
                    if cut:
                        continue
                    if best_card < 0:
                        best_card = near_card
            if (
                misere
                and pos == 0
                and left == 3
                and players == 4
                and nblk == 0
                and (d > 0 or only == 0)
            ):
                around = _from_leader(hands, leader)
                result, wres = _three_tricks(around, trump, (leader & 1) == root_side, target)
                val = target if result else target - 1
                if frames[d, F_STORE] == 1:
                    _store(
                        tt,
                        hands,
                        players,
                        absolute,
                        leader,
                        gen,
                        left,
                        target,
                        result,
                        wres,
                        -1,
                        lv,
                        flip,
                        levels,
                    )
                continue
            if trace is not None and pos == 0 and d > 0 and trace[0, 0] + 1 < trace.shape[0]:
                row = trace[0, 0] + 1
                trace[0, 0] = row
                for h in range(players):
                    trace[row, h] = hands[h]
                trace[row, T_LEADER] = leader
                trace[row, T_LEFT] = left
                trace[row, T_TARGET] = target
                trace[row, T_ROOT_SIDE] = root_side
                trace[row, T_FIRST] = stats[0]
                frames[d, F_TRACE] = row
            hand = hands[seat]
            legal = _legal(hands, trick, left, seat, pos, blk, nblk)
            invol = _involved(hand, blk, nblk) if nblk > 0 else 0
            cands = _representatives(legal, rem | table, invol)
            if d == 0 and only != 0:
                cands &= only
            killer = -1
            killer2 = -1
            if misere and pos == 0:
                # the misère leads that last refuted a test at this trick often refute the
                # next one too (the "killer heuristic"); most tricks gains nothing by it
                # (see the module's documentation).
                # Since the leads are ordered by their replies the killers save little
                # (8 tricks, three seeds: -1% to 6% of the nodes), though a killer of another
                # suit than the lead that refutes is where most of the misère nodes spent
                # on wrong leads go; ranking a killer within its suit's place in the reply
                # order, or 2.5 replies up, changed the nodes by -4% to +1%.  A history of
                # every seat's refuting leads (each lead's key raised by 2^left, or 8 * 2^left,
                # a refutation, capped at one or three replies) searched 0.3-2% fewer nodes
                # and took 0.3-3% more time (three seeds): not kept.  Leads tried before the
                # one that refuted a test cost 15.5% of the nodes (seed 1029074727, counted
                # at each node that a later lead settled, nested ones again), half of it
                # after a killer that failed; without killers 23%, and 2.7-3.9% more nodes
                # in all (two seeds); with the last killer alone -0.9% to +1.5% (four).
                if lv[left, L_KILLER + seat] > 0:
                    killer = _code_card(lv[left, L_KILLER + seat] - 1, rem)
                if lv[left, L_KILLER2 + seat] > 0:
                    killer2 = _code_card(lv[left, L_KILLER2 + seat] - 1, rem)
            if cands & (cands - 1) == 0:
                moves[d, 0] = _hib(cands)
                frames[d, F_CNT] = 1
                frames[d, F_IDX] = 0
                state = ADVANCE
                continue
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
                frames[d, F_WIN],
                killer,
                killer2,
            )
            frames[d, F_IDX] = 0
            state = ADVANCE
        elif state == ADVANCE:
            i = _never_negative(frames[d, F_IDX])
            skip = frames[d, F_SKIP]
            while i < frames[d, F_CNT] and (skip >> moves[d, i]) & 1:
                i += 1
            frames[d, F_IDX] = i
            if i >= frames[d, F_CNT]:
                # every card tried, none reached the node's goal
                if trace is not None:  # every card was needed
                    frames[d, F_TRIED_FIRST] = frames[d, F_FAILED_TRIED_FIRST]
                result = frames[d, F_MAX] == 0
                val = frames[d, F_VAL]
                wres = frames[d, F_W]  # every card's line counts
                if d > 0 or only == 0:
                    # the equivalences the node used, found again only now
                    seat = _never_negative(frames[d, F_SEAT])
                    hand = hands[seat]
                    inplay = lv[frames[d, F_LEFT], L_INPLAY]
                    legal = _legal(
                        hands, trick, frames[d, F_LEFT], seat, frames[d, F_POS], blk, nblk
                    )
                    invol = _involved(hand, blk, nblk) if nblk > 0 else 0
                    merged = _merged(_representatives(legal, inplay, invol), legal & ~invol, inplay)
                    if merged != 0:
                        wres = _cover_merged(wres, merged, hand, inplay)
                if frames[d, F_STORE] == 1:
                    _store(
                        tt,
                        hands,
                        players,
                        absolute,
                        frames[d, F_LEADER],
                        gen,
                        frames[d, F_LEFT],
                        val if result else val + 1,
                        result,
                        wres,
                        -1,
                        lv,
                        flip,
                        levels,
                    )
                state = RETURN
                continue
            c = _never_negative(moves[d, i])
            frames[d, F_TW] = 0
            frames[d, F_DELTA] = 0
            seat = _never_negative(frames[d, F_SEAT])
            leader = _never_negative(frames[d, F_LEADER])
            pos = _never_negative(frames[d, F_POS])
            left = _never_negative(frames[d, F_LEFT])
            target = frames[d, F_TARGET]
            hands[seat] ^= 1 << c
            trick[left, pos] = c
            wbest = 0
            if pos > 0:
                wbest = _never_negative(frames[d, F_WIN])
                if _beats(c, trick[left, wbest], trump):
                    wbest = pos
            if pos + 1 == players:
                wc = trick[left, wbest]
                # the winner's rank matters if it beat a card of its own suit
                on_table = frames[d, F_TABLE] | (1 << c)
                if _suit_bits(on_table, _SUIT[wc]) != (1 << _RANK[wc]):
                    frames[d, F_TW] = 1 << wc
                w = (leader + wbest) & (players - 1)
                delta = 1 if (_side(w, players) == root_side) != misere else 0
                frames[d, F_DELTA] = delta
                if left == 1:
                    result = delta >= target
                    val = 0  # the (empty) rest of the deal's: the trick's delta is added
                    wres = 0
                    if trace is not None:  # (no child node: nothing searched below)
                        frames[d + 1, F_N0] = stats[0]
                        frames[d + 1, F_TRIED_FIRST] = 0
                    state = CHILD_DONE
                    continue
                _next_level(trick, left, leader, players, lv)
                frames[d + 1, F_LEADER] = w
                frames[d + 1, F_POS] = 0
                frames[d + 1, F_LEFT] = left - 1
                frames[d + 1, F_TARGET] = target - delta
                frames[d + 1, F_TABLE] = 0
            else:
                frames[d + 1, F_LEADER] = leader
                frames[d + 1, F_POS] = pos + 1
                frames[d + 1, F_LEFT] = left
                frames[d + 1, F_TARGET] = target
                frames[d + 1, F_TABLE] = frames[d, F_TABLE] | (1 << c)
                frames[d + 1, F_WIN] = wbest
            d += 1
            state = ENTER
        elif state == CHILD_DONE:
            # the card moves[d, idx] led to ``result`` with winning ranks ``wres``
            c = _never_negative(moves[d, frames[d, F_IDX]])
            hands[frames[d, F_SEAT]] ^= 1 << c
            val += frames[d, F_DELTA]  # the child's bound counted from this node
            if trace is not None:
                if result == (frames[d, F_MAX] == 1):  # the cards that failed before it
                    frames[d, F_TRIED_FIRST] = frames[d, F_FAILED] + frames[d + 1, F_TRIED_FIRST]
                else:
                    frames[d, F_FAILED] += stats[0] - frames[d + 1, F_N0]
                    frames[d, F_FAILED_TRIED_FIRST] += frames[d + 1, F_TRIED_FIRST]
            if result == (frames[d, F_MAX] == 1):
                # one card suffices: the node's result rests on this line alone
                wres |= frames[d, F_TW]
                if misere and frames[d, F_POS] == 0:
                    kl = _never_negative(frames[d, F_LEFT])
                    ks = _never_negative(frames[d, F_SEAT])
                    kc = 1 + _card_code(c, lv[kl, L_INPLAY])
                    if lv[kl, L_KILLER + ks] != kc:
                        lv[kl, L_KILLER2 + ks] = lv[kl, L_KILLER + ks]
                        lv[kl, L_KILLER + ks] = kc
                stats[2 + frames[d, F_POS]] += 1
                stats[6 + frames[d, F_POS]] += frames[d, F_IDX]
                if frames[d, F_STORE] == 1:
                    _store(
                        tt,
                        hands,
                        players,
                        absolute,
                        frames[d, F_LEADER],
                        gen,
                        frames[d, F_LEFT],
                        val if result else val + 1,
                        result,
                        wres,
                        c,
                        lv,
                        flip,
                        levels,
                    )
                state = RETURN
            else:
                fw = frames[d, F_W] | wres | frames[d, F_TW]
                frames[d, F_W] = fw
                if frames[d, F_MAX] == 1:
                    if val > frames[d, F_VAL]:
                        frames[d, F_VAL] = val
                elif val < frames[d, F_VAL]:
                    frames[d, F_VAL] = val
                # The lines after this card depend on no rank of its suit below the lowest
                # card the node's lines so far depend on: if this card is below it, so is
                # every card of its suit left to try there, and those stand for it (the
                # result carries over, as the table's entries do, to positions that differ
                # only below that card).  Haglund & Hein: one "small" card a suit.
                cs = _SUIT[c]
                ws = _suit_bits(fw, cs)
                low = 13 if ws == 0 else _hib(ws & -ws)
                if _RANK[c] < low and nblk == 0:  # (a blocker's down card is no small card)
                    frames[d, F_SKIP] |= ((1 << low) - 1) << (13 * cs)
                frames[d, F_IDX] += 1
                state = ADVANCE
        else:  # RETURN: node d is done with ``result`` and ``wres``
            if trace is not None and frames[d, F_TRACE] > 0:
                row = frames[d, F_TRACE]
                trace[row, T_NODES] = stats[0] - trace[row, T_FIRST]
                trace[row, T_RESULT] = 1 if result else 0
                trace[row, T_WRES] = wres
            if d == 0:
                if trace is not None:
                    trace[0, TRACE_TRIED_FIRST] += frames[0, F_TRIED_FIRST]
                frames[0, F_VAL] = val
                return result
            d -= 1
            state = CHILD_DONE


@_inline
def _card_bounds(
    lo_out: np.ndarray, hi_out: np.ndarray, c: int, lo: int, hi: int, misere: bool, left: int
) -> None:
    """Card ``c``'s bounds on the side to act's tricks, from bounds on the score."""
    if misere:
        lo, hi = left - hi, left - lo
    hi_out[c] = hi  # (the high bound first: a reader sees lo == hi only once both are in)
    lo_out[c] = lo


@numba.njit(cache=True, nogil=True)
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
    every_card: bool,
    guess: int,
    graded: int,
    known: int,
    lo_out: np.ndarray,
    hi_out: np.ndarray,
    stats: np.ndarray,
    ctl: np.ndarray,
    levels: int,
    suits: int,
    trace: np.ndarray | None,
) -> int:
    """Returns the tricks of the side to act under best play (the current trick included),
    or -1 if stopped through ``ctl`` before that was known (or, with ``every_card``, before
    every card was valued).  With ``every_card`` it fills ``lo_out[card]``..``hi_out[card]``
    for each legal card (others -1): the card's tricks, equal bounds once it is done, else
    the bounds the tests so far proved.  ``graded`` (a legal card, or -1): grading that
    card, only it gets its exact value; every other card is only known to reach the best
    value or not (its bounds then exclude the best), one test a card.  ``known`` (-1:
    none): the graded card's value, known to the caller (an analysis has just solved the
    position it leads to): the search then only asks whether another card does better.
    ``guess``: the value expected, where the search starts (-1: none).  ``ctl``: see
    ``CTL_STOP``.  ``levels``: 1, or 2 to give the entries that fix the owners of the top two
    cards of every suit buckets of their own (see ``_signature``).  ``suits`` (0: none): a
    mask of cards (whole suits, or one card), which limits the root to its legal cards in
    it (at least one): the value and the cards are then those of that part of the choice
    alone.  ``trace``: see ``TRACE_FIELDS`` (None: no tracing)."""
    hands = hands_in.copy()
    seat = (leader + ntrick) & (players - 1)
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
    lv = np.zeros((left + 2, L_FIELDS), dtype=np.int64)
    wroot = 0
    for i in range(1, ntrick):
        if _beats(trick[left, i], trick[left, wroot], trump):
            wroot = i
    frames[0, F_WIN] = wroot
    _init_level(hands, trick, left, ntrick, leader, players, lv, np.zeros(4, dtype=np.int64))
    for c in range(52):
        lo_out[c] = -1
        hi_out[c] = -1
    absolute = nblk > 0
    if absolute and players != 2:
        use_tt = False
    flip = (root_side == 1) != misere  # the score is side 1's tricks (see _store)
    rem = 0
    for h in range(players):
        rem |= hands[h]
    # (an int64, not a literal 0: numba would compile the search once more for each
    # variable first typed as the literal 0, then as an integer)
    table = _int64(0)
    for i in range(ntrick):
        table |= 1 << trick[left, i]
    hand = hands[seat]
    legal = _legal(hands, trick, left, seat, ntrick, blk, nblk)
    if suits != 0:
        legal &= suits
    invol = _involved(hand, blk, nblk) if nblk > 0 else 0
    reps = _representatives(legal, rem | table, invol)
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
        wroot,
        -1,
        -1,
    )
    root_moves = moves[ROOT_ROW, :cnt].copy()
    # Each root card's score so far proved: rlo[i] <= score <= rhi[i].
    rlo = np.zeros(cnt, dtype=np.int64)
    rhi = np.full(cnt, left, dtype=np.int64)
    free = legal & ~invol
    runs = np.ones(cnt, dtype=np.int64)  # legal cards each root card stands for
    for i in range(cnt):
        runs[i] = _run_length(root_moves[i], free, rem | table)
    ctl[CTL_TOTAL] = _popc(legal)
    ctl[CTL_DONE] = 0
    stopped = ctl[CTL_STOP] != 0
    # The position's value first (any card), by null-window tests: by bisection, or given a
    # guess, from the guess one trick at a time (a close guess takes two or three tests) ...
    lo = 0
    hi = left
    only = _int64(0)  # any card, or the root's cards in ``suits``
    if cnt == 1 or suits != 0:
        for i in range(cnt):
            only |= 1 << root_moves[i]
    step = 0 <= guess <= left
    g = (guess if not misere else left - guess) if step else 0
    if misere and not step:
        # Misère without a guess: one trick at a time from the bottom.  A test far from the
        # value on either side is cheap, the two next to it dear; bisection's first test,
        # half way, is dear too, as the score (the other side's tricks) mostly lies low:
        # the side on lead in misère takes most tricks.  On 13-trick no-trump deals 27%
        # and 47% fewer nodes (two seeds), at 8 tricks 2% fewer.  Nor would a better
        # guess pay at 8 tricks: every card valued, starting from the exact value saved
        # 2.7% and 1.6% of the misère nodes (seeds 1186585710 and 777), a trick too high
        # 1.8% and 0.1%.
        step = True
        g = 1
    if graded >= 0 and 0 <= known <= left:
        # the graded card reaches its known score, and no more: only the cards that might
        # beat it are left to test, from one trick above it up
        sk = known if not misere else left - known
        for i in range(cnt):
            if _stands_for(root_moves[i], graded, free, rem | table):
                rlo[i] = sk
                rhi[i] = sk
        lo = sk
        step = True
        g = sk + 1
    # (with every card wanted and none graded, the cards' own tests below find the value)
    whole = not every_card or graded >= 0
    while whole and lo < hi and not stopped:
        mid = min(max(g, lo + 1), hi) if step else (lo + hi + 1) // 2
        ok = _search(
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
            lv,
            table,
            ctl,
            flip,
            levels,
            trace,
        )
        if ctl[CTL_STOP] != 0:
            stopped = True
        elif ok:
            # the test may have proved more than it asked (see ``_search``)
            lo = max(mid, frames[0, F_VAL])
            g = lo + 1
            k = frames[0, F_IDX]
            if k >= 0:  # the card that reached it: a bound for that card alone
                for i in range(cnt):
                    if root_moves[i] == moves[0, k] and rlo[i] < lo:
                        rlo[i] = lo
        else:
            hi = min(mid - 1, frames[0, F_VAL])
            g = hi
            for i in range(cnt):  # no card reaches mid
                if rhi[i] > hi:
                    rhi[i] = hi
    best = lo if whole else -1
    if not every_card:
        return -1 if stopped else (best if not misere else left - best)
    # ... then each card (an analysis grading one: from the value down, as most cards reach
    # it or fall short by a trick).  Every card wanted: each card on its own, the first as
    # the value above, each other from the best so far, up or down a trick at a time.  A
    # card below the best is then never tested above it, as a test of every card at one
    # trick above the value did.  At 8 tricks, each position timed 5 times by turns with
    # the code before, the fastest kept, six seeds: 0.4-4.7% less time in misère (nodes
    # +0.2% to -3.7%) and 0.4-5.9% in most tricks; 6.6% at 13 tricks most (one seed);
    # whole misère deals (two threads, suit by suit with a guess) took the same.  Finding
    # the value with any card first, as DDS does, so that each card is then tested from it
    # with the best already proved, searched 2-8% more nodes at 13 tricks, most tricks
    # (four seeds).
    for i in range(cnt):
        if stopped:
            break
        c = root_moves[i]
        alone = graded >= 0 and not _stands_for(c, graded, free, rem | table)
        t = best if best >= 0 else g
        while rlo[i] < rhi[i]:
            if alone and rhi[i] < best:
                break  # grading another card: this one is below the best, enough
            if best < 0 and not step:
                t = (rlo[i] + rhi[i] + 1) // 2
            t = min(max(t, rlo[i] + 1), rhi[i])
            ok = _search(
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
                t,
                1 << c,
                lv,
                table,
                ctl,
                flip,
                levels,
                trace,
            )
            if ctl[CTL_STOP] != 0:
                stopped = True
                break
            if ok:
                rlo[i] = max(t, frames[0, F_VAL])
                t = rlo[i] + 1
            else:
                rhi[i] = min(t - 1, frames[0, F_VAL])
                t = rhi[i]
        if not stopped:
            if rlo[i] == rhi[i] and rlo[i] > best:
                best = rlo[i]
            ctl[CTL_DONE] += runs[i]
            # at once, for a thread helping with this solve (see whist.solver's _run_split)
            _card_bounds(lo_out, hi_out, c, rlo[i], rhi[i], misere, left)
    for i in range(cnt):
        _card_bounds(lo_out, hi_out, root_moves[i], rlo[i], rhi[i], misere, left)
    # Equivalent cards share their representative's bounds.
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
                    if lo_out[c] >= 0:
                        cur = c
                    elif cur >= 0:
                        lo_out[c] = lo_out[cur]
                        hi_out[c] = hi_out[cur]
                else:
                    cur = -1
    return -1 if stopped else (best if not misere else left - best)
