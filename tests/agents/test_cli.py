"""``dos mcp``: the stdio MCP server's command line (its play: ``test_mcp.py``)."""

from __future__ import annotations

import pytest

from dos.cli import main


def test_dos_mcp_needs_the_address_of_a_server(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["mcp"])
    assert exit_.value.code == 2
    assert "--server" in capsys.readouterr().err


def test_dos_mcp_refuses_an_address_that_is_not_http(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mcp", "--server", "ftp://example.org"]) == 2
    assert "http:// or https://" in capsys.readouterr().err
