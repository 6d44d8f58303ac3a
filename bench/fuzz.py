"""WebSocket fuzzing at volume: 100,000 hostile frames against a real ``whist serve``.

Prints one JSON object on stdout (progress on stderr).

    .venv/bin/python bench/fuzz.py                   # 100,000 frames
    .venv/bin/python bench/fuzz.py --frames 5000     # a quick look
    .venv/bin/python bench/fuzz.py --database-url postgresql://postgres@127.0.0.1:5432/fuzz

The frames are those of ``tests/test_fuzz.py`` (its oracle, ``expect``, says what each must
be answered with): frames the schema allows, the same mutated (integers past 64 bits, lone
surrogates, NUL, deep nesting, long strings, unknown fields, wrong types), and frames that
are not JSON objects, not text or not UTF-8, drawn here with ``random`` for speed. They go
pipelined, in windows closed by a sentinel act, over a socket of the seat not to act and a
spectator's socket of a few German Whist tables, so that none can be legal; between rounds
the seat to act plays a card and every socket of its table must hear it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

from engine import load_average
from server_load import COOKIE, http
from soak import ServerProcess, header, serving

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from test_fuzz import (  # the oracle and the hostile values of the tests
    BAD_UTF8_BYTES,
    CLIENT_FRAMES,
    HUGE_INTS,
    MAX_BYTES,
    NASTY_STRINGS,
    Deep,
    Expect,
    Frame,
    expect,
    text_frame,
    to_json,
)

WAIT = 10.0  # seconds a window's sentinel may take
WINDOW = 64  # frames sent before a sentinel
POOL = 400  # schema-valid frames drawn with hypothesis-jsonschema to mutate
PROBLEM = re.compile(r"Traceback \(most recent call last\)|Exception in ASGI application|^ERROR")


def progress(message: str) -> None:
    print(f"[fuzz] {message}", file=sys.stderr, flush=True)


# -------------------------------------------------------------------- the frames
def schema_pool(count: int, seed: int) -> list[Any]:
    """``count`` frames drawn from the schema's ClientMessage (hypothesis-jsonschema)."""
    from hypothesis import HealthCheck, Phase, given, settings

    pool: list[Any] = []

    @settings(
        max_examples=count,
        database=None,
        phases=[Phase.generate],
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(CLIENT_FRAMES)
    def draw(frame: Any) -> None:
        pool.append(frame)

    draw()
    random.Random(seed).shuffle(pool)
    return pool


class Frames:
    """Hostile frames, drawn with ``random``: the tests' families, fast."""

    KINDS = ("play", "bid", "bottom", "trump", "take", "resign", "seat")

    def __init__(self, rng: random.Random, pool: list[Any]) -> None:
        self.rng = rng
        self.pool = pool

    def json_value(self, depth: int = 0) -> Any:
        rng = self.rng
        roll = rng.random()
        if depth > 2 or roll < 0.6:
            return rng.choice(
                [
                    None,
                    True,
                    False,
                    rng.randint(-(10**6), 10**6),
                    rng.random(),
                    "",
                    "x",
                    "AS",
                    "high",
                    "S",
                    "keep",
                ]
            )
        if roll < 0.8:
            return [self.json_value(depth + 1) for _ in range(rng.randint(0, 3))]
        return {
            rng.choice(self.KINDS): self.json_value(depth + 1) for _ in range(rng.randint(0, 3))
        }

    def nasty(self) -> Any:
        rng = self.rng
        roll = rng.random()
        if roll < 0.2:
            return rng.choice(HUGE_INTS)
        if roll < 0.5:
            return rng.choice(NASTY_STRINGS)
        if roll < 0.65:
            return Deep(rng.randint(300, 1300), rng.choice(["list", "dict"]))
        if roll < 0.85:
            return self.json_value()
        return "".join(chr(rng.randint(0, 0x2FFF)) for _ in range(rng.randint(0, 30)))

    def base(self) -> Any:
        frame = self.rng.choice(self.pool)
        return dict(frame) if isinstance(frame, dict) else frame

    def mutated(self) -> Frame:
        rng = self.rng
        frame: Any = self.base()
        for _ in range(rng.randint(1, 3)):
            if not isinstance(frame, dict):
                frame = {"type": "act", "id": "m", "action": frame}
            how = rng.choice(
                ["field", "action_value", "action_kind", "unknown", "drop", "whole", "nest"]
            )
            if how == "field":
                frame[rng.choice(["type", "id", "action"])] = self.nasty()
            elif how == "action_value":
                frame["action"] = {rng.choice(self.KINDS): self.nasty()}
            elif how == "action_kind":
                frame["action"] = {rng.choice(["\ud800", "\x00", "x" * 300, ""]): self.nasty()}
            elif how == "unknown":
                frame[rng.choice(["\ud800", "\x00", "extra", "seat"])] = self.nasty()
            elif how == "drop" and frame:
                frame.pop(rng.choice(sorted(frame)))
            elif how == "whole":
                frame = self.nasty()
            elif how == "nest":
                frame = Deep(rng.randint(1, 1300), rng.choice(["list", "dict"]), frame)
        return text_frame(frame, rng.random() < 0.5)

    def raw(self) -> Frame:
        rng = self.rng
        base = to_json(self.base())
        how = rng.randrange(8)
        if how == 0:
            return Frame("".join(chr(rng.randint(1, 0x7F)) for _ in range(rng.randint(0, 80))))
        if how == 1:
            return Frame(base[: rng.randint(0, max(0, len(base) - 1))])
        if how == 2:
            return Frame(base.encode(), text=False)
        if how == 3:
            return Frame(rng.randbytes(rng.randint(0, 100)), text=False)
        if how == 4:
            data = base.encode()
            cut = len(data) // 2
            return Frame(
                data[:cut] + rng.choice(BAD_UTF8_BYTES) + data[cut:], text=rng.random() < 0.5
            )
        if how == 5:
            lax = rng.choice(['"x":NaN', '"x":-Infinity', '"type":"ping"', '"\\udbff":1'])
            return Frame(base[:-1] + ("," if base != "{}" else "") + lax + "}")
        if how == 6:
            return Frame(rng.choice([" ", "\n", "\ufeff"]) + base)
        return Frame(base[:-1] + ',"pad":"' + "y" * MAX_BYTES + '"}')

    def next(self) -> Frame:
        roll = self.rng.random()
        if roll < 0.2:
            frame = text_frame(self.base())
        elif roll < 0.75:
            frame = self.mutated()
        else:
            frame = self.raw()
        if isinstance(frame.data, str) and '"resign":true' in frame.data.replace(" ", ""):
            # Resigning is legal at any time: it would end the table, not refuse anything.
            return Frame(frame.data.replace('"resign":true', '"resign":"true"'), frame.text)
        return frame


# -------------------------------------------------------------------- the tables
class Tally:
    """Everything counted over the run."""

    def __init__(self) -> None:
        self.frames = 0
        self.answers: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()
        self.closes: Counter[str] = Counter()
        self.silent = 0  # frames that got no answer at all
        self.extra = 0  # answers beyond one per frame
        self.missing_ids = 0  # a readable id that no answer carried
        self.stalls = 0  # windows whose sentinel never came
        self.lost_to_close = 0  # answers lost when a bad frame closed the socket
        self.state_changes = 0  # a table's version or status moved without an ack
        self.acked = 0
        self.broadcast_failures = 0
        self.server_down = 0


class Sock:
    """One hostile socket: sends windows of frames and checks their answers."""

    def __init__(self, table: Table, seat: int | None) -> None:
        self.table = table
        self.seat = seat
        self.ws: Any = None
        self.sentinels = 0

    async def open(self) -> None:
        from websockets.asyncio.client import connect

        cookie = None if self.seat is None else self.table.cookies[self.seat]
        headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
        self.ws = await connect(
            f"ws://127.0.0.1:{self.table.port}/ws/tables/{self.table.id}",
            additional_headers=headers,
            proxy=None,
            ping_interval=None,
            max_queue=None,
            max_size=None,
            compression=None,
        )
        await self.read_until(lambda f: f.get("type") == "state")

    async def read_until(
        self, done: Callable[[dict[str, Any]], bool], into: list[dict[str, Any]] | None = None
    ) -> list[dict[str, Any]]:
        """Frames up to the first that ``done`` accepts, appended to ``into`` as they come
        (so that what came before a close is kept)."""
        frames: list[dict[str, Any]] = [] if into is None else into
        while True:
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), WAIT))
            frames.append(frame)
            if done(frame):
                return frames

    async def window(self, frames: list[tuple[Frame, Expect]], tally: Tally) -> None:
        """Send ``frames`` pipelined, then a sentinel; judge what came back."""
        from websockets.exceptions import ConnectionClosed

        wanted = [want for _, want in frames]
        closing = wanted[-1].kind == "close"  # at most one, and last (a window ends there)
        ids: Counter[Any] = Counter()
        for want in wanted:
            if want.ids is not None and len(want.ids) == 1 and want.ids[0] is not None:
                ids[json.dumps(want.ids[0])] += 1
        self.sentinels += 1
        sentinel = f"sentinel-{id(self):x}-{self.sentinels}"
        got: list[dict[str, Any]] = []
        closed_as: int | None = None
        try:
            for frame, _ in frames:
                await self.ws.send(frame.data, text=frame.text)
            # After a frame that closes the socket, the sentinel is never read.
            await self.ws.send(json.dumps({"type": "act", "id": sentinel, "action": {}}))
            await self.read_until(
                lambda f: f.get("type") == "error" and f.get("id") == sentinel, got
            )
        except TimeoutError:
            tally.stalls += 1
            await self.reopen()
            return
        except ConnectionClosed as closed:
            closed_as = closed.rcvd.code if closed.rcvd is not None else 1006
            tally.closes[str(closed_as)] += 1
            if not (closing and closed_as == 1007):
                tally.closes["unexpected"] += 1
            await self.reopen()
        tally.frames += len(frames)
        if closed_as is None:
            self.table.saw(got.pop().get("version"), tally)  # the sentinel's answer
        # A hint message is answered by a hint frame (a suggestion or a refusal with a code).
        answers = [f for f in got if f.get("type") in ("pong", "ack", "error", "state", "hint")]
        for answer in answers:
            tally.answers[answer["type"]] += 1
            if answer["type"] == "error" or (answer["type"] == "hint" and "code" in answer):
                tally.errors[str(answer.get("code"))] += 1
            elif answer["type"] == "ack":
                tally.acked += 1
            key = json.dumps(answer.get("id"))
            if ids[key] > 0:
                ids[key] -= 1
        expected = len(frames) - (1 if closing else 0)
        if closed_as is None:
            tally.silent += max(0, expected - len(answers))
            tally.extra += max(0, len(answers) - expected)
            tally.missing_ids += sum(ids.values())
        else:
            # The transport fails the connection at once (RFC 6455): answers to the frames
            # still queued before the bad one are lost with it. Counted apart.
            tally.lost_to_close += max(0, expected - len(answers))

    async def reopen(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        await self.open()


class Table:
    """A German Whist table of two guests: a clean socket per seat and a watcher, plus the
    hostile sockets (the seat not to act, a spectator)."""

    def __init__(self, port: int, cookies: list[str], rng: random.Random) -> None:
        self.port = port
        self.cookies = cookies
        self.rng = rng
        self.id = ""
        self.clean: list[Sock] = []
        self.hostile: dict[int | None, Sock] = {}
        self.version = -1
        self.status = "playing"
        self.moved = False  # a version change already counted this round

    async def create(self) -> None:
        body = {"variant": "german", "options": {"match": "single"}, "clock": False}
        status, answer, _ = await http(self.port, "POST", "/api/tables", body, self.cookies[0])
        assert status == 200, answer
        self.id = answer["id"]
        path = f"/api/tables/{self.id}/join"
        status, answer, _ = await http(self.port, "POST", path, {"seat": 1}, self.cookies[1])
        assert status == 200, answer
        self.clean = [Sock(self, 0), Sock(self, 1), Sock(self, None)]
        self.hostile = {0: Sock(self, 0), 1: Sock(self, 1), None: Sock(self, None)}
        for sock in [*self.clean, *self.hostile.values()]:
            await sock.open()
        await self.settle()

    async def settle(self) -> None:
        """The current version and status, from a snapshot of the watcher."""
        watcher = self.clean[2]
        await watcher.ws.send(json.dumps({"type": "snapshot", "id": "settle"}))
        # The state answering the snapshot carries its id: older ones may still be queued.
        frames = await watcher.read_until(lambda f: f.get("id") == "settle")
        self.version, self.status = frames[-1]["version"], frames[-1]["table"]["status"]
        self.to_act = frames[-1]["view"]["to_act"]
        self.moved = False

    def saw(self, version: Any, tally: Tally) -> None:
        if isinstance(version, int) and version != self.version and not self.moved:
            self.moved = True
            tally.state_changes += 1

    async def fuzz(self, frames: Frames, per_socket: int, tally: Tally) -> None:
        """Both hostile sockets at once: the seat not to act, and a spectator."""
        waiting = 1 - self.to_act[0] if self.to_act else 1

        async def stream(sock: Sock) -> None:
            sent = 0
            closer: tuple[Frame, Expect] | None = None
            while sent < per_socket:
                batch: list[tuple[Frame, Expect]] = []
                if closer is not None:  # alone: the close takes queued answers with it
                    batch, closer = [closer], None
                while not batch or (
                    batch[-1][1].kind != "close"
                    and len(batch) < WINDOW
                    and sent + len(batch) < per_socket
                ):
                    frame = frames.next()
                    drawn = (frame, expect(frame))
                    if drawn[1].kind == "close" and batch:
                        closer = drawn
                        break
                    batch.append(drawn)
                sent += len(batch)
                await sock.window(batch, tally)

        await asyncio.gather(stream(self.hostile[waiting]), stream(self.hostile[None]))

    async def honest_move(self, tally: Tally) -> None:
        """The seat to act plays: every socket of the table must hear the new version."""
        await self.settle()
        if self.status != "playing" or not self.to_act:
            await self.create()
            return
        seat = self.to_act[0]
        sock = self.clean[seat]
        await sock.ws.send(json.dumps({"type": "snapshot", "id": "legal"}))
        state = (await sock.read_until(lambda f: f.get("id") == "legal"))[-1]
        action = {k: v for k, v in self.rng.choice(state["view"]["legal"]).items() if k != "seat"}
        message_id = f"honest-{self.rng.random()}"
        await sock.ws.send(json.dumps({"type": "act", "id": message_id, "action": action}))
        got = await sock.read_until(lambda f: f.get("id") == message_id and f["type"] != "state")
        if got[-1]["type"] != "ack":
            tally.broadcast_failures += 1
            return
        version = got[-1]["version"]
        for other in [*self.clean, *self.hostile.values()]:
            if other is sock:
                continue
            try:
                await other.read_until(
                    lambda f: f.get("type") == "state" and f["version"] >= version
                )
            except Exception:
                tally.broadcast_failures += 1
                await other.reopen()
        await self.settle()


# ----------------------------------------------------------------------- running
async def run_fuzz(args: argparse.Namespace, server: ServerProcess) -> dict[str, Any]:
    rng = random.Random(args.seed)
    progress(f"drawing {POOL} frames from the schema")
    frames = Frames(rng, schema_pool(POOL, args.seed))
    tally = Tally()
    cookies = []
    for k in range(2 * args.tables):
        status, body, cookie = await http(server.port, "POST", "/api/guest", {"nickname": f"f{k}"})
        assert status == 200 and cookie, body
        cookies.append(cookie)
    tables = [Table(server.port, cookies[2 * k : 2 * k + 2], rng) for k in range(args.tables)]
    for table in tables:
        await table.create()
    progress(f"{args.tables} tables ready; sending {args.frames} frames")
    per_socket = max(1, args.round_frames // 2)
    started = time.monotonic()
    rounds = 0
    while tally.frames < args.frames:
        left = args.frames - tally.frames
        share = min(per_socket, -(-left // (2 * len(tables))))  # the last round: what is left
        await asyncio.gather(*(t.fuzz(frames, share, tally) for t in tables))
        rounds += 1
        if not server.answers():
            tally.server_down += 1
            break
        await asyncio.gather(*(t.honest_move(tally) for t in tables))
        if rounds % 10 == 0:
            rate = tally.frames / (time.monotonic() - started)
            progress(f"{tally.frames} frames, {rate:.0f}/s")
    seconds = time.monotonic() - started
    return {"tally": tally, "seconds": seconds, "rounds": rounds}


def log_problems(path: Path) -> dict[str, Any]:
    lines = path.read_text(errors="replace").splitlines() if path.exists() else []
    found = [i for i, line in enumerate(lines) if PROBLEM.search(line)]
    # The exception each traceback ended with (the first unindented line after it).
    ends: Counter[str] = Counter()
    for i in found:
        if "Traceback" in lines[i]:
            end = next((x for x in lines[i + 1 : i + 60] if x and not x.startswith(" ")), "?")
            ends[re.sub(r"0x[0-9a-f]+|\d+", "N", end)[:120]] += 1  # one key per kind
    return {"problem_lines": len(found), "tracebacks_by_exception": dict(ends.most_common(8))}


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=100_000, help="frames to send (100000)")
    parser.add_argument("--tables", type=int, default=4, help="tables fuzzed at once (4)")
    parser.add_argument(
        "--round-frames",
        type=int,
        default=512,
        help="frames per table between two honest moves (512)",
    )
    parser.add_argument("--database-url", default="", help="WHIST_DATABASE_URL (SQLite)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep-data", action="store_true")
    args = parser.parse_args(argv)
    if args.frames < 1 or args.tables < 1 or args.round_frames < 2:
        parser.error("--frames, --tables >= 1, --round-frames >= 2")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    load_before = load_average()
    data_dir = Path(tempfile.mkdtemp(prefix="whist-fuzz-"))
    settings = {
        # Far above any person's pace: the fuzzer pipelines thousands of frames a second.
        "WHIST_RATE_LIMIT_PER_SECOND": "1000000",
        "WHIST_RATE_LIMIT_BURST": "1000000",
        "WHIST_BOT_WORKERS": "0",
        "WHIST_CLOCK_SECONDS": "3600",
    }
    server = ServerProcess(data_dir, args.database_url, settings)
    run: Callable[[Coroutine[Any, Any, dict[str, Any]]], dict[str, Any]] = asyncio.run
    with contextlib.suppress(ImportError):
        import uvloop

        run = uvloop.run
    with serving(server, data_dir, args.keep_data, progress):
        server.start()
        measured = run(run_fuzz(args, server))
        alive = server.answers()
        server.stop()
        problems = log_problems(server.log_path)
    tally: Tally = measured["tally"]
    seconds = measured["seconds"]
    result = {
        **header("whist-fuzz", args, load_before),
        "frames": tally.frames,
        "seconds": round(seconds, 1),
        "frames_per_s": round(tally.frames / seconds) if seconds else None,
        "rounds": measured["rounds"],
        "crashes": {
            "server_down": tally.server_down + (0 if alive else 1),
            "traceback_lines": problems["problem_lines"],
            "tracebacks_by_exception": problems["tracebacks_by_exception"],
        },
        "state_changes_by_refused_input": tally.state_changes,
        "acked": tally.acked,
        "silent_drops": tally.silent,
        "extra_answers": tally.extra,
        "missing_ids": tally.missing_ids,
        "stalled_windows": tally.stalls,
        "answers_lost_to_a_close": tally.lost_to_close,
        "broadcast_failures": tally.broadcast_failures,
        "answers_by_type": dict(tally.answers),
        "errors_by_code": dict(tally.errors.most_common()),
        "closes_by_code": dict(tally.closes),
    }
    result["clean"] = not (
        result["crashes"]["server_down"]
        or problems["problem_lines"]
        or tally.state_changes
        or tally.silent
        or tally.extra
        or tally.missing_ids
        or tally.stalls
        or tally.broadcast_failures
        or tally.acked
        or tally.closes.get("unexpected")
    )
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
