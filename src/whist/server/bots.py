"""Bots think in worker processes so that the server never blocks on them.

The server owns its workers: they die with it. They take SIGTERM's default (death), leave
SIGINT to the server (a Ctrl-C in a terminal reaches the whole process group), and exit
by themselves when the server is gone, even after a SIGKILL that runs no code of its own.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.process import BaseProcess
from random import Random
from typing import Any

from whist.bots import make_bot
from whist.bots.medium import MediumBot
from whist.core.actions import action_to_json
from whist.core.views import View, view_for
from whist.master.bot import MasterBot
from whist.variants import new_match

log = logging.getLogger("whist.bots")

STOPPED = (signal.SIGTERM, signal.SIGINT)
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
PARENT_POLL_SECONDS = 0.5  # the portable watch on the server: how late a worker may notice
GRACE_SECONDS = 3.0  # a terminated worker's time to die before it is killed (a loaded machine)
# Seconds a hint may run over its budget (the solvers' first load, a busy pool).  A person
# asking for one waits for it: with 2 s, CI on a machine loaded by a compile beside it
# refused a hint at a table of one person and three bots as "try again".
HINT_GRACE = 5.0
# Seconds a pool's first thoughts wait, at most, for its warm-up (off their clocks). It takes
# about a second; one that hangs (the solvers compiled anew after an upgrade, a stuck worker)
# must not hold up every table's bots: past this they think anyway, and a thought that a
# busy worker does not answer in time is the safe move, as always.
WARM_UP_WAIT = 30.0


def choose(level: str, view: View, seed: str, budget: float) -> dict[str, Any]:
    """Runs in a worker process: the bot's action as record JSON."""
    return action_to_json(make_bot(level).choose(view, Random(seed), budget))


def advise(view: View, seed: str, budget: float) -> dict[str, Any]:
    """Runs in a worker process: MASTER's choice for this seat's view (a hint at a practice
    table, issue 20) as record JSON, and its estimate (``MasterBot.advise``) or None."""
    action, estimate = MasterBot().advise(view, Random(seed), budget)
    return {
        "action": action_to_json(action),
        "estimate": None if estimate is None else estimate.to_json(),
    }


def safe_move(view: View, seed: str) -> dict[str, Any]:
    """A sensible legal move at once (MEDIUM's), for a bot that overran its budget."""
    return action_to_json(MediumBot().choose(view, Random(seed), 0.0))


def warm_up() -> None:
    """Runs in each worker process as it starts. A first MASTER decision would otherwise
    also pay for loading the solvers (numba's cached kernel, DDS): about 0.7 s more, and
    over its budget it would play MEDIUM's safe move instead."""
    try:
        from whist.solver import solve

        solve([1, 2, 4, 8], None, 0, [], True)
        match = new_match("classic")
        match.start_deal(list(range(52)), dealer=0)
        for _ in range(5):  # into trick 2: a position with a real choice
            match.apply(match.legal_actions()[0])
        make_bot("master").choose(view_for(match, match.next_seat()), Random(0), 0.05)
    except Exception:  # only a head start: a failure here must not break the pool
        log.exception("warming up a bot worker failed")


_warmed_here = threading.Event()
_warming_here = threading.Lock()


def warm_up_here() -> None:
    """``warm_up`` once in this process, for bots that think in the server's own process
    (no workers): the first of them waits for it, off its clock, as a worker's first
    thought waits for that worker's warm-up."""
    with _warming_here:
        if not _warmed_here.is_set():
            warm_up()
            _warmed_here.set()


def _in_a_thread(work: Callable[[], None]) -> concurrent.futures.Future[None]:
    """``work()`` run in a daemon thread of its own: a wait on it can give up, the thread
    goes on (the default executor's threads, which run thoughts, stay free)."""
    done: concurrent.futures.Future[None] = concurrent.futures.Future()

    def run() -> None:
        try:
            work()
        except BaseException as error:  # (handed to whoever waits)
            done.set_exception(error)
        else:
            done.set_result(None)

    threading.Thread(target=run, name="bot-warm-up", daemon=True).start()
    return done


# ------------------------------------------------------------------ the worker's side
def start_worker(server_pid: int) -> None:
    """The initializer of every worker: die with the server, then warm up."""
    # Forked from the server, a worker inherits its Python signal handlers (uvicorn's only
    # set a flag that nothing reads here: SIGTERM would be ignored).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Blocked by the server while it forked us (``signals_held``): a SIGTERM that came
    # meanwhile is pending and kills us now.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPED)
    die_with(server_pid)
    warm_up()


def die_with(server_pid: int) -> None:
    """Exit when the server process is gone (however it ended)."""
    # The kernel's own watch: SIGKILL the moment the forking thread (the server's main
    # thread, which lives as long as the server) exits.
    exit_with_parent(signal.SIGKILL)
    if os.getppid() != server_pid:  # the server died before the watch was set
        os._exit(1)
    # Elsewhere (and as a second line): orphans are adopted by another process.
    threading.Thread(target=watch_parent, args=(server_pid,), daemon=True).start()


def exit_with_parent(sig: int = signal.SIGTERM) -> None:
    """Ask the kernel (Linux) to send this process ``sig`` when the thread that started it
    exits. Also the ``preexec_fn`` of every ``whist serve`` a benchmark or a test starts: a
    killed benchmark must not leave its server running (SIGTERM: the server then stops its
    own workers). Elsewhere a no-op."""
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0)


def watch_parent(server_pid: int) -> None:
    while os.getppid() == server_pid:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


# ------------------------------------------------------------------ the server's side
@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGTERM and SIGINT in the calling thread (they wait, they are not lost) while
    it forks workers, so that none can arrive in a worker before its initializer has set
    their handlers."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread forks the pool (the event loop's)
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPED)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def stop_processes(processes: Iterable[BaseProcess], grace: float = GRACE_SECONDS) -> None:
    """SIGTERM every process, SIGKILL those still alive after ``grace`` seconds; reaped.
    Bot workers hold nothing worth a graceful end: a busy one is stopped mid-thought."""
    processes = [p for p in processes if p.is_alive()]
    for process in processes:
        with contextlib.suppress(OSError):
            process.terminate()
    deadline = time.monotonic() + grace
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive() and _exists(process.pid):
            log.warning("bot worker %s ignored SIGTERM: killing it", process.pid)
            with contextlib.suppress(OSError):
                process.kill()
            process.join(grace)


def _exists(pid: int | None) -> bool:
    """Whether the process is still there. A worker's pool may reap it in another thread
    (its executor shutting down) while this one waits: its ``Process`` then still says
    alive, though it is gone."""
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def stop_all_workers() -> None:
    """Stop every worker process this server started (the last line of ``whist serve``,
    which also runs when the club never got to close its pool)."""
    stop_processes(multiprocessing.active_children())


class BotPool:
    def __init__(self, workers: int, budget: float) -> None:
        self.budget = budget
        self.size = workers
        self.executor: concurrent.futures.ProcessPoolExecutor | None = None
        self.warming: list[concurrent.futures.Future[Any]] = []
        self.warm_by: float | None = None  # (monotonic) when thoughts stop waiting for it
        self.closed = False
        if workers > 0:
            self._start()

    def _start(self) -> None:
        self.executor = concurrent.futures.ProcessPoolExecutor(
            max_workers=self.size,
            # fork: a worker starts in a fraction of a second with the modules loaded.
            mp_context=multiprocessing.get_context("fork"),
            initializer=start_worker,
            initargs=(os.getpid(),),
        )
        # Start the workers (and their warm-up) now, before the first bot must move.
        with signals_held():
            self._warm_up([self.executor.submit(int) for _ in range(self.size)])

    def _warm_up(self, warming: list[concurrent.futures.Future[Any]]) -> None:
        self.warming = warming
        self.warm_by = time.monotonic() + WARM_UP_WAIT

    def _restart(self, broken: concurrent.futures.ProcessPoolExecutor | None) -> None:
        """A worker died (killed, out of memory): its pool takes no more work. A new pool
        for the moves to come (once, however many moves found the old one broken)."""
        if broken is None or broken is not self.executor or self.closed:
            return
        log.error("a bot worker died: starting the bot workers again")
        self._stop_executor()
        self._start()

    def workers(self) -> dict[int, bool]:
        """Each worker process's pid and whether it is alive."""
        if self.executor is None:
            return {}
        processes = dict(self.executor._processes or {})  # the executor keeps no public list
        return {pid: process.is_alive() for pid, process in processes.items()}

    async def _warmed(self) -> None:
        """Wait for the workers' warm-up (or, without workers, this process's, started by
        the first thought) once, before the first thought's clock starts, and no longer
        than ``WARM_UP_WAIT`` from its start."""
        if self.size == 0 and self.warm_by is None and not _warmed_here.is_set():
            self._warm_up([_in_a_thread(warm_up_here)])
        if not self.warming or self.warm_by is None:
            return
        warming = self.warming
        if not all(future.done() for future in warming):
            # (an error is kept for the check below, not left unread in a future)
            gathered = asyncio.gather(*map(asyncio.wrap_future, warming), return_exceptions=True)
            await asyncio.wait([gathered], timeout=max(0.0, self.warm_by - time.monotonic()))
        if warming is not self.warming:
            return  # another thought waited for it too, and told
        self.warming = []
        for future in warming:
            if not future.done():
                log.error("the bots' warm-up took over %.0f s: they think without it", WARM_UP_WAIT)
                return
            future.result()  # a pool broken as it started: BrokenProcessPool

    async def think(self, level: str, view: View, seed: str) -> dict[str, Any]:
        executor = self.executor
        try:
            await self._warmed()
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(executor, choose, level, view, seed, self.budget)
            return await asyncio.wait_for(future, timeout=self.budget + 0.5)
        except BrokenProcessPool:
            if self.closed:  # the server is stopping: the thought is dropped, not failed
                raise asyncio.CancelledError from None
            self.warming = []
            self._restart(executor)
            return safe_move(view, seed)  # this move at once; the next ones as usual
        except TimeoutError:
            log.warning(
                "a %s bot overran its %.1f s budget: playing a safe move", level, self.budget
            )
            return safe_move(view, seed)

    async def advise(self, view: View, seed: str) -> dict[str, Any]:
        """MASTER's advice for a hint (``advise``), thought in a worker with a bot's budget.
        Raises when it does not come within ``HINT_GRACE`` seconds more (a hint has no safe
        stand-in, so it is waited for longer than a bot's move: a refusal is worse)."""
        executor = self.executor
        loop = asyncio.get_running_loop()
        try:
            await self._warmed()
            future = loop.run_in_executor(executor, advise, view, seed, self.budget)
            return await asyncio.wait_for(future, timeout=self.budget + HINT_GRACE)
        except BrokenProcessPool:
            self.warming = []
            self._restart(executor)
            raise

    def close(self) -> None:
        """Stop the workers now, busy or not (shutdown alone would wait for a busy one)."""
        self.closed = True
        self._stop_executor()

    def _stop_executor(self) -> None:
        if self.executor is None:
            return
        processes = list((self.executor._processes or {}).values())
        self.executor.shutdown(wait=False, cancel_futures=True)
        stop_processes(processes)
