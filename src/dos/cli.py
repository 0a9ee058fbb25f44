"""The ``dos`` command.

Exit status: 0 on success, 2 when the input is rejected (the reason on stderr), 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dos import records, ruleset
from dos.errors import DosError
from dos.extras import MissingExtraError, require
from dos.perft import divide, perft
from dos.review.cli import add_arguments as review_arguments
from dos.simulate import simulate

LEASE_MIN, LEASE_MAX = 1.0, 60.0
"""The leases ``dos serve --lease`` accepts (seconds): shorter than a second, a busy process
or a slow Redis loses its tables; longer than a minute, players wait that long for a dead
process's tables."""


class _RejectedError(Exception):
    """Bad input: printed on stderr, exit status 2."""


def _load_json(path: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise _RejectedError(f"{path}: cannot read: {error.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise _RejectedError(f"{path}: not JSON: {error.msg} at line {error.lineno}") from None


def _position(args: argparse.Namespace) -> tuple[ruleset.RuleSet[Any, Any], Any]:
    rules = ruleset.get(args.rules)
    return rules, rules.from_position(_load_json(args.position))


def cmd_legal(args: argparse.Namespace) -> None:
    rules, state = _position(args)
    for action in rules.all_legal_actions(state):
        print(action)


def cmd_apply(args: argparse.Namespace) -> None:
    rules, state = _position(args)
    for number, text in enumerate(args.actions, 1):
        try:
            rules.apply(state, rules.parse_action(text))
        except DosError as error:
            raise _RejectedError(f"action {number} {text!r}: {error}") from None
    print(json.dumps(rules.to_position(state), indent=2 if args.pretty else None))


def cmd_simulate(args: argparse.Namespace) -> None:
    if args.games < 1:
        raise _RejectedError("--games: must be at least 1")
    try:
        result = simulate(args.rules, args.players, args.games, args.seed, args.engine)
    except ImportError as error:  # numba and numpy come with the `fast` extra
        raise _RejectedError(f"--engine fast needs the fast extra (numba): {error}") from None
    if args.json:
        print(json.dumps(result.to_json()))
        return
    print(f"rules        {result.rules}")
    print(f"engine       {result.engine}")
    print(f"players      {result.players}")
    print(f"games        {result.games}")
    print(f"rounds       {result.rounds}")
    print(f"decisions    {result.decisions}")
    print(f"seconds      {result.seconds:.3f}")
    print(f"decisions/s  {result.decisions_per_second:,.0f}")


def cmd_replay(args: argparse.Namespace) -> None:
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except OSError as error:
        raise _RejectedError(f"{args.file}: cannot read: {error.strerror}") from None
    record = records.loads(text)

    def show(number: int, action: str, state: Any) -> None:
        if args.verbose:
            print(f"{number:5d}  {action}")

    state = records.replay(record, on_step=show)
    rules = ruleset.get(record.rules)
    print(
        f"valid: {len(record.actions)} actions, result {json.dumps(rules.result(state))}"
        + ("" if rules.is_over(state) else " (game not finished)")
    )


def cmd_verify(args: argparse.Namespace) -> int:
    """``dos verify``: every deal of a record follows from its commitment (docs/records.md)."""
    from dos.records.verify import verify

    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except OSError as error:
        raise _RejectedError(f"{args.file}: cannot read: {error.strerror}") from None
    report = verify(records.loads(text))
    for line in report.lines:
        print(line)
    if not report.verified:
        return 1
    print(f"verified: the {report.rounds} deals follow from the commitment")
    return 0


def cmd_perft(args: argparse.Namespace) -> None:
    _, state = _position(args)
    if args.depth < 1:
        raise _RejectedError("--depth: must be at least 1")
    if args.divide:
        rows = divide(args.rules, state, args.depth)
        for action, count in rows:
            print(f"{action:<20} {count}")
        print(f"total {sum(count for _, count in rows)}")
    else:
        print(perft(args.rules, state, args.depth))


def cmd_watch(args: argparse.Namespace) -> None:
    from dos.bots.registry import make_player, names
    from dos.watch import bot_game, prints

    entry = ruleset.entry(args.rules)
    if not prints(entry):
        offered = (("play", entry.terminal), ("tournament", entry.arena_game))
        ways = [
            f"dos {command} --rules {entry.name}" for command, has in offered if has is not None
        ]
        elsewhere = f" ({entry.name}: {', or '.join(ways)})" if ways else ""
        printed = " and ".join(e.name for e in ruleset.entries() if prints(e))
        raise _RejectedError(f"--rules: dos watch prints {printed} games only{elsewhere}")
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    unknown = [name for name in bots if name not in names()]
    if not bots or unknown:
        raise _RejectedError(
            f"--bots: unknown {', '.join(unknown) or 'empty list'} (known: {', '.join(names())})"
        )
    for name in dict.fromkeys(bots):  # built for this table: a policy:FILE checks it plays it
        try:
            make_player(name, args.rules, players=args.players)
        except DosError as error:
            raise _RejectedError(f"--bots: {error}") from None
        except (OSError, ValueError) as error:
            raise _RejectedError(f"--bots: {name!r} cannot be loaded: {error}") from None
    bot_game(args.players, args.seed, bots, args.target)


def cmd_tournament(args: argparse.Namespace) -> None:
    from dos.arena.backends import make_backend
    from dos.arena.tournament import run_tournament

    backend = make_backend(args.jobs, args.ray, args.ray_timeout)
    result = run_tournament(
        [name.strip() for name in args.bots.split(",")],
        args.players,
        args.games,
        seed=args.seed,
        target_score=args.target,
        backend=backend,
        out=None if args.out is None else Path(args.out),
        progress=False if args.no_progress else None,
        rules=args.rules,
        **_bot_settings(args),
    )
    if args.json:
        print(json.dumps({"tournament": result.settings, "summary": result.summary.to_json()}))
        return
    print(result.table())
    if result.files:
        print(f"\nwrote {', '.join(str(path) for path in result.files)}")


def _bot_settings(args: argparse.Namespace) -> dict[str, Any]:
    """How ``dos tournament`` and ``dos ladder`` run bots by path and key their deals."""
    from dos.bots.sandbox.bot import Sandbox

    if args.move_seconds <= 0:
        raise _RejectedError(f"--move-seconds: must be positive, not {args.move_seconds:g}")
    try:
        key = None if args.deal_key is None else bytes.fromhex(args.deal_key)
    except ValueError:
        raise _RejectedError("--deal-key: hexadecimal digits, as the results write it") from None
    if key is not None and not 1 <= len(key) <= 64:
        raise _RejectedError("--deal-key: 1 to 64 bytes")
    sandbox = None if args.in_process else Sandbox(move_seconds=args.move_seconds)
    return {"sandbox": sandbox, "deal_key": key}


def cmd_ladder(args: argparse.Namespace) -> None:
    from dos.arena.backends import make_backend
    from dos.arena.ladder import run_ladder

    backend = make_backend(args.jobs, args.ray, args.ray_timeout)
    result = run_ladder(
        None if args.bots is None else [name.strip() for name in args.bots.split(",")],
        args.games,
        players=args.players,
        seed=args.seed,
        target_score=args.target,
        backend=backend,
        out=None if args.out is None else Path(args.out),
        progress=False if args.no_progress else None,
        rules=args.rules,
        **_bot_settings(args),
    )
    if args.json:
        print(json.dumps(result.to_json()))
        return
    print(result.table())
    if result.files:
        print(f"\nwrote {', '.join(str(path) for path in result.files)}")


def cmd_play(args: argparse.Namespace) -> None:
    require("textual", "tui", "dos play")
    from dos.tui.launch import play

    play(
        rules=args.rules,
        players=args.players,
        level=args.level,
        bots=args.bots,
        lang=args.lang,
        seed=args.seed,
        target=args.target,
        save=args.save,
        resume=args.resume,
        replay=args.replay,
    )


def cmd_learn(args: argparse.Namespace) -> None:
    require("textual", "tui", "dos learn")
    from dos.learn import ORDER
    from dos.tui.screens.learn import LearnApp

    if args.lesson is not None and args.lesson not in ORDER:
        raise _RejectedError(f"--lesson: one of {', '.join(ORDER)}, not {args.lesson!r}")
    progress = None if args.progress == "-" else Path(args.progress)
    LearnApp(lang=args.lang, lesson=args.lesson, progress=progress).run()


def _redis(args: argparse.Namespace) -> str | None:
    """The Redis URL, with its password, of ``--redis`` and the environment
    (``dos.cluster.redis_access``); ``None``: no Redis."""
    import os

    from dos.cluster.redis_access import RedisAccessError, resolve

    try:
        return resolve(args.redis, os.environ)
    except RedisAccessError as error:
        raise _RejectedError(str(error)) from None


def _check_redis(args: argparse.Namespace, url: str | None) -> None:
    """Refuses a Redis that takes a wrong password or anyone's (``redis_access.check``);
    says on stderr when it could not be checked."""
    if url is None:
        if args.redis_insecure:
            raise _RejectedError("--redis-insecure: only with a Redis (--redis or DOS_REDIS_URL)")
        return
    from dos.cluster.redis_access import RedisAccessError, check

    try:
        unchecked = check(url, insecure=args.redis_insecure)
    except RedisAccessError as error:
        raise _RejectedError(str(error)) from None
    if unchecked is not None:
        print(f"dos {args.command}: {unchecked}", file=sys.stderr)


def cmd_serve(args: argparse.Namespace) -> None:
    from dos.house import serve
    from dos.server.app import ServerConfig
    from dos.server.deals import Deals
    from dos.server.net.limits import Limits
    from dos.server.storage.database import DatabaseAccessError, database_url
    from dos.server.storage.database import check as check_database
    from dos.server.tables.settings import Settings

    if args.bot_delay < 0 or args.grace < 0 or args.pause < 0:
        raise _RejectedError("--bot-delay, --grace, --pause: not negative")
    if not 0 < args.bot_effort <= 1:
        raise _RejectedError("--bot-effort: more than 0 and at most 1")
    try:
        limits = Limits().with_changes(args.limit)
    except ValueError as error:
        raise _RejectedError(str(error)) from None
    redis_url = _redis(args)
    if args.lease is not None:
        if redis_url is None:
            raise _RejectedError("--lease: only with --redis (one process holds no leases)")
        if not LEASE_MIN <= args.lease <= LEASE_MAX:
            raise _RejectedError(f"--lease: {LEASE_MIN:g}-{LEASE_MAX:g} seconds")
    if redis_url is not None:
        from dos.server.people.auth import load_secret

        try:
            load_secret(Path(args.data), shared=True)
        except ValueError as error:
            raise _RejectedError(str(error)) from None
    if args.name is not None and not 0 < len(args.name) <= 64:
        raise _RejectedError("--name: 1-64 characters")
    try:
        deals = Deals(args.deal_seed)
    except ValueError as error:
        raise _RejectedError(f"--deal-seed: {error}") from None
    try:
        check_database(database_url(args.database, Path(args.data)))
    except DatabaseAccessError as error:
        raise _RejectedError(str(error)) from None
    _check_redis(args, redis_url)
    config = ServerConfig(
        data=Path(args.data),
        database=args.database,
        settings=Settings(
            bot_delay=args.bot_delay,
            bot_effort=args.bot_effort,
            grace_seconds=args.grace,
            pause_seconds=args.pause,
            deals=deals,
        ),
        limits=limits,
        redis=redis_url,
        name=args.name,
        lease=args.lease,
        log_format=args.log_format,
    )
    serve(config, args.host, args.port)


def cmd_bot_worker(args: argparse.Namespace) -> None:
    import asyncio
    import logging
    import signal

    from dos.cluster.jobworker import JobWorker
    from dos.server import logs

    redis_url = _redis(args)
    if redis_url is None:
        raise _RejectedError("a Redis to take jobs from: --redis URL, or DOS_REDIS_URL")
    if args.concurrency < 1:
        raise _RejectedError("--concurrency: at least 1")
    if not args.claim_after > 0:
        raise _RejectedError("--claim-after: more than 0")
    if args.name is not None and not 0 < len(args.name) <= 64:
        raise _RejectedError("--name: 1-64 characters")
    _check_redis(args, redis_url)
    name = logs.process_name(args.name)
    logging.basicConfig(level=logging.INFO)
    logs.install(name, log_format=args.log_format)  # each record names the worker

    async def work() -> None:
        worker = JobWorker(redis_url, name, args.concurrency, claim_after=args.claim_after)
        loop = asyncio.get_running_loop()
        for number in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(number, worker.stop)
        await worker.serve()

    asyncio.run(work())


def cmd_rerate(args: argparse.Namespace) -> None:
    from dos.ratings.store import rerate_all
    from dos.server.storage.database import Database, database_url
    from dos.server.storage.schema import migrate

    db = Database(database_url(args.database, Path(args.data)))
    try:
        migrate(db.engine)
        rated = db.run_sync(rerate_all)
    finally:
        db.engine.dispose()
    print(f"rated {rated} games again under the rules of docs/ratings.md")


def cmd_admin(args: argparse.Namespace) -> int:
    """``dos admin grant|revoke|list``: the admin role, in the server's database (logged as
    done by the command, ``cli``)."""
    import time

    from dos.server.people import admins
    from dos.server.storage.database import Database, database_url
    from dos.server.storage.schema import migrate

    db = Database(database_url(args.database, Path(args.data)))
    try:
        migrate(db.engine)
        if args.admin_command == "list":
            for player_id, granted in db.run_sync(admins.admins):
                name = db.run_sync(admins.find_players, player_id)[0][1]
                when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(granted))
                print(f"{player_id}\t{name or '-'}\tsince {when} UTC")
            return 0
        found = db.run_sync(admins.find_players, args.name)
        if len(found) != 1:
            known = ", ".join(f"{pid} ({name})" for pid, name in found)
            print(
                f"dos admin: {args.name!r} names "
                + (f"{len(found)} players: {known}; give a player id" if found else "no player"),
                file=sys.stderr,
            )
            return 2
        player_id, name = found[0]
        change = admins.grant if args.admin_command == "grant" else admins.revoke
        done = db.run_sync(change, player_id, time.time())
    finally:
        db.engine.dispose()
    state = "is an admin" if args.admin_command == "grant" else "is not an admin"
    print(f"{player_id} ({name or 'no game yet'}) {state}" + ("" if done else " (already)"))
    return 0


def cmd_mcp(args: argparse.Namespace) -> None:
    from dos.agents.mcp_server import run_stdio

    if not args.server.startswith(("http://", "https://")):
        raise _RejectedError("--server: an http:// or https:// URL")
    run_stdio(args.server)


def cmd_agent_play(args: argparse.Namespace) -> None:
    from dos.agents.runner import agent_play

    opponents = [
        None if level.strip() in ("open", "") else level.strip()
        for level in args.opponents.split(",")
    ]
    agent_play(
        args.server,
        args.bot,
        table=args.table,
        name=args.name,
        rules=args.rules,
        opponents=opponents,
        target=args.target,
        rated=not args.casual,
        public=args.public,
        games=args.games,
        identity=None if args.identity is None else Path(args.identity),
        seed=args.seed,
        say=print,
        note=lambda line: print(f"dos agent-play: {line}", file=sys.stderr),
    )


def _players(text: str) -> int:
    value = int(text)
    if not 2 <= value <= 10:
        raise argparse.ArgumentTypeError("must be from 2 to 10")
    return value


def _arena_options(p: argparse.ArgumentParser, files: str) -> None:
    """The options ``dos tournament`` and ``dos ladder`` share: backend, seed, target, output."""
    p.add_argument("--jobs", type=int, help="local worker processes (with --ray auto: CPUs)")
    p.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="run on the Ray cluster at ADDRESS ('auto': start a local one on 127.0.0.1)",
    )
    p.add_argument(
        "--ray-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="how long to wait for the Ray address to answer",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the deals")
    p.add_argument("--target", type=int, default=200, help="target score")
    p.add_argument("--out", metavar="DIR", help=f"write {files} into DIR")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument(
        "--in-process",
        action="store_true",
        help="run bots by path in this process (trusted code; default: each in its own)",
    )
    p.add_argument(
        "--move-seconds",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="most wall time a sandboxed bot may take for one move (default 10; a bot gets "
        "its budget's seconds + 2 if less)",
    )
    p.add_argument(
        "--deal-key",
        metavar="HEX",
        help="key of the deal seeds, to deal a run again (its results give it; by default a "
        "secret is drawn where a bot by path plays)",
    )


def cmd_review(args: argparse.Namespace) -> int:
    """``dos review``: the expert's review of one seat of a game record (docs/review.md)."""
    from dos.review.cli import run

    return run(args)


def cmd_rules(args: argparse.Namespace) -> None:
    """Prints every registered rule set, one per line: its name and what it is."""
    for entry in ruleset.entries():
        print(f"{entry.name:<12} {entry.summary}".rstrip())


def _bot_levels() -> dict[str, list[str]]:
    """The bot levels of each rule set that has bots."""
    return {e.name: e.levels() for e in ruleset.entries() if e.bots is not None}


def _redis_arguments(p: argparse.ArgumentParser, about: str) -> None:
    p.add_argument("--redis", metavar="URL", help=about)
    p.add_argument(
        "--redis-insecure",
        action="store_true",
        help="use a Redis that answers clients without a password on an address that is "
        "not this machine's (refused otherwise: every player's hand crosses it)",
    )


def _log_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--log-format",
        choices=["text", "json"],
        default="text",
        help="log lines as text (default) or as one JSON object each (docs/deployment.md, "
        "'Health, metrics, logs')",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dos", description="DOS, the card game: tools.")
    sub = parser.add_subparsers(dest="command", required=True)

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("--rules", default=ruleset.DEFAULT, choices=ruleset.names(), help="rule set")
        return p

    p = command("legal", "print every legal action of a position, one per line")
    p.add_argument("position", help="position JSON file ('-' for stdin)")
    p.set_defaults(func=cmd_legal)

    p = command("apply", "apply actions to a position and print the resulting position")
    p.add_argument("position", help="position JSON file ('-' for stdin)")
    p.add_argument("actions", nargs="+", metavar="ACTION", help="actions in notation")
    p.add_argument("--pretty", action="store_true", help="indent the JSON")
    p.set_defaults(func=cmd_apply)

    p = command("simulate", "play random legal games and print counts and speed")
    p.add_argument("--players", type=_players, default=4)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--engine",
        choices=("auto", "python", "fast"),
        default="auto",
        help="python: the rules engine; fast: the compiled core, the same games; auto "
        "(default): fast when it is installed",
    )
    p.set_defaults(func=cmd_simulate)

    p = command("replay", "replay a game record, checking every action and the result")
    p.add_argument("file")
    p.add_argument("-v", "--verbose", action="store_true", help="print each action")
    p.set_defaults(func=cmd_replay)

    about = "check that every deal of a game record follows from its commitment"
    p = sub.add_parser("verify", help=about, description=about)
    p.add_argument("file", metavar="RECORD")
    p.set_defaults(func=cmd_verify)

    p = command("perft", "count legal action sequences of a given depth from a position")
    p.add_argument("position")
    p.add_argument("--depth", type=int, default=2)
    p.add_argument("--divide", action="store_true", help="break the count down by first action")
    p.set_defaults(func=cmd_perft)

    p = command("watch", "watch a seeded game between bots, turn by turn")
    p.add_argument("--players", type=_players, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--target", type=int, default=200, help="target score")
    p.add_argument(
        "--bots",
        default="medium",
        help="bots or levels, comma-separated, cycling over the seats (default: medium)",
    )
    p.set_defaults(func=cmd_watch)

    p = command("tournament", "play bots against each other on rotated, duplicated deals")
    p.add_argument(
        "--bots",
        required=True,
        help="bot or level names, comma-separated: one seat each, the last fills the seats "
        "left (e.g. mcts,greedy); also policy:FILE and your own bot, FILE.py:CLASS",
    )
    p.add_argument("--players", type=int, default=2, help="seats at the table (2-10)")
    p.add_argument("--games", type=int, default=100, help="games, a multiple of --players")
    _arena_options(p, "games.csv, tournament.json and win_rates.png")
    p.set_defaults(func=cmd_tournament)

    p = command("ladder", "play every bot and level against every other in one round-robin, rated")
    p.add_argument(
        "--bots",
        help="bot or level names, comma-separated (default: every one of the rule set; a "
        "policy:FILE or your own FILE.py:CLASS only when named)",
    )
    p.add_argument(
        "--games",
        type=int,
        default=20,
        help="games per pair, a multiple of 2: each deal under both seatings (default 20)",
    )
    p.add_argument(
        "--players", type=int, default=2, help="seats at the table: 2 only (a ladder plays pairs)"
    )
    _arena_options(p, "games.csv, ladder.json, ladder.txt and ladder.png")
    p.set_defaults(func=cmd_ladder)

    p = sub.add_parser("rules", help="list the rule sets", description="List the rule sets.")
    p.set_defaults(func=cmd_rules)

    about = "review one seat's decisions of a game record with the expert (docs/review.md)"
    p = sub.add_parser("review", help=about, description=about)
    review_arguments(p)
    p.set_defaults(func=cmd_review)

    bot_levels = _bot_levels()
    p = command("play", "play a full game against bots in a full-screen terminal interface")
    p.add_argument("--players", type=int, default=2, choices=range(2, 5), help="2-4 players")
    from dos.tui.launch import levels_help  # no Textual: the words and the default

    p.add_argument(
        "--level",
        default=None,  # easy for a newcomer, then the last choice (dos.tui.launch)
        choices=list(dict.fromkeys(level for levels in bot_levels.values() for level in levels)),
        help=levels_help(bot_levels),
    )
    p.add_argument(
        "--bots",
        metavar="NAME",
        help="the bot of every other seat instead of --level: a bot or level name, "
        "policy:FILE, or your own FILE.py:CLASS (docs/bots.md)",
    )
    p.add_argument("--lang", default="en", choices=["en", "fr", "de", "it", "nl", "cy", "ja"])
    p.add_argument("--seed", type=int, default=0, help="seed of the deal and the bots")
    p.add_argument("--target", type=int, help="target score (official rules; default 200)")
    p.add_argument("--save", metavar="FILE", help="where ctrl+s saves (default dos-save.jsonl)")
    p.add_argument("--resume", metavar="FILE", help="go on with a saved game record")
    p.add_argument("--replay", metavar="FILE", help="step through a recorded game")
    # no --rules: official, or the rule set of the record resumed or replayed
    p.set_defaults(func=cmd_play, rules=None)

    about = "the tutorial: short scripted deals, one rule each (docs/learn.md)"
    p = sub.add_parser("learn", help=about, description=about)
    p.add_argument("--lang", default="en", choices=["en", "fr", "de", "it", "nl", "cy", "ja"])
    p.add_argument("--lesson", metavar="ID", help="start at this lesson (docs/learn.md)")
    p.add_argument(
        "--progress",
        default="dos-learn.json",
        metavar="FILE",
        help="where the tutorial keeps your place (default dos-learn.json; - keeps none)",
    )
    p.set_defaults(func=cmd_learn)

    p = sub.add_parser(
        "serve",
        help="run the game server (tables, bots, the browser client)",
        description="Run the game server: HTTP and WebSockets, bots on the server, SQLite "
        "in the data folder or PostgreSQL (docs/protocol.md, docs/deployment.md).",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--port", type=int, default=8000, help="port (0: any free port)")
    p.add_argument(
        "--database",
        metavar="URL",
        help="database URL (default: $DATABASE_URL, else SQLite in the data folder)",
    )
    p.add_argument("--data", default="data", metavar="DIR", help="data folder (default: data)")
    p.add_argument(
        "--bot-delay",
        type=float,
        default=1.0,
        metavar="SCALE",
        help="scale of the bots' human-like delays (0: instant)",
    )
    p.add_argument(
        "--deal-seed",
        type=int,
        metavar="N",
        help="deal from this seed instead of at random, to reproduce games (a reported game's "
        "seed, a test's known deal): game 1 of each table is dealt with N (or the seed its "
        "creator names), and such games are never rated (docs/deployment.md)",
    )
    p.add_argument(
        "--bot-effort",
        type=float,
        default=1.0,
        metavar="SHARE",
        help="share of their levels' thinking budgets the searching bots use (default 1; "
        "less spares a small machine, and the bots play weaker)",
    )
    p.add_argument(
        "--grace",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="wait before a stand-in bot plays for a timed-out or disconnected player",
    )
    p.add_argument(
        "--pause",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="the longest wait for the players to read a round's summary (0: no pause)",
    )
    p.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change a limit (docs/deployment.md), e.g. create=10/minute or lobby_idle=off; "
        "'--limit off' lifts every per-client limit",
    )
    _redis_arguments(
        p,
        "Redis for a server of many processes (redis://user@host:6379/0, no password: that "
        "comes from DOS_REDIS_PASSWORD or DOS_REDIS_PASSWORD_FILE; or the whole URL from "
        "DOS_REDIS_URL or DOS_REDIS_URL_FILE); needs DOS_SECRET, the same for every process "
        "(docs/deployment.md, 'Many processes'). Default: one process, no Redis",
    )
    p.add_argument(
        "--name",
        metavar="NAME",
        help="this process's name in its logs (default: host:pid)",
    )
    _log_arguments(p)
    p.add_argument(
        "--lease",
        type=float,
        metavar="SECONDS",
        help="with --redis: a process's lease, how long a dead process's tables wait before "
        f"another process adopts them ({LEASE_MIN:g}-{LEASE_MAX:g}, default 3; the same for "
        "every process)",
    )
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser(
        "bot-worker",
        help="run the bots' decisions, hints and reviews of `dos serve --redis` servers",
        description="Take jobs (bots' decisions, hints, reviews) from the Redis queue of the "
        "servers started with `dos serve --redis` and run them; run as many as wanted, on as "
        "many machines. SIGTERM: finish the running jobs, then exit (docs/deployment.md, "
        "'Bot workers').",
    )
    _redis_arguments(
        p,
        "the servers' Redis (redis://user@host:6379/0, no password: that comes from "
        "DOS_REDIS_PASSWORD or DOS_REDIS_PASSWORD_FILE; or the whole URL from DOS_REDIS_URL "
        "or DOS_REDIS_URL_FILE)",
    )
    p.add_argument("--name", metavar="NAME", help="this worker's name (default: host:pid)")
    _log_arguments(p)
    p.add_argument(
        "--concurrency",
        type=int,
        default=1,
        metavar="N",
        help="jobs run at once, each in a process of its own (default 1; up to one per core)",
    )
    p.add_argument(
        "--claim-after",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="take over a job whose worker has not touched it for so long (default 5)",
    )
    p.set_defaults(func=cmd_bot_worker)

    p = sub.add_parser(
        "rerate",
        help="rate every finished game of a server's database again, under today's rules",
        description="Forget every rating and rate every finished game of a rated table again, "
        "in the order they finished, under the rules of docs/ratings.md (after an upgrade: "
        "ratings bought under earlier rules are gone). Run it with the server stopped.",
    )
    p.add_argument(
        "--database",
        metavar="URL",
        help="database URL (default: $DATABASE_URL, else SQLite in the data folder)",
    )
    p.add_argument("--data", default="data", metavar="DIR", help="data folder (default: data)")
    p.set_defaults(func=cmd_rerate)

    about = "the admin role of a server's players: grant, revoke, list (docs/moderation.md)"
    p = sub.add_parser("admin", help=about, description=about.capitalize() + ".")
    actions = p.add_subparsers(dest="admin_command", required=True, metavar="ACTION")
    for action, action_help in (
        ("grant", "give a player the admin role"),
        ("revoke", "take the admin role away"),
        ("list", "list the admins"),
    ):
        q = actions.add_parser(action, help=action_help, description=action_help.capitalize())
        if action != "list":
            q.add_argument("name", metavar="NAME", help="a player id, or a name they played under")
        q.add_argument(
            "--database",
            metavar="URL",
            help="database URL (default: $DATABASE_URL, else SQLite in the data folder)",
        )
        q.add_argument("--data", default="data", metavar="DIR", help="data folder (default: data)")
    p.set_defaults(func=cmd_admin)

    p = sub.add_parser(
        "mcp",
        help="an MCP server on stdio for desktop AI agents, playing at a DOS server",
        description="Run an MCP server on stdio (for a desktop agent) whose tools play at the "
        "DOS server at --server, over its HTTP agent API (docs/agents.md).",
    )
    p.add_argument("--server", required=True, metavar="URL", help="e.g. http://127.0.0.1:8000")
    p.set_defaults(func=cmd_mcp)

    p = command(
        "agent-play",
        "play a bot (yours too: FILE.py:CLASS) at a live table of a DOS server, over its "
        "HTTP agent API (docs/agents.md)",
    )
    p.add_argument("--server", required=True, metavar="URL", help="e.g. http://127.0.0.1:8000")
    p.add_argument(
        "--bot",
        required=True,
        metavar="NAME",
        help="a bot or level name, policy:FILE, or your own FILE.py:CLASS (its code is run)",
    )
    p.add_argument("--table", metavar="CODE", help="join this table (default: create one)")
    p.add_argument("--name", help="the display name (default: the bot's name)")
    p.add_argument(
        "--opponents",
        default="medium",
        metavar="LEVELS",
        help="a new table's other seats, comma-separated: server bot levels, or 'open' for a "
        "seat left to a person or another agent (default: medium)",
    )
    p.add_argument("--target", type=int, help="a new official table's target score")
    p.add_argument("--casual", action="store_true", help="a new table that is not rated")
    p.add_argument("--public", action="store_true", help="list the new table in the lobby")
    p.add_argument("--games", type=int, default=1, help="games to play in a row (default 1)")
    p.add_argument(
        "--identity",
        metavar="FILE",
        help="a file that keeps the bot's player token, so that it stays one player (one "
        "rating) across tables and runs: read if it exists, written after the seat is taken",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the bot's generator")
    p.set_defaults(func=cmd_agent_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the ``dos`` command; returns its exit status."""
    try:
        parser = build_parser()  # lists the rule sets: loads the plug-ins
    except ruleset.PlugInError as error:
        print(f"dos: {error}", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    try:
        status = args.func(args)
    except (_RejectedError, DosError, MissingExtraError) as error:
        print(f"dos {args.command}: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return status if isinstance(status, int) else 0


if __name__ == "__main__":
    sys.exit(main())
