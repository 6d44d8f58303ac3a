"""One error shape for every route: ``{"code": ..., "message": ...}`` with the status
docs/protocol.md gives for each kind of refusal."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from whist.core.errors import WhistError
from whist.server.actor import Refused
from whist.server.limits import printable

# The table actor's refusals that are not a conflict with the table's state (409).
REFUSED_STATUS = {"internal": 500, "unavailable": 503, "no_table": 404}


def error(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    # Messages may quote what a client sent: printable() keeps them encodable.
    body = {"code": code, "message": printable(message), **extra}
    return JSONResponse(body, status_code=status)


async def whist_error(_request: Request, exc: WhistError) -> JSONResponse:
    return error(400, exc.code, exc.message)


async def refused(_request: Request, exc: Refused) -> JSONResponse:
    return error(REFUSED_STATUS.get(exc.code, 409), exc.code, exc.message)


# Where a refused value was, as a person reads it (FastAPI's first ``loc`` part).
PARTS = {"body": "request body", "path": "address", "query": "query string", "header": "header"}


async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
    errors = [
        {
            "loc": [printable(str(part), 60) for part in e.get("loc", ())],
            "msg": printable(str(e.get("msg", ""))),
            "type": printable(str(e.get("type", "")), 60),
        }
        for e in exc.errors()[:20]
    ]
    where = ".".join(errors[0]["loc"][1:]) if errors else ""
    first = f"{where}: {errors[0]['msg']}" if errors else ""
    # The first error's location says what was refused: the body, or a path or query part.
    part = PARTS.get(errors[0]["loc"][0], "request") if errors and errors[0]["loc"] else "request"
    return error(422, "bad_request", f"the {part} is not valid ({first})", errors=errors)


async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
    detail = exc.detail
    if isinstance(detail, dict):
        return JSONResponse(detail, status_code=exc.status_code, headers=exc.headers)
    # The framework's own refusals: an unreadable body (400) is a bad request.
    code = "bad_request" if exc.status_code == 400 else "http_error"
    response = error(exc.status_code, code, str(detail))
    if exc.headers:
        response.headers.update(exc.headers)
    return response


async def internal(_request: Request, _exc: Exception) -> JSONResponse:
    # A bug: logged by the server with its traceback; the client gets the one shape.
    return error(500, "internal", "internal error")


def add_error_handlers(app: FastAPI) -> None:
    app.exception_handler(WhistError)(whist_error)
    app.exception_handler(Refused)(refused)
    app.exception_handler(RequestValidationError)(bad_request)
    app.exception_handler(StarletteHTTPException)(http_error)
    app.exception_handler(Exception)(internal)
