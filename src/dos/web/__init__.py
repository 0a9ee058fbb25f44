"""The browser client: plain HTML, CSS and JavaScript modules, with no build step.

The game server serves ``STATIC_DIR``: ``index.html`` at ``/`` and at join links ``/t/{code}``,
everything else under ``/static/``. The page's words come from the shared message catalog
(``dos.i18n``, namespaces ``web`` and ``game``) through ``GET /api/i18n/{lang}``.

>>> (STATIC_DIR / "index.html").is_file()
True
"""

from __future__ import annotations

from pathlib import Path

STATIC_DIR: Path = Path(__file__).resolve().parent / "static"
"""The folder of the page's static files."""

INDEX_HTML: Path = STATIC_DIR / "index.html"
"""The one page of the client, for ``/`` and for join links ``/t/{code}``."""
