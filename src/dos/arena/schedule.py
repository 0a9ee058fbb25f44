"""Which games a tournament plays: the lineup, the rotated seatings and the duplicated deals.

``--bots`` names one bot per *seat group*: every name but the last takes one seat, and the
last name fills the remaining seats. So ``mcts,greedy`` at 4 players is one ``mcts`` against
three ``greedy``, and ``a,b,c`` at 3 players is one of each. That order is the *lineup*.

The lineup is rotated round the table: rotation ``r`` puts the lineup's first bot at seat
``r``, and ``players`` rotations put every bot in every seat equally often. Each deal seed is
played once under every rotation (*duplicate deals*), so a good or bad deal is dealt to every
bot in turn and its luck cancels out. A tournament of ``games`` games therefore has
``games / players`` deals, and ``games`` must be a multiple of ``players``.

Game ``i`` is deal ``i // players`` under rotation ``i % players``. The deal seeds come from
the tournament seed, 53 bits each (exact in any JSON reader): through the engine's SplitMix64
generator (``dos.rng``; the seed mixed first, so tournaments with nearby seeds share no
deals), or, where a bot by path plays, through a keyed hash whose key is the tournament's
secret (``deal_seeds``), so that no bot can compute the deals from the seed.

>>> lineup(["mcts", "greedy"], 4)
('mcts', 'greedy', 'greedy', 'greedy')
>>> seating(("a", "b", "b"), 1)
('b', 'a', 'b')
>>> [(g.deal, g.rotation, g.seating) for g in make_schedule(["x", "y"], 2, 4, known="xy")]
[(0, 0, ('x', 'y')), (0, 1, ('y', 'x')), (1, 0, ('x', 'y')), (1, 1, ('y', 'x'))]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dos import ruleset
from dos.bots.registry import names
from dos.bots.sandbox.bot import Sandbox
from dos.errors import DosError
from dos.rng import next_u64, seed_state
from dos.rules.classic import Options as ClassicOptions
from dos.rules.official import Options
from dos.rules.official.options import MAX_PLAYERS, MIN_PLAYERS
from dos.seeds import derive


class TournamentError(DosError, ValueError):
    """A tournament that cannot be run as asked (bad bots, counts, output or Ray address)."""


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game of a tournament: everything that decides it (bots by name, seats, seed)."""

    index: int
    """Position in the tournament; results are always kept in this order."""
    deal: int
    rotation: int
    seed: int
    seating: tuple[str, ...]
    """``seating[seat]`` is the name of the bot or level at that seat."""
    options: Options | ClassicOptions
    rules: str = ruleset.DEFAULT
    """The rule set: ``official`` or ``classic`` (RULES.md §9; ``options`` are its options)."""
    sandbox: Sandbox | None = None
    """How bots by path play (``dos.bots.sandbox``): ``None``, in this process."""


def lineup(bots: Sequence[str], players: int) -> tuple[str, ...]:
    """The seats of rotation 0: one seat for each name but the last, the rest for the last."""
    return (*bots[:-1], *[bots[-1]] * (players - len(bots) + 1))


def seating(base: tuple[str, ...], rotation: int) -> tuple[str, ...]:
    """``base`` turned ``rotation`` seats to the left: its first bot sits at seat ``rotation``."""
    count = len(base)
    return tuple(base[(seat - rotation) % count] for seat in range(count))


def deal_seeds(seed: int, deals: int, key: bytes | None = None) -> list[int]:
    """The seed of each deal, 53 bits each. Without ``key``: successive SplitMix64 outputs
    from a state that is itself the first output of ``seed`` (so that nearby seeds start far
    apart: the streams of plain ``seed_state(1)`` and ``seed_state(2)`` are one step apart), a
    public function of ``seed``. With ``key``: ``dos.seeds.derive(seed, "deal", n, key=key)``,
    which no one without the key can compute.

    >>> deal_seeds(1, 2, key=b"k") == deal_seeds(1, 2, key=b"k") != deal_seeds(1, 2)
    True
    """
    if key is not None:
        return [derive(seed, "deal", number, key=key) >> 75 for number in range(deals)]
    _, state = next_u64(seed_state(seed))
    seeds = []
    for _ in range(deals):
        state, output = next_u64(state)
        seeds.append(output >> 11)
    return seeds


def check_names(bots: Sequence[str], known: Sequence[str], once: str = "") -> None:
    """Raises ``TournamentError`` unless ``bots`` are two or more known names, each named once
    (``once``: why, added to that message)."""
    for name in bots:
        if name not in known:
            shown = name if name else "(empty)"
            raise TournamentError(f"--bots: unknown bot {shown!r} (known: {', '.join(known)})")
    if len(bots) < 2:
        raise TournamentError("--bots: name at least two bots, separated by commas")
    if len(set(bots)) != len(bots):
        raise TournamentError(f"--bots: each bot may be named once{once}")


def check_games(games: int, players: int) -> None:
    """Raises ``TournamentError`` unless ``games`` is a positive multiple of ``players`` (one
    game per seat rotation of every deal)."""
    if games < 1:
        raise TournamentError(f"--games: must be at least 1, not {games}")
    if games % players:
        low = games - games % players
        suggestion = f"{low} or {low + players}" if low else str(players)
        raise TournamentError(
            f"--games: must be a multiple of {players} (every deal is played once under each "
            f"of the {players} seat rotations); try {suggestion}"
        )


def check(bots: Sequence[str], players: int, games: int, known: Sequence[str]) -> None:
    """Raises ``TournamentError`` with a message naming the first thing wrong, if any."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise TournamentError(
            f"--players: must be from {MIN_PLAYERS} to {MAX_PLAYERS}, not {players}"
        )
    check_names(bots, known, " (the last fills the seats left)")
    if len(bots) > players:
        raise TournamentError(f"--bots: {len(bots)} bots do not fit {players} seats")
    check_games(games, players)


def game_options(rules: str, players: int, target_score: int) -> Options | ClassicOptions:
    """The options of every game of a tournament under ``rules``; checks the rule set and the
    target (``TournamentError``). A classic game has no target score (it is one hand played to
    a full ranking).

    >>> game_options("official", 2, 30).target_score
    30
    """
    entry = _tournament_rules(rules)
    if target_score < 1:
        raise TournamentError(f"--target: must be at least 1, not {target_score}")
    assert entry.options is not None
    data = {"players": players}
    if entry.target_score:
        data["target_score"] = target_score
    options: Options | ClassicOptions = entry.options(data)
    return options


def _tournament_rules(rules: str) -> ruleset.Entry:
    """The entry of a rule set tournaments play (its games scheduled with its options and
    played by ``Entry.arena_game``); ``TournamentError`` for any other name."""
    entry = ruleset.find(rules)
    if entry is None or entry.arena_game is None or entry.options is None:
        raise TournamentError(f"--rules: unknown rule set {rules!r}")
    return entry


def make_schedule(
    bots: Sequence[str],
    players: int,
    games: int,
    *,
    seed: int = 0,
    target_score: int = 200,
    known: Sequence[str] | None = None,
    rules: str = ruleset.DEFAULT,
    deal_key: bytes | None = None,
    sandbox: Sandbox | None = None,
) -> list[GameSpec]:
    """Every game of a tournament, in order; checks the input first (``TournamentError``).

    ``known`` lists the accepted names (by default those of ``dos.bots.registry`` for
    ``rules``). A classic game has no target score (it is one hand played to a full ranking).
    ``deal_key``: the key of the deal seeds (``deal_seeds``); ``sandbox``: how bots by path
    play (``GameSpec.sandbox``).
    """
    _tournament_rules(rules)
    if known is None:
        known = names(rules)
    check(bots, players, games, known)
    options = game_options(rules, players, target_score)
    base = lineup(bots, players)
    seatings = [seating(base, rotation) for rotation in range(players)]
    return [
        GameSpec(
            index=deal * players + rotation,
            deal=deal,
            rotation=rotation,
            seed=deal_seed,
            seating=seatings[rotation],
            options=options,
            rules=rules,
            sandbox=sandbox,
        )
        for deal, deal_seed in enumerate(deal_seeds(seed, games // players, deal_key))
        for rotation in range(players)
    ]
