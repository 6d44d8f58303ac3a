"""Soak: many tables of people at people's pace against ``whist serve`` for a long while,
with players leaving, sockets dropping, and a SIGKILL and restart of the server halfway.

Prints one JSON object on stdout (progress on stderr). Linux only (/proc, psutil).

    .venv/bin/python bench/soak.py                           # 1,000 tables, 10 minutes
    .venv/bin/python bench/soak.py --tables 50 --minutes 1   # a short check
    .venv/bin/python bench/soak.py --database-url postgresql://postgres@127.0.0.1:5432/soak

Reports the server's RSS (with its children, the bot workers) over time and its growth after
warm-up (goal: at most 10 %), errors by code, acknowledged actions lost across the restart
(goal: 0), act-to-ack latency, and the server's processes left after the final stop (0).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

from engine import load_average, machine_info, source_state
from server_load import COOKIE, free_port, http, percentiles, raise_open_files
from whist.server.bots import exit_with_parent

ACK_TIMEOUT = 30.0
RSS_PERIOD = 10.0  # seconds between RSS samples
RSS_GOAL = 0.10  # growth after warm-up at most 10 %
BOT_LEVELS = ("easy", "medium")  # cheap bots: the soak is about the server, not the bots
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|Exception in ASGI application")


def progress(message: str) -> None:
    print(f"[soak] {message}", file=sys.stderr, flush=True)


# -------------------------------------------------------------------- the server
class ServerProcess:
    """One ``whist serve`` on a data directory (and database) that can be killed and
    started again on the same data and port; its processes are followed with psutil."""

    def __init__(self, data_dir: Path, database_url: str, settings: dict[str, str]) -> None:
        self.data_dir = data_dir
        self.log_path = data_dir / "server.log"
        # Only what is set here: a WHIST_* variable of the environment must not leak in.
        env = {k: v for k, v in os.environ.items() if not k.startswith("WHIST_")}
        env |= {"PYTHONUNBUFFERED": "1", **settings}
        if database_url:
            env["WHIST_DATABASE_URL"] = database_url
        self.env = env
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.seen: dict[int, float] = {}  # every process of the server seen: pid -> start

    def start(self, timeout: float = 120.0) -> None:
        with self.log_path.open("ab") as log:
            log.write(f"----- start on port {self.port}\n".encode())
            log.flush()
            command = [sys.executable, "-m", "whist.cli", "serve", "--host", "127.0.0.1"]
            command += ["--port", str(self.port), "--data-dir", str(self.data_dir)]
            self.process = subprocess.Popen(
                command,
                env=self.env,
                cwd=self.data_dir,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=exit_with_parent,  # a killed run leaves no server
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited ({self.process.returncode}): {self.tail()}")
            if self.answers():
                return
            time.sleep(0.1)
        self.process.kill()
        raise RuntimeError(f"the server did not answer within {timeout:.0f} s")

    def answers(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/tables", timeout=5):
                return True
        except (urllib.error.URLError, OSError):
            return False

    def tree(self) -> list[psutil.Process]:
        """The server process and all its descendants (remembered for the final count)."""
        if self.process is None or self.process.poll() is not None:
            return []
        try:
            root = psutil.Process(self.process.pid)
            found = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []
        for proc in found:
            with contextlib.suppress(psutil.Error):
                self.seen[proc.pid] = proc.create_time()
        return found

    def rss_kib(self) -> tuple[int, int]:
        """RSS of the server process and of its descendants together, KiB."""
        server = children = 0
        for proc in self.tree():
            with contextlib.suppress(psutil.Error):
                rss = proc.memory_info().rss // 1024
                if self.process is not None and proc.pid == self.process.pid:
                    server = rss
                else:
                    children += rss
        return server, children

    def kill(self) -> None:
        self.tree()  # remember the children before their parent goes
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(30)

    def stop(self) -> int | None:
        """A graceful stop (SIGTERM, as a service manager does); the exit code."""
        self.tree()
        if self.process is None or self.process.poll() is not None:
            return None if self.process is None else self.process.returncode
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(30)
            return None

    def left(self) -> list[int]:
        """Processes of the server ever seen that are still alive (the same process: its
        start time checked, so that a reused pid does not count)."""
        alive = []
        for pid, started in self.seen.items():
            with contextlib.suppress(psutil.Error):
                proc = psutil.Process(pid)
                if proc.create_time() == started and proc.status() != psutil.STATUS_ZOMBIE:
                    alive.append(pid)
        return alive

    def tail(self, lines: int = 30) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        return ""

    def tracebacks(self) -> int:
        with contextlib.suppress(OSError):
            return len(TRACEBACK.findall(self.log_path.read_text(errors="replace")))
        return 0


# ------------------------------------------------------------------- the people
@dataclass(frozen=True)
class Acked:
    seat: int
    deal: int | None
    action: dict[str, Any]
    version: int


def cards_played(view: dict[str, Any]) -> list[tuple[int, str]]:
    """(seat, card) of every card played in the current deal."""
    players = len(view["hand_sizes"])
    played = [
        ((trick["leader"] + i) % players, card)
        for trick in view["tricks"]
        for i, card in enumerate(trick["cards"])
    ]
    if view["trick"]:
        played += [((view["leader"] + i) % players, c) for i, c in enumerate(view["trick"])]
    return played


def present(state: dict[str, Any], acked: Acked) -> bool:
    """Is the acknowledged action part of this state of its seat?"""
    view = state["view"]
    if state["version"] < acked.version:
        return False
    if view["deal"] is None or acked.deal is None or view["deal"] != acked.deal:
        return view["deal"] is not None and (acked.deal is None or view["deal"] > acked.deal)
    if "play" in acked.action:
        card = acked.action["play"]
        return (acked.seat, card) in cards_played(view) and card not in view["hand"]
    if "bid" in acked.action:
        shown = [r["choice"] for r in view["revealed"] if r["seat"] == acked.seat]
        decided = view["phase"] != "bid" or acked.seat in view["decided"]
        return decided and (not shown or shown[0] == acked.action["bid"])
    return True  # other kinds: the version says it is there


def header(benchmark: str, args: argparse.Namespace, load_before: Any) -> dict[str, Any]:
    """What every server benchmark's JSON starts with: its name and parameters (never the
    database URL: it may hold a password), the machine, its load, the source measured."""
    return {
        "benchmark": benchmark,
        "params": {k: v for k, v in vars(args).items() if k != "database_url"}
        | {"database": "postgresql" if args.database_url else "sqlite"},
        "machine": {
            **machine_info(),
            "load_avg_before": load_before,
            "load_avg_after": load_average(),
        },
        "source": source_state(),
    }


@contextlib.contextmanager
def serving(
    server: ServerProcess, data_dir: Path, keep: bool, say: Callable[[str], None]
) -> Iterator[None]:
    """Run a benchmark against ``server``: on any failure its log's tail is shown and it is
    killed; its data directory goes at the end unless ``keep``."""
    try:
        yield
    except BaseException:
        say("server log (tail):\n" + server.tail())
        server.kill()
        raise
    finally:
        if not keep:
            shutil.rmtree(data_dir, ignore_errors=True)


class Soak:
    """Every table and person of the run, on one event loop."""

    def __init__(self, args: argparse.Namespace, server: ServerProcess) -> None:
        self.args = args
        self.server = server
        self.rng = random.Random(args.seed)
        self.limit = asyncio.Semaphore(32)
        self.stopping = False
        self.down = False  # the server is being killed and restarted
        self.latencies: list[float] = []
        self.errors: Counter[str] = Counter()
        self.error_times: dict[str, list[float]] = {}
        self.begun = time.monotonic()  # the people start acting (set again then)
        self.acked = 0
        self.sent = 0
        self.checked = 0  # acknowledged actions checked after a reconnect
        self.lost: list[dict[str, Any]] = []
        self.leaves = 0
        self.drops = 0
        self.reconnects = 0
        self.matches = 0
        self.tasks: list[asyncio.Task[None]] = []

    def error(self, code: str) -> None:
        self.errors[code] += 1
        # When each kind happened (seconds into the run): errors bunched right after the
        # restart tell a different story from errors spread over the run.
        moments = self.error_times.setdefault(code, [])
        if len(moments) < 50:
            moments.append(round(time.monotonic() - self.begun, 1))

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        self.tasks.append(asyncio.get_running_loop().create_task(coroutine))


class Person:
    """A guest at one seat: acts a few seconds after its turn comes, may leave for good,
    may lose its socket and come back."""

    def __init__(self, soak: Soak, table: Table, seat: int) -> None:
        self.soak = soak
        self.table = table
        self.seat = seat
        self.cookie = ""
        self.ws: Any = None
        self.state: dict[str, Any] = {}
        self.turn = asyncio.Event()
        self.waiting: tuple[str, asyncio.Future[dict[str, Any]]] | None = None
        self.unchecked: list[Acked] = []  # acked since the last reconnect's check
        self.gone = False
        self.dropped = False  # this side broke the connection on purpose
        self.counter = 0

    async def guest(self) -> None:
        port = self.soak.server.port
        status, body, cookie = await http(port, "POST", "/api/guest", {"nickname": "soak"})
        if status != 200 or cookie is None:
            raise RuntimeError(f"guest: HTTP {status} {body}")
        self.cookie = cookie

    async def connect(self) -> None:
        """Open the table's socket (retrying while the server is down) and check that every
        action acknowledged before is in the first state."""
        from websockets.asyncio.client import connect

        url = f"ws://127.0.0.1:{self.soak.server.port}/ws/tables/{self.table.id}"
        while not self.soak.stopping:
            try:
                self.ws = await connect(
                    url,
                    additional_headers={"Cookie": f"{COOKIE}={self.cookie}"},
                    proxy=None,
                    ping_interval=None,
                    open_timeout=30,
                    max_queue=None,
                )
                first = json.loads(await asyncio.wait_for(self.ws.recv(), 30))
                break
            except Exception:
                await asyncio.sleep(0.5 + self.soak.rng.random())
        else:
            return
        self.take(first)
        for acked in self.unchecked:
            self.soak.checked += 1
            if not present(first, acked):
                self.soak.lost.append({"table": self.table.id, **acked.__dict__})
        self.unchecked.clear()

    def take(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "state":
            self.state = frame
            view = frame["view"]
            if frame["table"]["status"] in ("finished", "abandoned"):
                self.table.finished()
            elif view["legal"] and frame["table"]["status"] == "playing":
                self.turn.set()
        elif kind in ("ack", "error"):
            if kind == "error":
                self.soak.error(str(frame.get("code")))
            waiting = self.waiting
            if waiting is not None and frame.get("id") == waiting[0] and not waiting[1].done():
                waiting[1].set_result(frame)

    async def live(self) -> None:
        """Read and act until the run ends; reconnect after any drop."""
        soak = self.soak
        while not soak.stopping and not self.gone:
            actor = asyncio.get_running_loop().create_task(self.act_on_turns())
            try:
                async for text in self.ws:
                    self.take(json.loads(text))
            except Exception:
                pass
            actor.cancel()
            if self.waiting is not None and not self.waiting[1].done():
                self.waiting[1].set_exception(ConnectionError("the socket closed"))
            if soak.stopping or self.gone or self.table.replaced:
                return
            if not soak.down and not self.dropped:
                soak.error("disconnected")
            self.dropped = False
            soak.reconnects += 1
            await self.connect()

    async def act_on_turns(self) -> None:
        soak = self.soak
        low, high = soak.args.think
        while True:
            await self.turn.wait()
            self.turn.clear()
            await asyncio.sleep(soak.rng.uniform(low, high))
            view = self.state.get("view") or {}
            if not view.get("legal") or self.state["table"]["status"] != "playing":
                continue
            action = {k: v for k, v in soak.rng.choice(view["legal"]).items() if k != "seat"}
            self.counter += 1
            message_id = f"{id(self):x}-{self.counter}"
            future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self.waiting = (message_id, future)
            sent = time.monotonic()
            soak.sent += 1
            try:
                await self.ws.send(json.dumps({"type": "act", "id": message_id, "action": action}))
                answer = await asyncio.wait_for(future, ACK_TIMEOUT)
            except TimeoutError:
                if not soak.down:
                    soak.error("ack_timeout")
                continue
            except (ConnectionError, OSError, RuntimeError) as exc:
                # The socket went (the reader reconnects); a cancellation is never swallowed.
                if not soak.down and not self.dropped and not isinstance(exc, ConnectionError):
                    soak.error(f"send: {type(exc).__name__}")
                continue
            except Exception:
                continue
            finally:
                self.waiting = None
            if answer["type"] == "ack":
                if not soak.down:
                    soak.latencies.append((time.monotonic() - sent) * 1000)
                soak.acked += 1
                self.unchecked.append(
                    Acked(self.seat, view.get("deal"), action, int(answer["version"]))
                )
            if self.state.get("view", {}).get("legal"):
                self.turn.set()  # still to act (won the trick): act again

    async def drop(self) -> None:
        """The connection breaks without a close handshake; the reader reconnects."""
        self.soak.drops += 1
        self.dropped = True
        with contextlib.suppress(Exception):
            self.ws.transport.abort()

    async def leave(self) -> None:
        """Leave the table for good: a bot takes the seat over."""
        self.gone = True
        self.soak.leaves += 1
        port = self.soak.server.port
        status, _, _ = await http(
            port, "POST", f"/api/tables/{self.table.id}/leave", None, self.cookie
        )
        if status != 200:
            self.soak.error(f"leave_http_{status}")
        with contextlib.suppress(Exception):
            await self.ws.close()


class Table:
    """The people of one table (and its bots); a new table when their match is over."""

    def __init__(self, soak: Soak, index: int, bots: bool, players: int) -> None:
        self.soak = soak
        self.index = index
        self.bots = bots
        self.players = players
        humans = 1 if bots else players
        self.people = [Person(soak, self, seat) for seat in range(humans)]
        self.id = ""
        self.replaced = False
        self.ready = False

    async def setup(self) -> None:
        soak = self.soak
        try:
            async with soak.limit:
                for person in self.people:
                    await person.guest()
                await self.create()
                for person in self.people:
                    await person.connect()
            self.ready = True
        except Exception as exc:
            soak.error(f"setup: {type(exc).__name__}: {str(exc)[:60]}")

    async def create(self) -> None:
        soak, port = self.soak, self.soak.server.port
        host, *others = self.people
        bots = {}
        if self.bots:
            bots = {str(s): BOT_LEVELS[s % len(BOT_LEVELS)] for s in range(1, self.players)}
        body = {
            "variant": soak.args.variant,
            "options": soak.args.options,
            "bots": bots,
            "clock": True,
        }
        status, answer, _ = await http(port, "POST", "/api/tables", body, host.cookie)
        if status != 200:
            raise RuntimeError(f"create: HTTP {status} {answer}")
        self.id = answer["id"]
        for person in others:
            status, answer, _ = await http(
                port, "POST", f"/api/tables/{self.id}/join", {"seat": person.seat}, person.cookie
            )
            if status != 200:
                raise RuntimeError(f"join: HTTP {status} {answer}")

    def finished(self) -> None:
        if not self.replaced and not self.soak.stopping:
            self.replaced = True
            self.soak.matches += 1
            self.soak.spawn(self.rematch())

    async def rematch(self) -> None:
        """Everyone closes, and the same people sit down at a new table."""
        for person in self.people:
            with contextlib.suppress(Exception):
                await person.ws.close()
        await asyncio.sleep(1.0)
        while self.soak.down:  # the server is being restarted: sit down once it is back
            await asyncio.sleep(1.0)
        try:
            async with self.soak.limit:
                await self.create()
                self.replaced = False
                for person in self.people:
                    if not person.gone:
                        person.unchecked.clear()
                        await person.connect()
                        self.soak.spawn(person.live())
        except Exception as exc:
            self.soak.error(f"rematch: {type(exc).__name__}")


# ----------------------------------------------------------------------- running
async def run_people(args: argparse.Namespace, server: ServerProcess) -> dict[str, Any]:
    from whist.variants import VARIANTS

    soak = Soak(args, server)
    players = VARIANTS[args.variant].players
    rng = soak.rng
    tables = [Table(soak, i, rng.random() < args.bot_share, players) for i in range(args.tables)]
    started = time.monotonic()
    progress(f"setting up {args.tables} tables")
    await asyncio.gather(*(table.setup() for table in tables))
    ready = [t for t in tables if t.ready]
    people = [p for t in ready for p in t.people]
    setup_s = time.monotonic() - started
    progress(f"{len(ready)} tables, {len(people)} people ready in {setup_s:.1f} s")
    for person in people:
        soak.spawn(person.live())

    duration = args.minutes * 60
    begin = soak.begun = time.monotonic()
    warmup = min(args.warmup, duration / 4)
    kill_at = duration * args.kill_at
    samples: list[list[Any]] = []
    run = 1
    killed: dict[str, Any] = {}
    next_sample = 0.0
    # Disturbances spread over the run: some people leave, some sockets drop.
    leaving = rng.sample(people, int(len(people) * args.leave_share))
    leave_at = {id(p): rng.uniform(warmup, duration * 0.9) for p in leaving}
    drop_rate = args.drops_per_minute / 60  # sockets dropped per second, all tables
    while (now := time.monotonic() - begin) < duration:
        if now >= next_sample:
            server_kib, children_kib = server.rss_kib()
            samples.append(
                [round(now, 1), run, server_kib, children_kib, server_kib + children_kib]
            )
            next_sample += RSS_PERIOD
        for person in leaving:
            if not person.gone and now >= leave_at[id(person)]:
                soak.spawn(person.leave())
        if drop_rate and rng.random() < drop_rate:
            candidates = [p for p in people if not p.gone and p.ws is not None]
            if candidates:
                soak.spawn(rng.choice(candidates).drop())
        if run == 1 and args.kill_at > 0 and now >= kill_at:
            killed = await kill_and_restart(soak, server, now)
            run = 2
            next_sample = now + warmup  # a new process: warm up again before sampling
        await asyncio.sleep(1.0)
    soak.stopping = True
    server_kib, children_kib = server.rss_kib()
    end = round(time.monotonic() - begin, 1)
    samples.append([end, run, server_kib, children_kib, server_kib + children_kib])
    for task in soak.tasks:
        task.cancel()
    return {
        "tables_ready": len(ready),
        "bot_tables": sum(1 for t in ready if t.bots),
        "people": len(people),
        "setup_seconds": round(setup_s, 1),
        "seconds": end,
        "actions": {"sent": soak.sent, "acked": soak.acked, "matches_finished": soak.matches},
        "latency_ms": percentiles(soak.latencies),
        "errors": {
            "total": sum(soak.errors.values()),
            "by_code": dict(soak.errors),
            "seconds_into_run": soak.error_times,  # the first 50 of each code
        },
        "acked_actions": {
            "checked": soak.checked,
            "lost": len(soak.lost),
            "lost_examples": soak.lost[:5],
        },
        "disturbances": {
            "leaves": soak.leaves,
            "drops": soak.drops,
            "reconnects": soak.reconnects,
            "restart": killed,
        },
        "rss": rss_report(samples, warmup),
    }


async def kill_and_restart(soak: Soak, server: ServerProcess, now: float) -> dict[str, Any]:
    progress(f"SIGKILL at {now:.0f} s")
    soak.down = True
    before = set(server.seen)
    server.kill()
    killed = time.monotonic()
    await asyncio.to_thread(server.start)
    back = time.monotonic()
    progress(f"restarted after {back - killed:.1f} s")
    await asyncio.sleep(5.0)  # the people reconnect (counted as errors no more after this)
    soak.down = False
    # The killed server's processes (its bot workers) must not outlive it for long.
    orphans = [pid for pid in server.left() if pid in before]
    return {
        "at_s": round(now, 1),
        "down_s": round(back - killed, 2),
        "processes_left_5_s_after_kill": len(orphans),
    }


def rss_report(samples: list[list[Any]], warmup: float) -> dict[str, Any]:
    """Growth of the total RSS (server and children) per server run, from its first sample
    after warm-up to its last."""
    growth: dict[str, float | None] = {}
    server_growth: dict[str, float | None] = {}  # the server process alone
    for run in sorted({s[1] for s in samples}):
        mine = [s for s in samples if s[1] == run]
        start = mine[0][0] + (warmup if run == 1 else 0)
        warm = [s for s in mine if s[0] >= start]
        if len(warm) >= 2 and warm[0][4] and warm[0][2]:
            growth[f"run{run}"] = round(warm[-1][4] / warm[0][4] - 1, 4)
            server_growth[f"run{run}"] = round(warm[-1][2] / warm[0][2] - 1, 4)
        else:
            growth[f"run{run}"] = server_growth[f"run{run}"] = None
    known = [g for g in growth.values() if g is not None]
    return {
        "samples": samples,
        "sample_fields": ["t_s", "run", "server_kib", "children_kib", "total_kib"],
        "warmup_s": warmup,
        "growth_after_warmup": growth,
        "server_process_growth_after_warmup": server_growth,
        "growth_goal": RSS_GOAL,
        "growth_goal_met": bool(known) and max(known) <= RSS_GOAL,
    }


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    from server_load import think_range

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000, help="tables (1000)")
    parser.add_argument("--minutes", type=float, default=10.0, help="length of the run (10)")
    parser.add_argument("--warmup", type=float, default=60.0, help="warm-up seconds (60)")
    parser.add_argument(
        "--think-ms",
        dest="think",
        type=think_range,
        default="2000-8000",
        help="a person's delay after its turn comes, LOW-HIGH ms (2000-8000)",
    )
    parser.add_argument(
        "--bot-share",
        type=float,
        default=0.25,
        help="share of tables with one person and bots (0.25)",
    )
    parser.add_argument(
        "--leave-share",
        type=float,
        default=0.05,
        help="share of people who leave their table for good (0.05)",
    )
    parser.add_argument(
        "--drops-per-minute",
        type=float,
        default=30.0,
        help="sockets dropped (and reconnected) per minute, all tables (30)",
    )
    parser.add_argument(
        "--kill-at",
        type=float,
        default=0.5,
        help="SIGKILL and restart the server at this share of the run (0.5; 0: never)",
    )
    parser.add_argument("--variant", default="minnesota")
    parser.add_argument("--options", type=json.loads, default={})
    parser.add_argument("--bot-workers", type=int, default=2, help="WHIST_BOT_WORKERS (2)")
    parser.add_argument("--database-url", default="", help="WHIST_DATABASE_URL (SQLite)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep-data", action="store_true")
    args = parser.parse_args(argv)
    args.think = (args.think[0] / 1000, args.think[1] / 1000)
    if args.tables < 1 or args.minutes <= 0 or not 0 <= args.kill_at < 1:
        parser.error("--tables >= 1, --minutes > 0, 0 <= --kill-at < 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    raise_open_files()
    load_before = load_average()
    started = time.monotonic()
    data_dir = Path(tempfile.mkdtemp(prefix="whist-soak-"))
    server = ServerProcess(
        data_dir, args.database_url, {"WHIST_BOT_WORKERS": str(args.bot_workers)}
    )
    run: Callable[[Coroutine[Any, Any, dict[str, Any]]], dict[str, Any]] = asyncio.run
    with contextlib.suppress(ImportError):
        import uvloop

        run = uvloop.run
    with serving(server, data_dir, args.keep_data, progress):
        server.start()
        progress(f"server pid {server.process.pid if server.process else '?'} on {server.port}")
        measured = run(run_people(args, server))
        code = server.stop()
        time.sleep(2.0)  # children a clean stop ends are given a moment to go
        left = server.left()
    result = {
        **header("whist-soak", args, load_before),
        **measured,
        "server": {
            "exit_code_on_sigterm": code,
            "processes_seen": len(server.seen),
            "processes_left_after_stop": len(left),
            "log_tracebacks": server.tracebacks(),
        },
        "goals_met": {
            "rss_growth": measured["rss"]["growth_goal_met"],
            "no_acked_action_lost": measured["acked_actions"]["lost"] == 0,
            "no_process_left": not left,
        },
        "total_seconds": round(time.monotonic() - started, 1),
    }
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
