"""A score sheet for a game played with real cards, as a pure state machine folded from its
durable log (like a room: no I/O, no clock; the actor commits what it says).

After each deal the table enters the playing team, one team's card points (the other's is
162 minus them, the last trick included) or both, each team's roem, and the team that took
every trick, if one did; :func:`engine.scoring.score_deal` scores it (nat, ties nat, pit
and its bonus option), and :func:`engine.scoring.match_over` says, deal by deal, which deal
ended the game (the first after which a team has reached the end with unequal totals: the
higher total then wins, :func:`engine.scoring.match_winner`), so the sheet scores exactly
as a played match does.  A game never holds deals after its end: a correction or deletion
that would end it earlier, before deals that were played on, is refused
(``deals_after_end``) until those are deleted.

Transitions, in one table (command: entries written | refusals); every command names the
version it was made on, and one made on an older version is refused (``stale_version``),
never merged::

    enter(draft)        DealEntered          | invalid_deal game_ended
    edit(id, draft)     DealEdited           | invalid_deal no_such_deal deals_after_end
    delete(id)          DealDeleted          | no_such_deal deals_after_end
    set_dealer(seat)    DealerSet            | dealer_unchanged
    continue_()         Continued            | not_over
    new_game()          NewGame              | empty_game
    undo()              Undone               | nothing_to_undo
    redo()              Redone               | nothing_to_redo

The changes in effect are a list: a change is appended (and what was undone is forgotten),
``undo`` moves the latest one to the undone list, ``redo`` moves it back.  Everything shown
(the games, each deal with its dealer and running totals, who deals next) is worked out
afresh from that list, so an undo of any change, a deal entered or a new game started,
is exact.  The dealer rotates clockwise every deal; a correction sets who deals from there,
and a deleted deal is one that never happened.  A deal is named by the version that
entered it (its ``id``), which never changes; any deal of any game may be corrected or
deleted, and its game's totals and end are worked out again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.events import DealResult
from engine.rules import Rules
from engine.scoring import extra_deal, match_over, match_winner, score_deal
from engine.tables import DEAL_POINTS

from ..core.errors import Refused
from ..core.text import check_name as text_name
from .sheet_entries import (
    Change,
    Continued,
    Created,
    DealDeleted,
    DealEdited,
    DealEntered,
    DealerSet,
    DealInput,
    Entry,
    EveningTable,
    NewGame,
    Redone,
    Undone,
)

MAX_ROEM = 1000  # a team's roem in one deal, at most (far above what eight tricks can hold)
NAME_LENGTH = 24  # a team's or a player's name, at most
ROEM_STEPS = (20, 50, 100, 200)  # the roem a phone offers to add with one tap (stuk is 20)


class SheetError(Refused):
    """A command the sheet refuses; ``code`` is stable, ``message`` says what is wrong."""


def check_name(text: str, what: str) -> str:
    """``text`` as a team's or player's name, or ``bad_name`` (see :mod:`server.text`)."""
    return text_name(text, what, NAME_LENGTH)


def created(
    by: str, at: float, teams: Sequence[str] | None, players: Sequence[str] | None,
    first_dealer: int, rules: Rules, evening: str | None = None,
    table: EveningTable | None = None,
) -> Created:  # fmt: skip
    """A new sheet's first entry, its names checked; without team names each team is
    called after its players (seats 0 and 2: ``"Ann & Cas"``); a club evening's table
    names its ``evening`` and where it sits (``table``)."""
    named = None
    if players is not None:
        named = tuple(check_name(n, f"player {i + 1}'s name") for i, n in enumerate(players))
    if teams is not None:
        a, b = (check_name(t, f"team {i + 1}'s name") for i, t in enumerate(teams))
    elif named is not None:
        a, b = (f"{named[t]} & {named[t + 2]}" for t in (0, 1))
    else:
        raise SheetError("invalid_field", "give the two teams' names, or the four players'")
    if a.casefold() == b.casefold():
        raise SheetError("bad_name", f"the two teams need different names, not {a!r} twice")
    return Created(by, at, (a, b), named, first_dealer, rules, evening, table)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Draft:
    """A deal as a phone sends it: one team's points or both (None: work it out)."""

    playing: int
    points: tuple[int | None, int | None]
    roem: tuple[int, int]
    pit: int | None = None


@dataclass(frozen=True, slots=True)
class ScoredDeal:
    id: int  # the version that entered it
    number: int  # 1, 2, ... within its game
    dealer: int
    deal: DealInput
    result: DealResult
    totals: tuple[int, int]  # the running totals after it
    by: str  # who entered it, or last corrected it
    edited: bool

    def to_dict(self) -> dict[str, Any]:
        d, r = self.deal, self.result
        return {
            "id": self.id, "number": self.number, "dealer": self.dealer,
            "playing": d.playing, "points": list(d.points), "roem": list(d.roem),
            "pit": d.pit, "nat": r.nat, "score": list(r.score), "totals": list(self.totals),
            "by": self.by, "edited": self.edited,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class Applied:
    """A change in effect: the version that made it, and what it did (``what``: the facts,
    for a phone to put in its own language; ``text``: the same in English words)."""

    version: int
    change: Change
    text: str
    what: dict[str, Any]


@dataclass(slots=True)
class Game:
    number: int
    deals: list[ScoredDeal] = field(default_factory=list)
    continued: int = 0  # times played on past its end
    ended: int | None = None  # the number of the deal that ended it (None: not over)

    @property
    def totals(self) -> tuple[int, int]:
        return self.deals[-1].totals if self.deals else (0, 0)

    @property
    def late(self) -> int:
        """Deals after its end (none, but in a log written before that was refused)."""
        return 0 if self.ended is None else len(self.deals) - self.ended


@dataclass(slots=True)
class Sheet:
    id: str
    created: Created
    version: int = 1
    changes: list[Applied] = field(default_factory=list)  # in effect, in order
    undone: list[Applied] = field(default_factory=list)  # the latest last
    history: list[dict[str, Any]] = field(default_factory=list)  # every change, as shown
    games: list[Game] = field(default_factory=lambda: [Game(1)])  # the last is played now
    dealer: int = 0  # who deals the next deal

    @classmethod
    def from_log(cls, sheet_id: str, log: list[Entry]) -> Sheet:
        first = log[0]
        if not isinstance(first, Created):
            raise ValueError(f"sheet {sheet_id!r}: the log does not start with 'created'")
        sheet = cls(sheet_id, first, dealer=first.first_dealer)
        for entry in log[1:]:
            sheet.apply(entry)
        return sheet

    # -- what it shows -------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.created.rules

    @property
    def teams(self) -> tuple[str, str]:
        return self.created.teams

    @property
    def game(self) -> Game:
        return self.games[-1]

    def seat_name(self, seat: int) -> str:
        players = self.created.players
        return players[seat] if players else f"{self.teams[seat % 2]} {seat // 2 + 1}"

    def end_value(self, game: Game) -> int:
        return self.rules.end_value * (1 + game.continued)

    def over(self, game: Game) -> bool:
        return game.ended is not None

    def winner(self, game: Game) -> int | None:
        """The team that won ``game``: the higher total after the deal that ended it."""
        if game.ended is None:
            return None
        return match_winner(game.deals[game.ended - 1].totals)

    def extra_deal(self, game: Game) -> bool:
        """Whether ``game`` has reached its end with equal totals: one more deal."""
        if game.ended is not None:
            return False
        return extra_deal(self.rules.end, self.end_value(game), game.totals, len(game.deals))

    def summary(self, names: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The sheet as every phone shows it (without its history: see :attr:`history`)."""
        game, names = self.game, names or {}
        return {
            "id": self.id,
            "version": self.version,
            "made_by": names.get(self.created.by),  # who made it, by nickname (a link says so)
            "teams": list(self.teams),
            "players": None if self.created.players is None else list(self.created.players),
            "seats": [self.seat_name(s) for s in range(4)],
            "rules": {
                "end": str(self.rules.end),
                "end_value": self.rules.end_value,
                "pit_bonus": str(self.rules.pit_bonus),
            },
            "game": {
                **self._game(game, names),
                "end_value": self.end_value(game),
                "continued": game.continued,
                "over": self.over(game),
                "extra_deal": self.extra_deal(game),
            },
            "games": [self._game(g, names) for g in self.games[:-1]],
            "dealer": self.dealer,
            "leader": (self.dealer + 1) % 4,
            "stats": [self._stats(game, team) for team in (0, 1)],
            "undo": self.changes[-1].text if self.changes else None,
            "redo": self.undone[-1].text if self.undone else None,
            "undo_what": self.changes[-1].what if self.changes else None,
            "redo_what": self.undone[-1].what if self.undone else None,
            "evening": None if self.created.table is None else self.created.table.to_dict(),
        }

    def _game(self, game: Game, names: Mapping[str, str]) -> dict[str, Any]:
        return {
            "number": game.number,
            "deals": [{**d.to_dict(), "by": names.get(d.by, d.by)} for d in game.deals],
            "totals": list(game.totals),
            "end_deal": game.ended,
            "winner": self.winner(game),
        }

    def _stats(self, game: Game, team: int) -> dict[str, Any]:
        deals = game.deals
        playing = [d for d in deals if d.deal.playing == team]
        return {
            "playing": len(playing),
            "nat": sum(d.result.nat for d in playing),
            "pits": sum(d.deal.pit == team for d in deals),
            "roem": sum(d.deal.roem[team] for d in deals),
            "average": round(game.totals[team] / len(deals), 1) if deals else None,
        }

    # -- transitions: command -> entries -------------------------------------------------

    def enter(self, by: str, at: float, version: int, draft: Draft) -> list[Entry]:
        self._current(version)
        if self.over(self.game):
            raise SheetError(
                "game_ended", f"game {self.game.number} is over: continue it, or start a new game"
            )
        return [DealEntered(by, at, self._checked(draft))]

    def edit(self, by: str, at: float, version: int, deal_id: int, draft: Draft) -> list[Entry]:
        self._current(version)
        self._deal(deal_id)
        change = DealEdited(by, at, deal_id, self._checked(draft))
        self._ends_in_place(change, "correction")
        return [change]

    def delete(self, by: str, at: float, version: int, deal_id: int) -> list[Entry]:
        self._current(version)
        self._deal(deal_id)
        change = DealDeleted(by, at, deal_id)
        self._ends_in_place(change, "deletion")
        return [change]

    def set_dealer(self, by: str, at: float, version: int, seat: int) -> list[Entry]:
        self._current(version)
        if seat == self.dealer:
            raise SheetError("dealer_unchanged", f"{self.seat_name(seat)} deals next already")
        return [DealerSet(by, at, seat)]

    def continue_(self, by: str, at: float, version: int) -> list[Entry]:
        self._current(version)
        if not self.over(self.game):
            raise SheetError("not_over", f"game {self.game.number} is not over yet")
        return [Continued(by, at)]

    def new_game(self, by: str, at: float, version: int) -> list[Entry]:
        self._current(version)
        if not self.game.deals:
            raise SheetError("empty_game", f"game {self.game.number} has no deals yet")
        return [NewGame(by, at)]

    def undo(self, by: str, at: float, version: int) -> list[Entry]:
        self._current(version)
        if not self.changes:
            raise SheetError("nothing_to_undo", "there is no change to undo")
        return [Undone(by, at)]

    def redo(self, by: str, at: float, version: int) -> list[Entry]:
        self._current(version)
        if not self.undone:
            raise SheetError("nothing_to_redo", "there is no undone change to redo")
        return [Redone(by, at)]

    def _current(self, version: int) -> None:
        if version != self.version:
            raise SheetError(
                "stale_version",
                f"the sheet changed since you looked (you saw version {version}, it is at "
                f"{self.version} now): check it and send your change again",
            )

    def _deal(self, deal_id: int) -> tuple[Game, ScoredDeal]:
        """A deal of any game, by its id, and its game."""
        for game in self.games:
            for deal in game.deals:
                if deal.id == deal_id:
                    return game, deal
        raise SheetError("no_such_deal", f"the sheet has no deal {deal_id}")

    def _ends_in_place(self, change: DealEdited | DealDeleted, what: str) -> None:
        """Refuse ``change`` if it would end a game before deals that were played on after
        it (a game ends with the first deal that ends it: nothing comes after)."""
        trial = replace(self, changes=[*self.changes, Applied(self.version + 1, change, "", {})])
        trial._derive()
        for now, then in zip(self.games, trial.games, strict=True):
            if then.ended is not None and then.late > now.late:
                a, b = then.deals[then.ended - 1].totals
                first, last = then.ended + 1, len(then.deals)
                later = f"deal {last} comes" if first == last else f"deals {first}-{last} come"
                them = "it" if first == last else "them"
                raise SheetError(
                    "deals_after_end",
                    f"with this {what} game {then.number} ends with deal {then.ended} "
                    f"({self.teams[0]} {a}, {self.teams[1]} {b}), but {later} after that: "
                    f"delete {them} first (the last first), then make the {what} again",
                )

    def _checked(self, draft: Draft) -> DealInput:
        """``draft`` completed (the other team's points) and checked, or refused with what
        is wrong, in the table's own words."""
        teams = self.teams
        given = [p for p in draft.points if p is not None]
        if not given:
            raise SheetError("invalid_deal", "enter the card points of one team (0-162)")
        for team, points in enumerate(draft.points):
            if points is not None and not 0 <= points <= DEAL_POINTS:
                raise SheetError(
                    "invalid_deal", f"{teams[team]}'s points must be 0 to 162, not {points}"
                )
        first, second = draft.points
        if first is not None and second is not None and first + second != DEAL_POINTS:
            raise SheetError(
                "invalid_deal",
                f"the points add up to 162 (the last trick's 10 included), not {first + second}",
            )
        a = first if first is not None else DEAL_POINTS - second  # type: ignore[operator]
        points = (a, DEAL_POINTS - a)
        for team, roem in enumerate(draft.roem):
            if roem < 0 or roem % 10 or roem > MAX_ROEM:
                raise SheetError(
                    "invalid_deal",
                    f"{teams[team]}'s roem must be a multiple of 10 from 0 to {MAX_ROEM}, "
                    f"not {roem}",
                )
        if draft.pit is not None:
            taker, other = draft.pit, 1 - draft.pit
            if points[taker] != DEAL_POINTS:
                raise SheetError(
                    "invalid_deal",
                    f"a pit is every trick: {teams[taker]} then has 162 points, not "
                    f"{points[taker]}",
                )
            if draft.roem[other]:
                raise SheetError(
                    "invalid_deal",
                    f"{teams[other]} took no trick in a pit, so they have no roem, not "
                    f"{draft.roem[other]}",
                )
        return DealInput(draft.playing, points, draft.roem, draft.pit)

    # -- the fold: entry -> state ----------------------------------------------------------

    def apply(self, entry: Entry) -> None:
        """Fold in one entry (already checked, or replayed from the log)."""
        self.version += 1
        what: dict[str, Any]
        match entry:
            case Created():
                raise ValueError("a sheet is created once")
            case Undone():
                self.undone.append(self.changes.pop())
                self._derive()
                what = {"kind": "undo", "change": self.undone[-1].what}
            case Redone():
                self.changes.append(self.undone.pop())
                self._derive()
                what = {"kind": "redo", "change": self.changes[-1].what}
            case DealEdited() | DealDeleted():
                deleted = self._describe_before(entry)  # while its deal is still there
                self._made(entry)
                self._derive()
                what = deleted or self._describe_after(entry)
            case _:  # added at the end: no need to work everything out again
                self._made(entry)
                self._extend(self.version, entry)
                what = self._describe_after(entry)
        text = self._words(what)
        if not isinstance(entry, Undone | Redone):
            self.changes[-1] = Applied(self.version, entry, text, what)
        self.history.append(
            {"version": self.version, "kind": entry.tag, "by": entry.by, "at": entry.at,
             "text": text, "what": what}
        )  # fmt: skip

    def _made(self, change: Change) -> None:
        """A new change in effect (its words follow); what was undone is forgotten."""
        self.changes.append(Applied(self.version, change, "", {}))
        self.undone.clear()

    def _derive(self) -> None:
        """The games, their deals and who deals next, worked out afresh from the changes
        (after an edit, a deletion, an undo or a redo)."""
        latest: dict[int, tuple[DealInput, str, bool]] = {}  # deal id -> as it reads now
        for applied in self.changes:
            match applied.change:
                case DealEntered(by=by, deal=deal):
                    latest[applied.version] = (deal, by, False)
                case DealEdited(by=by, deal_id=deal_id, deal=deal):
                    latest[deal_id] = (deal, by, True)
                case DealDeleted(deal_id=deal_id):
                    del latest[deal_id]
        self.games, self.dealer = [Game(1)], self.created.first_dealer
        for applied in self.changes:
            change = applied.change
            if isinstance(change, DealEntered):
                if applied.version in latest:
                    self._add_deal(applied.version, *latest[applied.version])
            elif not isinstance(change, DealEdited | DealDeleted):
                self._extend(applied.version, change)

    def _extend(self, version: int, change: Change) -> None:
        """Add one change at the end: a deal, a dealer's correction, playing on, a new game."""
        match change:
            case DealEntered(by=by, deal=deal):
                self._add_deal(version, deal, by, False)
            case DealerSet(seat=seat):
                self.dealer = seat
            case Continued():
                self.game.continued += 1
                self.game.ended = None  # the end moves on
            case NewGame():
                self.games.append(Game(self.game.number + 1))

    def _add_deal(self, deal_id: int, deal: DealInput, by: str, edited: bool) -> None:
        game = self.game
        result = score_deal(deal.points, deal.roem, deal.playing, deal.pit, self.rules.pit_bonus)
        a, b = game.totals
        totals = (a + result.score[0], b + result.score[1])
        scored = ScoredDeal(deal_id, len(game.deals) + 1, self.dealer, deal, result, totals, by,
                            edited)  # fmt: skip
        game.deals.append(scored)
        self.dealer = (self.dealer + 1) % 4
        if game.ended is None and match_over(
            self.rules.end, self.end_value(game), totals, len(game.deals)
        ):
            game.ended = len(game.deals)

    def _describe_before(self, change: Change) -> dict[str, Any] | None:
        """A deletion, while its deal is still there (else None)."""
        if isinstance(change, DealDeleted):
            game, deal = self._deal(change.deal_id)
            return {"kind": "delete", **self._facts(game, deal)}
        return None

    def _describe_after(self, change: Change) -> dict[str, Any]:
        """A change, once it is made: what a history line says (see :meth:`_words`)."""
        game = self.game
        match change:
            case DealEntered():
                found, deal = self._deal(self.version)
                return {"kind": "deal", **self._facts(found, deal)}
            case DealEdited(deal_id=deal_id):
                found, deal = self._deal(deal_id)
                return {"kind": "edit", **self._facts(found, deal)}
            case DealerSet(seat=seat):
                return {"kind": "dealer", "seat": seat, "name": self.seat_name(seat)}
            case Continued():
                return {"kind": "continue", "game": game.number, "to": self.end_value(game)}
            case NewGame():
                return {"kind": "new_game", "game": game.number}
        raise ValueError(f"not a change: {change!r}")  # pragma: no cover

    def _facts(self, game: Game, deal: ScoredDeal) -> dict[str, Any]:
        """A deal in a history line: its number, its game's when it is an earlier game
        (else None), what each team scored, nat and pit."""
        return {
            "game": None if game is self.game else game.number, "deal": deal.number,
            "score": list(deal.result.score), "nat": deal.result.nat,
            "pit": deal.deal.pit is not None,
        }  # fmt: skip

    def _words(self, what: dict[str, Any]) -> str:
        """A history line in English words (``text``; phones show ``what`` in theirs)."""
        match what["kind"]:
            case "undo":
                return f"Undone: {self._words(what['change'])}"
            case "redo":
                return f"Redone: {self._words(what['change'])}"
            case "deal":
                return f"Deal {what['deal']}: {self._line(what)}"
            case "edit":
                return f"{self._named(what)} corrected: {self._line(what)}"
            case "delete":
                return f"{self._named(what)} deleted ({self._line(what)})"
            case "dealer":
                return f"Dealer corrected: {what['name']} deals next"
            case "continue":
                return f"Game {what['game']} played on to {what['to']}"
            case "new_game":
                return f"Game {what['game']} started"
        raise ValueError(f"not a change: {what!r}")  # pragma: no cover

    @staticmethod
    def _named(what: dict[str, Any]) -> str:
        """``Deal 3``, or of an earlier game ``Game 1, deal 3``."""
        if what["game"] is None:
            return f"Deal {what['deal']}"
        return f"Game {what['game']}, deal {what['deal']}"

    def _line(self, what: dict[str, Any]) -> str:
        t, s = self.teams, what["score"]
        marks = " nat" if what["nat"] else ""
        marks += " pit" if what["pit"] else ""
        return f"{t[0]} {s[0]}, {t[1]} {s[1]}{marks}"


__all__ = ["MAX_ROEM", "Draft", "ScoredDeal", "Sheet", "SheetError", "check_name", "created"]
