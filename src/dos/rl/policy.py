"""A masked policy network for the official rule set, and its file format (NumPy only).

The network scores every action index: a *state tower* turns the observation into a vector
``h``; an *action tower* turns each index's fixed features (``dos.rl.features``) into a vector
``e_i``; the logit of index ``i`` is ``e_i . h + bias_i``, and only indices in the mask are
ever chosen. A value head on the state tower serves training. ``dos.rl.train`` trains it
with JAX; playing needs only NumPy (``dos.rl.policy_bot``).

A policy file is a ``.npz``: the arrays of ``PARAMS`` and ``meta``, a JSON text holding the
rule set, the observation layout, the player count and how it was trained. A policy reads the
padded layout (``dos.rl.layout``, the default since it exists), whose width is the same at
every player count, and then plays them all; or the exact layout of the policies trained
before (``docs/results/policy-official-2p.npz``), whose width depends on the player count
(``official_layout(players, "exact").size``), and then plays the one count it was trained for.
``load`` reads the layout and the count from the metadata, or from the network's input width
where the metadata does not say, and refuses a file where the two disagree.

>>> rng = np.random.default_rng(0)
>>> policy = Policy(init_params(rng, obs_size=10, hidden=8, embed=4), {"players": 2})
>>> obs = np.zeros(10, np.float32)
>>> policy.choose(obs, [3, 7, 11]) in (3, 7, 11)
True
>>> policy.table(), Policy(policy.params, {"layout": "padded"}).table()
('the official rules with 2 players', 'the official rules with 2-10 players')
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import numpy as np

from dos.rl.features import WIDTH, action_features
from dos.rl.layout import check_layout
from dos.rl.official_actions import SIZE
from dos.rl.official_observation import observe_view, official_layout
from dos.rules.official import RULES, SeatView
from dos.rules.official.options import MAX_PLAYERS, MIN_PLAYERS

PLAYED: Final = RULES.name
"""The rule set a policy plays: the official rules, whose observation
(``dos.rl.official_observation``) and action table (``dos.rl.official_actions``) the network
reads. A policy file that names no rule set is one of theirs."""

PARAMS = ("w1", "b1", "w2", "b2", "wh", "bh", "u1", "c1", "u2", "c2", "bias", "wv", "bv")
"""The arrays of the network, in order."""

Params = dict[str, np.ndarray]


def init_params(
    rng: np.random.Generator, obs_size: int, hidden: int = 128, embed: int = 64
) -> Params:
    """Fresh parameters: scaled Gaussian weights, zero biases."""

    def dense(n_in: int, n_out: int) -> np.ndarray:
        weights: np.ndarray = rng.standard_normal((n_in, n_out)) * np.sqrt(2.0 / n_in)
        return weights.astype(np.float32)

    return {
        "w1": dense(obs_size, hidden),
        "b1": np.zeros(hidden, np.float32),
        "w2": dense(hidden, hidden),
        "b2": np.zeros(hidden, np.float32),
        "wh": dense(hidden, embed) * 0.1,
        "bh": np.zeros(embed, np.float32),
        "u1": dense(WIDTH, hidden),
        "c1": np.zeros(hidden, np.float32),
        "u2": dense(hidden, embed),
        "c2": np.zeros(embed, np.float32),
        "bias": np.zeros(SIZE, np.float32),
        "wv": dense(hidden, 1) * 0.1,
        "bv": np.zeros(1, np.float32),
    }


def _relu(x: np.ndarray) -> np.ndarray:
    result: np.ndarray = np.maximum(x, 0.0)
    return result


class Policy:
    """A trained network, ready to play: the action tower is worked out once, at load."""

    def __init__(self, params: Params, meta: dict[str, Any]) -> None:
        self.params = params
        self.meta = meta
        self.rules: str = meta.get("rules", PLAYED)
        """The rule set it plays (``PLAYED``, the only one a policy reads)."""
        self.layout: str = check_layout(meta.get("layout", "exact"))
        """The observation layout it reads (``dos.rl.layout``)."""
        self.players: int | None = meta.get("players") if self.layout == "exact" else None
        """The player count it plays; ``None``: every count (the padded layout)."""
        p = params
        hidden = _relu(action_features() @ p["u1"] + p["c1"])
        self.embeddings = (hidden @ p["u2"] + p["c2"]).astype(np.float32)

    def plays(self, rules: str, players: int | None) -> bool:
        """Whether it plays a table of ``rules`` with ``players`` seats (``None``: any)."""
        if rules != self.rules:
            return False
        return players is None or self.players is None or players == self.players

    def table(self) -> str:
        """The tables it plays, in words."""
        counted = (
            f"{MIN_PLAYERS}-{MAX_PLAYERS} players"
            if self.players is None
            else f"{self.players} players"
        )
        return f"the {self.rules} rules with {counted}"

    def observe_view(self, view: SeatView) -> np.ndarray:
        """The observation it reads, from a seat's view."""
        return observe_view(view, layout=self.layout)

    def state_vector(self, obs: np.ndarray) -> np.ndarray:
        p = self.params
        x = _relu(obs @ p["w1"] + p["b1"])
        x = _relu(x @ p["w2"] + p["b2"])
        result: np.ndarray = x @ p["wh"] + p["bh"]
        return result

    def logits(self, obs: np.ndarray, indices: list[int]) -> np.ndarray:
        """The logits of the given action indices."""
        h = self.state_vector(obs)
        result: np.ndarray = self.embeddings[indices] @ h + self.params["bias"][indices]
        return result

    def choose(self, obs: np.ndarray, indices: list[int]) -> int:
        """The index with the highest logit among ``indices`` (the first on a tie)."""
        return indices[int(np.argmax(self.logits(obs, indices)))]


def save(path: str | Path, params: Params, meta: dict[str, Any]) -> None:
    """Writes a policy file (``.npz``)."""
    arrays: dict[str, Any] = {name: np.asarray(params[name], np.float32) for name in PARAMS}
    arrays["meta"] = np.array(json.dumps(meta, sort_keys=True))
    with open(path, "wb") as handle:
        np.savez_compressed(handle, **arrays)


PADDED_WIDTH = official_layout(MIN_PLAYERS, "padded").size
"""The width of the padded observation, at every player count."""


def network_players(width: int) -> int | None:
    """The player count whose exact official observation has ``width`` values (``None``:
    none).

    >>> network_players(264), network_players(269), network_players(10)
    (2, 3, None)
    """
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        if official_layout(players, "exact").size == width:
            return players
    return None


def load(path: str | Path) -> Policy:
    """Reads a policy file; raises ``ValueError`` naming what is missing or inconsistent.

    The policy's layout and ``players`` are the metadata's, or those its network's input
    width (``w1``) stands for; a file whose metadata and network disagree is refused.
    """
    with np.load(path, allow_pickle=False) as data:
        missing = [name for name in (*PARAMS, "meta") if name not in data]
        if missing:
            raise ValueError(f"{path}: not a DOS policy file (missing {', '.join(missing)})")
        params = {name: data[name] for name in PARAMS}
        meta = json.loads(str(data["meta"]))
    if meta.get("rules", PLAYED) != PLAYED:
        raise ValueError(f"{path}: a policy for {meta['rules']!r}; only {PLAYED} ones play")
    width = params["w1"].shape[0]
    layout = meta.get("layout")
    if width == PADDED_WIDTH and layout in (None, "padded"):
        return Policy(params, {**meta, "layout": "padded"})
    if layout not in (None, "exact"):
        raise ValueError(
            f"{path}: not a DOS policy file (its metadata says the {layout} layout, its network "
            f"takes {width} values, not {PADDED_WIDTH})"
        )
    network = network_players(width)
    if network is None:
        raise ValueError(
            f"{path}: not a DOS policy file (its network takes {width} values, the "
            "observation of no official player count)"
        )
    said = meta.get("players")
    if said is not None and said != network:
        raise ValueError(
            f"{path}: not a DOS policy file (its metadata says {said} players, its network "
            f"takes the observation of {network} players)"
        )
    return Policy(params, {**meta, "layout": "exact", "players": network})
