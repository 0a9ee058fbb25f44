"""A seat's view rebuilt from the agent API's JSON: the engine's own ``SeatView``, which bots
consume, so a bot plays at a live table from what the server sends (``dos agent-play``).

The agent API's ``view`` is the rule set's ``SeatView.to_json()`` (``docs/protocol.md``,
views), with its ``history`` when asked for (``?history=true``); these functions are its
inverse: ``official_view(view(state, seat).to_json()) == view(state, seat)``, and the same for
the classic rules (``tests/agents/test_seat_view.py`` holds them equal over many games). A
view without its history is rebuilt with an empty one.

>>> from dos.rules.official import new_game, view
>>> seen = view(new_game(seed=3), 1)
>>> official_view(seen.to_json()) == seen
True
"""

from __future__ import annotations

from typing import Any

from dos import ruleset
from dos.errors import DosError
from dos.rules import classic, official
from dos.rules.official.cards import parse_card


class ViewError(DosError, ValueError):
    """JSON that is not a seat's view of the rule set (a field missing or of the wrong kind)."""


_OFFICIAL_PHASES = {
    "start": official.Phase.TURN,
    "matching": official.Phase.TURN,
    "drawn": official.Phase.TURN,
    "placing": official.Phase.PLACING,
    "over": official.Phase.OVER,
}


def _ints(values: Any) -> tuple[int, ...]:
    return tuple(int(value) for value in values)


def official_view(data: dict[str, Any]) -> official.SeatView:
    """The official ``SeatView`` of this JSON (``SeatView.to_json``'s shape); ``ViewError``
    if it is not one."""
    try:
        cards = parse_card
        return official.SeatView(
            seat=int(data["seat"]),
            options=official.Options.from_json(data["options"]),
            round=int(data["round"]),
            dealer=int(data["dealer"]),
            turn=int(data["turn"]),
            phase=_OFFICIAL_PHASES[data["phase"]],
            drew=bool(data["drew"]),
            hand=tuple(cards(card) for card in data["hand"]),
            hand_sizes=_ints(data["hand_sizes"]),
            center=tuple(cards(card) for card in data["center"]),
            matched=tuple(
                (int(m["target"]), tuple(cards(card) for card in m["cards"]))
                for m in data["matched"]
            ),
            single_bonuses=int(data["bonuses"]["single"]),
            double_bonuses=int(data["bonuses"]["double"]),
            placements_left=int(data["placements_left"]),
            draw_pile_size=int(data["draw_pile_size"]),
            discard=tuple(cards(card) for card in data["discard"]),
            penalties=_ints(data["penalties"]),
            dos_open=_ints(data["dos_open"]),
            scores=_ints(data["scores"]),
            winner=None if data["winner"] is None else int(data["winner"]),
            round_results=tuple(
                official.RoundResult(
                    int(r["round"]),
                    int(r["winner"]),
                    int(r["points"]),
                    tuple(tuple(cards(card) for card in hand) for hand in r["hands"]),
                )
                for r in data["round_results"]
            ),
            history=tuple(official.parse_action(a) for a in data.get("history", ())),
            legal=tuple(official.parse_action(a) for a in data["legal"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ViewError(f"not an official seat view: {type(error).__name__}: {error}") from None


def classic_view(data: dict[str, Any]) -> classic.SeatView:
    """The classic ``SeatView`` of this JSON (``SeatView.to_json``'s shape); ``ViewError``
    if it is not one. The reaction test's targets come back from the fractions the JSON gives
    them as (``targets_json``: thousandths of the play area)."""
    from dos.rules.classic.cards import parse_card as classic_card
    from dos.rules.classic.cards import parse_colour
    from dos.rules.classic.views import PHASE_NAMES

    try:
        reaction = data["reaction"]
        targets = tuple(
            (round(t["x"] * 1000), round(t["y"] * 1000))
            for t in (reaction["targets"] if reaction is not None else ())
        )
        return classic.SeatView(
            seat=int(data["seat"]),
            options=classic.Options.from_json(data["options"]),
            turn=int(data["turn"]),
            phase=classic.Phase(PHASE_NAMES.index(data["phase"])),
            hand=tuple(classic_card(card) for card in data["hand"]),
            hand_sizes=_ints(data["hand_sizes"]),
            discard=tuple(classic_card(card) for card in data["discard"]),
            colour=parse_colour(data["colour"]),
            direction=int(data["direction"]),
            pending=int(data["pending"]),
            draw_pile_size=int(data["draw_pile_size"]),
            targets=targets,
            ranking=_ints(data["ranking"]),
            starter=int(data["starter"]),
            history=tuple(classic.parse_action(a) for a in data.get("history", ())),
            legal=tuple(classic.parse_action(a) for a in data["legal"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ViewError(f"not a classic seat view: {type(error).__name__}: {error}") from None


def seat_view(rules: str, data: dict[str, Any]) -> official.SeatView | classic.SeatView:
    """The ``SeatView`` of the rule set ``rules`` (``official``, ``classic``) of this JSON
    (its registry entry's ``seat_view``); ``ViewError`` for a rule set without one."""
    entry = ruleset.find(rules)
    if entry is None or entry.seat_view is None:
        raise ViewError(f"unknown rule set {rules!r}")
    view: official.SeatView | classic.SeatView = entry.seat_view(data)
    return view
