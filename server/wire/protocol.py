"""The wire protocol: JSON text frames ``{"type": ..., ...}`` validated by pydantic.

Client messages form one discriminated union (:data:`ClientMessage`); :func:`parse`
turns any frame into a message or a :class:`ProtocolError` naming what was wrong.
Server messages are built as plain dicts by the senders and described by the models in
:data:`SERVER_MODELS`, from which ``klaverjas protocol-schema`` generates the JSON Schema;
tests/server/test_protocol_examples.py validates every frame of its session against them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from engine.rules import DEALS_RANGE, PRESETS, TARGET_RANGE, PitBonus, RoemMode, TrumpMode, Variant

from ..core.errors import Refused
from ..core.levels import DEFAULT_LEVEL, LEVELS

MAX_FRAME = 16 * 1024
PROTOCOL_VERSION = 1
MOVE_SECONDS = (5, 120, 30)  # a room's move timer: least, most, default
NAME_LENGTH = 40  # a room's name, at most
BOARD_PAGE = 100  # rows of a board page, at most

RoomId = Annotated[str, Field(min_length=1, max_length=40)]
Seat = Annotated[int, Field(ge=0, le=3)]
Code = Annotated[str, Field(min_length=4, max_length=32)]


class ProtocolError(Refused):
    """A client's frame or command was refused; ``code`` is stable, ``message`` human."""


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    ref: Annotated[str, Field(max_length=64)] | None = None  # echoed in the reply


# -- client messages -------------------------------------------------------------------


class Hello(_Msg):
    type: Literal["hello"]
    nickname: Annotated[str, Field(min_length=1, max_length=24)] | None = None
    token: Annotated[str, Field(min_length=16, max_length=128)] | None = None


class Ping(_Msg):
    type: Literal["ping"]


class LobbySubscribe(_Msg):
    type: Literal["lobby_subscribe"]


class LobbyUnsubscribe(_Msg):
    type: Literal["lobby_unsubscribe"]


def _one_of(choices: Iterable[str]) -> Any:
    """A literal of the engine's own choices (so the protocol never lists them again)."""
    return Literal[tuple(str(c) for c in choices)]


class RulesIn(BaseModel):
    """Rule options: a preset, overridden option by option."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    preset: _one_of(PRESETS) = "amsterdam"  # type: ignore[valid-type]
    variant: _one_of(Variant) | None = None  # type: ignore[valid-type]
    trump_mode: _one_of(TrumpMode) | None = None  # type: ignore[valid-type]
    roem: _one_of(RoemMode) | None = None  # type: ignore[valid-type]
    pit_bonus: _one_of(PitBonus) | None = None  # type: ignore[valid-type]
    target: Annotated[int, Field(ge=TARGET_RANGE[0], le=TARGET_RANGE[1])] | None = None
    deals: Annotated[int, Field(ge=DEALS_RANGE[0], le=DEALS_RANGE[1])] | None = None


class CreateRoom(_Msg):
    type: Literal["create_room"]
    name: Annotated[str, Field(min_length=1, max_length=NAME_LENGTH)] | None = None
    rules: RulesIn = RulesIn()
    move_seconds: Annotated[int, Field(ge=MOVE_SECONDS[0], le=MOVE_SECONDS[1])] = MOVE_SECONDS[2]
    private: bool = False
    seat: Seat | None = 0  # where the creator sits; None to only watch
    rated: bool | None = None  # default: public rooms are rated, private ones not


class TakeSeat(_Msg):
    type: Literal["take_seat"]
    room_id: RoomId | None = None
    invite_code: Code | None = None
    seat: Seat


class LeaveRoom(_Msg):
    type: Literal["leave_room"]
    room_id: RoomId


class AddCpu(_Msg):
    type: Literal["add_cpu"]
    room_id: RoomId
    seat: Seat
    level: _one_of(LEVELS) = DEFAULT_LEVEL  # type: ignore[valid-type]


class RemoveSeat(_Msg):
    type: Literal["remove_seat"]
    room_id: RoomId
    seat: Seat


class Ready(_Msg):
    type: Literal["ready"]
    room_id: RoomId
    ready: bool = True


class Watch(_Msg):
    type: Literal["watch"]
    room_id: RoomId | None = None
    invite_code: Code | None = None


class Act(_Msg):
    type: Literal["act"]
    room_id: RoomId
    action: Annotated[str, Field(min_length=2, max_length=8)]
    version: int | None = None  # if given, refused unless it is the table's version


class Back(_Msg):
    type: Literal["back"]
    room_id: RoomId


class Continue(_Msg):
    """Between two deals: you have seen the last deal's result."""

    type: Literal["continue"]
    room_id: RoomId


class Resume(_Msg):
    type: Literal["resume"]
    room_id: RoomId
    version: Annotated[int, Field(ge=0)] = 0


class Hint(_Msg):
    """The strong CPU's advice for your own decision now (casual rooms only)."""

    type: Literal["hint"]
    room_id: RoomId


class Chat(_Msg):
    type: Literal["chat"]
    room_id: RoomId
    text: Annotated[str, Field(min_length=1, max_length=300)]


class TournamentRegister(_Msg):
    type: Literal["tournament_register"]
    tournament_id: RoomId


class TournamentUnregister(_Msg):
    type: Literal["tournament_unregister"]
    tournament_id: RoomId


class TournamentLeave(_Msg):
    """Abandon a running tournament for good (before the start: unregister)."""

    type: Literal["tournament_leave"]
    tournament_id: RoomId


class TournamentWatch(_Msg):
    type: Literal["tournament_watch"]
    tournament_id: RoomId


class SetNickname(_Msg):
    """Choose your nickname: unique among chosen nicknames, whatever their case."""

    type: Literal["set_nickname"]
    nickname: Annotated[str, Field(min_length=1, max_length=64)]


class NewGame(_Msg):
    """A solo game: you and a CPU partner against two CPUs, started at once."""

    type: Literal["new_game"]
    level: _one_of(LEVELS) = DEFAULT_LEVEL  # type: ignore[valid-type]
    rules: RulesIn = RulesIn()  # neither a target nor a number of deals: STANDARD_DEALS
    move_seconds: Annotated[int, Field(ge=MOVE_SECONDS[0], le=MOVE_SECONDS[1])] = MOVE_SECONDS[2]


class DailyStart(_Msg):
    """Today's daily game: your attempt, new or resumed."""

    type: Literal["daily_start"]


Day = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")]
Offset = Annotated[int, Field(ge=0, le=1_000_000)]
Limit = Annotated[int, Field(ge=1, le=BOARD_PAGE)]


class DailyBoard(_Msg):
    """A day's daily board (today's once you have finished today's game)."""

    type: Literal["daily_board"]
    date: Day | None = None  # default: today (UTC)
    offset: Offset = 0
    limit: Limit = 20


class DailyAlltime(_Msg):
    """The all-time board of the daily game: mean difference from the field a day."""

    type: Literal["daily_alltime"]
    offset: Offset = 0
    limit: Limit = 20


class Review(_Msg):
    """One deal of a finished match, all hands shown, your plays against the solver."""

    type: Literal["review"]
    match_id: RoomId
    deal: Annotated[int, Field(ge=0, le=1000)] = 0


class Rematch(_Msg):
    """Accept a rematch of a finished match you played: same players, seats rotated."""

    type: Literal["rematch"]
    room_id: RoomId


class GetRecord(_Msg):
    type: Literal["get_record"]
    match_id: RoomId


class GetProfile(_Msg):
    """A player's profile (yours by default), with a page of their match history."""

    type: Literal["get_profile"]
    player_id: RoomId | None = None
    offset: Offset = 0
    limit: Limit = 20


class RatingBoard(_Msg):
    """The rating board: players by conservative rating (mu - 3 sigma)."""

    type: Literal["rating_board"]
    offset: Offset = 0
    limit: Limit = 20


# -- score sheets (server/sheet): every command after sheet_create names the sheet by the
# code of its link; a change also names the version it was made on.

SheetName = Annotated[str, Field(min_length=1, max_length=64)]  # the sheet checks it
Team = Annotated[int, Field(ge=0, le=1)]
Count = Annotated[int, Field(ge=-10_000, le=10_000)]  # points or roem: the sheet checks them


class SheetCreate(_Msg):
    """A score sheet for a game played with real cards (you get its two links' codes)."""

    type: Literal["sheet_create"]
    teams: Annotated[list[SheetName], Field(min_length=2, max_length=2)] | None = None
    players: Annotated[list[SheetName], Field(min_length=4, max_length=4)] | None = None
    first_dealer: Seat = 0
    target: Annotated[int, Field(ge=TARGET_RANGE[0], le=TARGET_RANGE[1])] | None = None
    deals: Annotated[int, Field(ge=DEALS_RANGE[0], le=DEALS_RANGE[1])] | None = None
    pit_bonus: _one_of(PitBonus) = "any"  # type: ignore[valid-type]


class SheetOpen(_Msg):
    """Follow a sheet: its edit code (to change it) or its view code (to watch)."""

    type: Literal["sheet_open"]
    code: Code


class SheetLeave(_Msg):
    type: Literal["sheet_leave"]
    code: Code


class SheetChange(_Msg):
    """What every change of a sheet carries."""

    code: Code  # the edit code
    version: Annotated[int, Field(ge=1)]  # the version the change was made on


class SheetDeal(SheetChange):
    """A deal: the playing team, one team's card points (or both), roem, pit."""

    type: Literal["sheet_deal"]
    playing: Team
    points: Annotated[list[Count | None], Field(min_length=2, max_length=2)]
    roem: Annotated[list[Count], Field(min_length=2, max_length=2)] = [0, 0]
    pit: Team | None = None


class SheetEdit(SheetDeal):
    """A correction: the deal ``deal_id`` (its ``id``) reads as given."""

    type: Literal["sheet_edit"]  # type: ignore[assignment]
    deal_id: Annotated[int, Field(ge=1)]


class SheetDelete(SheetChange):
    type: Literal["sheet_delete"]
    deal_id: Annotated[int, Field(ge=1)]


class SheetDealer(SheetChange):
    """Who deals next, corrected."""

    type: Literal["sheet_dealer"]
    seat: Seat


class SheetUndo(SheetChange):
    type: Literal["sheet_undo"]


class SheetRedo(SheetChange):
    type: Literal["sheet_redo"]


class SheetContinue(SheetChange):
    """Play on past the end of the game."""

    type: Literal["sheet_continue"]


class SheetNewGame(SheetChange):
    """Start again with the same names."""

    type: Literal["sheet_new_game"]


SHEET_CHANGES = (
    SheetDeal, SheetEdit, SheetDelete, SheetDealer, SheetUndo, SheetRedo, SheetContinue,
    SheetNewGame,
)  # fmt: skip
# -- club evenings (server/club; client_protocol.md §15) ---------------------------------

EveningName = Annotated[str, Field(min_length=1, max_length=64)]  # the evening checks it
MemberId = Annotated[str, Field(min_length=1, max_length=16)]  # a club's member
Entrant = Annotated[str, Field(min_length=1, max_length=16)]


class SitOutIn(BaseModel):
    """The points for sitting a round out: a fixed number, or the round's lowest or
    average score, or the evening's lowest."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    kind: Literal["fixed", "round_lowest", "evening_lowest", "round_average"] = "round_average"
    points: Annotated[int, Field(ge=0, le=10_000)] = 0


class PrizesIn(BaseModel):
    """Which places win: the top places, then every ``every``-th, at least one prize per
    ``per`` players, and the lowest score (the poedel)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    top: Annotated[int, Field(ge=0, le=100)] = 3
    every: Annotated[int, Field(ge=0, le=100)] = 0
    per: Annotated[int, Field(ge=0, le=100)] = 0
    lowest: bool = True


class EveningCreate(_Msg):
    """A club evening (you organise it: you get its organiser and view codes)."""

    type: Literal["evening_create"]
    name: EveningName
    format: Literal["individual", "pairs"] = "individual"
    rounds: Annotated[int, Field(ge=1, le=12)] = 3
    variant: _one_of(Variant) = "amsterdam"  # type: ignore[valid-type]
    deals: Annotated[int, Field(ge=DEALS_RANGE[0], le=DEALS_RANGE[1])] | None = None
    target: Annotated[int, Field(ge=TARGET_RANGE[0], le=TARGET_RANGE[1])] | None = None
    pit_bonus: _one_of(PitBonus) = "any"  # type: ignore[valid-type]
    sit_out: SitOutIn | None = None
    prizes: PrizesIn | None = None
    club: Code | None = None  # a club's organiser code: the evening is the club's (§16)


class EveningOpen(_Msg):
    """Follow an evening: its organiser code (to run it) or its view code (to watch)."""

    type: Literal["evening_open"]
    code: Code


class EveningLeave(_Msg):
    type: Literal["evening_leave"]
    code: Code


class EveningCommand(_Msg):
    """What every organiser's command carries."""

    code: Code  # the organiser code
    version: Annotated[int, Field(ge=1)]  # the version it was made on


class EveningCheckIn(EveningCommand):
    """A player is here (in a pairs evening: a pair, and its two players' names); at a
    club's evening, a member of the club may be named by ``member`` instead of ``name``."""

    type: Literal["evening_check_in"]
    name: EveningName | None = None
    members: Annotated[list[EveningName], Field(max_length=2)] = []
    member: MemberId | None = None


class EveningWithdraw(EveningCommand):
    type: Literal["evening_withdraw"]
    entrant: Entrant


class EveningDraw(EveningCommand):
    type: Literal["evening_draw"]


class EveningSwap(EveningCommand):
    type: Literal["evening_swap"]
    a: Entrant
    b: Entrant


class EveningUndoDraw(EveningCommand):
    type: Literal["evening_undo_draw"]


class EveningClose(EveningCommand):
    type: Literal["evening_close"]


class EveningPenalty(EveningCommand):
    """A player's own penalty (a revoke), in ``round`` (by default the latest)."""

    type: Literal["evening_penalty"]
    entrant: Entrant
    points: Annotated[int, Field(ge=1, le=1000)]
    round: Annotated[int, Field(ge=1, le=12)] | None = None


EVENING_COMMANDS = (
    EveningCheckIn, EveningWithdraw, EveningDraw, EveningSwap, EveningUndoDraw, EveningClose,
    EveningPenalty,
)  # fmt: skip
# -- clubs and seasons (server/club; client_protocol.md §16) ------------------------------

ClubName = Annotated[str, Field(min_length=1, max_length=64)]  # the club checks it
SmallCount = Annotated[int, Field(ge=0, le=100)]


class ClubCreate(_Msg):
    """A club (you found it: you get its organiser and view codes)."""

    type: Literal["club_create"]
    name: ClubName


class ClubOpen(_Msg):
    """Follow a club: an organiser's code (to run it) or its view code (to watch)."""

    type: Literal["club_open"]
    code: Code


class ClubLeave(_Msg):
    type: Literal["club_leave"]
    code: Code


class ClubCommand(_Msg):
    """What every organiser's command carries."""

    code: Code  # an organiser's code
    version: Annotated[int, Field(ge=1)]  # the version it was made on


class ClubOrganiserAdd(ClubCommand):
    """A co-organiser, with a code of their own."""

    type: Literal["club_organiser_add"]
    name: ClubName


class ClubOrganiserRevoke(ClubCommand):
    type: Literal["club_organiser_revoke"]
    organiser: MemberId


class ClubMemberAdd(ClubCommand):
    type: Literal["club_member_add"]
    name: ClubName
    player: RoomId | None = None  # a player's id, to link the member to that identity


class ClubMemberRename(ClubCommand):
    type: Literal["club_member_rename"]
    member: MemberId
    name: ClubName


class ClubMemberRemove(ClubCommand):
    type: Literal["club_member_remove"]
    member: MemberId


class ClubSeason(ClubCommand):
    """The season's rule: the best ``best`` evenings, or all but the lowest ``drop``,
    summed or averaged, within periods of ``period_length`` evenings or from the
    ``period_starts`` dates (the best ``best_periods`` of them), ``minimum`` evenings to
    be ranked, and the prizes."""

    type: Literal["club_season"]
    best: Annotated[int, Field(ge=1, le=100)] | None = None
    drop: SmallCount = 0
    average: bool = False
    period_length: SmallCount = 0
    period_starts: Annotated[list[Day], Field(max_length=60)] = []
    best_periods: Annotated[int, Field(ge=1, le=100)] | None = None
    minimum: SmallCount = 0
    prizes: PrizesIn = PrizesIn()


CLUB_COMMANDS = (
    ClubOrganiserAdd, ClubOrganiserRevoke, ClubMemberAdd, ClubMemberRename, ClubMemberRemove,
    ClubSeason,
)  # fmt: skip


CLIENT_MODELS: tuple[type[_Msg], ...] = (
    Hello, Ping, LobbySubscribe, LobbyUnsubscribe, CreateRoom, TakeSeat, LeaveRoom, AddCpu,
    RemoveSeat, Ready, Watch, Act, Back, Continue, Resume, Chat, Hint, GetRecord, SetNickname,
    NewGame,
    DailyStart, DailyBoard, DailyAlltime, Review, Rematch, TournamentRegister,
    TournamentUnregister, TournamentLeave, TournamentWatch, GetProfile, RatingBoard,
    SheetCreate, SheetOpen, SheetLeave, *SHEET_CHANGES,
    EveningCreate, EveningOpen, EveningLeave, *EVENING_COMMANDS,
    ClubCreate, ClubOpen, ClubLeave, *CLUB_COMMANDS,
)  # fmt: skip
ClientMessage = Annotated[Union[CLIENT_MODELS], Field(discriminator="type")]  # noqa: UP007
_CLIENT = TypeAdapter(ClientMessage)
CLIENT_TYPES = frozenset(
    m.model_fields["type"].annotation.__args__[0]  # type: ignore[union-attr]
    for m in CLIENT_MODELS
)


def parse(frame: str | bytes) -> Any:
    """A frame to a client message, or :class:`ProtocolError` saying what was wrong."""
    if isinstance(frame, bytes):
        raise ProtocolError("binary_frame", "frames must be JSON text, not binary")
    if len(frame) > MAX_FRAME or len(frame.encode()) > MAX_FRAME:
        raise ProtocolError("frame_too_large", f"frames are limited to {MAX_FRAME} bytes")
    try:
        data = json.loads(frame)
    except json.JSONDecodeError as err:
        raise ProtocolError("bad_json", f"malformed JSON: {err.msg} at {err.pos}") from None
    except RecursionError:
        raise ProtocolError("bad_json", "malformed JSON: nested too deeply") from None
    except ValueError as err:  # e.g. an integer literal past Python's digit limit
        raise ProtocolError("bad_json", f"malformed JSON: {str(err)[:80]}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "a message needs a string 'type'")
    if kind not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {kind[:32]!r}")
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as err:
        first = err.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise ProtocolError("invalid_field", f"{where}: {first['msg']}") from None


# -- server messages (documentation and schema) ----------------------------------------


class Welcome(_Msg):
    type: Literal["welcome"]
    protocol: int
    player_id: str
    nickname: str
    token: str | None = Field(None, description="Only when a new identity was created.")
    rooms: list[dict[str, Any]] = Field(description="Rooms where this player is seated.")
    node: str | None = Field(None, description="The server's id, when the cluster routes.")


class RouteOut(_Msg):
    """Where a room or tournament just joined runs, when that is another server."""

    type: Literal["route"]
    room_id: str | None = Field(None, description="The room (or else tournament_id).")
    tournament_id: str | None = None
    node: str = Field(description="The server that runs it.")
    path: str = Field(description="The path that reaches it on this site.")


class ErrorMsg(_Msg):
    type: Literal["error"]
    code: str
    message: str
    retry_after: float | None = Field(
        None, description="Seconds to wait before sending it again: only for our faults."
    )


class Pong(_Msg):
    type: Literal["pong"]


class Lobby(_Msg):
    type: Literal["lobby"]
    rooms: list[dict[str, Any]]
    tournaments: list[dict[str, Any]] = Field(description="Upcoming and running tournaments.")
    online: int = Field(description="Players connected (to any server of the lobby).")


class LobbyPresence(_Msg):
    type: Literal["lobby_presence"]
    online: int


class LobbyTournament(_Msg):
    type: Literal["lobby_tournament"]
    tournament: dict[str, Any]


class LobbyTournamentGone(_Msg):
    type: Literal["lobby_tournament_gone"]
    tournament_id: str


class TournamentStatus(_Msg):
    """A tournament changed: to its registered players, its watchers and who left it."""

    type: Literal["tournament"]
    tournament: dict[str, Any]


class LobbyRoom(_Msg):
    type: Literal["lobby_room"]
    room: dict[str, Any]


class LobbyRoomGone(_Msg):
    type: Literal["lobby_room_gone"]
    room_id: str


class Snapshot(_Msg):
    type: Literal["snapshot"]
    room_id: str
    version: int
    room: dict[str, Any]
    seat: int | None
    invite_code: str | None = Field(None, description="To seated players and the owner.")
    view: dict[str, Any] | None
    deadline: float | None
    chat: list[dict[str, Any]] = Field(description="The room's last chat lines, oldest first.")
    recent: list[dict[str, Any]] = Field(
        description="The updates of the current deal so far, as this seat saw them."
    )


class Update(_Msg):
    type: Literal["update"]
    room_id: str
    version: int
    kind: str
    seat: int | None = Field(None, description="The seat an act, away, seat or ready is about.")
    room: dict[str, Any] | None = None
    events: list[dict[str, Any]] = []
    turn: int | None = None
    legal: list[str] = []
    why_not: dict[str, dict[str, str]] = Field(
        {}, description="With legal: why each card of your hand you may not play is refused."
    )
    deadline: float | None = None
    by: str | None = None


class ChatOut(_Msg):
    type: Literal["chat"]
    room_id: str
    player_id: str
    nickname: str
    text: str
    at: float


class HintOut(_Msg):
    """The reply to ``hint``, to the asking connection only."""

    type: Literal["hint"]
    room_id: str
    version: int = Field(description="The room's version the advice is for.")
    seat: int
    action: str
    reason: str
    why: dict[str, Any] = Field(description="The reason as data: its kind and its parts.")
    values: dict[str, float] = Field(description="Each legal action's expected value.")


class Record(_Msg):
    type: Literal["record"]
    match_id: str
    record: dict[str, Any]


class DailyBoardOut(_Msg):
    """A day's board of the daily game (``deals`` and ``best`` for past days only)."""

    type: Literal["daily_board"]
    date: str
    players: int = Field(description="Finished games of the day.")
    offset: int
    field: list[dict[str, Any]] = Field(description="Each deal's players and mean points.")
    rows: list[dict[str, Any]]
    you: dict[str, Any] | None
    streak: int | None
    deals: list[dict[str, Any]] | None = None
    best: list[dict[str, Any]] | None = None


class RematchOut(_Msg):
    """A rematch was accepted: to every player of the match, wherever connected."""

    type: Literal["rematch"]
    room_id: str = Field(description="The finished match's room.")
    accepted: list[str] = Field(description="The players who accepted (ids).")
    waiting: list[str] = Field(description="The players still to accept (ids).")
    new_room_id: str | None = Field(description="The new table, once everyone accepted.")


class ReviewOut(_Msg):
    """The reply to ``review``: a finished deal and the reviewer's plays, solved."""

    type: Literal["review"]
    match_id: str
    seat: int | None = Field(description="Your seat in the match; null if you did not play.")
    number: int
    deals: int
    deal: dict[str, Any] = Field(description="The deal record: hands, plays, tricks, result.")
    plays: list[dict[str, Any]]
    bids: list[dict[str, Any]] = Field(description="Your trump choices, valued.")


class NicknameOut(_Msg):
    """The reply to ``set_nickname``: the nickname you now have."""

    type: Literal["nickname"]
    player_id: str
    nickname: str


class ProfileOut(_Msg):
    """The reply to ``get_profile``."""

    type: Literal["profile"]
    player_id: str
    nickname: str
    matches: int
    wins: int
    deals: int
    points: int
    points_per_deal: float | None
    chooser_deals: int
    nat: int
    pits: int
    roem: int
    rating: dict[str, Any] | None = Field(description="Null before a first rated match.")
    rating_history: list[dict[str, Any]] = Field(description="The latest first.")
    tournaments: dict[str, Any]
    offset: int
    history: list[dict[str, Any]] = Field(description="Matches, the latest first.")


class RatingBoardOut(_Msg):
    type: Literal["rating_board"]
    min_matches: int
    players: int
    offset: int
    rows: list[dict[str, Any]]
    you: dict[str, Any] | None


class SheetOut(_Msg):
    """A score sheet, to a phone that made or opened it (see client_protocol.md §14)."""

    type: Literal["sheet"]
    sheet_id: str
    version: int
    role: Literal["edit", "view"]
    codes: dict[str, str] = Field(description="The view code; the edit code for editors.")
    sheet: dict[str, Any] = Field(description="The sheet's summary.")
    history: list[dict[str, Any]] = Field(description="Every change, in words, oldest first.")


class SheetUpdateOut(_Msg):
    """A new version of a sheet, to every phone that follows it."""

    type: Literal["sheet_update"]
    sheet_id: str
    version: int
    sheet: dict[str, Any]
    change: dict[str, Any] | None = Field(None, description="The change, as a history line.")
    ref: str | None = Field(None, description="In the sender's copy: its change's ref.")
    history: list[dict[str, Any]] | None = Field(
        None, description="All of it instead, after the sheet moved to another server."
    )


class DailyAlltimeOut(_Msg):
    type: Literal["daily_alltime"]
    min_days: int
    players: int
    offset: int
    rows: list[dict[str, Any]]


class EveningOut(_Msg):
    """A club evening as it stands, to every phone and screen that follows it, after each
    change (see client_protocol.md §15)."""

    type: Literal["evening"]
    evening_id: str
    version: int
    role: Literal["organiser", "view"]
    codes: dict[str, str] = Field(description="The view code; the organiser code for organisers.")
    evening: dict[str, Any] = Field(description="Settings, entrants, the rounds drawn.")
    tables: list[dict[str, Any]] = Field(description="The open round's tables and their sheets.")
    standing: dict[str, Any] | None = Field(description="The standing so far (individual).")
    fairness: dict[str, Any] = Field(description="Repeated partners, opponents, sit-outs.")


class ClubOut(_Msg):
    """A club as it stands, to every phone and screen that follows it, after each change
    (see client_protocol.md §16)."""

    type: Literal["club"]
    club_id: str
    version: int
    role: Literal["organiser", "view"]
    organiser: str | None = Field(description="The follower's organiser id (null: a watcher).")
    codes: dict[str, str] = Field(description="The view code; the organiser's own too.")
    name: str
    organisers: list[dict[str, Any]] = Field(description="Ids, names; codes to some.")
    members: list[dict[str, Any]] = Field(description="Ids, names, linked players.")
    evenings: list[dict[str, Any]] = Field(description="The club's evenings, in order made.")
    season: dict[str, Any] = Field(description="The season's rule and prize rule.")
    standing: dict[str, Any] = Field(description="The season's standing, with histories.")


SERVER_MODELS: tuple[type[_Msg], ...] = (
    Welcome, ErrorMsg, Pong, Lobby, LobbyRoom, LobbyRoomGone, Snapshot, Update, ChatOut, HintOut,
    Record, LobbyTournament, LobbyTournamentGone, TournamentStatus, LobbyPresence, NicknameOut,
    DailyBoardOut, DailyAlltimeOut, ReviewOut, RematchOut, ProfileOut, RatingBoardOut, SheetOut,
    SheetUpdateOut, RouteOut, EveningOut, ClubOut,
)  # fmt: skip
ServerMessage = Annotated[Union[SERVER_MODELS], Field(discriminator="type")]  # noqa: UP007


def json_schema() -> dict[str, Any]:
    """The JSON Schema of both directions, generated from the models."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "klaverjas protocol",
        "version": PROTOCOL_VERSION,
        "client": TypeAdapter(ClientMessage).json_schema(),
        "server": TypeAdapter(ServerMessage).json_schema(),
    }
