"""Setting up a game (RULES.md §9): the shuffle, the deal, the starting card and player."""

from __future__ import annotations

from dos.rng import next_u64, seed_state, shuffle
from dos.rules.classic.cards import COLOUR, IS_NUMBER, full_deck
from dos.rules.classic.options import Options
from dos.rules.classic.state import State

HAND_SIZE = 7


def new_game(options: Options | None = None, seed: int = 0) -> State:
    """A new game, dealt and ready for the first action. Same options and seed, same game.

    All 108 cards are shuffled; seven are dealt to each seat, one at a time from seat 0; the
    top card of the rest starts the discard pile; while it is not a number card it goes back
    into the draw pile, which is reshuffled, and the new top card is turned (RULES.md §9,
    Decision). Then the game's generator draws the seat that starts; play is clockwise.

    >>> state = new_game(Options(players=3), seed=42)
    >>> [len(hand) for hand in state.hands], len(state.discard), len(state.draw_pile)
    ([7, 7, 7], 1, 86)
    """
    options = options or Options()
    players = options.players
    deck = full_deck()
    rng = shuffle(seed_state(seed), deck)
    hands: list[list[int]] = [[] for _ in range(players)]
    for _ in range(HAND_SIZE):
        for hand in hands:
            hand.append(deck.pop())
    for hand in hands:
        hand.sort()
    start = deck.pop()
    while not IS_NUMBER[start]:
        deck.append(start)
        rng = shuffle(rng, deck)
        start = deck.pop()
    rng, output = next_u64(rng)
    starter = ((output >> 32) * players) >> 32
    return State(
        options=options,
        rng=rng,
        hands=hands,
        draw_pile=deck,
        discard=[start],
        turn=starter,
        colour=COLOUR[start],
        starter=starter,
    )
