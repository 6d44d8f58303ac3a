"""``whist serve``: the club on uvicorn.

Whatever can keep the server from starting is checked first, each step before the next
touches anything: the settings and the port, the database URL, the listening socket, the
data directory, the database. A failure is one line on stderr and exit 1 (no migration
run, no worker started). Then uvicorn serves on the socket bound here, so that the
address printed is the one listened on.

The server owns its bot workers: SIGTERM or SIGINT at any moment stops them before the
process exits, whether or not the club got as far as closing its pool.
"""

from __future__ import annotations

import gc
import logging
import signal
import socket
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import uvicorn
from pydantic import ValidationError
from sqlalchemy import URL, create_engine, make_url, text
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.pool import NullPool

from whist.server.bots import stop_all_workers
from whist.server.settings import Settings

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
DIALECTS = ("sqlite", "postgresql")
CONNECT_TIMEOUT = 5  # seconds the start-up check waits for the database
BACKLOG = 2048  # uvicorn's default
MAX_FRAME_BYTES = 64 * 1024  # docs/protocol.md, Limits
GRACEFUL_SECONDS = 5  # open requests' time to finish after a stop signal
# The garbage collector's thresholds once the club is up (docs/scaling.md). At 1,000 tables it
# tracks some 800,000 objects (two dozen coroutines per socket, waiting for the next frame).
# A full collection walks them all with the event loop stopped: 0.8-1 s. With CPython's
# (700, 10, 10) one ran every 20-35 s at people's pace and freed nothing (refcounting frees
# what the server drops): objects waiting seconds for a person outlive two young collections,
# and CPython counts them as long-lived. Here a full collection comes after 5,000 collections
# of generation 1 (over an hour at that pace), and generation 1 after 2 of generation 0, not
# 10, so that it walks 3 times fewer waiting objects at a time: 8 ms instead of 27.
GC_THRESHOLDS = (700, 2, 5000)


class StartupError(Exception):
    """Why the server cannot start, as one line for stderr."""


class Stopped(BaseException):
    """A stop signal came before uvicorn took them over, or after it gave them back.
    A BaseException: no ``except Exception`` on the way may swallow it."""


def run_server(host: str | None, port: int | None, data_dir: str | None) -> int:
    listener: socket.socket | None = None
    try:
        for sig in STOP_SIGNALS:
            signal.signal(sig, stop)
        settings = load_settings(host, port, data_dir)
        database = database_url(settings)
        listener = listen(settings.host, settings.port)
        if not settings.database_url:
            make_data_dir(settings.data_dir)
        check_database(database)
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
        print(f"Whist Club on {address(listener)}  (database: {shown(database)})", flush=True)
        serve(settings, listener)
    except StartupError as exc:
        print(f"whist serve: {exc}", file=sys.stderr, flush=True)
        return 1
    except Stopped:
        pass
    except Exception as exc:
        if not stopped_by_signal(exc):
            raise
    finally:
        # Not to be cut short by a second signal: this is bounded (a second or two).
        for sig in STOP_SIGNALS:
            signal.signal(sig, signal.SIG_IGN)
        stop_all_workers()
        if listener is not None:
            listener.close()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
    return 0


def stop(sig: int, _frame: FrameType | None) -> None:
    raise Stopped(sig)


def stopped_by_signal(exc: BaseException | None) -> bool:
    """Whether ``exc`` is a stop signal's ``Stopped``, wrapped on its way up: Python turns
    an exception raised in ``__set_name__``, while an import creates a class, into a
    RuntimeError whose cause it is."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, Stopped):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def serve(settings: Settings, listener: socket.socket) -> None:
    from whist.server.app import create_app  # only now: its import is most of start-up

    config = uvicorn.Config(
        create_app(settings),
        log_level="info",
        backlog=BACKLOG,
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
        # Frames are small JSON views: compressing each costs more CPU than it saves.
        ws_per_message_deflate=False,
        # A client frame over this is closed by the transport (1009) before it is read
        # whole; the protocol's own limit (max_message_bytes, far lower) is answered.
        ws_max_size=MAX_FRAME_BYTES,
    )
    # After Config: it (re)configures uvicorn's loggers.
    logging.getLogger("uvicorn.error").addFilter(QuietBadText())
    Server(config).run(sockets=[listener])


class Server(uvicorn.Server):
    """uvicorn's server, with the garbage collector tuned once the club is up."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        tune_gc()


def tune_gc() -> None:
    """What start-up made (modules, the app, the tables restored) lives as long as the
    process: frozen, no collection walks it again. Then full collections become rare
    (GC_THRESHOLDS): each walks every object of every table and socket, stopping the event
    loop for up to a second at 1,000 tables."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


class QuietBadText(logging.Filter):
    """uvicorn logs a client's text frame that is not UTF-8 as an error with a traceback,
    though all it does is close that one socket with 1007, as the protocol says: a hostile
    client must not fill the log with tracebacks. One line at INFO instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().startswith("Invalid UTF-8 sequence"):
            record.msg, record.args = "a text frame was not UTF-8: socket closed (1007)", ()
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


# ------------------------------------------------------------------ the checks
def load_settings(host: str | None, port: int | None, data_dir: str | None) -> Settings:
    # Only the flags given: the others come from WHIST_* variables or the defaults.
    given: dict[str, Any] = {"host": host, "port": port, "data_dir": data_dir}
    overrides = {name: value for name, value in given.items() if value is not None}
    try:
        settings = Settings(**overrides)
    except ValidationError as exc:
        error = exc.errors()[0]
        name = "WHIST_" + "_".join(str(part) for part in error["loc"]).upper()
        raise StartupError(f"bad setting {name}: {error['msg']}") from None
    # Port 0 (any free port) is refused too: the club's address goes into players'
    # bookmarks and invitation links, and must not change from one start to the next.
    if not 1 <= settings.port <= 65535:
        raise StartupError(f"port {settings.port} is not a port: use 1 to 65535")
    return settings


def database_url(settings: Settings) -> URL:
    try:
        url = make_url(settings.database())
    except ArgumentError:  # the message would repeat the URL, password and all
        raise StartupError(
            "WHIST_DATABASE_URL is not a database URL: use sqlite:///FILE or "
            "postgresql://USER@HOST/DATABASE"
        ) from None
    if url.get_backend_name() not in DIALECTS:
        raise StartupError(
            f"unsupported database URL {url.render_as_string(hide_password=True)!r}: "
            "use sqlite or postgresql"
        )
    return url


def listen(host: str, port: int) -> socket.socket:
    """The server's listening socket, bound and listening (uvicorn serves on it)."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        family, kind, proto, _, sockaddr = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as exc:
        raise StartupError(f"cannot listen on {where}: {lower_first(exc.strerror)}") from None
    listener = socket.socket(family, kind, proto)
    try:
        # A restart must not wait for the last run's connections in TIME_WAIT.
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(sockaddr)
        listener.listen(BACKLOG)
    except OSError as exc:
        listener.close()
        # "address already in use": the OS's words, which people search for.
        raise StartupError(f"cannot listen on {where}: {lower_first(exc.strerror)}") from None
    return listener


def make_data_dir(data_dir: Path) -> None:
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise StartupError(f"cannot create the data directory {data_dir}: {why}") from None


def check_database(url: URL) -> None:
    """A ``SELECT 1``: the database is there and answers (before any migration)."""
    sqlite = url.get_backend_name() == "sqlite"
    timeout = {"timeout": CONNECT_TIMEOUT} if sqlite else {"connect_timeout": CONNECT_TIMEOUT}
    try:
        engine = create_engine(url, poolclass=NullPool, connect_args=timeout)
    except (NoSuchModuleError, ImportError):
        raise StartupError(
            f"no driver for the database URL {url.render_as_string(hide_password=True)!r}"
        ) from None
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except SQLAlchemyError as exc:
        if sqlite:
            where = f"cannot open the SQLite database {url.database}"
        else:
            where = f"cannot reach the database at {url.host}:{url.port or 5432}"
        raise StartupError(f"{where}: {why(exc)}") from None
    finally:
        engine.dispose()


def why(exc: SQLAlchemyError) -> str:
    """The driver's reason in a few words: libpq's message is several lines, of which the
    one saying what failed matters ("... failed: Connection refused")."""
    message = str(getattr(exc, "orig", None) or exc)
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    reason = next((line.rsplit("failed: ", 1)[1] for line in lines if "failed: " in line), "")
    reason = (reason or (lines[0] if lines else type(exc).__name__)).removeprefix("FATAL:")
    return lower_first(reason.strip())


def lower_first(words: str | None) -> str:
    words = words or "unknown error"
    return words[:1].lower() + words[1:]


# ------------------------------------------------------------------ what is printed
def address(listener: socket.socket) -> str:
    host, port = listener.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def shown(url: URL) -> str:
    """The database for people to read: no user name, no password."""
    if url.get_backend_name() == "sqlite":
        return f"sqlite {url.database}"
    return f"{url.get_backend_name()} at {url.host}:{url.port or 5432}/{url.database}"
