"""Bots for the classic rule set (RULES.md §9): ``random``, ``greedy`` and ``mcts``.

They implement the common bot interface (``choose(view, rng, budget)``, ``dos.bots.base``)
over the classic ``SeatView``; ``dos.bots.registry.make_player(name, rules="classic")`` builds
them by bot or level name. The reaction test is a reflex (``ReactionReflex``): a bot answers it
with a reaction time drawn from its settings, and the engine judges it against the time limit.
"""
