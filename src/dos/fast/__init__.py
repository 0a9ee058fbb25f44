"""The compiled fast core (numba): the same games as the Python engine, much faster.

The Python engine (``dos.rules.*``) stays the readable reference; this package plays exactly
its games: for the same options, seed and stream of choices, the same legal actions in the
same order and the same states, step by step (``tests/fast/`` checks it against the engine).
It needs the ``fast`` extra (numba, numpy). Rule sets: ``official`` and ``classic``.

A game is a flat ``int64`` array (layouts: ``dos.fast.official_layout`` for official, the
top of ``dos.fast.classic`` for classic); a batch is a 2-D array, one row per game. An action
is an ``int64`` code (``dos.fast.official_layout.encode``, ``dos.fast.classic.encode``) that
stands for one engine ``Action``.

The stable API
==============

``Batch(rules, seeds, options=None, record=False)``: ``len(seeds)`` new games of rule set
``rules`` (``"official"`` or ``"classic"``), game ``i`` dealt exactly as
``ruleset.get(rules).new_game(options, seeds[i])``; ``options`` is the rule set's JSON options
(``{"players": 4}``), shared by all.

- ``batch.states``: the games, ``int64`` [N, size], each row a game (copy, store, restore rows
  freely; ``batch.size`` is N);
- ``batch.legal_count(i)``: how many legal actions game ``i`` has (every seat's, the seat to
  act first: the engine's ``all_legal_actions``);
- ``batch.legal_codes(i)`` / ``batch.legal_actions(i)``: those actions as codes / as engine
  ``Action`` objects (``str(action)`` is the notation), in the engine's order;
- ``batch.apply_index(i, k)``: applies legal action number ``k`` of game ``i``;
- ``batch.apply(i, action)``: applies an engine ``Action`` or notation text; an illegal one
  raises the engine's own ``IllegalActionError`` (its message) and changes nothing;
- ``batch.step(indices)``: every game at once applies its legal action number ``indices[i]``
  (``-1``: that game waits; a game that is over is left alone), compiled, over the cores;
- ``batch.over()``: which games have ended; ``batch.reset(i, seed)``: deal game ``i`` anew;
- ``batch.decisions(i)``, ``batch.rounds(i)``: actions applied, rounds finished;
- ``batch.to_python_state(i)``: game ``i`` as the engine's ``State`` (equal to the engine's in
  every field; ``history`` and ``round_results`` are filled only with ``record=True``).

``Game(rules, seed, options=None)``: one recording game (a ``Batch`` of one): ``legal_actions()``,
``step(k) -> number of legal actions that follow``, ``apply(0, action)``, ``to_python_state()``.

``core(rules)``: the compiled functions of a rule set, for callers that drive flat arrays
themselves: ``legal(s, out, want)`` (``want < 0``: write the codes into ``out`` and return the
count; ``want >= 0``: return code number ``want``), ``apply(s, code, -1)``, ``step(s, k) ->
count``, ``random_games(states, mts, budget)`` (random play of a whole batch with one
``random.Random``-equal Mersenne Twister per game, ``dos.fast.rng.new_mts(seeds)``),
``to_python_state(s, seed)`` and ``from_python_state(state)`` (any engine state, e.g. a
position or a search bot's sample, becomes a flat game).

Also here: ``dos.fast.official_api.random_play`` (throughput random play of a batch, games
dealt anew as they end), ``dos.fast.official_rollout`` (the ``mcts`` bot's rollouts), and
``dos.fast.check.walk`` (the differential check of one random game). Compiled code is cached
on disk next to the sources; the first use on a machine compiles (under a minute).
"""

from __future__ import annotations

from dos.fast.api import Batch, Game, core
from dos.fast.compiled import Core

__all__ = ["Batch", "Core", "Game", "core"]
