"""Delivering the browser client cheaply: from memory, compressed once, with validators and
``304 Not Modified``.

The client's files are sent with an ``ETag`` of their content, ``Last-Modified`` and
``Cache-Control: no-cache``: a browser keeps them and asks again on each visit, and an
unchanged file costs a bodiless ``304``. Their names are not fingerprinted, so a new version of
the client reaches everyone on their next visit. Each file is read and gzip-compressed once,
at its first request, and then answered from memory: a page's thirty-odd files cost neither
the disk nor a compression per request. A file changed on disk (a developer's edit) is read
again at its next request: each request compares the file's size and time with the copy's.
The message catalogs get an ``ETag`` from their content; they and the API's answers are
compressed by the application's ``GZipMiddleware`` (``dos.server.app``).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import dataclass
from email.utils import formatdate, parsedate_to_datetime
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import Response

CACHE_CONTROL = "no-cache"
"""Keep, but check with the server before each use."""

GZIP_FROM = 500
"""Files of fewer bytes are sent as they are (as ``GZipMiddleware``'s ``minimum_size``)."""


@dataclass(frozen=True)
class _Copy:
    """A file as read once: its bytes, gzip-compressed too where that is smaller, and its
    validators; ``stamp`` (time and size) tells whether the file changed since."""

    stamp: tuple[int, int]
    body: bytes
    gzipped: bytes | None
    etag: str
    last_modified: str


_COPIES: dict[Path, _Copy] = {}
"""The client's files read so far, by path (only the files the client ships are asked for)."""


def _copy(path: Path) -> _Copy:
    """The copy of ``path`` in memory, read (again) if it is new or changed on disk."""
    stat = path.stat()
    stamp = (stat.st_mtime_ns, stat.st_size)
    copy = _COPIES.get(path)
    if copy is None or copy.stamp != stamp:
        body = path.read_bytes()
        packed = gzip.compress(body, mtime=0) if len(body) >= GZIP_FROM else None
        copy = _COPIES[path] = _Copy(
            stamp=stamp,
            body=body,
            gzipped=packed if packed is not None and len(packed) < len(body) else None,
            etag='"' + hashlib.sha256(body).hexdigest()[:32] + '"',
            last_modified=formatdate(stat.st_mtime, usegmt=True),
        )
    return copy


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
    """``path`` from memory with validators, gzip-compressed where the browser accepts it, or
    ``304`` when the browser's copy is current."""
    copy = _copy(path)
    headers = {
        "etag": copy.etag,
        "last-modified": copy.last_modified,
        "cache-control": CACHE_CONTROL,
        "vary": "Accept-Encoding",
    }
    if _matches(request, copy.etag, copy.last_modified):
        return Response(status_code=304, headers=headers)
    if copy.gzipped is not None and "gzip" in request.headers.get("accept-encoding", ""):
        headers["content-encoding"] = "gzip"
        return Response(copy.gzipped, media_type=media_type, headers=headers)
    return Response(copy.body, media_type=media_type, headers=headers)


def json_response(request: Request, data: Any) -> Response:
    """``data`` as JSON with an ``ETag`` of its content, or ``304`` when unchanged."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"etag": etag, "cache-control": CACHE_CONTROL}
    if _matches(request, etag, None):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
