"""Setting up a game and each round (RULES.md §2, §7)."""

from __future__ import annotations

from dos.rng import seed_state, shuffle
from dos.rules.official.cards import DEALER_DRAW_VALUE, full_deck
from dos.rules.official.options import Options
from dos.rules.official.state import Phase, State

HAND_SIZE = 7
CENTER_ROW_SIZE = 2


def new_game(options: Options | None = None, seed: int = 0) -> State:
    """A new game, dealt and ready for the first action. Same options and seed, same game.

    >>> state = new_game(Options(players=3), seed=42)
    >>> [len(hand) for hand in state.hands], len(state.center), len(state.draw_pile)
    ([7, 7, 7], 2, 85)
    """
    options = options or Options()
    rng = seed_state(seed)
    rng, dealer, draws = draw_for_dealer(rng, options.players)
    state = State(
        options=options,
        rng=rng,
        hands=[],
        center=[],
        draw_pile=[],
        discard=[],
        dealer=dealer,
        turn=dealer,
        penalties=[0] * options.players,
        scores=[0] * options.players,
        dealer_draws=draws,
    )
    deal_round(state)
    return state


def draw_for_dealer(rng: int, players: int) -> tuple[int, int, list[tuple[tuple[int, int], ...]]]:
    """Each player draws a card; the highest number deals, wilds counting zero. Players tied
    for highest draw again from a reshuffled deck (RULES.md §2, Decision).

    Returns the generator state, the dealer and every pass of the draw as (seat, card) pairs.
    """
    contenders = list(range(players))
    passes: list[tuple[tuple[int, int], ...]] = []
    while True:
        deck = full_deck()
        rng = shuffle(rng, deck)
        drawn = tuple((seat, deck.pop()) for seat in contenders)
        passes.append(drawn)
        best = max(DEALER_DRAW_VALUE[card] for _, card in drawn)
        contenders = [seat for seat, card in drawn if DEALER_DRAW_VALUE[card] == best]
        if len(contenders) == 1:
            return rng, contenders[0], passes


def first_player(options: Options, dealer: int) -> int:
    """Who takes the first turn of a round: the player left of the dealer, or the dealer
    (option dealer_starts) (RULES.md §2).

    >>> first_player(Options(players=3), 2), first_player(Options(dealer_starts=True), 2)
    (0, 2)
    """
    return dealer if options.dealer_starts else (dealer + 1) % options.players


def deal_round(state: State) -> None:
    """Shuffles all 108 cards and deals the round (RULES.md §2): seven cards each, one at a
    time from the dealer's left, then two cards face up for the Center Row; the rest is the
    draw pile. The player left of the dealer starts (or the dealer, option dealer_starts)."""
    players = state.options.players
    deck = full_deck()
    state.rng = shuffle(state.rng, deck)
    hands: list[list[int]] = [[] for _ in range(players)]
    order = [(state.dealer + k) % players for k in range(1, players + 1)]
    for _ in range(HAND_SIZE):
        for seat in order:
            hands[seat].append(deck.pop())
    for hand in hands:
        hand.sort()
    state.hands = hands
    state.center = [deck.pop() for _ in range(CENTER_ROW_SIZE)]
    state.draw_pile = deck
    state.discard = []
    state.turn = first_player(state.options, state.dealer)
    state.phase = Phase.TURN
    state.drew = False
    state.matched = {}
    state.single_bonuses = state.double_bonuses = state.placements_left = 0
    state.penalties = [0] * players
    state.dos_open = 0
