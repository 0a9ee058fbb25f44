"""OpenSpiel's ISMCTS on DOS (``python_dos``, ``dos.rl.openspiel_game``) against a bot of ours.

Run ``.venv/bin/python bench/ismcts_dos.py --opponent greedy --games 40 --simulations 100``.
Each game is one round of two players (``target_score`` 1); ISMCTS sits at seat 0 in even
games and seat 1 in odd ones, and game ``g`` is deal ``g`` (the chance outcome), so both
seatings of a pair play the same cards. ISMCTS (``open_spiel.python.algorithms.ismcts``)
evaluates by one random rollout per simulation and determinizes through the game's
``resample_from_infostate``; the opponent is a bot of the registry shown its seat's view
(``random``, ``greedy``, ...). Prints the win rate with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from dos.arena.stats import wilson_interval
from dos.bots.registry import make_player
from dos.rl import openspiel_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": 2, "target_score": 1})
    codec = game.codec
    wins = 0
    began = time.perf_counter()
    for g in range(args.games):
        seat = g % 2
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(args.seed + g))
        searcher = ismcts.ISMCTSBot(
            game,
            evaluator,
            uct_c=2.0,
            max_simulations=args.simulations,
            random_state=np.random.RandomState(args.seed + g),
        )
        opponent = make_player(args.opponent, players=2)
        rng = random.Random(f"ismcts-bench/{args.seed}/{g}")
        state = game.new_initial_state()
        state.apply_action(g // 2)
        while not state.is_terminal():
            turn = state.current_player()
            if turn == seat:
                action = searcher.step(state)
            else:
                view = codec.view(state.engine, turn)
                chosen = opponent.bot.choose(view, rng, opponent.budget)
                action = codec.indices(state.engine, turn, [chosen])[0]
            state.apply_action(action)
        wins += state.returns()[seat] > 0
        low, high = wilson_interval(wins, g + 1)
        print(
            f"game {g + 1}: ISMCTS won {wins}/{g + 1} ({wins / (g + 1):.1%}, "
            f"95% CI {low:.1%}-{high:.1%}), {time.perf_counter() - began:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
