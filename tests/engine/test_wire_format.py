"""Views and events as the wire carries them (client_protocol.md, "game" and "Events").

A watcher follows each match from the actions alone, by the rules of DESIGN.md §1: the
bids, the tricks (who wins them and what they are worth), the score of each deal.  Every
view and every event, as each seat and a spectator receive them, must say exactly that.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine import Action, Kind, Match, Rules, parse_card
from engine.trick import roem as trick_roem
from engine.views import project, view

pytestmark = pytest.mark.engine

SUITS, RANKS = "cdhs", "789TJQKA"
PLAIN_POINTS = dict(zip(RANKS, (0, 0, 0, 10, 2, 3, 4, 11), strict=True))
TRUMP_POINTS = dict(zip(RANKS, (0, 0, 14, 10, 20, 3, 4, 11), strict=True))
PLAIN_HIGH, TRUMP_HIGH = "ATKQJ987", "J9ATKQ87"
WHO = (0, 1, 2, 3, None)


def text(card: int) -> str:
    return RANKS[card % 8] + SUITS[card // 8]


def hand_texts(mask: int) -> list[str]:
    """A hand by suit (c d h s), then rank (7 to A)."""
    return [text(c) for c in sorted(c for c in range(32) if mask >> c & 1)]


def points(card: int, trump: int) -> int:
    table = TRUMP_POINTS if card // 8 == trump else PLAIN_POINTS
    return table[RANKS[card % 8]]


def winner(plays: list[tuple[int, int]], trump: int) -> int:
    """The highest trump takes the trick, else the highest card of the suit led."""
    led = plays[0][1] // 8
    trumps = [(s, c) for s, c in plays if c // 8 == trump]
    if trumps:
        return min(trumps, key=lambda sc: TRUMP_HIGH.index(RANKS[sc[1] % 8]))[0]
    followers = [(s, c) for s, c in plays if c // 8 == led]
    return min(followers, key=lambda sc: PLAIN_HIGH.index(RANKS[sc[1] % 8]))[0]


def roem_parts(cards: list[int], trump: int) -> dict[str, int]:
    """A trick's roem by kind: its run (20, 50), four of a kind, and stuk."""
    run = 0
    for suit in range(4):
        ranks = {c % 8 for c in cards if c // 8 == suit}
        for start in ranks:
            length = 1
            while start + length in ranks:
                length += 1
            run = max(run, 50 if length >= 4 else 20 if length == 3 else 0)
    same = len({c % 8 for c in cards}) == 1
    four = {"J": 200, "A": 100, "T": 100, "K": 100, "Q": 100}.get(RANKS[cards[0] % 8], 0)
    stuk = {trump * 8 + RANKS.index("K"), trump * 8 + RANKS.index("Q")} <= set(cards)
    return {"run": run, "four": four if same else 0, "stuk": 20 if stuk else 0}


def roem_cards(cards: list[int], trump: int, parts: dict[str, int]) -> list[str]:
    """The cards behind a trick's roem, in play order: a run's (three or four of one suit
    in a row of the natural order), all four of a kind, the trump king and queen (stuk)."""
    marked: set[int] = set(cards) if parts["four"] else set()
    if parts["run"]:
        length = 4 if parts["run"] == 50 else 3
        for c in cards:
            streak = {c + i for i in range(length)}
            if len({x // 8 for x in streak}) == 1 and streak <= set(cards):
                marked |= streak
    if parts["stuk"]:
        marked |= {trump * 8 + RANKS.index("K"), trump * 8 + RANKS.index("Q")}
    return [text(c) for c in cards if c in marked]


@dataclass
class Watcher:
    """What anyone at the table knows of the current deal, from the actions alone."""

    rules: Rules
    dealer: int
    number: int = 0
    bids: list[str] = field(default_factory=list)
    trump: int | None = None
    chooser: int | None = None
    leader: int = 0
    trick: list[tuple[int, int]] = field(default_factory=list)
    tricks: list[dict[str, Any]] = field(default_factory=list)
    won: list[int] = field(default_factory=lambda: [0, 0])
    points: list[int] = field(default_factory=lambda: [0, 0])
    roem: list[int] = field(default_factory=lambda: [0, 0])
    totals: list[int] = field(default_factory=lambda: [0, 0])
    sheet: list[dict[str, Any]] = field(default_factory=list)
    pending: bool = False

    def __post_init__(self) -> None:
        self.leader = (self.dealer + 1) % 4

    def next_deal(self) -> None:
        self.number += 1
        self.dealer = (self.dealer + 1) % 4
        self.bids, self.trump, self.chooser, self.trick, self.tricks = [], None, None, [], []
        self.won, self.points, self.roem = [0, 0], [0, 0], [0, 0]
        self.leader = (self.dealer + 1) % 4

    def expected_events(self, seat: int, action: Action) -> list[dict[str, Any]]:
        """The events of ``action`` up to the deal's end (deal_ended and after apart)."""
        kind = action.kind
        if kind is Kind.PASS:
            self.bids.append("pass")
            return [{"type": "passed", "seat": seat}]
        if kind is Kind.TRUMP:
            self.bids.append(f"trump:{SUITS[action.value]}")
            self.trump, self.chooser = action.value, seat
            return [{"type": "trump_chosen", "seat": seat, "suit": SUITS[action.value]}]
        if kind in (Kind.TAKE, Kind.LEAVE):
            last = self.tricks[-1]
            take = kind is Kind.TAKE
            event = {"type": "roem_decided", "seat": seat, "take": take, "roem": last["roem"]}
            if take:
                self.roem[last["winner"] % 2] += last["roem"]
            else:
                last["roem"] = 0
            self.pending = False
            return [event]
        assert self.trump is not None
        self.trick.append((seat, action.value))
        events = [{"type": "card_played", "seat": seat, "card": text(action.value)}]
        if len(self.trick) < 4:
            return events
        cards = [c for _, c in self.trick]
        taker = winner(self.trick, self.trump)
        worth = sum(points(c, self.trump) for c in cards)
        roem = trick_roem(cards, self.trump)
        self.pending = bool(roem) and self.rules.roem == "claim"
        trick = {
            "leader": self.leader,
            "cards": [text(c) for c in cards],
            "winner": taker,
            "points": worth,
            "roem": roem,
        }
        self.tricks.append(trick)
        self.points[taker % 2] += worth
        self.won[taker % 2] += 1
        if not self.pending:
            self.roem[taker % 2] += roem
        self.leader, self.trick = taker, []
        parts = roem_parts(cards, self.trump)
        assert sum(parts.values()) == roem
        events.append(
            {
                "type": "trick_taken",
                "number": len(self.tricks),
                **trick,
                "roem_parts": parts,
                "roem_cards": roem_cards(cards, self.trump, parts),
                "roem_pending": self.pending,
            }
        )
        return events

    def deal_over(self) -> bool:
        return len(self.tricks) == 8 and not self.pending

    def deal_ended(self) -> dict[str, Any]:
        """The score of the deal by the rules: last trick 10, pit 100, nat."""
        assert self.trump is not None and self.chooser is not None
        self.points[self.tricks[-1]["winner"] % 2] += 10  # the last trick's
        card_points = list(self.points)
        playing = self.chooser % 2
        pit = 0 if self.won[0] == 8 else 1 if self.won[1] == 8 else None
        roem, bonus = list(self.roem), [0, 0]
        if pit is not None and (self.rules.pit_bonus == "any" or pit == playing):
            roem[pit] += 100
            bonus[pit] = 100
        own = card_points[playing] + roem[playing]
        other = card_points[1 - playing] + roem[1 - playing]
        nat = own <= other
        score = [card_points[0] + roem[0], card_points[1] + roem[1]]
        if nat:
            score[playing], score[1 - playing] = 0, 162 + roem[0] + roem[1]
        self.totals = [self.totals[0] + score[0], self.totals[1] + score[1]]
        line = {
            "number": self.number,
            "dealer": self.dealer,
            "trump": SUITS[self.trump],
            "chooser": self.chooser,
            "card_points": card_points,
            "roem": roem,
            "nat": nat,
            "pit": pit,
            "score": score,
            "bonus": bonus,
        }
        self.sheet.append(line)
        return {"type": "deal_ended", **line, "totals": list(self.totals)}

    def shown(self, trick: dict[str, Any]) -> dict[str, Any]:
        """A finished trick in a view: its roem by kind, all 0 once the roem was left."""
        assert self.trump is not None
        cards = [parse_card(c) for c in trick["cards"]]
        parts = (
            roem_parts(cards, self.trump)
            if trick["roem"]
            else dict.fromkeys(("run", "four", "stuk"), 0)
        )
        return {**trick, "roem_parts": parts, "roem_cards": roem_cards(cards, self.trump, parts)}

    def refused(self, match: Match, who: int | None) -> set[str]:
        """The cards of ``who``'s hand it may not play now, when it is to play into a trick
        under way (``why_not``'s cards; tests/engine/test_refusals.py holds their reasons)."""
        if who is None or match.over or match.turn != who or self.pending or not self.trick:
            return set()
        legal = {str(a) for a in match.legal_actions()}
        return set(hand_texts(match.deal.hands[who])) - legal

    def game(self, match: Match, who: int | None) -> dict[str, Any]:
        """The ``game`` object of a snapshot, field by field as the protocol lists them
        (``why_not`` aside: see :meth:`refused`)."""
        deal, over = match.deal, match.winner is not None
        mine = who is not None and not over and match.turn == who
        left = (self.dealer + 1) % 4  # of the dealer: speaks first unless the dealer must
        return {
            "seat": who,
            "rules": {
                "variant": self.rules.variant.value,
                "trump_mode": self.rules.trump_mode.value,
                "roem": self.rules.roem.value,
                "pit_bonus": self.rules.pit_bonus.value,
                "end": self.rules.end.value,
                "end_value": self.rules.end_value,
            },
            "phase": "done"
            if over
            else "claim"
            if self.pending
            else "trump"
            if self.trump is None
            else "play",
            "deal_number": self.number,
            "dealer": self.dealer,
            "turn": None if over else match.turn,
            "hand": hand_texts(deal.hands[who]) if who is not None else [],
            "hand_sizes": [bin(h).count("1") for h in deal.hands],
            "legal": [str(a) for a in match.legal_actions()] if mine else [],
            "turned": text(deal.turned) if deal.turned is not None else None,
            "bids": list(self.bids),
            "first_bidder": self.dealer if self.rules.trump_mode == "dealer" else left,
            "trump": SUITS[self.trump] if self.trump is not None else None,
            "chooser": self.chooser,
            "leader": self.leader,
            "trick": [text(c) for _, c in self.trick],
            "tricks": [self.shown(t) for t in self.tricks],
            "points": list(self.points),
            "roem": list(self.roem),
            "totals": list(self.totals),
            "sheet": [dict(line) for line in self.sheet],
            "winner": match.winner,
        }


def deal_started(match: Match, number: int, who: int | None) -> dict[str, Any]:
    deal = match.deal
    return {
        "type": "deal_started",
        "number": number,
        "dealer": deal.dealer,
        "hand": hand_texts(deal.dealt[who]) if who is not None else [],
        "hand_sizes": [8, 8, 8, 8],
        "turned": text(deal.turned) if deal.turned is not None else None,
    }


RULES = [
    Rules(trump_mode="turned", roem="claim", end="deals", end_value=2),
    Rules(trump_mode="bidding", end="deals", end_value=2),
    Rules(
        variant="rotterdam",
        trump_mode="forced",
        roem="claim",
        pit_bonus="playing",
        end="deals",
        end_value=1,
    ),
    Rules(trump_mode="dealer", end="target", end_value=100),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.trump_mode}-{r.roem}-{r.end}")
@pytest.mark.parametrize("seed", [3, 14])
def test_views_and_events_say_what_happened(rules: Rules, seed: int) -> None:
    match = Match(rules, seed, first_dealer=seed % 4)
    watcher = Watcher(rules, dealer=seed % 4)
    rng = random.Random(seed)
    start = match.start_event()
    for who in WHO:
        assert project(start, who) == deal_started(match, 0, who)
    while True:
        for who in WHO:
            shown = view(match, who).to_dict()
            assert set(shown.pop("why_not")) == watcher.refused(match, who), f"refused to {who}"
            assert shown == watcher.game(match, who), f"view of {who}"
        if match.over:
            break
        seat, legal = match.turn, match.legal_actions()
        action = legal[int(rng.random() * len(legal))]
        events = match.apply(seat, action)
        expected = watcher.expected_events(seat, action)
        if watcher.deal_over():
            expected.append(watcher.deal_ended())
            totals = watcher.totals
            if totals[0] != totals[1] and (
                watcher.number + 1 >= rules.end_value
                if rules.end == "deals"
                else max(totals) >= rules.end_value
            ):
                best = 0 if totals[0] > totals[1] else 1
                expected.append({"type": "match_ended", "totals": totals, "winner": best})
                assert match.winner == best
            else:
                watcher.next_deal()
        for who in WHO:
            projected = [project(event, who) for event in events]
            if not match.over and len(projected) == len(expected) + 1:
                expected_here = [*expected, deal_started(match, watcher.number, who)]
            else:
                expected_here = expected
            assert projected == expected_here, f"events for {who} after {action} by {seat}"
    assert watcher.sheet and match.over
