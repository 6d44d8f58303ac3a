"""Server settings: defaults that need nothing configured, overridable by ``WHIST_*``
environment variables (pydantic-settings) or by ``whist serve`` flags."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="WHIST_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = Path("whist-data")
    # Empty: SQLite in data_dir. Otherwise any SQLAlchemy URL (postgresql://... works).
    database_url: str = ""
    # Empty: one process, no Redis. Otherwise (redis://...) cluster mode: every ``whist
    # serve`` on the same database and Redis is a node of one club.
    redis_url: str = ""
    # Cluster mode: a node holds each of its tables for this long unless it renews the
    # lease (every quarter of it); a dead node's tables are taken over after it.
    lease_seconds: float = 5.0
    # The per-move clock of tables created "with a clock" (the seeds' 90 seconds).
    clock_seconds: float = 90.0
    session_days: float = 30.0
    guest_session_days: float = 7.0
    # Bots think in this many worker processes (0: in the server process, for tests).
    bot_workers: int = 2
    bot_budget: float = 1.0  # seconds a bot may think
    bot_delay: float = 0.0  # pause before a bot's move is shown (lets people follow)
    # How long the browser holds each card, trick and deal on screen before drawing the next,
    # as a factor of the normal pace (each player's animation setting applies on top): a
    # demonstration or test server may run its tables faster.
    table_pace: float = Field(default=1.0, gt=0.0, le=10.0)
    # "Review deal" analyses in this many processes apart from the bots' (0: in a thread of
    # the server, for tests); in cluster mode on the bot workers when one is alive.
    analysis_workers: int = 1
    # Several nodes behind several addresses: the WebSocket addresses the browser tries in
    # turn (wss://a.example.com, ...); empty: the page's own server. The session cookie then
    # needs a Domain that covers them all (example.com), and the page's origin must be in
    # allowed_origins.
    socket_urls: list[str] = Field(default_factory=list)
    cookie_domain: str = ""
    # Origins allowed to open a WebSocket besides the server's own address.
    allowed_origins: list[str] = Field(default_factory=list)
    max_message_bytes: int = 4096
    rate_limit_per_second: float = 20.0
    rate_limit_burst: int = 40
    heartbeat_seconds: float = 2.0

    def database(self) -> str:
        if self.database_url:
            url = self.database_url
            if url.startswith("postgresql://"):
                url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
            return url
        return f"sqlite:///{self.data_dir / 'whist.sqlite3'}"
