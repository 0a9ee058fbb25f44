"""The browser client's protocol types (``static/js/protocol.d.ts``) are generated from the
server's models (``dos.server.protocol.typescript``): the checked-in file must be what the generator
makes now, so a message changed without regenerating fails here (no browser needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dos.server.protocol import typescript as protocol_types
from dos.server.protocol.client_messages import CLIENT_TYPES


def test_the_checked_in_protocol_types_are_what_the_models_make_now() -> None:
    written = protocol_types.TARGET.read_text(encoding="utf-8")
    assert written == protocol_types.generate(), (
        "static/js/protocol.d.ts is out of date: run `python -m dos.server.protocol.typescript`"
    )


def test_every_client_message_type_is_declared() -> None:
    text = protocol_types.generate()
    for kind in CLIENT_TYPES:
        assert f'  type: "{kind}";' in text, kind


def test_a_field_is_optional_exactly_where_the_model_has_a_default() -> None:
    text = protocol_types.generate()
    action = text.split("export interface ActionMessage {", 1)[1].split("}", 1)[0]
    assert "  action: string;" in action  # required
    assert "  id?: string | null;" in action  # default None
    assert "  dos?: boolean;" in action  # default False


def test_the_generator_writes_where_it_is_told(tmp_path: Path) -> None:
    target = tmp_path / "protocol.d.ts"
    assert protocol_types.main([str(target)]) == 0
    assert target.read_text(encoding="utf-8") == protocol_types.generate()


def test_asking_for_help_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as ended:
        protocol_types.main(["--help"])
    assert ended.value.code == 0
    assert "usage:" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []
