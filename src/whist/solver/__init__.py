"""Exact perfect-information ("double dummy") solver for whist-family trick taking.

    from whist.solver import solve
    solve(hands, trump, leader, trick, most=True)  # {card: tricks for the side to act}
    solve_bounds(..., control=control)  # {card: (lo, hi)}: stoppable from another thread

Cards and hands use :mod:`whist.core.cards` (a card is ``suit * 13 + rank - 2``, a hand a
52-bit mask).  Four hands: seats ``s`` and ``s + 2`` are partners; two hands: each seat is its
own side.  ``most=True`` is ordinary whist (every side takes as many tricks as it can, the
same game a bridge double-dummy solver analyses); ``most=False`` is misère (Minnesota low,
Swedish nollspel, a Plockwhist pass: every side takes as few as it can).

Solving the positions of one deal one after another (an analysis solves the position before
each card played), pass ``keep_table=True`` to every solve: the transposition table then
keeps what the earlier solves learnt (its entries hold for any position with the same
trump, objective and blockers, from either side's seat), and later positions, whose
subtrees the earlier solves mostly searched already, cost a fraction::

    for hands, leader, trick in positions_of_the_deal:
        values = solve(hands, trump, leader, trick, most, keep_table=True)

A solve without ``keep_table`` (as MASTER's many small ones) starts from an empty table,
and so does one whose trump, objective or blockers differ from the previous solve's.

Every card of a four-hand misère position from 12 tricks left (a whole Minnesota low deal)
is valued on two threads where the process may use two cores: suit by suit, each thread
taking the next suit, both searching the solve's table (see ``_run_split``).

For studies of the search, :func:`nodes_searched` counts its nodes and :func:`search_trace`
lists the trick starts a solve had to search (``bench/solver.py``, ``bench/misere_headroom.py``).

The search itself is :mod:`whist.solver.kernel` (numba, cached on disk on first use);
:mod:`whist.solver.brute` is a slow plain-Python minimax with the same signature, the
reference the tests compare against; both take a :mod:`whist.solver.position`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import threading
from collections.abc import Iterator, Mapping, Sequence

import numpy as np

from whist.solver.position import Position, check_position

__all__ = [
    "Control",
    "Position",
    "SearchTrace",
    "SearchedStart",
    "SharedTables",
    "Stopped",
    "brute_solve",
    "check_position",
    "nodes_searched",
    "search_trace",
    "solve",
    "solve_bounds",
    "solve_value",
    "usable_cores",
]

_TT_BUCKETS = 1 << 12  # x 128 entries x 6 int64: 25 MB
# A search of up to 8 tricks stores a few thousand entries: it uses only the table's first
# 512 buckets (3.1 MB), which then stay in the CPU's caches from one solve to the next
# (as MASTER solves world after world): 5-10% faster at 8 tricks, the same nodes (256 or
# 1,024 buckets: within 1% of 512, seeds 1029074727 and 1823371555).  Deeper
# searches need the whole table (at 10 tricks a quarter of it costs 15% more misère nodes).
_SMALL_SEARCH_TRICKS = 8
_SMALL_SEARCH_BUCKETS = 1 << 9
# From 11 tricks a search stores millions of entries: a table four times bigger (101 MB,
# allocated on the first such solve, so MASTER's small ones never touch it) with buckets of
# 512 entries saves 15-50% of the nodes of 12-trick misère solves; on a 13-trick misère
# deal, 512 entries a bucket instead of 128 halve the nodes (52 to 25 million) and save 20%
# of the time (1,024: a few nodes fewer, slower: a probe scans the bucket).  Most-tricks
# searches (of a position alone) stay in the first table: since leads are ordered by the
# opponents' replies they search half the nodes, and at 13 tricks the big table saves them
# under 1% of those (seeds 77 and 4242), while a table four times the size is colder in the
# caches: bench/solver.py's 13-trick median, solves taking turns with DDS, 58-61 ms against
# 75-76 ms (seed 517953602, two runs each).  A process that only plays most tricks (two-hand
# bots) never allocates it.
_BIG_SEARCH_TRICKS = 11
_BIG_TT_BUCKETS = 1 << 12
_BIG_TT_WAYS = 512
# Four-hand misère over a whole deal (12 or 13 tricks left, as `whist solve` at a deal's
# start, and the positions of a deal analysed together with ``keep_table``) stores tens of
# millions of entries, and the big table's fullest buckets then throw away entries the
# next tests need: on 13-trick no-trump misère deals, four times the buckets (403 MB,
# touched only by such solves: never by MASTER's, which stay at 8 tricks and fewer in
# four-hand misère) search 40-60% fewer nodes (895 to 345 million, 101 to 60 million;
# 32,768 buckets: 58 million).  Most tricks and two hands search the same nodes in both
# (and a first solve would pay for touching the bigger table).
_HUGE_SEARCH_TRICKS = 12
_HUGE_TT_BUCKETS = 1 << 14
# In the huge table, the entries that fix the owners of the top two cards of every suit
# get buckets of their own, picked by those owners (see the kernel's ``_signature``): the
# fullest buckets then throw away fewer entries.  On seven 13-trick no-trump misère deals
# (seed 1284282114) that searched 0-50% fewer nodes (99 to 50 million on the dearest that
# finished); in the big table (11 tricks) and the small one (8) the same nodes, 6% slower
# (a probe looks in one more bucket).  Levels 3 and 4 gain nothing (three deals of seed
# 448745884: level 3 within the noise, level 4 20-30% slower): a probe still compares
# about as many entries of its key (a hundred on the dearest deal), as most of those fix
# no card at all of some suit, and so sit in the shape's own bucket, which no level
# splits.
_HUGE_TT_LEVELS = 2
# Four-hand misère from 12 tricks left, where a solve of every card takes seconds: two
# threads value the legal cards suit by suit (``_run_split``).  Below that a solve takes
# well under a second, and would pay more for starting a thread than it could save.
_SPLIT_TRICKS = 12


class Stopped(Exception):
    """A solve given a :class:`Control` was stopped before it had its answer."""


class Control:
    """Stops a solve running in another thread and shows its progress.

    The search runs without the GIL, so a watching thread (a Ctrl-C handler, a time limit,
    a progress line) keeps running while it works::

        control = Control()
        worker = threading.Thread(target=lambda: out.update(solve_bounds(..., control=control)))
        worker.start()
        worker.join(timeout=5.0)
        control.stop()  # the solve returns within a few milliseconds, with its bounds so far
        worker.join()

    One control serves one solve at a time; a stopped control stays stopped (make a new one
    for the next solve)."""

    def __init__(self) -> None:
        from whist.solver import kernel

        # The kernel reads the stop flag and writes its progress here as it runs.
        self._flags = np.zeros(kernel.CTL_FIELDS, dtype=np.int64)
        self._stop, self._nodes = kernel.CTL_STOP, kernel.CTL_NODES
        self._done, self._total = kernel.CTL_DONE, kernel.CTL_TOTAL
        # A solve split between threads gives each part a control of its own (see
        # ``_run_split``): a stop reaches them all, and the progress is their sum.
        self._parts: list[Control] = []
        self._parts_lock = threading.Lock()
        self._counted = True  # a part whose cards count in its parent's progress

    def stop(self) -> None:
        """Ask the solve to stop: it returns within a few milliseconds."""
        with self._parts_lock:
            self._flags[self._stop] = 1
            for part in self._parts:
                part.stop()

    def _part(self, counted: bool = True) -> Control:
        """A control for one part of a split solve: stopped with this one (at once if this
        one is already), counted in its progress (with ``counted`` False, only its nodes:
        a search whose cards another part counts)."""
        part = Control()
        part._counted = counted
        with self._parts_lock:
            self._parts.append(part)
            if self._flags[self._stop]:
                part.stop()
        return part

    def _fold(self) -> None:
        """The split solve is over: its parts' progress becomes this control's own, as
        one solve's would be."""
        with self._parts_lock:
            parts, self._parts = self._parts, []
            self._flags[self._nodes] += sum(part._sum(self._nodes) for part in parts)
            for field in (self._done, self._total):
                self._flags[field] = sum(part._sum(field) for part in parts if part._counted)

    def _sum(self, field: int) -> int:
        with self._parts_lock:
            parts = [part for part in self._parts if part._counted or field == self._nodes]
        return int(self._flags[field]) + sum(part._sum(field) for part in parts)

    @property
    def stopped(self) -> bool:
        """Has :meth:`stop` been called?"""
        return bool(self._flags[self._stop])

    @property
    def nodes(self) -> int:
        """Positions searched so far by the current solve (counted a thousand at a time)."""
        return self._sum(self._nodes)

    @property
    def cards_done(self) -> int:
        """Legal cards whose value is known (:func:`solve`, :func:`solve_bounds`)."""
        return self._sum(self._done)

    @property
    def cards_total(self) -> int:
        """Legal cards to value (0 until the solve has started)."""
        return self._sum(self._total)


class _Tables:
    """The transposition tables of a solve, their generation and what it was solved for:
    one thread's, or shared by the threads of a ``SharedTables`` group."""

    def __init__(self) -> None:
        from whist.solver import kernel

        self.fields = kernel.TT_FIELDS
        self.tt = np.zeros((_TT_BUCKETS, self.fields, kernel.TT_WAYS), dtype=np.int64)
        self.big_tt: np.ndarray | None = None  # see _BIG_SEARCH_TRICKS
        self.huge_tt: np.ndarray | None = None  # see _HUGE_SEARCH_TRICKS
        self.gen = 0
        # What the current generation's entries were solved for, when a caller keeps the
        # table (None: a fresh table for the next solve); see ``keep_table``.
        self.context: tuple[object, ...] | None = None
        self.lock = threading.Lock()  # for the threads sharing the tables

    def next_gen(self, context: tuple[object, ...] | None) -> int:
        """The table generation for a solve: the last one's (its entries still count) when
        ``context`` is the last solve's, else a new one (an empty table)."""
        with self.lock:
            if context is not None and context == self.context:
                return self.gen
            self.context = context
            self.gen += 1
            if self.gen >= 1 << 30:
                self.tt[:] = 0
                for table in (self.big_tt, self.huge_tt):
                    if table is not None:
                        table[:] = 0
                self.gen = 1
            return self.gen

    def table(self, tricks: int, players: int, most: bool, keep_table: bool) -> np.ndarray:
        """The transposition table for a search of ``tricks`` tricks: the first buckets of
        the table for a small one, the big table for a deep misère one and for every solve
        of a deal whose table is kept (they must all see the same table), the huge one instead
        in four-hand misère.  The big and huge tables are allocated on their first use."""
        deep = keep_table or tricks >= _HUGE_SEARCH_TRICKS
        with self.lock:
            if deep and players == 4 and not most:
                if self.huge_tt is None:
                    self.huge_tt = self._zeros(_HUGE_TT_BUCKETS)
                return self.huge_tt
            if keep_table or (tricks >= _BIG_SEARCH_TRICKS and not most):
                if self.big_tt is None:
                    self.big_tt = self._zeros(_BIG_TT_BUCKETS)
                return self.big_tt
        if tricks <= _SMALL_SEARCH_TRICKS:
            return self.tt[:_SMALL_SEARCH_BUCKETS]
        return self.tt

    def _zeros(self, buckets: int) -> np.ndarray:
        return np.zeros((buckets, self.fields, _BIG_TT_WAYS), dtype=np.int64)


class _Kernel:
    """The compiled kernel, a solve's buffers and the tables it searches, made on first use
    (the tables its own, or a ``SharedTables`` group's)."""

    def __init__(self) -> None:
        from whist.solver import kernel

        self.kernel = kernel
        self.own = _Tables()
        self.tables = self.own
        self.lo = np.empty(52, dtype=np.int64)
        self.hi = np.empty(52, dtype=np.int64)
        self.no_control = np.zeros(kernel.CTL_FIELDS, dtype=np.int64)  # never stopped
        self.stats = np.zeros(40, dtype=np.int64)
        self.hands = np.zeros(4, dtype=np.int64)
        self.trick = np.zeros(4, dtype=np.int64)
        self.noblk = np.zeros((1, 2), dtype=np.int64)


class SharedTables:
    """Solver tables for the threads of one job (``own_tables(shared)``): each thread
    solves with buffers of its own, and all of them search one table, where each finds
    what the others' solves learnt (the kernel checks every entry it reads, so that an
    entry another thread is writing is a miss, never a wrong bound).  An analysis grading
    the plays of a deal on two threads: the positions of one deal have much in common."""

    def __init__(self) -> None:
        self._tables: _Tables | None = None
        self._lock = threading.Lock()

    def _get(self) -> _Tables:
        with self._lock:
            if self._tables is None:
                self._tables = _Tables()
            return self._tables


_state: _Kernel | None = None
# One table and one set of buffers per process: a solve holds them from start to finish
# (the kernel runs without the GIL, so other threads run meanwhile; another solve waits),
# except in a thread inside ``own_tables``.
_lock = threading.Lock()
# Tables of ``own_tables`` blocks that have ended, for the next ones: a huge table is
# hundreds of MB, made once per thread that solves side by side, not once per block.
_spare: list[_Kernel] = []
_spare_lock = threading.Lock()
_thread = threading.local()  # .own: the _Kernel of this thread's ``own_tables`` block


@contextlib.contextmanager
def own_tables(shared: SharedTables | None = None) -> Iterator[None]:
    """Solves in this thread, inside the block, use a table and buffers of their own, so
    that they run beside other threads' solves instead of after them (an analysis grading
    two plays at once on two cores).  Each block holding tables at the same time costs
    their memory (up to the huge table's 403 MB in four-hand misère); ``keep_table`` keeps
    what the block's earlier solves learnt.  With ``shared``, the buffers are the block's
    own and the tables the group's (see :class:`SharedTables`)."""
    with _spare_lock:
        state = _spare.pop() if _spare else _Kernel()
    if shared is None:
        state.own.context = None  # a fresh table for the block's first solve
    else:
        state.tables = shared._get()
    previous = getattr(_thread, "own", None)
    _thread.own = state
    try:
        yield
    finally:
        _thread.own = previous
        state.tables = state.own
        with _spare_lock:
            _spare.append(state)


def _kernel() -> _Kernel:
    global _state
    own: _Kernel | None = getattr(_thread, "own", None)
    if own is not None:
        return own
    if _state is None:
        _state = _Kernel()
    return _state


@dataclasses.dataclass(frozen=True)
class _Ask:
    """What one solve asks the kernel: the position and objective; ``every_card``: each
    legal card's bounds too, not only the value; ``guess`` the value expected (-1: none),
    where the search starts; ``graded`` and ``known`` as in :func:`solve_bounds`;
    ``suits`` (0: all) a mask of the cards the root may play (a split solve's part: a suit,
    or one card of it when the other thread helps); ``trace`` (None: none) the kernel's
    buffer for :func:`search_trace`."""

    position: Position
    most: bool
    every_card: bool = True
    guess: int = -1
    control: Control | None = None
    graded: int | None = None
    known: int | None = None
    suits: int = 0
    trace: np.ndarray | None = dataclasses.field(default=None, compare=False)


def _run(ask: _Ask, keep_table: bool = False) -> tuple[int, dict[int, tuple[int, int]]]:
    own: _Kernel | None = getattr(_thread, "own", None)
    if own is not None:  # this thread's own tables: nobody else's solve to wait for
        return _run_locked(own, ask, keep_table)
    with _lock:
        return _run_locked(_kernel(), ask, keep_table)


def nodes_searched() -> int:
    """The nodes this thread's solves have searched so far (the other thread of a split
    solve counts its own).  A solve's count is the same on every run, where its time moves
    by a tenth from run to run on a shared machine: benchmarks report it so that two
    versions of the search can be told apart by less than that."""
    return int(_kernel().stats[0])


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, where the system tells)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _splits(position: Position, most: bool) -> bool:
    """Is ``position`` one to value on two threads (see ``_run_split``)?"""
    if most or position.players != 4 or position.tricks_left < _SPLIT_TRICKS:
        return False
    if usable_cores() < 2:
        return False
    return len({card // 13 for card in position.legal()}) >= 2


def _run_locked(k: _Kernel, ask: _Ask, keep_table: bool) -> tuple[int, dict[int, tuple[int, int]]]:
    """The side to act's tricks under best play (-1 if stopped first) and, if
    ``ask.every_card``, each legal card's bounds (equal when known)."""
    # A table entry bounds side 0's tricks in a position described by relative ranks: it
    # holds in any deal with the same rules (trump, objective, hands; with blockers the key
    # is the exact cards, so also the same pending blockers).
    position, most = ask.position, ask.most
    context = (position.players, position.trump, most, position.blockers)
    tables = k.tables
    table = tables.table(position.tricks_left, position.players, most, keep_table)
    gen = tables.next_gen(context if keep_table else None)
    solve = _Solve(table, gen, table is tables.huge_tt)
    if (
        ask.every_card
        and ask.guess < 0
        and ask.graded is None
        and ask.trace is None  # (one thread writes a trace)
        and ask.suits == 0  # (a part of a split solve is one thread's)
        and _splits(position, most)
    ):
        return _run_split(k, solve, ask)
    return solve.run(k, ask)


class _Solve:
    """The table (and its generation) one solve searches with, shared by the threads of a
    split solve."""

    def __init__(self, table: np.ndarray, gen: int, huge: bool) -> None:
        self.table, self.gen, self.huge = table, gen, huge

    def run(self, k: _Kernel, ask: _Ask) -> tuple[int, dict[int, tuple[int, int]]]:
        """The kernel's solve of ``ask``, in ``k``'s buffers, as ``_run_locked``."""
        position = ask.position
        players = position.players
        hands = k.hands
        for i, h in enumerate(position.hands):
            hands[i] = h
        trick = k.trick
        for i, c in enumerate(position.trick):
            trick[i] = c
        blk = np.array(position.blockers, dtype=np.int64) if position.blockers else k.noblk
        value = k.kernel.solve_kernel(
            hands[:players],
            trick,
            len(position.trick),
            players,
            -1 if position.trump is None else position.trump,
            position.leader,
            not ask.most,
            blk,
            len(position.blockers),
            self.table,
            self.gen,
            True,
            ask.every_card,
            ask.guess,
            -1 if ask.graded is None else ask.graded,
            -1 if ask.known is None else ask.known,
            k.lo,
            k.hi,
            k.stats,
            k.no_control if ask.control is None else ask.control._flags,
            _HUGE_TT_LEVELS if self.huge else 1,
            ask.suits,
            ask.trace,
        )
        if not ask.every_card:
            return int(value), {}
        lo, hi = k.lo, k.hi
        return int(value), {c: (int(lo[c]), int(hi[c])) for c in range(52) if lo[c] >= 0}


def _runs(position: Position, cards: list[int]) -> list[list[int]]:
    """``cards`` (one hand's, ascending) in runs of cards adjacent among the cards in play:
    the cards of a run are worth the same, and the kernel values a run by its lowest card."""
    in_play = sum(position.hands) | sum(1 << c for c in position.trick)
    runs: list[list[int]] = []
    for card in cards:
        if runs:
            last = runs[-1][-1]
            between = in_play & ((1 << card) - (2 << last))
            if last // 13 == card // 13 and between == 0:
                runs[-1].append(card)
                continue
        runs.append([card])
    return runs


@dataclasses.dataclass
class _Part:
    """One suit of a split solve: its runs of cards, the control of its search, the
    buffers of the thread searching it (whose bounds the kernel writes card by card) and
    the values the other thread found for its runs while helping (see ``_run_split``)."""

    runs: list[list[int]]
    control: Control
    guess: int = -1
    buffers: _Kernel | None = None
    helped: dict[int, tuple[int, int]] = dataclasses.field(default_factory=dict)

    @property
    def suits(self) -> int:
        return sum(1 << card for run in self.runs for card in run)

    def done(self, run: list[int]) -> bool:
        """Is the run's value known, to the searching thread or from the helping one?"""
        if run[0] in self.helped:
            return True
        assert self.buffers is not None
        lo, hi = int(self.buffers.lo[run[0]]), int(self.buffers.hi[run[0]])
        return lo >= 0 and lo == hi

    def merged(self, found: dict[int, tuple[int, int]]) -> dict[int, tuple[int, int]]:
        """The search's bounds, with the helping thread's values for the runs it left
        unfinished (it was stopped once every run was known)."""
        out = dict(found)
        for run in self.runs:
            value = self.helped.get(run[0])
            if value is not None and (run[0] not in out or out[run[0]][0] != out[run[0]][1]):
                out.update((card, value) for card in run)
        return out


def _run_split(k: _Kernel, solve: _Solve, ask: _Ask) -> tuple[int, dict[int, tuple[int, int]]]:
    """Every card's bounds of a four-hand misère position, suit by suit (the longest
    first), by two threads at once: this one, in ``k``'s buffers, and a helper.  Each takes
    the next suit left when it is done with one, and both search the same table: the
    suits' searches have much in common (on their own, each suit of a whole deal costs
    half or more of the whole), and each thread finds in the table what the other proved
    (the kernel's ``_check`` keeps either from reading an entry the other is writing).
    On 13-trick no-trump deals, against one thread: 36-56% less time (medians of 5 deals,
    four seeds); starting each suit's search at the best value found so far saved another
    5-13%.

    When no suit is left, the thread that finished first helps with the other's (on the
    dearest deals a third of the time went on the last suit, one core idle): it values
    that suit's runs of cards one at a time from the highest (the search tries the low
    ones first), skipping those the other thread has done (the kernel writes each card's
    bounds as soon as it is done), and stops the other's search once every run is known;
    its searches also fill the table with what the other's need.  On 15 deals of a fresh
    seed this took 13-15% off the total time (the dearest deal 21.8 s to 15.0 s), and left
    the median where it was.

    The two threads already take 1.7-2.1 times less time than one on most deals (ten deals
    of seed 1410864186; 1.28 on one whose dearest card alone took half of it): what a deal
    costs is its cards' searches, not how they are shared out.  Finding the position's
    value first (any card, as the cards' tests then start from it), on this thread before
    the helper starts or while the helper takes the longest suit, made those 15 deals take
    longer: 100-107 s in all against 83-87 s, median 3.7-4.0 s against 3.4-3.6 s.  A card
    whose value is the best costs a proof of each bound whatever the guess; a good guess
    only spares the cheap tests far from it."""
    position, control = ask.position, ask.control
    legal = position.legal()
    by_suit: dict[int, list[int]] = {}
    for card in legal:
        by_suit.setdefault(card // 13, []).append(card)
    parent = Control() if control is None else control
    queue: list[_Part] = []
    for suit in sorted(by_suit, key=lambda s: (-len(by_suit[s]), s)):
        part = _Part(_runs(position, by_suit[suit]), parent._part())
        part.control._flags[part.control._total] = len(by_suit[suit])  # counted from the start
        queue.append(part)
    running: list[_Part] = []
    values: list[int] = []
    bounds: dict[int, tuple[int, int]] = {}
    lock = threading.Lock()
    failure: list[BaseException] = []

    def search(buffers: _Kernel, part: _Part) -> None:
        value, found = solve.run(
            buffers,
            dataclasses.replace(ask, guess=part.guess, control=part.control, suits=part.suits),
        )
        with lock:
            running.remove(part)
            part.control.stop()  # the other thread's help, if it is helping: no more needed
            found = part.merged(found)
            if value < 0 and all(lo == hi for lo, hi in found.values()):
                # stopped by the helping thread once every card was known
                value = min(lo for lo, _ in found.values())
                flags = part.control._flags
                flags[part.control._done] = flags[part.control._total]
            values.append(value)
            bounds.update(found)

    def help_with(buffers: _Kernel, part: _Part) -> None:
        helping = part.control._part(counted=False)
        for run in reversed(part.runs):
            with lock:
                if part not in running or helping.stopped or part.done(run):
                    continue
            value, found = solve.run(
                buffers,
                dataclasses.replace(ask, guess=part.guess, control=helping, suits=1 << run[0]),
            )
            if value < 0:
                return
            with lock:
                part.helped[run[0]] = found[run[0]]
                if part in running and all(part.done(r) for r in part.runs):
                    part.control.stop()
                    return

    def work(buffers: _Kernel) -> None:
        while True:
            with lock:
                if parent.stopped:
                    return
                if not queue:
                    other = running[0] if running else None
                    break
                part = queue.pop(0)
                # the best value of the suits done so far: a suit's is mostly the same or
                # a trick off, and its search then starts there instead of from the bottom
                part.guess = min((v for v in values if v >= 0), default=-1)
                part.buffers = buffers
                buffers.lo[:] = -1  # (the kernel does too, but only once it has started)
                buffers.hi[:] = -1
                running.append(part)
            search(buffers, part)
        if other is not None:
            help_with(buffers, other)

    def helper() -> None:
        try:
            with _spare_lock:  # its buffers only: its own tables stay untouched
                spare = _spare.pop() if _spare else _Kernel()
            try:
                work(spare)
            finally:
                with _spare_lock:
                    _spare.append(spare)
        except BaseException as exc:  # raised again in the caller's thread
            failure.append(exc)
            parent.stop()

    thread = threading.Thread(target=helper, name="whist-solve-helper", daemon=True)
    thread.start()
    try:
        work(k)
    except BaseException:
        parent.stop()
        raise
    finally:
        thread.join()
        parent._fold()
    if failure:
        raise failure[0]
    left = position.tricks_left
    for card in legal:  # a suit not reached before a stop
        bounds.setdefault(card, (0, left))
    finished = len(values) == len(by_suit) and min(values) >= 0
    # misère: the side to act's tricks under best play are its best suit's
    return (min(values) if finished else -1), bounds


def solve(
    hands: Sequence[int],
    trump: int | None,
    leader: int,
    trick: Sequence[int],
    most: bool,
    blockers: Mapping[int, int] | None = None,
    *,
    control: Control | None = None,
    keep_table: bool = False,
) -> dict[int, int]:
    """For every legal card of the seat to act, the tricks its side wins from the current
    trick (included) to the end of the deal under best play by both sides.

    ``hands``: per seat (2 or 4) the cards still held (not those on the table); ``trump`` a
    suit 0..3 or ``None``; ``leader`` the seat that led the current trick and ``trick`` the
    cards played to it so far; ``most`` True to take as many tricks as possible, False for
    misère (as few as possible, for both sides); ``blockers`` ``{down_card: up_card}``: the
    down card cannot be played before the up card (same hand).  Raises ``ValueError`` on an
    impossible position, :class:`Stopped` if ``control`` stopped it first.

    ``keep_table``: keep what earlier solves with ``keep_table`` learnt (see the module's
    documentation): for the positions of one deal, solved one after another."""
    position = check_position(hands, trump, leader, trick, blockers)
    value, bounds = _run(_Ask(position, most, control=control), keep_table)
    if value < 0:
        raise Stopped
    return {card: lo for card, (lo, _) in bounds.items()}


def solve_bounds(
    hands: Sequence[int],
    trump: int | None,
    leader: int,
    trick: Sequence[int],
    most: bool,
    blockers: Mapping[int, int] | None = None,
    *,
    control: Control | None = None,
    keep_table: bool = False,
    graded: int | None = None,
    known: int | None = None,
) -> dict[int, tuple[int, int]]:
    """:func:`solve` that can be stopped half way: for every legal card ``(lo, hi)``, the
    tricks of the side to act lie in ``lo..hi``.  Run to the end, ``lo == hi`` is
    :func:`solve`'s value for every card; stopped through ``control``, each card has the
    bounds proved so far (``0..tricks left`` for a card not reached yet).  ``keep_table`` as
    in :func:`solve`.

    ``graded``: a legal card whose play is being graded.  Only that card is valued
    exactly; every other card either has the best value (``lo == hi``) or bounds that leave
    it out (below the best in most tricks, above it in misère), whichever one test shows:
    what a grade needs (the card's value, the best value and the best cards), for fewer
    tests than every card's value.

    ``known``: the graded card's value, when the caller knows it (an analysis that has
    solved the position after the play, as it goes from the end of a deal backwards):
    taken as given, so that only the other cards are searched, against it."""
    position = check_position(hands, trump, leader, trick, blockers)
    if graded is not None and graded not in position.legal():
        raise ValueError(f"the graded card {graded!r} is not a legal card of the seat to act")
    if known is not None and (graded is None or not 0 <= known <= position.tricks_left):
        raise ValueError(
            f"a known value {known!r} needs a graded card and 0..{position.tricks_left} tricks"
        )
    ask = _Ask(position, most, control=control, graded=graded, known=known)
    return _run(ask, keep_table)[1]


def solve_value(
    hands: Sequence[int],
    trump: int | None,
    leader: int,
    trick: Sequence[int],
    most: bool,
    blockers: Mapping[int, int] | None = None,
    guess: int | None = None,
    *,
    control: Control | None = None,
    keep_table: bool = False,
) -> int:
    """The side to act's tricks under best play (its best card's value in :func:`solve`),
    found without valuing every card: a playout needs no more, at a fraction of the cost.
    ``guess``: an estimate of the value; a close one makes the search cheaper (any guess
    gives the same answer).  Raises :class:`Stopped` if ``control`` stopped it first;
    ``keep_table`` as in :func:`solve`."""
    position = check_position(hands, trump, leader, trick, blockers)
    start = -1 if guess is None else min(max(guess, 0), position.tricks_left)
    value = _run(_Ask(position, most, False, start, control), keep_table)[0]
    if value < 0:
        raise Stopped
    return value


@dataclasses.dataclass(frozen=True)
class SearchedStart:
    """A trick start that a search could decide only by searching it: no bound and no
    table entry decided its test (see :func:`search_trace`)."""

    hands: tuple[int, ...]  # per seat, the cards held
    leader: int
    tricks_left: int
    side: int  # the side whose tricks the test counts: 0 (seats 0 and 2) or 1
    tricks: int  # the test: does ``side`` take at least this many of ``tricks_left``?
    reached: bool  # the search's answer
    first_node: int  # the solve's nodes counted up to and including this one
    nodes: int  # the nodes its search took after it: first_node + 1 .. first_node + nodes
    winning_ranks: int  # the cards (a mask) whose ranks the answer depends on


@dataclasses.dataclass(frozen=True)
class SearchTrace:
    """What :func:`search_trace` found."""

    values: dict[int, int]  # :func:`solve`'s answer
    nodes: int  # the nodes the solve searched
    # The nodes spent on cards tried before the card that settled their node's test
    # (outside other such cards): what perfect move ordering would spare at most, had the
    # subtrees been the same.
    tried_first: int
    starts: list[SearchedStart]  # the trick starts it had to search, in the order it came


def search_trace(
    hands: Sequence[int],
    trump: int | None,
    leader: int,
    trick: Sequence[int],
    most: bool,
    *,
    capacity: int = 100_000,
) -> SearchTrace:
    """For studies of the search (``bench/misere_headroom.py``): :func:`solve`, on this
    thread alone with a fresh table, with the nodes it searched, those move ordering spent
    on cards tried first, and the first ``capacity`` trick starts it had to search (in
    misère, not those two or three tricks from the end, which it plays out line by line):
    what a stronger bound or a finer table entry could have spared."""
    if capacity < 1:
        raise ValueError(f"capacity must be at least 1, not {capacity!r}")
    position = check_position(hands, trump, leader, trick, None)
    from whist.solver import kernel

    buffer = np.zeros((capacity + 1, kernel.TRACE_FIELDS), dtype=np.int64)
    first = nodes_searched()
    _, bounds = _run(_Ask(position, most, trace=buffer))
    starts = []
    for row in buffer[1 : 1 + int(buffer[0, 0])]:
        root_side = int(row[kernel.T_ROOT_SIDE])
        starts.append(
            SearchedStart(
                hands=tuple(int(h) for h in row[: position.players]),
                leader=int(row[kernel.T_LEADER]),
                tricks_left=int(row[kernel.T_LEFT]),
                # the search counts the tricks its root side wants: its own, or in misère
                # the other side's
                side=root_side if most else 1 - root_side,
                tricks=int(row[kernel.T_TARGET]),
                reached=bool(row[kernel.T_RESULT]),
                first_node=int(row[kernel.T_FIRST]) - first,
                nodes=int(row[kernel.T_NODES]),
                winning_ranks=int(row[kernel.T_WRES]),
            )
        )
    return SearchTrace(
        values={card: lo for card, (lo, _) in bounds.items()},
        nodes=nodes_searched() - first,
        tried_first=int(buffer[0, kernel.TRACE_TRIED_FIRST]),
        starts=starts,
    )


def brute_solve(
    hands: Sequence[int],
    trump: int | None,
    leader: int,
    trick: Sequence[int],
    most: bool,
    blockers: Mapping[int, int] | None = None,
) -> dict[int, int]:
    """:func:`solve` by plain minimax in Python: slow, for checking the fast one."""
    from whist.solver.brute import brute

    return brute(check_position(hands, trump, leader, trick, blockers), most)
