"""Delivering the browser client cheaply: validators and ``304 Not Modified``.

Static files are sent with ``ETag`` and ``Last-Modified`` (``FileResponse``) and
``Cache-Control: no-cache``: a browser keeps them and asks again on each visit, and an
unchanged file costs a bodiless ``304``. Their names are not fingerprinted, so a new version of
the client reaches everyone on their next visit. The message catalogs get an ``ETag`` from
their content. Compression is the application's ``GZipMiddleware`` (``dos.server.app``).
"""

from __future__ import annotations

import hashlib
import json
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import FileResponse, Response

CACHE_CONTROL = "no-cache"
"""Keep, but check with the server before each use."""


def _matches(request: Request, etag: str, last_modified: str | None) -> bool:
    if_none_match = request.headers.get("if-none-match")
    if if_none_match is not None:
        tags = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
        return etag.removeprefix("W/") in tags or "*" in tags
    since = request.headers.get("if-modified-since")
    if since and last_modified:
        try:
            return parsedate_to_datetime(last_modified) <= parsedate_to_datetime(since)
        except (TypeError, ValueError):
            return False
    return False


def file_response(request: Request, path: Path, media_type: str | None) -> Response:
    """``path`` with validators, or ``304`` when the browser's copy is current."""
    response = FileResponse(path, media_type=media_type, stat_result=path.stat())
    response.headers["cache-control"] = CACHE_CONTROL
    etag = response.headers.get("etag", "")
    if etag and _matches(request, etag, response.headers.get("last-modified")):
        headers = {k: response.headers[k] for k in ("etag", "last-modified", "cache-control")}
        return Response(status_code=304, headers=headers)
    return response


def json_response(request: Request, data: Any) -> Response:
    """``data`` as JSON with an ``ETag`` of its content, or ``304`` when unchanged."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"etag": etag, "cache-control": CACHE_CONTROL}
    if _matches(request, etag, None):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
