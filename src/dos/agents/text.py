"""The canonical text of a seat's view: what an agent reads, like a FEN in a chess prompt.

One function, ``render``, turns what the server tells a seat (its table, the view of the
rule set, the version) into a short, line-based text; ``meaning`` says in one English line
what a legal action does. Both the HTTP agent API and the MCP tools send this text, and
``docs/agents.md`` documents its grammar. The format is stable: a change of its lines is a
new ``FORMAT`` number.

Every line is ``key: value``; the keys come in a fixed order for each rule set; then
``last actions:``, followed by one line per action of the game's latest (at most
``LAST_ACTIONS``), ``- VERSION seat SEAT: ACTION | WORDS`` (``described``: public facts, and
for the reader's own draw the card it drew; another seat's draw is "drew a card");
``legal:`` comes last, followed by one line per legal action, ``- ACTION | MEANING``. Card
and action texts are the engine's notation (``docs/notation.md``, ``docs/classic.md``);
words come from the English message catalog (``dos.i18n``).

>>> from dos.rules.official import new_game, RULES
>>> state = new_game(seed=3)
>>> view = RULES.view_json(state, 2)
>>> print(render(TABLE_EXAMPLE, 2, version=0, change=1, view=view, result=None))
... # doctest: +ELLIPSIS
DOS 2
rules: official
table: K7M2QX
status: playing
game: 1
version: 0
change: 1
seat: 2
player 0: Ada (host)
player 1: medium bot
player 2: Bo (you)
player 3: hard bot
round: 1
dealer: 1
turn: 2 (you)
phase: start (match or draw)
...
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dos import ruleset
from dos.i18n import text
from dos.i18n.describe import Before, card_name, cards_text, describe, match_kind_name
from dos.i18n.explain import classic_card_words
from dos.i18n.explain import render as render_words
from dos.rules.classic.actions import Kind as ClassicKind
from dos.rules.classic.actions import parse_action as parse_classic
from dos.rules.classic.cards import parse_card as parse_classic_card
from dos.rules.official.actions import Kind
from dos.rules.official.actions import parse_action as parse_official
from dos.rules.official.cards import parse_card
from dos.rules.official.matching import resolve
from dos.rules.official.state import Phase

FORMAT = 2
"""The version of the text format (the first line: ``DOS 2``). 2: the ``last actions``."""

LAST_ACTIONS = 20
"""The most actions of the game a view tells (the latest): what moved since the agent's last
look, in one page."""

LANG = "en"
"""Agents read English."""

TABLE_EXAMPLE: dict[str, Any] = {
    "code": "K7M2QX",
    "rules": "official",
    "status": "playing",
    "host": 0,
    "game": 1,
    "seats": [
        {"seat": 0, "name": "Ada", "bot": None, "away": False},
        {"seat": 1, "name": None, "bot": "medium", "away": False},
        {"seat": 2, "name": "Bo", "bot": None, "away": False},
        {"seat": 3, "name": None, "bot": "hard", "away": False},
    ],
}
"""A ``TableInfo`` for examples and tests."""

_PHASES = {
    "start": "game.phase_start",
    "matching": "game.phase_matching",
    "drawn": "game.phase_drawn",
    "placing": "game.phase_placing",
    "over": "game.phase_over",
}


def render(
    table: dict[str, Any],
    seat: int,
    *,
    version: int,
    change: int,
    view: dict[str, Any] | None,
    result: dict[str, Any] | None,
    last: Sequence[Mapping[str, Any]] = (),
) -> str:
    """The text of ``seat``'s view at ``table`` (a ``TableInfo``), at ``version`` of the game
    and ``change`` of the table; ``view`` is the rule set's ``view_json`` for the seat (``None``
    before the first game), ``result`` the game's result once it is over, ``last`` the game's
    latest actions, oldest first (``past``: ``version``, ``seat``, ``action``, ``words``)."""
    lines = [
        f"DOS {FORMAT}",
        f"rules: {table['rules']}",
        f"table: {table['code']}",
        f"status: {table['status']}",
        f"game: {table['game']}",
        f"version: {version}",
        f"change: {change}",
        f"seat: {seat}",
    ]
    lines += _players(table, seat)
    if view is None:
        host = table["host"]
        waiting = "you start it (start)" if host == seat else f"the host, seat {host}, starts it"
        lines.append(f"phase: lobby (no game yet: {waiting})")
    else:
        lines += text_view(table["rules"]).state_lines(view, seat)
    if result is not None:
        lines.append(f"result: {_result(result)}")
    lines.append("last actions:")
    lines += [past_line(entry) for entry in last]
    lines.append("legal:")
    if view is not None:
        lines += [
            f"- {action} | {meaning(table['rules'], view, action)}" for action in view["legal"]
        ]
    return "\n".join(lines)


def _players(table: dict[str, Any], seat: int) -> list[str]:
    lines = []
    for place in table["seats"]:
        index = place["seat"]
        if place["bot"] is not None:
            who = f"{place['bot']} bot"
        elif place["name"] is not None:
            who = place["name"]
        else:
            who = "(open)"
        notes = []
        if index == table["host"]:
            notes.append("host")
        if index == seat:
            notes.append("you")
        if place.get("away"):
            notes.append("away: a stand-in bot plays")
        lines.append(f"player {index}: {who}" + (f" ({', '.join(notes)})" if notes else ""))
    return lines


def _you(turn: int, seat: int) -> str:
    return f"{turn} (you)" if turn == seat else str(turn)


def _seats(values: Sequence[Any]) -> str:
    return " ".join(f"{index}:{value}" for index, value in enumerate(values))


def _cards(cards: Sequence[str]) -> str:
    return " ".join(cards) if cards else "-"


def _official(view: dict[str, Any], seat: int) -> list[str]:
    phase = view["phase"]
    matched = " ".join(f"{m['target']}:{'+'.join(m['cards'])}" for m in view["matched"])
    bonuses = view["bonuses"]
    lines = [
        f"round: {view['round']}",
        f"dealer: {view['dealer']}",
        f"turn: {_you(view['turn'], seat)}",
        f"phase: {phase} ({text(LANG, _PHASES[phase])})",
        f"target score: {view['options']['target_score']}",
        f"scores: {_seats(view['scores'])}",
        f"hand sizes: {_seats(view['hand_sizes'])}",
        "center row: " + (_seats(view["center"]) or "-"),
        f"matched this turn: {matched or '-'}",
        f"color bonuses: single {bonuses['single']}, double {bonuses['double']}; "
        f"placements left {view['placements_left']}",
        f"draw pile: {view['draw_pile_size']}",
        f"discard top: {view['discard'][-1] if view['discard'] else '-'}",
        "dos open: " + (" ".join(str(s) for s in view["dos_open"]) or "-"),
        f"penalty cards owed: {_seats(view['penalties'])}",
    ]
    if view["round_results"]:
        last = view["round_results"][-1]
        lines.append(
            f"last round: {last['round']}, won by {last['winner']} for {last['points']} points"
        )
    else:
        lines.append("last round: -")
    lines.append(f"your hand: {_cards(view['hand'])}")
    return lines


def _classic(view: dict[str, Any], seat: int) -> list[str]:
    reaction = view["reaction"]
    if reaction is None:
        test = "-"
    else:
        count = len(reaction["targets"])
        test = f"seat {reaction['seat']}, {count} targets, {reaction['time_limit_ms']} ms"
    colour = view["colour"]
    return [
        f"turn: {_you(view['turn'], seat)}",
        f"phase: {view['phase']}",
        f"hand sizes: {_seats(view['hand_sizes'])}",
        f"top: {view['top']}",
        f"colour: {colour} ({_colour_name(colour)})" if colour else "colour: -",
        "direction: " + ("clockwise" if view["direction"] == 1 else "counter-clockwise"),
        f"pending draw: {view['pending']}",
        f"draw pile: {view['draw_pile_size']}",
        f"reaction test: {test}",
        "ranking: " + (" ".join(str(s) for s in view["ranking"]) or "-"),
        f"your hand: {_cards(view['hand'])}",
    ]


def _result(result: dict[str, Any]) -> str:
    parts = [f"winner {result.get('winner')}"]
    if "scores" in result:
        parts.append(f"scores {_seats(result['scores'])}")
    if "ranking" in result:
        parts.append("ranking " + " ".join(str(s) for s in result["ranking"]))
    return "; ".join(parts)


def meaning(rules: str, view: dict[str, Any], action: str) -> str:
    """What the legal ``action`` does, in one English line, for the seat whose ``view`` it is.

    >>> view = {"center": ["R7", "B3"], "phase": "start", "options": {"penalty_cards": 1}}
    >>> meaning("official", view, "R5+DOS@0")
    'Double Color Match: red 5 and Wild DOS as red onto red 7 (Center Row card 0)'
    >>> meaning("official", view, "1: catch 0")
    'catch seat 0, who has not called "DOS!": they draw two penalty cards'
    """
    return text_view(rules).meaning(view, action)


def _official_meaning(view: dict[str, Any], notation: str) -> str:
    action = parse_official(notation)
    kind = action.kind
    if kind == Kind.MATCH:
        target = parse_card(view["center"][action.target])
        resolved = resolve(action.cards, action.designations, target)
        shown, colour = resolved if resolved else (action.designations, -1)
        kind_name = match_kind_name(LANG, action.cards, action.designations, target)
        return (
            f"{kind_name}: {cards_text(LANG, action.cards, shown)} onto "
            f"{card_name(LANG, target, colour)} (Center Row card {action.target})"
        )
    if kind == Kind.DRAW:
        return "draw one card; then match, or lay a card in the Center Row"
    if kind == Kind.LAY:
        return f"lay {card_name(LANG, action.cards[0])} in the Center Row; your turn ends"
    if kind == Kind.PLACE:
        return f"place {card_name(LANG, action.cards[0])} in the Center Row (Color Match Bonus)"
    if kind == Kind.END:
        if view["phase"] == "placing":
            return "place no more bonus cards; your turn ends"
        return "end your matches (then the Color Match Bonus, if earned)"
    if kind == Kind.CALL:
        return 'call "DOS!": you have two cards (before someone catches you)'
    return f'catch seat {action.target}, who has not called "DOS!": they draw two penalty cards'


def _classic_meaning(view: dict[str, Any], notation: str) -> str:
    action = parse_classic(notation)
    kind = action.kind
    if kind == ClassicKind.PLAY:
        card = render_words(LANG, classic_card_words(action.card))
        if action.wish >= 0:
            return f"play {card}, wishing {text(LANG, _COLOUR_KEYS[action.wish])}"
        return f"play {card}"
    if kind == ClassicKind.DRAW:
        pending = view.get("pending", 0)
        if pending:
            return f"draw the {pending} pending cards; you lose the turn"
        return "draw one card; your turn ends"
    penalty = view["options"]["penalty_cards"]
    if kind == ClassicKind.REACT:
        return (
            f"answer the reaction test: all {action.hits} targets hit; the server's clock "
            "decides whether it was in time"
        )
    return f"give up the reaction test: draw {penalty} penalty card(s)"


_COLOUR_KEYS = ("game.colour_blue", "game.colour_green", "game.colour_red", "game.colour_yellow")


def _colour_name(letter: str) -> str:
    """A colour letter (``B G R Y``) in words."""
    return text(LANG, _COLOUR_KEYS["BGRY".index(letter)])


# --- what happened ----------------------------------------------------------------------------

_SEAT_PREFIX = re.compile(r"^\s*(\d+)\s*:\s*")


def past(
    rules: str,
    version: int,
    seat: int,
    action: str,
    viewer: int,
    *,
    before: Mapping[str, Any] | None = None,
    drawn: Sequence[str] = (),
) -> dict[str, Any]:
    """An action of the game as a view tells it (``PastAction``): the ``version`` it was made
    on, its ``seat``, its notation and what it did in words, for ``viewer`` (``drawn``: the
    cards a draw gave, told only when ``seat`` is the viewer's)."""
    return {
        "version": version,
        "seat": seat,
        "action": action,
        "words": described(rules, action, seat, viewer, before, drawn=drawn),
    }


def past_line(entry: Mapping[str, Any]) -> str:
    """One line of ``last actions``: ``- VERSION seat SEAT: ACTION | WORDS``, the action
    without the prefix that names its seat (the line names it)."""
    action = _SEAT_PREFIX.sub("", entry["action"], count=1)
    return f"- {entry['version']} seat {entry['seat']}: {action} | {entry['words']}"


def described(
    rules: str,
    action: str,
    seat: int,
    viewer: int,
    before: Mapping[str, Any] | None = None,
    *,
    drawn: Sequence[str] = (),
) -> str:
    """What ``seat``'s ``action`` did, in one English line, for ``viewer`` ("you"); ``before``
    is the public brief of the game just before it (``dos.server.tables.history.brief``: the
    Center Row, the phase, the pending draw), or ``None`` (fewer words then). The words are
    public facts, but for the viewer's own draw: ``drawn``, the cards it gave (in notation),
    is told to the seat that drew them and to nobody else ("drew a card").

    >>> before = {"center": ["R7", "B3"], "phase": "start"}
    >>> described("official", "R5+DOS@0", 1, 0, before)
    'seat 1 matched red 5 and Wild DOS as red onto red 7: Double Color Match'
    >>> described("official", "1: catch 0", 1, 0, before)
    'seat 1 caught you, who had not called "DOS!": two penalty cards'
    >>> described("classic", "W=R", 0, 0)
    'you played Wild and wished red'
    >>> [described("official", "draw", 0, reader, before, drawn=["G7"]) for reader in (0, 1)]
    ['you drew green 7', 'seat 0 drew a card']
    """
    names = ["you" if s == viewer else f"seat {s}" for s in range(max(seat, viewer) + 1)]
    seen = tuple(drawn) if seat == viewer else ()
    return text_view(rules).described(action, names, seat, before, seen)


def _official_described(
    action: str,
    names: list[str],
    seat: int,
    before: Mapping[str, Any] | None,
    drawn: Sequence[str],
) -> str:
    parsed = parse_official(action)
    if parsed.kind == Kind.DRAW and drawn:
        cards = ", ".join(card_name(LANG, parse_card(card)) for card in drawn)
        return text(LANG, "game.log_draw_seen", player=names[seat], card=cards).rstrip(".")
    if parsed.kind == Kind.CATCH:  # ``names`` reach the viewer: a seat past it is another
        names += [f"seat {s}" for s in range(len(names), parsed.target + 1)]
    center = before.get("center") if before is not None else None
    if parsed.kind == Kind.MATCH and (center is None or parsed.target >= len(center)):
        cards = cards_text(LANG, parsed.cards, parsed.designations)
        return f"{names[seat]} matched {cards} onto Center Row card {parsed.target}"
    phase = Phase.PLACING if before is not None and before.get("phase") == "placing" else Phase.TURN
    state = Before([parse_card(c) for c in center or ()], seat, phase)
    return describe(LANG, parsed, state, names).rstrip(".")


def _classic_described(
    action: str,
    names: list[str],
    seat: int,
    before: Mapping[str, Any] | None,
    drawn: Sequence[str],
) -> str:
    who = names[seat]
    parsed = parse_classic(action)
    kind = parsed.kind
    if kind == ClassicKind.PLAY:
        card = render_words(LANG, classic_card_words(parsed.card))
        if parsed.wish >= 0:
            wish = text(LANG, _COLOUR_KEYS[parsed.wish])
            words = text(LANG, "classic.log_play_wish", player=who, card=card, colour=wish)
        else:
            words = text(LANG, "classic.log_play", player=who, card=card)
    elif kind == ClassicKind.DRAW:
        pending = before.get("pending", 0) if before is not None else 0
        if pending:
            words = text(LANG, "classic.log_draw_pending", player=who, count=pending)
        elif drawn:
            cards = ", ".join(
                render_words(LANG, classic_card_words(parse_classic_card(c))) for c in drawn
            )
            words = text(LANG, "classic.log_draw_seen", player=who, card=cards)
        else:
            words = text(LANG, "classic.log_draw", player=who)
    elif kind == ClassicKind.REACT:
        words = f"{who} answered the reaction test: {parsed.hits} targets in {parsed.ms} ms"
    else:
        words = f"{who} let the reaction test run out"
    return words.rstrip(".")


@dataclass(frozen=True, slots=True)
class TextView:
    """How the text format tells one rule set: the lines of a seat's view (``view_json``),
    what a legal action does, and what a seat's action did: from its notation, ``names`` (each
    seat as told to the viewer, ``"you"`` for the viewer, at least up to the viewer's and
    the acting seat's), the acting seat, the public brief before it, and the cards the
    viewer's own draw gave (empty for any other action). A rule set's registry entry gives
    it (``dos.ruleset.Entry.text``)."""

    state_lines: Callable[[dict[str, Any], int], list[str]]
    meaning: Callable[[dict[str, Any], str], str]
    described: Callable[[str, list[str], int, Mapping[str, Any] | None, Sequence[str]], str]


def _plain_lines(view: dict[str, Any], seat: int) -> list[str]:
    public = {k: v for k, v in view.items() if k not in ("seat", "hand", "legal", "history")}
    return [
        f"turn: {_you(view['turn'], seat)}" if "turn" in view else "turn: -",
        "view: " + json.dumps(public, separators=(",", ":")),
        f"your hand: {_cards(view.get('hand') or [])}",
    ]


def _plain_described(
    action: str,
    names: list[str],
    seat: int,
    before: Mapping[str, Any] | None,
    drawn: Sequence[str],
) -> str:
    return f"{names[seat]} played {action}"


OFFICIAL_TEXT = TextView(_official, _official_meaning, _official_described)
"""The official rule set in the text format."""
CLASSIC_TEXT = TextView(_classic, _classic_meaning, _classic_described)
"""The classic rule set in the text format (RULES.md §9)."""
PLAIN_TEXT = TextView(_plain_lines, lambda view, action: f"play {action}", _plain_described)
"""A rule set with no words of its own: its public view as JSON, actions in notation."""


def text_view(rules: str) -> TextView:
    """How the text format tells the rule set ``rules`` (``PLAIN_TEXT`` if it has no words
    of its own, or is unknown).

    >>> text_view("classic") is CLASSIC_TEXT
    True
    """
    entry = ruleset.find(rules)
    if entry is None or entry.text is None:
        return PLAIN_TEXT
    return ruleset.checked(entry.text(), TextView, f"{rules}: text")
