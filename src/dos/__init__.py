"""DOS, the number-matching card game: rules engines, bots and play.

The official rule set lives in :mod:`dos.rules.official`; ``RULES.md`` of the project's shared
folder is the authority it implements.
"""

__version__ = "0.1.0"
