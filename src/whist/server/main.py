"""``whist serve``: the club on uvicorn."""

from __future__ import annotations

import logging
from pathlib import Path

import uvicorn

from whist.server.app import create_app
from whist.server.settings import Settings


def run_server(host: str | None, port: int | None, data_dir: str | None) -> int:
    overrides: dict[str, object] = {}
    if host is not None:
        overrides["host"] = host
    if port is not None:
        overrides["port"] = port
    if data_dir is not None:
        overrides["data_dir"] = Path(data_dir)
    settings = Settings(**overrides)  # type: ignore[arg-type]
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    where = settings.database_url.split("@")[-1] if settings.database_url else settings.database()
    print(f"Whist Club on http://{settings.host}:{settings.port}/  (database: {where})", flush=True)
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level="info",
        # Frames are small JSON views: compressing each costs more CPU than it saves.
        ws_per_message_deflate=False,
    )
    return 0
