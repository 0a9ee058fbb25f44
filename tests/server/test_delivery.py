"""The client's files from memory (``dos.server.net.delivery``): the file's very bytes, gzip
where the browser accepts it, an ``ETag`` of the content and ``304`` on a match, and a file
changed on disk served anew at its next request."""

from __future__ import annotations

import gzip
import hashlib
import os
from pathlib import Path

from starlette.requests import Request

from dos.server.net.delivery import file_response
from server.support import HTTP, ServerProcess

STATIC = Path(__file__).parents[2] / "src" / "dos" / "web" / "static"


def _request(**headers: str) -> Request:
    raw = [(name.replace("_", "-").encode(), value.encode()) for name, value in headers.items()]
    return Request({"type": "http", "method": "GET", "path": "/", "headers": raw})


def test_a_file_is_its_bytes_gzipped_for_who_accepts_it_and_304_when_current(
    server: ServerProcess,
) -> None:
    url = f"{server.url}/static/js/main.js"
    own = (STATIC / "js" / "main.js").read_bytes()
    packed = HTTP.get(url, headers={"accept-encoding": "gzip"})
    assert packed.status_code == 200
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.content == own  # httpx has unpacked it
    assert packed.headers["content-type"].startswith("text/javascript")
    assert packed.headers["cache-control"] == "no-cache"
    assert packed.headers["etag"] == '"' + hashlib.sha256(own).hexdigest()[:32] + '"'
    plain = HTTP.get(url, headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == own
    assert plain.headers["etag"] == packed.headers["etag"]
    again = HTTP.get(url, headers={"if-none-match": packed.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == packed.headers["etag"]
    since = HTTP.get(url, headers={"if-modified-since": packed.headers["last-modified"]})
    assert since.status_code == 304
    stale = HTTP.get(url, headers={"if-none-match": '"0123"'})
    assert stale.status_code == 200 and stale.content == own


def test_a_file_changed_on_disk_is_served_anew(tmp_path: Path) -> None:
    path = tmp_path / "page.js"
    path.write_text("export const a = 1;\n" * 50)
    first = file_response(_request(accept_encoding="gzip"), path, "text/javascript")
    assert first.headers["content-encoding"] == "gzip"
    assert gzip.decompress(bytes(first.body)) == path.read_bytes()
    path.write_text("export const b = 2;\n" * 60)
    os.utime(path, ns=(0, 1_000_000_000_000_000_000))  # a time of its own, as an edit has
    second = file_response(_request(), path, "text/javascript")
    assert bytes(second.body) == path.read_bytes()
    assert second.headers["etag"] != first.headers["etag"]
    assert "content-encoding" not in second.headers
    current = file_response(_request(if_none_match=second.headers["etag"]), path, None)
    assert current.status_code == 304


def test_a_small_file_is_sent_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "small.css"
    path.write_text("body { margin: 0 }\n")
    response = file_response(_request(accept_encoding="gzip"), path, "text/css")
    assert "content-encoding" not in response.headers
    assert bytes(response.body) == path.read_bytes()
