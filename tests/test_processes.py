"""The server owns its processes, starts cleanly or says why not in one line, and answers
``/healthz`` — against real ``whist serve`` processes with bot worker processes.

A stop signal at any moment (while Python loads, while the club starts, while a bot
thinks) leaves no process of the server's behind; nor does a SIGKILL, for longer than a
few seconds. Linux only: the processes are followed in /proc.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import psycopg
import pytest

from test_recovery import POSTGRES_ADMIN_URL, Guest, Server, free_port, play, postgres_database

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="follows processes in /proc")

WORKERS = {"WHIST_BOT_WORKERS": "2"}
EXIT_TIMEOUT = 20.0  # seconds a stopped server may take to exit
ORPHAN_GRACE = 5.0  # seconds a worker may outlive its server


# ------------------------------------------------------------------ processes in /proc
Proc = tuple[int, int]  # (pid, start time): a pid alone may be reused


def stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent pid, start time) of a process, None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
    return fields[0], int(fields[1]), int(fields[19])


def descendants(root: int) -> set[Proc]:
    parents: dict[int, tuple[int, int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (info := stat(int(entry))) is not None:
            parents[int(entry)] = (info[1], info[2])
    found: set[Proc] = set()
    frontier = {root}
    while frontier:
        children = {pid for pid, (ppid, _) in parents.items() if ppid in frontier}
        found |= {(pid, parents[pid][1]) for pid in children}
        frontier = children
    return found


def alive(proc: Proc) -> bool:
    info = stat(proc[0])
    return info is not None and info[2] == proc[1] and info[0] not in "ZX"


class Family:
    """Every process the server started, seen while it runs (polled every 20 ms)."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.seen: set[Proc] = set()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while self.process.poll() is None:
            self.seen |= descendants(self.process.pid)
            time.sleep(0.02)

    def wait_for_children(self, count: int, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while len(self.seen) < count:
            assert self.process.poll() is None, "the server exited"
            assert time.monotonic() < deadline, f"{count} children did not start"
            time.sleep(0.02)

    def assert_all_gone(self, within: float) -> None:
        deadline = time.monotonic() + within
        while (left := {p for p in self.seen if alive(p)}) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not left, f"still running after the server: {sorted(left)}"


def spawn(server: Server) -> Family:
    """``whist serve`` as ``Server.start`` runs it, without waiting for it to answer."""
    with server.log_path.open("ab") as log:
        server.process = subprocess.Popen(
            [*serve_command(server.port), "--data-dir", str(server.data_dir)],
            cwd=server.root,
            env=server.env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    return Family(server.process)


def serve_command(port: int) -> list[str]:
    return [sys.executable, "-m", "whist.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]


def stop(server: Server, how: signal.Signals) -> int:
    process = server.process
    assert process is not None
    process.send_signal(how)
    try:
        code = process.wait(timeout=EXIT_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"{how.name} did not stop the server:\n{server.log_tail()}") from None
    server.process = None
    return code


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    made: list[Server] = []
    yield made
    for server in made:
        server.close()
        print(f"--- log of {server.root}:\n{server.log_tail()}")  # shown when a test fails


def new_server(servers: list[Server], root: Path, database_url: str = "") -> Server:
    server = Server(root / f"server{len(servers)}", database_url, WORKERS)
    servers.append(server)
    return server


# ------------------------------------------------------------------ stopping
@pytest.mark.parametrize(
    ("how", "when"),
    [
        (signal.SIGTERM, 0.2),  # Python is still loading
        (signal.SIGTERM, 1.0),
        (signal.SIGTERM, "workers"),  # the club is starting: its workers are forked
        (signal.SIGINT, "workers"),
    ],
)
def test_a_stop_signal_while_starting_leaves_no_process(
    servers: list[Server], tmp_path: Path, how: signal.Signals, when: float | str
) -> None:
    server = new_server(servers, tmp_path)
    family = spawn(server)
    if when == "workers":
        family.wait_for_children(1)
    else:
        assert isinstance(when, float)
        time.sleep(when)
    code = stop(server, how)
    assert code in (0, -how), f"exit {code}:\n{server.log_tail()}"
    assert "Traceback" not in server.log_tail(), server.log_tail()
    family.assert_all_gone(within=2.0)


def test_sigterm_while_bots_think_stops_the_busy_workers(
    servers: list[Server], tmp_path: Path
) -> None:
    """MASTER bots think for 0.3 s a move: the stop comes right after one of them moved,
    while the next one thinks."""
    server = new_server(servers, tmp_path)
    server.env["WHIST_BOT_BUDGET"] = "0.3"
    server.start()
    family = Family(server.process)  # type: ignore[arg-type]
    ann = Guest(server, "Ann")
    table = ann.create("classic", {}, False, {"1": "master", "2": "master", "3": "master"})
    ws = ann.socket(table, 0)
    rng = random.Random(1)
    (acked,) = play([ws], rng, 1, timeout=40)
    while ws.my_turn():  # her card won the trick, and she leads the next (one CI run)
        (acked,) = play([ws], rng, 1, timeout=40)
    ws.wait(lambda: ws.version > acked.version, "a bot's move", timeout=20)
    family.wait_for_children(2)
    started = time.monotonic()
    code = stop(server, signal.SIGTERM)
    ws.close()
    assert code in (0, -signal.SIGTERM), f"exit {code}:\n{server.log_tail()}"
    assert time.monotonic() - started < 10, "the stop waited for the bots"
    assert "ignored SIGTERM" not in server.log_tail(), "a worker had to be killed"
    family.assert_all_gone(within=2.0)


def test_the_workers_of_a_killed_server_exit_by_themselves(
    servers: list[Server], tmp_path: Path
) -> None:
    server = new_server(servers, tmp_path)
    server.start()
    # The address printed is the one listened on (server.start got its answer there).
    assert f"Whist Club on http://127.0.0.1:{server.port}/" in server.log_tail()
    family = Family(server.process)  # type: ignore[arg-type]
    family.wait_for_children(2)
    server.kill()
    family.assert_all_gone(within=ORPHAN_GRACE)


# ------------------------------------------------------------------ start-up failures
def fail_to_start(
    tmp_path: Path, args: list[str], env: dict[str, str] | None = None, port: int | None = None
) -> str:
    """The one line on stderr of a ``whist serve`` that must stop at once with exit 1."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("WHIST_")}
    run = subprocess.run(
        [*serve_command(free_port() if port is None else port), *args],
        cwd=tmp_path,
        # The one line is ours: a warning that the compiled core is stale is not.
        env={**base, **WORKERS, "PYTHONWARNINGS": "ignore::RuntimeWarning", **(env or {})},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=EXIT_TIMEOUT,
    )
    stderr = run.stderr.decode(errors="replace")
    assert run.returncode == 1, f"exit {run.returncode}:\n{stderr}"
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert lines[0].startswith("whist serve: "), stderr
    return lines[0]


def test_an_unreachable_database_is_one_line(tmp_path: Path) -> None:
    port = free_port()  # nobody listens there
    url = f"postgresql://whist:s3cret@127.0.0.1:{port}/whist"
    line = fail_to_start(tmp_path, [], {"WHIST_DATABASE_URL": url})
    assert f"cannot reach the database at 127.0.0.1:{port}: connection refused" in line
    assert "s3cret" not in line


def test_an_unsupported_database_url_is_one_line(tmp_path: Path) -> None:
    url = "mysql://whist:s3cret@127.0.0.1/whist"
    line = fail_to_start(tmp_path, [], {"WHIST_DATABASE_URL": url})
    assert "unsupported database URL 'mysql://whist:***@127.0.0.1/whist'" in line
    assert "use sqlite or postgresql" in line


def test_a_data_dir_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    line = fail_to_start(tmp_path, ["--data-dir", str(blocker / "data")])
    assert f"cannot create the data directory {blocker / 'data'}: Not a directory" in line


@pytest.mark.parametrize("port", [99999, 0])
def test_a_port_out_of_range_is_refused(tmp_path: Path, port: int) -> None:
    line = fail_to_start(tmp_path, ["--data-dir", "data"], port=port)
    assert f"port {port} is not a port" in line
    assert not (tmp_path / "data").exists()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.param == "sqlite":
        yield ""
    else:
        yield from postgres_database()


def test_a_port_in_use_is_one_line_and_touches_nothing(tmp_path: Path, database_url: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {"WHIST_DATABASE_URL": database_url} if database_url else {}
        line = fail_to_start(tmp_path, ["--data-dir", "data"], env, port)
    assert f"cannot listen on 127.0.0.1:{port}: address already in use" in line
    assert not (tmp_path / "data").exists()
    if database_url:
        with psycopg.connect(database_url, connect_timeout=3) as connection:
            tables = connection.execute(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
            ).fetchone()
        assert tables == (0,), "migrations ran"


# ------------------------------------------------------------------ /healthz
def get_health(server: Server) -> tuple[int, dict[str, Any]]:
    with httpx2.Client(base_url=server.url, timeout=10.0, trust_env=False) as client:
        response = client.get("/healthz")
    return response.status_code, response.json()


@pytest.fixture
def postgres_url() -> Iterator[str]:
    yield from postgres_database()


def test_healthz_reports_the_database_and_the_process(
    servers: list[Server], tmp_path: Path, postgres_url: str
) -> None:
    """200 while the database answers, 503 with the same fields once it is gone."""
    url = postgres_url
    server = new_server(servers, tmp_path, url)
    server.start()
    family = Family(server.process)  # type: ignore[arg-type]
    family.wait_for_children(2)
    ann = Guest(server, "Ann")
    ann.create("classic", {}, False, {"1": "easy", "2": "easy", "3": "easy"})
    code, body = get_health(server)
    assert code == 200, body
    assert body["status"] == "ok"
    check = body["database"]
    assert check["ok"] is True and check["error"] is None
    assert check["dialect"] == "postgresql"
    assert 0 <= check["latency_ms"] < 2000
    process = body["process"]
    assert process["pid"] == server.process.pid  # type: ignore[union-attr]
    assert process["version"]
    assert process["uptime_seconds"] >= 0
    assert process["tables"] == 1 and process["sockets"] == 0
    workers = process["bot_workers"]
    assert {w["pid"] for w in workers} == {pid for pid, _ in family.seen}
    assert all(w["alive"] for w in workers)

    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True, connect_timeout=3) as admin:
        admin.execute(f'DROP DATABASE "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
    code, down = get_health(server)
    assert code == 503, down
    assert down["status"] == "unavailable"
    assert down["database"]["ok"] is False and down["database"]["error"]
    assert down.keys() == body.keys()
    assert down["database"].keys() == check.keys()
    assert down["process"].keys() == process.keys()
    assert "password" not in str(down)


def test_a_server_started_by_a_killed_benchmark_stops_with_it(tmp_path: Path) -> None:
    """The servers that the benchmarks and tests start (``preexec_fn=exit_with_parent``) do
    not outlive a runner killed with SIGKILL, nor do their workers."""
    runner_code = (
        "import subprocess, sys, time\n"
        "from whist.server.bots import exit_with_parent\n"
        "server = subprocess.Popen([sys.executable, '-m', 'whist.cli', 'serve', '--port',"
        f" '{free_port()}', '--data-dir', {str(tmp_path / 'data')!r}],"
        " stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=exit_with_parent)\n"
        "print(server.pid, flush=True)\n"
        "time.sleep(120)\n"
    )
    runner = subprocess.Popen(
        [sys.executable, "-c", runner_code], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL
    )
    try:
        assert runner.stdout is not None
        server_pid = int(runner.stdout.readline())
        deadline = time.monotonic() + 30
        family: set[Proc] = set()
        while len(family) < 3 and time.monotonic() < deadline:  # the server and 2 workers
            family = descendants(runner.pid)
            time.sleep(0.05)
        assert len(family) >= 3 and server_pid in {pid for pid, _ in family}
        runner.kill()
        runner.wait()
        deadline = time.monotonic() + 15
        while (left := {p for p in family if alive(p)}) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not left, f"still running after the runner was killed: {sorted(left)}"
    finally:
        if runner.poll() is None:
            runner.kill()
