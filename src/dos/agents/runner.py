"""``dos agent-play``: a bot plays at a live table of a DOS server, over the HTTP agent API.

Any bot ``dos tournament`` takes plays here: a bot or a level name, ``policy:FILE``, or your
own ``FILE.py:CLASS`` (``dos.bots.loading``). The runner creates a table (the bot the host at
seat 0, server bots in the other seats) or joins one by its code, through the server's own
``POST /api/tables`` and its join; then, for the seat, it reads the view with the game's
history (``GET /api/agent/seat?history=true``), rebuilds the engine's ``SeatView`` from it
(``dos.agents.seat_view``: exactly the view the bot gets in a tournament), asks the bot, and
sends its action (``POST /api/agent/seat/actions``), waiting for its turn with the long poll
in between (``GET /api/agent/seat/wait``), until the game ends.

In real time DOS calls and catches are not simulated reflexes: the runner calls "DOS!" with
every move (``dos: true``, so a move that leaves two cards is never caught) and as soon as a
call of its own is due, and catches whoever it sees has not called, as any agent may. At a
classic table the bot's reaction-test answer is sent as it chose it (the server records the
larger of its time and the one it measured).

The server may ask the runner to slow down (429, or 503 while it is busy): the runner waits as
long as the answer's ``Retry-After`` says (in seconds), or backs off (1, 2, 4... s, at most
``BACKOFF_MOST``) when it says nothing, and asks again; one request waits ``patience`` seconds
in all at most. A runner that cannot go on (the server keeps refusing past its patience, a
refusal it cannot get past, the bot fails) never abandons its seat silently: it leaves the
table (``POST /api/agent/seat/leave``: during a game the server's stand-in plays the seat to
the game's end, so the table is not held up) and raises ``AgentPlayError`` saying why it
stopped and what became of the seat.

The seat plays as one player: the grant's ``player_token``, kept in an identity file and
passed to every later create and join, keeps it one player (one rating, one line on the
bots' leaderboard: it plays through the agent API, so it is marked an AI, ``docs/ratings.md``).
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from dos import ruleset
from dos.agents.seat_view import seat_view
from dos.bots.registry import make_player
from dos.errors import DosError
from dos.play.bot import OUT_OF_TURN, Budget
from dos.rules import classic, official

TIMEOUT = 40.0
"""Seconds an HTTP request may take (a long poll lasts at most 30)."""
PATIENCE = 600.0
"""The most seconds the runner waits, in all, for one request the server asks it to send
later (429 or 503): past it, the runner stops."""
BACKOFF_FIRST = 1.0
"""The first wait, in seconds, after a refusal for now that names no ``Retry-After``; each
next one doubles."""
BACKOFF_MOST = 60.0
"""The longest single wait of the back-off."""
LATER = frozenset({429, 503})
"""The statuses that ask a client to send the same request later."""

Sleep = Callable[[float], None]
"""Waits that many seconds (``time.sleep``; a test passes its own)."""


class AgentPlayError(DosError):
    """The server refused the runner, or the game could not go on (the message says why)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one game at the table ended for the bot's seat."""

    code: str
    game: int
    """The game's number at the table."""
    game_id: int | None
    seat: int
    result: dict[str, Any]
    """As the view's ``result``: ``winner`` and ``scores`` (official) or ``ranking``."""

    @property
    def won(self) -> bool:
        """Whether the seat won (came first)."""
        return bool(self.result.get("winner") == self.seat)

    def line(self) -> str:
        """One line for the terminal."""
        said = "won" if self.won else f"lost to seat {self.result.get('winner')}"
        if "scores" in self.result:
            scores = " ".join(f"{s}:{p}" for s, p in enumerate(self.result["scores"]))
            said += f"; scores {scores}"
        elif "ranking" in self.result:
            said += f"; ranking {' '.join(str(s) for s in self.result['ranking'])}"
        return f"table {self.code}, game {self.game}: seat {self.seat} {said}"


def read_identity(path: Path | None) -> str | None:
    """The player token kept in ``path`` (``None``: no file, or none kept yet)."""
    if path is None or not path.exists():
        return None
    try:
        token = path.read_text(encoding="utf-8").strip()
    except OSError as error:
        raise AgentPlayError(f"--identity: cannot read {path}: {error.strerror}") from None
    return token or None


def write_identity(path: Path | None, token: str) -> None:
    """Keeps the player token in ``path`` (readable by its owner only)."""
    if path is None:
        return
    try:
        path.write_text(token + "\n", encoding="utf-8")
        path.chmod(0o600)
    except OSError as error:
        raise AgentPlayError(f"--identity: cannot write {path}: {error.strerror}") from None


def _said(answer: httpx.Response) -> str:
    """What a refusal says: ``CODE: MESSAGE`` of the server's error body, or its text."""
    try:
        body = answer.json()
        return f"{body.get('code')}: {body.get('message')}"
    except (ValueError, AttributeError):
        return answer.text[:200]


def _refused(answer: httpx.Response, doing: str) -> AgentPlayError:
    return AgentPlayError(
        f"{doing}: the server refused (HTTP {answer.status_code}) {_said(answer)}"
    )


def retry_after(answer: httpx.Response) -> float | None:
    """The seconds the answer's ``Retry-After`` asks to wait (``None``: none, or not a number
    of seconds, as an HTTP date is not: the runner backs off then).

    >>> retry_after(httpx.Response(429, headers={"Retry-After": "12"}))
    12.0
    >>> retry_after(httpx.Response(429, headers={"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}))
    """
    value = answer.headers.get("retry-after")
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return seconds if 0 <= seconds < float("inf") else None


def send(
    http: httpx.Client,
    method: str,
    path: str,
    *,
    sleep: Sleep = time.sleep,
    patience: float = PATIENCE,
    note: Callable[[str], None] | None = None,
    **request: Any,
) -> httpx.Response:
    """Sends a request and answers the server's answer, sending it again after the wait a
    429 or 503 asks (its ``Retry-After``, else a back-off from ``BACKOFF_FIRST`` doubling up
    to ``BACKOFF_MOST``) as long as the waits stay within ``patience`` seconds in all;
    ``note`` is told each wait. Past the patience: ``AgentPlayError`` naming the refusal
    and the waits."""
    waited = 0.0
    backoff = BACKOFF_FIRST
    while True:
        answer = http.request(method, path, **request)
        if answer.status_code not in LATER:
            return answer
        asked = retry_after(answer)
        wait = asked if asked is not None else backoff
        backoff = min(backoff * 2, BACKOFF_MOST)
        if waited + wait > patience:
            raise AgentPlayError(
                f"{method} {path}: the server refused (HTTP {answer.status_code}) "
                f"{_said(answer)}; waited {waited:g} s, it asks {wait:g} s more, past the "
                f"patience of {patience:g} s"
            )
        if note is not None:
            note(f"{method} {path}: HTTP {answer.status_code}, waiting {wait:g} s")
        sleep(wait)
        waited += wait


class SeatRunner:
    """One seat of one table, played by a bot over the agent API (``http`` has the server's
    base URL; the seat token is sent with each request). A request the server asks to send
    later is sent again after ``sleep`` waited as it asked (``send``, within ``patience``
    seconds); ``note`` is told each wait."""

    def __init__(
        self,
        http: httpx.Client,
        grant: dict[str, Any],
        bot: str,
        seed: int = 0,
        say: Callable[[str], None] | None = None,
        *,
        sleep: Sleep = time.sleep,
        patience: float = PATIENCE,
        note: Callable[[str], None] | None = None,
    ) -> None:
        self.http = http
        self.sleep = sleep
        self.patience = patience
        self.note = note
        """Told each wait the server asked for (``send``)."""
        self.game: int | None = None
        """The number of the game the seat is playing now (``None``: none)."""
        self.grant = grant
        self.code: str = grant["code"]
        self.seat: int = grant["seat"]
        table = grant["table"]
        self.rules: str = table["rules"]
        self.player = bot_player(bot, self.rules, len(table["seats"]))
        self.budget: Budget = self.player.budget
        self.rng = random.Random(seed)
        self.auth = {"authorization": f"Bearer {grant['token']}"}
        self.say = say or (lambda line: None)

    # --- requests -----------------------------------------------------------------------

    def _send(self, method: str, path: str, **request: Any) -> httpx.Response:
        return send(
            self.http,
            method,
            path,
            sleep=self.sleep,
            patience=self.patience,
            note=self.note,
            headers=self.auth,
            **request,
        )

    def _get(self, path: str, **params: Any) -> dict[str, Any]:
        answer = self._send("GET", path, params=params)
        if answer.status_code != 200:
            raise _refused(answer, f"GET {path}")
        data: dict[str, Any] = answer.json()
        return data

    def look(self) -> dict[str, Any]:
        """The seat's view now, with the game's history."""
        return self._get("/api/agent/seat", history="true")

    def wait(self, seen: dict[str, Any], until: str = "turn") -> dict[str, Any]:
        """The seat's view once the table moved on from ``seen`` (for ``turn``: and the seat
        has something to do), or after 30 s; with the game's history."""
        since = {"version": seen["version"], "change": seen["change"], "until": until}
        return self._get("/api/agent/seat/wait", history="true", **since)

    def _post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self._send("POST", path, json=body)

    # --- the game -----------------------------------------------------------------------

    def decide(self, seen: dict[str, Any]) -> tuple[str, bool] | None:
        """What to send now, from the view: the action in notation and whether "DOS!" goes
        with it; ``None`` when the seat has nothing to do."""
        data = seen["view"]
        if data is None or seen["result"] is not None or not data["legal"]:
            return None
        view = seat_view(self.rules, data)
        if isinstance(view, classic.SeatView):
            if view.turn != view.seat:
                return None
            chosen = self.player.bot.choose(view, self.rng, self.budget)
            if chosen not in view.legal and chosen.kind != classic.Kind.REACT:
                raise AgentPlayError(f"{self.player.bot.name} chose {chosen}, not a legal action")
            return str(chosen), False
        for kind in (official.Kind.CALL, official.Kind.CATCH):  # real time: at once
            for action in view.legal:
                if action.kind == kind:
                    return str(action), False
        turn = [a for a in view.legal if a.kind not in OUT_OF_TURN]
        if not turn:
            return None
        chosen = self.player.bot.choose(view, self.rng, self.budget)
        if chosen not in turn:
            raise AgentPlayError(f"{self.player.bot.name} chose {chosen}, not a legal turn action")
        return str(chosen), True

    def play_game(self, seen: dict[str, Any]) -> Outcome:
        """Plays the game under way (``seen``: the seat's view in it) to its end."""
        game = self.game = seen["table"]["game"]
        while True:
            if seen["result"] is not None and seen["table"]["game"] == game:
                table = seen["table"]
                self.game = None
                return Outcome(self.code, game, table.get("game_id"), self.seat, seen["result"])
            move = self.decide(seen)
            if move is None:
                seen = self.wait(seen)
                continue
            action, dos = move
            body: dict[str, Any] = {"action": action, "version": seen["version"]}
            if dos:
                body["dos"] = True
            answer = self._post("/api/agent/seat/actions", body)
            if answer.status_code != 200:
                code = _code(answer)
                if code not in ("stale", "not_playing"):  # another seat was quicker: look again
                    raise _refused(answer, f"action {action!r}")
            seen = self.look()

    def start(self) -> dict[str, Any]:
        """The host deals the next game (the first, or a rematch once the last is over);
        returns the seat's view in it."""
        while True:
            answer = self._post("/api/agent/seat/start")
            if answer.status_code == 200:
                return self.look()
            if _code(answer) != "bad_state":
                raise _refused(answer, "start")
            self.wait(self.look(), until="change")  # the last game's end is being stored

    def next_game(self, after: int) -> dict[str, Any]:
        """As a guest: the seat's view once the host dealt a game after game ``after``."""
        seen = self.look()
        while not (seen["table"]["game"] > after and seen["view"] is not None):
            if seen["table"]["status"] == "finished" and seen["table"]["host"] == self.seat:
                return self.start()  # the host role passed to this seat
            seen = self.wait(seen, until="change")
        return seen

    def play(self, games: int) -> list[Outcome]:
        """Plays ``games`` games at the table, one after another; the host deals them. If it
        cannot go on, it leaves the table (``stop``) and raises ``AgentPlayError`` saying
        why, how many games it played and what became of the seat; interrupted
        (``KeyboardInterrupt``), it leaves the table too, says so, and lets the interrupt
        go on."""
        outcomes: list[Outcome] = []
        played = self.grant["table"]["game"]
        try:
            for _ in range(games):
                host = self.look()["table"]["host"] == self.seat
                seen = self.start() if host else self.next_game(played)
                outcome = self.play_game(seen)
                self.say(outcome.line())
                outcomes.append(outcome)
                played = outcome.game
        except KeyboardInterrupt:
            self.say(f"interrupted; {self.stop()}")
            raise
        except (AgentPlayError, httpx.HTTPError) as error:
            why = str(error) if isinstance(error, AgentPlayError) else _failed(error)
            raise AgentPlayError(self._stopped(why, len(outcomes), games)) from None
        except Exception as error:  # the bot failed: its own message, and the seat left
            why = f"{self.player.bot.name} failed: {type(error).__name__}: {error}"
            raise AgentPlayError(self._stopped(why, len(outcomes), games)) from error
        return outcomes

    def _stopped(self, why: str, done: int, games: int) -> str:
        where = f"game {self.game}" if self.game is not None else "between games"
        return f"stopped at table {self.code} ({where}; {done} of {games} played): {why}; " + (
            self.stop()
        )

    def stop(self) -> str:
        """Leaves the table, for a runner that cannot go on (as patient with the server as
        any request); returns what became of the seat, in words. During a game the stand-in
        plays the seat to its end."""
        try:
            answer = self._post("/api/agent/seat/leave")
        except (AgentPlayError, httpx.HTTPError) as error:
            why = str(error) if isinstance(error, AgentPlayError) else _failed(error)
            return f"could not leave the table: {why}"
        if answer.status_code != 200:
            return f"could not leave the table: HTTP {answer.status_code} {_said(answer)}"
        if self.game is None:
            return f"left the table: seat {self.seat} is open again"
        return (
            f"left the table: the server's stand-in plays seat {self.seat} to the end of "
            f"game {self.game}"
        )


def _code(answer: httpx.Response) -> str | None:
    try:
        code = answer.json().get("code")
    except ValueError:
        return None
    return code if isinstance(code, str) else None


def take_seat(
    http: httpx.Client,
    *,
    name: str,
    table: str | None = None,
    rules: str = ruleset.DEFAULT,
    opponents: Sequence[str | None] = ("medium",),
    options: dict[str, Any] | None = None,
    rated: bool = True,
    public: bool = False,
    player_token: str | None = None,
    sleep: Sleep = time.sleep,
    patience: float = PATIENCE,
) -> dict[str, Any]:
    """A seat grant: a new table with the bot as its host at seat 0 and ``opponents`` in the
    other seats (server bot levels; ``None``: a seat left open for a person or another agent),
    or an open seat of the table ``table``. ``player_token`` keeps the same player. Sent
    again after the waits the server asks for (``send``)."""
    keep = {} if player_token is None else {"player_token": player_token}
    patient: dict[str, Any] = {"sleep": sleep, "patience": patience}
    if table is None:
        body = {
            "name": name,
            "rules": rules,
            "seats": [None, *opponents],
            "options": options or {},
            "rated": rated,
            "public": public,
            **keep,
        }
        answer = send(http, "POST", "/api/tables", json=body, **patient)
        if answer.status_code != 201:
            raise _refused(answer, "creating a table")
    else:
        join = {"name": name, **keep}
        answer = send(http, "POST", f"/api/tables/{table}/join", json=join, **patient)
        if answer.status_code != 200:
            raise _refused(answer, f"joining table {table}")
    grant: dict[str, Any] = answer.json()
    return grant


def bot_player(bot: str, rules: str, players: int) -> Any:
    """The player of the bot ``bot`` for a table of ``rules`` with ``players`` seats (a
    ``Player``, or a ``ClassicPlayer``); ``AgentPlayError`` (``--bot: ...``) if it cannot
    play there."""
    try:
        return make_player(bot, rules, players=players)
    except DosError as error:
        raise AgentPlayError(f"--bot: {error}") from None
    except (OSError, ValueError) as error:
        raise AgentPlayError(f"--bot: {bot!r} cannot be loaded: {error}") from None


def display_name(bot: object) -> str:
    """The name a bot sits under by default: its ``name``, less any folder and extension
    (``policy:runs/best.npz`` sits as ``best``), in letters, digits, spaces, ``-`` and ``_``.

    >>> class Policy:
    ...     name = "policy:runs/best.npz"
    >>> display_name(Policy())
    'best'
    """
    text = str(getattr(bot, "name", "")).rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    text = re.sub(r"[^\w -]", "", text.rsplit(".", 1)[0] if "." in text else text)
    return text.strip()[:32] or "bot"


def agent_play(
    server: str,
    bot: str,
    *,
    table: str | None = None,
    name: str | None = None,
    rules: str = ruleset.DEFAULT,
    opponents: Sequence[str | None] = ("medium",),
    target: int | None = None,
    rated: bool = True,
    public: bool = False,
    games: int = 1,
    identity: Path | None = None,
    seed: int = 0,
    say: Callable[[str], None] | None = None,
    transport: httpx.BaseTransport | None = None,
    sleep: Sleep = time.sleep,
    patience: float = PATIENCE,
    note: Callable[[str], None] | None = None,
) -> tuple[dict[str, Any], list[Outcome]]:
    """Plays ``games`` games of the bot ``bot`` at the server ``server`` (see the module);
    returns the seat grant and how each game ended. ``identity``: the file that keeps the
    player token (read first if it exists, written after the grant). A request the server
    asks to send later is sent again after ``sleep`` waited as it asked, within
    ``patience`` seconds (``note`` is told each wait). Raises ``AgentPlayError`` (and
    ``DosError`` for a bot that cannot play this table) with a message that says why; once
    seated, a runner that stops has left the table first (``SeatRunner.play``)."""
    if games < 1:
        raise AgentPlayError(f"--games: at least 1, not {games}")
    if not server.startswith(("http://", "https://")):
        raise AgentPlayError("--server: an http:// or https:// URL")
    player_token = read_identity(identity)
    options = {} if target is None else {"target_score": target}
    try:
        with httpx.Client(
            base_url=server.rstrip("/"), timeout=TIMEOUT, transport=transport
        ) as http:
            if table is None:
                seats = 1 + len(opponents)
            else:  # the bot is checked against the table before it takes a seat
                answer = send(http, "GET", f"/api/tables/{table}", sleep=sleep, patience=patience)
                if answer.status_code != 200:
                    raise _refused(answer, f"table {table}")
                info = answer.json()
                rules, seats = info["rules"], len(info["seats"])
            shown = name or display_name(bot_player(bot, rules, seats).bot)
            grant = take_seat(
                http,
                name=shown,
                table=table,
                rules=rules,
                opponents=opponents,
                options=options,
                rated=rated,
                public=public,
                player_token=player_token,
                sleep=sleep,
                patience=patience,
            )
            write_identity(identity, grant["player_token"])
            if say is not None:
                say(f"table {grant['code']}, seat {grant['seat']}: player {grant['player_id']}")
            runner = SeatRunner(
                http, grant, bot, seed, say, sleep=sleep, patience=patience, note=note
            )
            return grant, runner.play(games)
    except httpx.HTTPError as error:
        raise AgentPlayError(f"--server {server}: {_failed(error)}") from None


def _failed(error: httpx.HTTPError) -> str:
    return f"{type(error).__name__}: {error}"
