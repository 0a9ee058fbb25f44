"""Code outside the rule sets asks a rule set's registry entry, never its name (docs/engine.md,
"Rule sets"): no module of ``src/dos`` outside ``dos/rules/`` and ``dos/rulesets/`` compares a
registered rule set's name, keys a mapping by one, lists one in a ``Literal`` or a collection,
or takes one as a default (``dos.ruleset.DEFAULT`` is the default), except the places in
``ALLOWED``, each with its reason.

The modules are read with ``ast``, so docstrings and their examples, which show a name as
data, never count. A module of one rule set may still name its own (``make_player(name,
"classic")`` in the classic terminal); it may not choose by a name.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from dos import ruleset

SRC = Path(__file__).resolve().parents[1] / "src" / "dos"
RULE_SETS = (SRC / "rules", SRC / "rulesets")
"""The rule sets themselves and their registry entries: they name themselves."""

ALLOWED = {
    ("ruleset.py", "NAMES"): "the registry lists its built-in rule sets",
    ("ruleset.py", "DEFAULT"): "the rule set played where none is named, for every caller",
}
"""``(module, name assigned)``: the assignments that may hold a rule set's name."""

_DEFAULT_AT = {"get": 1, "setdefault": 1, "pop": 1, "getattr": 2}
"""Calls whose argument at this index is a default: ``mapping.get(key, "official")``."""


def _is_name(node: ast.AST | None, names: frozenset[str]) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names


def _listed(node: ast.AST | None, names: frozenset[str]) -> bool:
    """A collection literal with a rule set's name among its items."""
    return isinstance(node, ast.Tuple | ast.List | ast.Set) and any(
        _is_name(item, names) for item in node.elts
    )


def _called(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _findings(node: ast.AST, names: frozenset[str]) -> Iterator[tuple[int, str]]:
    """``(line, what)`` for every use of a name that chooses by it, in ``node``."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Compare):
            sides = (inner.left, *inner.comparators)
            if any(_is_name(side, names) or _listed(side, names) for side in sides):
                yield inner.lineno, "compares a rule set's name"
            elif any(_engine_name(side) for side in sides):
                yield inner.lineno, "compares a rule set's name (an engine's)"
        elif isinstance(inner, ast.Subscript):
            if _is_name(inner.slice, names):
                yield inner.lineno, "looks a mapping up by a rule set's name"
            elif _called_literal(inner) and any(_is_name(n, names) for n in ast.walk(inner.slice)):
                yield inner.lineno, "a Literal of rule set names"
        elif isinstance(inner, ast.Dict):
            if any(_is_name(key, names) for key in inner.keys):
                yield inner.lineno, "a dict keyed by rule set names"
        elif isinstance(inner, ast.Tuple | ast.List | ast.Set):
            if _listed(inner, names):
                yield inner.lineno, "lists rule set names"
        elif isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for default in (*inner.args.defaults, *inner.args.kw_defaults):
                if default is not None and _is_name(default, names):
                    yield default.lineno, "a rule set's name as a default (ruleset.DEFAULT)"
        elif isinstance(inner, ast.ClassDef):
            for statement in inner.body:
                if isinstance(statement, ast.AnnAssign) and _is_name(statement.value, names):
                    yield statement.lineno, "a rule set's name as a field's default"
        elif isinstance(inner, ast.Call):
            if _looked_up(inner) and _is_name(inner.args[0], names):
                yield inner.lineno, "looks a mapping up by a rule set's name"
            at = _DEFAULT_AT.get(_called(inner))
            if at is not None and len(inner.args) > at and _is_name(inner.args[at], names):
                yield inner.lineno, "a rule set's name as a default (ruleset.DEFAULT)"
            if any(k.arg == "default" and _is_name(k.value, names) for k in inner.keywords):
                yield inner.lineno, "a rule set's name as a default (ruleset.DEFAULT)"
        elif isinstance(inner, ast.BoolOp) and isinstance(inner.op, ast.Or):
            if any(_is_name(value, names) for value in inner.values):
                yield inner.lineno, "a rule set's name as a default (ruleset.DEFAULT)"
        elif isinstance(inner, ast.MatchValue) and _is_name(inner.value, names):
            yield inner.lineno, "matches a rule set's name"


def _looked_up(node: ast.Call) -> bool:
    """A mapping's ``get``, ``pop`` or ``setdefault`` with a key (the registry's own ``get``,
    which a module of one rule set calls with its own name, is no mapping)."""
    func = node.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr in ("get", "pop", "setdefault")
        and not (isinstance(func.value, ast.Name) and func.value.id == "ruleset")
        and bool(node.args)
    )


def _engine_name(node: ast.AST) -> bool:
    """``OFFICIAL.name``, ``rules.RULES.name``: the name of an engine a module holds."""
    if not (isinstance(node, ast.Attribute) and node.attr == "name"):
        return False
    held = node.value
    named = held.attr if isinstance(held, ast.Attribute) else getattr(held, "id", "")
    return isinstance(named, str) and named.isupper()


def _called_literal(node: ast.Subscript) -> bool:
    value = node.value
    return (isinstance(value, ast.Name) and value.id == "Literal") or (
        isinstance(value, ast.Attribute) and value.attr == "Literal"
    )


def _assigned(statement: ast.stmt) -> str | None:
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target: ast.expr = statement.targets[0]
    elif isinstance(statement, ast.AnnAssign):
        target = statement.target
    else:
        return None
    return target.id if isinstance(target, ast.Name) else None


def name_uses(path: Path, names: frozenset[str]) -> list[str]:
    """``module:line: what`` for every use of a rule set's name in the module ``path`` that
    ``ALLOWED`` does not name."""
    module = path.relative_to(SRC).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for statement in tree.body:
        if (module, _assigned(statement)) in ALLOWED:
            continue
        found += [f"src/dos/{module}:{line}: {what}" for line, what in _findings(statement, names)]
    return sorted(set(found), key=lambda f: (f.split(":")[0], int(f.split(":")[1])))


def modules() -> list[Path]:
    """Every module of ``src/dos`` outside the rule sets."""
    return [
        path
        for path in sorted(SRC.rglob("*.py"))
        if not any(path.is_relative_to(inside) for inside in RULE_SETS)
    ]


def test_no_module_outside_the_rule_sets_chooses_by_a_rule_sets_name() -> None:
    names = frozenset(ruleset.names())
    found = [use for path in modules() for use in name_uses(path, names)]
    assert not found, "ask the rule set's entry (dos.ruleset.Entry) instead:\n" + "\n".join(found)


def test_the_allowed_places_still_hold_a_name() -> None:
    names = frozenset(ruleset.names())
    for module, assigned in ALLOWED:
        tree = ast.parse((SRC / module).read_text(encoding="utf-8"))
        held = [
            statement
            for statement in tree.body
            if _assigned(statement) == assigned
            and any(_is_name(node, names) for node in ast.walk(statement))
        ]
        assert held, f"{module}: {assigned} holds no rule set's name: drop it from ALLOWED"


def test_the_guard_sees_each_way_of_choosing_by_a_name() -> None:
    names = frozenset(("official", "classic"))
    source = '''
"""A docstring may say "official" == "classic"."""
from typing import Literal
from dataclasses import dataclass
Rules = Literal["official", "classic"]
WORDS = {"official": 1}
def reviewed(rules: str) -> bool:
    return rules != "official"
def play(rules: str = "classic") -> None:
    for name in ("official", "classic"):
        pass
    meta = {}
    rules = meta.get("rules", "official") or "classic"
    WORDS["official"]
    if rules == OFFICIAL.name or WORDS.get("classic"):
        pass
    match rules:
        case "classic":
            pass
@dataclass
class Spec:
    rules: str = "official"
player = make_player("easy", "classic")  # a module of one rule set names its own
'''
    tree = ast.parse(source)
    found = {line for statement in tree.body for line, _ in _findings(statement, names)}
    assert sorted(found) == [5, 6, 8, 9, 10, 13, 14, 15, 18, 22]
