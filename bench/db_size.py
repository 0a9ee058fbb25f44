"""How much PostgreSQL a game costs on disk: bytes per stored action, per game and per table.

Starts the test suite's throwaway PostgreSQL cluster (``tests/server/support.py``'s
``PostgresCluster``: Debian's ``postgresql`` package, ``fsync`` off), plays on it with
``bench/durability.py`` (``--tables`` tables of two people and two bots, games to 40 points
rematched as they end, the server killed and started again ``--cycles`` times), then reads
the size of each of the server's tables (``pg_total_relation_size``: rows, indexes and
TOAST, after ``VACUUM``) and divides by the rows that cost it: ``dos_actions`` by the actions
stored, ``dos_games`` and ``dos_game_players`` by the games, ``dos_tables`` and ``dos_seats``
by the tables. docs/deployment.md ("Capacity") turns these into a site's database size.

    .venv/bin/python bench/db_size.py [--cycles 6] [--tables 8] [--longest 10] [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

PER = {
    "dos_actions": "actions",
    "dos_games": "games",
    "dos_game_players": "games",
    "dos_tables": "tables",
    "dos_seats": "tables",
    "dos_chat_lines": "tables",
}
"""Each of the server's tables, and what its size is divided by."""


def measure(url: str) -> dict[str, Any]:
    """The sizes and counts of the server's tables in the database at ``url``."""
    import psycopg

    plain = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute("VACUUM ANALYZE")
        counts = {
            "actions": connection.execute("SELECT count(*) FROM dos_actions").fetchone(),
            "games": connection.execute("SELECT count(*) FROM dos_games").fetchone(),
            "tables": connection.execute("SELECT count(*) FROM dos_tables").fetchone(),
        }
        sizes = {
            name: connection.execute("SELECT pg_total_relation_size(%s)", (name,)).fetchone()
            for name in PER
        }
    found = {name: int(row[0]) if row else 0 for name, row in counts.items()}
    bytes_of = {name: int(row[0]) if row else 0 for name, row in sizes.items()}
    per: dict[str, float] = {}
    for name, size in bytes_of.items():
        unit = PER[name]
        per[unit] = per.get(unit, 0.0) + size / max(1, found[unit])
    return {
        "counts": found,
        "bytes": bytes_of,
        "bytes_per_action": round(per["actions"], 1),
        "bytes_per_game": round(per["games"], 1),
        "bytes_per_table": round(per["tables"], 1),
        "actions_per_game": round(found["actions"] / max(1, found["games"]), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=6, help="kill -9 cycles of the play (6)")
    parser.add_argument("--tables", type=int, default=8, help="tables played (8)")
    parser.add_argument("--longest", type=float, default=10.0, help="longest play a cycle, s")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tests"))
    from server.support import PostgresCluster

    cluster = PostgresCluster()
    try:
        base = cluster.start()
        url = cluster.new_database(base)
        command = [sys.executable, str(ROOT / "bench" / "durability.py")]
        command += ["--cycles", str(args.cycles), "--tables", str(args.tables)]
        command += ["--longest", str(args.longest)]
        subprocess.run([*command, "--database", url, "--json"], check=True, cwd=ROOT)
        figures = measure(url)
        figures["base"] = base
    finally:
        cluster.stop()
    if args.json:
        print(json.dumps(figures))
        return
    print(f"stored: {figures['counts']}")
    for name, size in figures["bytes"].items():
        print(f"  {name}: {size:,} bytes")
    print(
        f"per action {figures['bytes_per_action']} B, per game {figures['bytes_per_game']} B "
        f"(games of {figures['actions_per_game']} actions here), "
        f"per table {figures['bytes_per_table']} B"
    )


if __name__ == "__main__":
    main()
