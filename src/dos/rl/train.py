"""Training example: a masked policy for official DOS, trained by PPO with JAX and optax on
the CPU (the ``train`` extra).

    python -m dos.rl.train --out policy.npz          # a first try: 2 minutes against random
    python -m dos.rl.train --opponents random:32,greedy:32 --minutes 60 --out policy.npz

A run stops after ``--minutes`` or ``--iterations``, whichever comes first. Without either it
stops after 2 minutes, a first try; with ``--iterations`` alone it has no time limit (so a
seeded run repeats). To train longer, give more minutes or a number of iterations.
Experience comes from
``FastVectorGames`` on the compiled core (``VectorGames`` without numba; one batch per player
count and opponent kind, the learner at seat 0); each episode is one
round (``--round-target``, default 1: the first to score wins, so a round is a game) unless
told otherwise, which gives a reward per round instead of per 200 points. The network is
``dos.rl.policy``'s: a state tower, an action tower over the fixed features of each index
(``dos.rl.features``), logits ``e_i . h + bias_i`` masked to the legal indices, and a value
head. Every ``--save-every`` iterations (default 20), and at the end, the policy file is
written, so a run cut short still leaves a policy. The run is reproducible from ``--seed``
(one CPU thread).

``train(...)`` is the same from Python; it returns the history of the run.
"""

from __future__ import annotations

import os

os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)

import argparse
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jax
import jax.numpy as jnp
import numpy as np
import optax  # type: ignore[import-untyped]

from dos.bots import registry
from dos.rl.aec import choose_backend
from dos.rl.features import action_features
from dos.rl.league import LEAGUE_STREAM, League, LeagueSettings
from dos.rl.official_actions import SIZE
from dos.rl.official_observation import official_layout
from dos.rl.policy import PARAMS, PLAYED, init_params, save
from dos.rl.vector import VectorGames
from dos.rules.official.options import MAX_PLAYERS, MIN_PLAYERS

if TYPE_CHECKING:
    from dos.rl.fast_vector import FastVectorGames

NEG = -1e9


@dataclass
class Settings:
    """What a training run does."""

    players: tuple[int, ...] = (2,)
    """The player counts trained at: one batch per count and opponent kind (several need the
    padded layout)."""
    layout: str = "padded"
    """The observation layout (``dos.rl.layout``): ``padded`` plays every player count."""
    backend: str = "auto"
    """Where the games are played: ``fast`` (``FastVectorGames``, the compiled core), ``python``
    (``VectorGames``), ``auto`` the fast one when numba is installed."""
    opponents: tuple[tuple[str, int], ...] = (("random", 32),)
    """(bot name, games in the batch) pairs."""
    round_target: int = 1
    reward: str = "round"
    """``round``: +1 for a round won, -1 lost; ``points``: the same sign, times
    ``0.25 + points / 100`` (the points the round's winner scored), so that shedding points
    counts even in a lost round, as it does in a game to 200."""
    steps: int = 32
    """Steps per game per iteration."""
    iterations: int = 1_000_000
    minutes: float | None = 2.0
    """Wall-clock minutes after which the run stops (at the end of an iteration; ``None``: no
    time limit): short, so that a first try ends soon; a real run gives more, or a number of
    ``iterations`` and no time limit."""
    hidden: int = 128
    embed: int = 64
    learning_rate: float = 3e-4
    gamma: float = 0.99
    lam: float = 0.95
    clip: float = 0.2
    epochs: int = 3
    minibatch: int = 512
    entropy: float = 0.01
    value: float = 0.5
    seed: int = 0
    save_every: int = 20
    """Write the policy file every this many iterations (and at the end)."""
    league: LeagueSettings | None = None
    """A league (``dos.rl.league``): the policy's snapshots, and bots, drawn as opponents in
    batches of their own beside those of ``opponents``; ``None``: none."""
    league_folder: str | None = None
    """Where the league's snapshots are written; ``None``: beside the policy file, in
    ``<its name>-league/``."""


@dataclass
class History:
    """What happened in a run: per iteration, the learner's finished episodes and wins."""

    episodes: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    losses: list[float] = field(default_factory=list)
    seconds: float = 0.0
    league: list[list[str]] = field(default_factory=list)
    """The league's draws, one list per snapshot (empty without a league)."""


def _state_vector(p: dict[str, jax.Array], obs: jax.Array) -> tuple[jax.Array, jax.Array]:
    x = jax.nn.relu(obs @ p["w1"] + p["b1"])
    x = jax.nn.relu(x @ p["w2"] + p["b2"])
    return x @ p["wh"] + p["bh"], (x @ p["wv"] + p["bv"])[..., 0]


def _embeddings(p: dict[str, jax.Array], features: jax.Array) -> jax.Array:
    return jax.nn.relu(features @ p["u1"] + p["c1"]) @ p["u2"] + p["c2"]


def _legal_logits(
    p: dict[str, jax.Array], emb: jax.Array, obs: jax.Array, legal: jax.Array, valid: jax.Array
) -> tuple[jax.Array, jax.Array]:
    """Logits of each game's legal indices (``legal`` [B, K], padded; ``valid`` marks the
    real ones) and the value of each observation."""
    h, value = _state_vector(p, obs)
    logits = jnp.einsum("bd,bkd->bk", h, emb[legal]) + p["bias"][legal]
    return jnp.where(valid, logits, NEG), value


def _make_functions(
    settings: Settings, features: jax.Array, optimiser: optax.GradientTransformation
) -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]:
    @jax.jit
    def embed(p: dict[str, jax.Array]) -> jax.Array:
        return _embeddings(p, features)

    @jax.jit
    def act(  # noqa: PLR0917 (jitted: positional arguments)
        p: dict[str, jax.Array],
        emb: jax.Array,
        obs: jax.Array,
        legal: jax.Array,
        valid: jax.Array,
        key: jax.Array,
    ) -> tuple[jax.Array, jax.Array, jax.Array]:
        logits, value = _legal_logits(p, emb, obs, legal, valid)
        choice = jax.random.categorical(key, logits)
        logp = jax.nn.log_softmax(logits)
        return choice, jnp.take_along_axis(logp, choice[:, None], 1)[:, 0], value

    def loss(p: dict[str, jax.Array], batch: dict[str, jax.Array]) -> jax.Array:
        emb = _embeddings(p, features)
        logits, value = _legal_logits(p, emb, batch["obs"], batch["legal"], batch["valid"])
        logp_all = jax.nn.log_softmax(logits)
        logp = jnp.take_along_axis(logp_all, batch["choice"][:, None], 1)[:, 0]
        ratio = jnp.exp(logp - batch["logp"])
        adv = batch["adv"]
        clipped = jnp.clip(ratio, 1 - settings.clip, 1 + settings.clip)
        policy_loss = -jnp.mean(jnp.minimum(ratio * adv, clipped * adv))
        value_loss = jnp.mean((value - batch["ret"]) ** 2)
        probs = jnp.exp(logp_all)
        entropy = -jnp.mean(jnp.sum(jnp.where(batch["valid"], probs * logp_all, 0.0), 1))
        return policy_loss + settings.value * value_loss - settings.entropy * entropy

    @jax.jit
    def update(
        p: dict[str, jax.Array], opt_state: Any, batch: dict[str, jax.Array]
    ) -> tuple[dict[str, jax.Array], Any, jax.Array]:
        value, grads = jax.value_and_grad(loss)(p, batch)
        updates, opt_state = optimiser.update(grads, opt_state, p)
        return optax.apply_updates(p, updates), opt_state, value

    return embed, act, update


def _padded(mask: np.ndarray, width: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Each row's legal indices, padded to a power of two (or ``width``), and which are real."""
    rows = [np.flatnonzero(row) for row in mask]
    longest = max(len(r) for r in rows)
    k = width or 1 << max(3, (longest - 1).bit_length())
    legal = np.zeros((len(rows), k), np.int32)
    valid = np.zeros((len(rows), k), bool)
    for i, row in enumerate(rows):
        legal[i, : len(row)] = row
        valid[i, : len(row)] = True
    return legal, valid


def _advantages(
    rewards: np.ndarray, values: np.ndarray, done: np.ndarray, last: np.ndarray, s: Settings
) -> tuple[np.ndarray, np.ndarray]:
    steps = rewards.shape[0]
    adv = np.zeros_like(rewards)
    running = np.zeros(rewards.shape[1], np.float32)
    for t in reversed(range(steps)):
        following = last if t == steps - 1 else values[t + 1]
        alive = 1.0 - done[t]
        delta = rewards[t] + s.gamma * following * alive - values[t]
        running = delta + s.gamma * s.lam * alive * running
        adv[t] = running
    return adv, adv + values


def train(
    settings: Settings,
    out: str | None = None,
    initial: dict[str, np.ndarray] | None = None,
    log: Callable[[str], None] | None = None,
) -> tuple[dict[str, np.ndarray], History]:
    """Trains a policy; returns its parameters and the run's history (see the module)."""
    s = settings
    if s.layout == "exact" and len(s.players) != 1:
        raise ValueError("the exact layout plays one player count: give one, or the padded one")
    if not s.opponents and s.league is None:
        raise ValueError("no opponents: name bots, or play a league")
    league = None if s.league is None else League(s.league, _league_folder(s, out), s.seed)
    fixed = [(players, name, games) for players in s.players for name, games in s.opponents]
    kinds = list(fixed)
    batches = [
        _batch(s.backend, players, games, [name], layout=s.layout, target_score=s.round_target)
        for players, name, games in fixed
    ]
    first = [batch.reset(seed=s.seed * 1000 + k) for k, batch in enumerate(batches)]
    width = official_layout(s.players[0], s.layout).size
    obs = np.concatenate([f[0] for f in first] or [np.zeros((0, width), np.float32)])
    mask = np.concatenate([f[1] for f in first] or [np.zeros((0, SIZE), np.int8)])
    rng = np.random.default_rng(s.seed)
    params_np = initial or init_params(rng, width, s.hidden, s.embed)
    params = {k: jnp.asarray(v) for k, v in params_np.items()}
    optimiser = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(s.learning_rate))
    opt_state = optimiser.init(params)
    features = jnp.asarray(action_features())
    embed, act, update = _make_functions(s, features, optimiser)
    key = jax.random.PRNGKey(s.seed)
    history = History()
    began = time.perf_counter()
    meta: dict[str, Any] = {
        "rules": PLAYED,
        "layout": s.layout,
        "players": s.players[0] if len(s.players) == 1 else list(s.players),
        "training": _jsonable(asdict(s)),
    }

    def play_league(iteration: int) -> None:
        """A snapshot after ``iteration`` iterations joins the pool, and the league's batches
        (after the fixed ones) are dealt against new draws."""
        nonlocal kinds, batches, obs, mask
        assert league is not None
        league.snapshot({k: np.asarray(v) for k, v in params.items()}, meta, iteration)
        drawn = league.draw()
        history.league.append(drawn)
        if log is not None:
            log(f"league after {iteration} iterations: {', '.join(drawn)}")
        games = league.settings.games
        new = [(players, name, games) for players in s.players for name in drawn]
        dealt = [
            _batch(s.backend, players, games, [name], layout=s.layout, target_score=s.round_target)
            for players, name, games in new
        ]
        seeds = np.random.default_rng([s.seed, LEAGUE_STREAM, iteration])
        starts = [batch.reset(seed=int(seeds.integers(2**62))) for batch in dealt]
        rows = sum(games for _, _, games in fixed)
        kinds, batches = [*fixed, *new], [*batches[: len(fixed)], *dealt]
        obs = np.concatenate([obs[:rows], *(f[0] for f in starts)])
        mask = np.concatenate([mask[:rows], *(f[1] for f in starts)])

    if league is not None:
        play_league(0)
    n = len(obs)
    for iteration in range(s.iterations):
        emb = embed(params)
        shape = (s.steps, n)
        store_obs = np.zeros((*shape, obs.shape[1]), np.float32)
        store_legal: list[np.ndarray] = []
        store_valid: list[np.ndarray] = []
        choices = np.zeros(shape, np.int32)
        logps = np.zeros(shape, np.float32)
        values = np.zeros(shape, np.float32)
        rewards = np.zeros(shape, np.float32)
        dones = np.zeros(shape, np.float32)
        episodes = wins = 0
        per_kind = np.zeros((len(batches), 2), np.int64)  # (rounds, won) per opponent kind
        kind_of = np.repeat(np.arange(len(batches)), [batch.n for batch in batches])
        for t in range(s.steps):
            key, sub = jax.random.split(key)
            legal, valid = _padded(mask)
            choice, logp, value = act(params, emb, obs, legal, valid, sub)
            store_obs[t] = obs
            longest = int(valid.sum(1).max())
            store_legal.append(legal[:, :longest])
            store_valid.append(valid[:, :longest])
            choices[t] = np.asarray(choice)
            logps[t], values[t] = np.asarray(logp), np.asarray(value)
            actions = legal[np.arange(n), choices[t]]
            parts = []
            start = 0
            for batch in batches:
                parts.append(batch.step(actions[start : start + batch.n]))
                start += batch.n
            obs = np.concatenate([p[0] for p in parts])
            mask = np.concatenate([p[1] for p in parts])
            reward = np.concatenate([p[3][:, 0] for p in parts])
            if s.reward == "points":
                points = np.concatenate([batch.last_points for batch in batches])
                reward = np.where(points > 0, reward * (0.25 + points / 100), reward)
            done = np.concatenate([p[4] for p in parts])
            rewards[t], dones[t] = reward, done
            episodes += int(done.sum())
            wins += int((reward > 0).sum())
            np.add.at(per_kind[:, 0], kind_of, done)
            np.add.at(per_kind[:, 1], kind_of, reward > 0)
        _, last = _state_vector(params, jnp.asarray(obs))
        adv, ret = _advantages(rewards, values, dones, np.asarray(last), s)
        width = 1 << max(3, (max(x.shape[1] for x in store_legal) - 1).bit_length())
        all_legal = np.zeros((s.steps * n, width), np.int32)
        all_valid = np.zeros((s.steps * n, width), bool)
        for t, (legal, valid) in enumerate(zip(store_legal, store_valid, strict=True)):
            rows = slice(t * n, (t + 1) * n)
            all_legal[rows, : legal.shape[1]] = legal
            all_valid[rows, : legal.shape[1]] = valid
        flat = {
            "obs": store_obs.reshape(-1, obs.shape[1]),
            "legal": all_legal,
            "valid": all_valid,
            "choice": choices.reshape(-1),
            "logp": logps.reshape(-1),
            "adv": ((adv - adv.mean()) / (adv.std() + 1e-8)).reshape(-1),
            "ret": ret.reshape(-1),
        }
        total = flat["choice"].shape[0]
        losses = []
        for _ in range(s.epochs):
            order = rng.permutation(total)
            size = min(s.minibatch, total)
            for start in range(0, total - size + 1, size):
                pick = order[start : start + size]
                batch_j = {k: jnp.asarray(v[pick]) for k, v in flat.items()}
                params, opt_state, value_ = update(params, opt_state, batch_j)
                losses.append(float(value_))
        history.episodes.append(episodes)
        history.wins.append(wins)
        history.losses.append(float(np.mean(losses)) if losses else 0.0)
        history.seconds = time.perf_counter() - began
        if log is not None:
            rate = wins / episodes if episodes else float("nan")
            several = len(s.players) > 1
            against = ", ".join(
                f"{name}{f' {players}p' if several else ''} {won / max(rounds, 1):.0%}"
                for (players, name, _), (rounds, won) in zip(kinds, per_kind, strict=True)
            )
            log(
                f"iteration {iteration + 1}: {episodes} rounds, won {rate:.1%}, "
                f"loss {history.losses[-1]:.4f}, {history.seconds / 60:.1f} min ({against})"
            )
        out_of_time = s.minutes is not None and history.seconds > s.minutes * 60
        done_training = out_of_time or iteration + 1 == s.iterations
        if out is not None and ((iteration + 1) % s.save_every == 0 or done_training):
            meta["iterations"] = iteration + 1
            meta["minutes"] = round(history.seconds / 60, 2)
            save(out, {k: np.asarray(v) for k, v in params.items()}, meta)
        if done_training:
            break
        if league is not None and (iteration + 1) % league.settings.every == 0:
            play_league(iteration + 1)
    return {k: np.asarray(params[k]) for k in PARAMS}, history


def _batch(
    backend: str, players: int, games: int, opponents: list[str], **options: Any
) -> VectorGames | FastVectorGames:
    """A batch of games against ``opponents``: on the compiled core or the Python engine."""
    if choose_backend(backend, PLAYED) == "fast":
        from dos.rl.fast_vector import FastVectorGames  # needs numba: the fast extra

        return FastVectorGames(players, games, opponents=opponents, **options)
    return VectorGames(PLAYED, players, games, opponents=opponents, **options)


def _league_folder(settings: Settings, out: str | None) -> Path:
    """Where a run's league writes its snapshots (``Settings.league_folder``)."""
    if settings.league_folder is not None:
        return Path(settings.league_folder)
    if out is None:
        raise ValueError("a league writes snapshots: give a league folder or a policy file")
    return Path(out).with_name(f"{Path(out).stem}-league")


def _jsonable(data: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(json.dumps(data))
    return result


GAMES_EACH = 32
"""``--opponents``: the games in the batch against an opponent whose entry does not say."""


def parse_opponents(text: str, counted: bool = True) -> tuple[tuple[str, int], ...]:
    """``--opponents``: comma-separated entries ``NAME`` or ``NAME:GAMES``, each a name
    ``make_player`` takes (a bot or level, ``policy:FILE``, ``FILE.py`` or ``FILE.py:CLASS``)
    and the games against it in a batch (``GAMES_EACH`` unless said). ``GAMES`` is a trailing
    ``:N`` whose left side is itself a name; so ``policy:7`` is the policy file ``7``, and a
    name never loses a ``:`` of its own. Raises ``ValueError`` for an empty entry or a count
    below 1, and for any count where the entries are not ``counted`` (``--league-pool``: the
    games against a member are ``--league-games``).

    >>> parse_opponents("greedy,random:16")
    (('greedy', 32), ('random', 16))
    >>> parse_opponents("policy:runs/p.npz:8,bots/mine.py:MyBot")
    (('policy:runs/p.npz', 8), ('bots/mine.py:MyBot', 32))
    """
    found = []
    for part in text.split(","):
        entry = part.strip()
        name, colon, games = entry.rpartition(":")
        if not (colon and games.isdigit() and name in registry.names(PLAYED)):
            name, games = entry, ""
        elif not counted:
            raise ValueError(f"{entry!r}: no count here (the games against it: --league-games)")
        if not name:
            raise ValueError(f"an empty opponent in {text!r}")
        count = int(games) if games else GAMES_EACH
        if count < 1:
            raise ValueError(f"{entry!r}: at least 1 game, not {count}")
        found.append((name, count))
    return tuple(found)


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


def _chance(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"a chance from 0 to 1, not {text}")
    return value


def _names(
    parser: argparse.ArgumentParser, option: str, text: str, counts: Sequence[int]
) -> tuple[tuple[str, int], ...]:
    """The opponents of ``--opponents`` or ``--league-pool``, each made once for every
    player count trained at, so that a name that cannot play is refused (exit status 2)
    before any training."""
    try:
        found = parse_opponents(text, counted=option != "--league-pool") if text.strip() else ()
        for name, _ in found:
            for players in counts:
                registry.make_player(name, PLAYED, players=players)
    except (ValueError, OSError) as error:
        parser.error(f"{option}: {error}")
    return found


def _counts(text: str) -> tuple[int, ...]:
    """``--players``: player counts, comma-separated, each one a table of official DOS."""
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"player counts like 2 or 2,3,4, not {text}") from None
    wrong = [n for n in counts if not MIN_PLAYERS <= n <= MAX_PLAYERS]
    if wrong or len(set(counts)) != len(counts):
        raise argparse.ArgumentTypeError(
            f"distinct counts from {MIN_PLAYERS} to {MAX_PLAYERS}, not {text}"
        )
    return counts


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m dos.rl.train``; its defaults are ``Settings()``'s."""
    d = Settings()
    parser = argparse.ArgumentParser(
        prog="python -m dos.rl.train",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--players",
        type=_counts,
        default=d.players,
        metavar="N[,N...]",
        help="the player counts to train at, e.g. 2,3,4: one batch per count and opponent "
        f"(default {','.join(map(str, d.players))})",
    )
    parser.add_argument(
        "--layout",
        choices=("padded", "exact"),
        help="the observation layout: padded (the default) plays every player count, exact "
        "only --players (that of an --init policy by default)",
    )
    parser.add_argument(
        "--opponents",
        default="random:32",
        help="NAME[:GAMES],...: the opponents and how many games against each in a batch "
        f"(default random:32; {GAMES_EACH} where not said): a bot or level (greedy, hard), a "
        "checkpoint (policy:FILE.npz), a bot by path (FILE.py:CLASS); none with --opponents ''"
        " and a league",
    )
    league = parser.add_argument_group(
        "league", "the policy's snapshots and bots as a pool of opponents (dos.rl.league)"
    )
    league.add_argument(
        "--league",
        type=_at_least_one,
        metavar="K",
        help="play a league: every K iterations a snapshot of the policy joins the pool and "
        "the league's opponents are drawn again (default: no league)",
    )
    league.add_argument(
        "--league-pool",
        default="",
        metavar="NAME,...",
        help="bots and checkpoints in the pool for the whole run, beside the snapshots",
    )
    league.add_argument(
        "--league-games",
        type=_at_least_one,
        default=LeagueSettings(every=1).games,
        metavar="N",
        help=f"games in the batch against each drawn opponent (default "
        f"{LeagueSettings(every=1).games})",
    )
    league.add_argument(
        "--league-draws",
        type=_at_least_one,
        default=LeagueSettings(every=1).draws,
        metavar="D",
        help=f"opponents drawn at each snapshot (default {LeagueSettings(every=1).draws})",
    )
    league.add_argument(
        "--league-latest",
        type=_chance,
        default=LeagueSettings(every=1).latest,
        metavar="P",
        help="the chance that a draw is the newest snapshot, else any member of the pool "
        f"uniformly (default {LeagueSettings(every=1).latest:g})",
    )
    league.add_argument(
        "--league-keep",
        type=_at_least_one,
        default=LeagueSettings(every=1).keep,
        metavar="N",
        help=f"the newest snapshots kept in the pool (default {LeagueSettings(every=1).keep})",
    )
    league.add_argument(
        "--league-folder",
        metavar="DIR",
        help="where the snapshots are written (default: OUT's name with -league, beside it)",
    )
    parser.add_argument(
        "--minutes",
        type=_positive,
        help=f"stop after this many minutes (default {d.minutes:g}: a first try; none with "
        "--iterations alone; docs/rl.md trains for an hour and more)",
    )
    parser.add_argument(
        "--iterations",
        type=_at_least_one,
        help="stop after this many iterations (alone: no time limit, so that a seeded run "
        "repeats, unlike with --minutes)",
    )
    parser.add_argument(
        "--save-every",
        type=_at_least_one,
        default=d.save_every,
        metavar="N",
        help=f"write the policy file every N iterations, and at the end (default {d.save_every})",
    )
    parser.add_argument(
        "--round-target",
        type=int,
        default=d.round_target,
        help="target score of an episode (default 1: one round)",
    )
    parser.add_argument(
        "--reward",
        choices=("round", "points"),
        default=d.reward,
        help="round: +1/-1 per round; points: the same times 0.25 + points/100 (default round)",
    )
    parser.add_argument(
        "--seed", type=int, default=d.seed, help=f"seed of the run (default {d.seed})"
    )
    parser.add_argument("--init", metavar="FILE", help="start from this policy file")
    parser.add_argument(
        "--out", required=True, metavar="FILE", help="the policy file to write (.npz)"
    )
    return parser


def _minutes(args: argparse.Namespace) -> float | None:
    """The time limit: as given; none for ``--iterations`` alone; else the short default."""
    if args.minutes is not None:
        minutes: float = args.minutes
        return minutes
    return None if args.iterations is not None else Settings().minutes


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    opponents = _names(parser, "--opponents", args.opponents, args.players)
    pool = _names(parser, "--league-pool", args.league_pool, args.players)
    if pool and args.league is None:
        parser.error("--league-pool: a pool for a league: give --league K too")
    if not opponents and args.league is None:
        parser.error("--opponents: none; name some, or play a league (--league K)")
    initial = None
    layout = args.layout
    if args.init:
        from dos.rl.policy import load

        policy = load(args.init)
        if layout is not None and layout != policy.layout:
            raise SystemExit(f"--init {args.init}: a policy of the {policy.layout} layout")
        if not all(policy.plays(PLAYED, players) for players in args.players):
            raise SystemExit(f"--init {args.init}: plays {policy.table()}")
        layout = policy.layout
        initial = policy.params
    if layout == "exact" and len(args.players) != 1:
        raise SystemExit("--layout exact plays one player count: give one --players")
    settings = Settings(
        players=args.players,
        layout=layout or Settings().layout,
        opponents=opponents,
        minutes=_minutes(args),
        iterations=Settings().iterations if args.iterations is None else args.iterations,
        round_target=args.round_target,
        reward=args.reward,
        seed=args.seed,
        save_every=args.save_every,
        league=None
        if args.league is None
        else LeagueSettings(
            every=args.league,
            games=args.league_games,
            draws=args.league_draws,
            latest=args.league_latest,
            keep=args.league_keep,
            pool=tuple(name for name, _ in pool),
        ),
        league_folder=args.league_folder,
    )
    train(settings, args.out, initial, log=lambda line: print(line, flush=True))


if __name__ == "__main__":
    main()
