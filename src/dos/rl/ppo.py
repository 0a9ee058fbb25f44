"""PPO with JAX and optax on the CPU (the ``train`` extra): the learner behind
``dos.rl.train.train``, kept apart so that what names a run (``Settings``, the command's
parser) imports without JAX."""

from __future__ import annotations

import os

os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)

import functools
import json
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jax
import jax.numpy as jnp
import numpy as np
import optax  # type: ignore[import-untyped]

from dos.rl.aec import choose_backend
from dos.rl.features import action_features
from dos.rl.league import LEAGUE_STREAM, League
from dos.rl.official_actions import SIZE
from dos.rl.official_observation import official_layout
from dos.rl.policy import PARAMS, PLAYED, init_params, save
from dos.rl.train import History, Settings
from dos.rl.vector import VectorGames

if TYPE_CHECKING:
    from dos.rl.fast_vector import FastVectorGames

NEG = -1e9


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


_Jitted = Callable[..., Any]


@functools.cache
def _functions(
    clip: float, value: float, entropy: float, learning_rate: float
) -> tuple[
    optax.GradientTransformation, Callable[..., Any], Callable[..., Any], Callable[..., Any]
]:
    """The optimiser and the jitted functions of a run with these hyperparameters, made once
    per process: a later run with the same ones (a league's, a sweep's, a repeat's) finds
    them traced and compiled for every shape already seen."""
    optimiser = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(learning_rate))

    @jax.jit
    def embed(p: dict[str, jax.Array], features: jax.Array) -> jax.Array:
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
        logits, values = _legal_logits(p, emb, obs, legal, valid)
        choice = jax.random.categorical(key, logits)
        logp = jax.nn.log_softmax(logits)
        return choice, jnp.take_along_axis(logp, choice[:, None], 1)[:, 0], values

    def loss(
        p: dict[str, jax.Array], batch: dict[str, jax.Array], features: jax.Array
    ) -> jax.Array:
        emb = _embeddings(p, features)
        logits, values = _legal_logits(p, emb, batch["obs"], batch["legal"], batch["valid"])
        logp_all = jax.nn.log_softmax(logits)
        logp = jnp.take_along_axis(logp_all, batch["choice"][:, None], 1)[:, 0]
        ratio = jnp.exp(logp - batch["logp"])
        adv = batch["adv"]
        clipped = jnp.clip(ratio, 1 - clip, 1 + clip)
        policy_loss = -jnp.mean(jnp.minimum(ratio * adv, clipped * adv))
        value_loss = jnp.mean((values - batch["ret"]) ** 2)
        probs = jnp.exp(logp_all)
        spread = -jnp.mean(jnp.sum(jnp.where(batch["valid"], probs * logp_all, 0.0), 1))
        return policy_loss + value * value_loss - entropy * spread

    @jax.jit
    def update(
        p: dict[str, jax.Array], opt_state: Any, batch: dict[str, jax.Array], features: jax.Array
    ) -> tuple[dict[str, jax.Array], Any, jax.Array]:
        result, grads = jax.value_and_grad(loss)(p, batch, features)
        updates, opt_state = optimiser.update(grads, opt_state, p)
        return optax.apply_updates(p, updates), opt_state, result

    return optimiser, embed, act, update


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


def learn(
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
    optimiser, embed, act, update = _functions(s.clip, s.value, s.entropy, s.learning_rate)
    opt_state = optimiser.init(params)
    features = jnp.asarray(action_features())
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
        emb = embed(params, features)
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
                params, opt_state, value_ = update(params, opt_state, batch_j, features)
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
