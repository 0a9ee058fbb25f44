"""Fixed features of each official action index, for policies that score actions.

A policy over 13,326 indices learns faster when it can see what an index *means*: which cards
it plays, on what, with which colour bonus. Row ``i`` of ``action_features()`` describes index
``i`` of ``dos.rl.official_actions``:

=================  ====  ==========================================================
slice              size  meaning
=================  ====  ==========================================================
kind               8     one-hot: single match, double match, draw, end, lay, place,
                         dos, catch
cards              41    the cards it plays, lays or places, by type
target             41    one-hot: the target's card type (matches)
copy               1     which copy of that type along the row, / 12
bonus              2     it can be a Single Color Match / a Double Color Match
points             1     points of the cards it sheds, / 40
wilds              1     wilds it spends
catch              9     one-hot: the seat it catches, relative
=================  ====  ==========================================================

>>> features = action_features()
>>> features.shape
(13326, 104)
"""

from __future__ import annotations

from functools import cache

import numpy as np

from dos.rl import official_actions as table
from dos.rules.official.cards import IS_WILD, N_TYPES, POINTS
from dos.rules.official.matching import PAIR_BONUS, SINGLE_BONUS

KIND, CARDS, TARGET, COPY, BONUS, POINTS_AT, WILDS, CATCH = 0, 8, 49, 90, 91, 93, 94, 95
WIDTH = 104


@cache
def action_features() -> np.ndarray:
    """The ``float32`` feature matrix, one row per official action index (read-only)."""
    rows = np.zeros((table.SIZE, WIDTH), np.float32)
    actions = table.OfficialActions()
    for index in range(table.SIZE):
        row = rows[index]
        shed: tuple[int, ...] = ()
        if index >= table.MATCH_BASE:
            target, copy, cards = actions._decode[index]
            row[KIND + (0 if len(cards) == 1 else 1)] = 1.0
            row[TARGET + target] = 1.0
            row[COPY] = copy / 12.0
            if len(cards) == 1:
                row[BONUS] = float(SINGLE_BONUS[target][cards[0]])
            else:
                row[BONUS + 1] = float(cards[1] in PAIR_BONUS[target][cards[0]])
            shed = cards
        elif index == table.DRAW_INDEX:
            row[KIND + 2] = 1.0
        elif index == table.END_INDEX:
            row[KIND + 3] = 1.0
        elif index < table.PLACE_BASE:
            row[KIND + 4] = 1.0
            shed = (index - table.LAY_BASE,)
        elif index < table.CALL_INDEX:
            row[KIND + 5] = 1.0
            shed = (index - table.PLACE_BASE,)
        elif index == table.CALL_INDEX:
            row[KIND + 6] = 1.0
        else:
            row[KIND + 7] = 1.0
            row[CATCH + index - table.CATCH_BASE] = 1.0
        for card in shed:
            row[CARDS + card] += 1.0
            row[POINTS_AT] += POINTS[card] / 40.0
            row[WILDS] += float(IS_WILD[card])
    rows.setflags(write=False)
    assert N_TYPES == 41
    return rows
