"""An independent referee for scoring and match ends, written from DESIGN.md §1.

It reads the public event stream (the JSON a spectator is sent) and card text only, and
shares no code with the engine: no tables, masks or engine imports.  Every number an event
states (trick winner, points, roem and its parts, deal scores, totals, the winner) is worked
out here from the rules as written; a difference raises AssertionError.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

TRUMP_ORDER = "J9ATKQ87"  # high to low
PLAIN_ORDER = "ATKQJ987"
NATURAL_ORDER = "AKQJT987"  # runs use this order whatever the trump
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
FOUR_OF_A_KIND = {"J": 200, "A": 100, "T": 100, "K": 100, "Q": 100, "9": 0, "8": 0, "7": 0}
LAST_TRICK = 10
DEAL_POINTS = 162
PIT_BONUS = 100


def card_points(card: str, trump: str) -> int:
    return (TRUMP_POINTS if card[1] == trump else PLAIN_POINTS)[card[0]]


def winning_index(cards: list[str], trump: str) -> int:
    """The highest trump takes the trick, else the highest card of the suit led."""
    trumps = [i for i, c in enumerate(cards) if c[1] == trump]
    if trumps:
        return min(trumps, key=lambda i: TRUMP_ORDER.index(cards[i][0]))
    led = [i for i, c in enumerate(cards) if c[1] == cards[0][1]]
    return min(led, key=lambda i: PLAIN_ORDER.index(cards[i][0]))


def roem_parts(cards: list[str], trump: str) -> dict[str, int]:
    """A trick's roem by kind: a run of three (20) or four (50) in one suit in natural order,
    four of a kind (jacks 200; aces, tens, kings, queens 100), stuk (trump K and Q: 20)."""
    longest = 0
    for suit in "cdhs":
        places = sorted(NATURAL_ORDER.index(c[0]) for c in cards if c[1] == suit)
        streak = 0
        for i, place in enumerate(places):
            streak = streak + 1 if i and place == places[i - 1] + 1 else 1
            longest = max(longest, streak)
    run = 50 if longest >= 4 else 20 if longest == 3 else 0
    ranks = {c[0] for c in cards}
    four = FOUR_OF_A_KIND[cards[0][0]] if len(ranks) == 1 else 0
    stuk = 20 if {"K" + trump, "Q" + trump} <= set(cards) else 0
    return {"run": run, "four": four, "stuk": stuk}


def roem_cards(cards: list[str], trump: str, parts: dict[str, int]) -> list[str]:
    """The cards behind a trick's roem ``parts``, in play order: the run's (three or four of
    one suit in a row of the natural order), all four of a kind, stuk's trump K and Q."""
    marked = set(cards) if parts["four"] else set()
    if parts["run"]:
        length = 4 if parts["run"] == 50 else 3
        for suit in "cdhs":
            for start in range(len(NATURAL_ORDER) - length + 1):
                run = {rank + suit for rank in NATURAL_ORDER[start : start + length]}
                if run <= set(cards):
                    marked |= run
    if parts["stuk"]:
        marked |= {"K" + trump, "Q" + trump}
    return [c for c in cards if c in marked]


def deal_score(
    chooser: int, won: list[int], points: list[int], roem: list[int], pit_bonus: str
) -> dict[str, Any]:
    """A finished deal's ``deal_ended`` fields from tricks won, card points (last trick
    included) and roem scored, per team."""
    playing = chooser % 2
    other = 1 - playing
    pit = 0 if won[0] == 8 else 1 if won[1] == 8 else None
    bonus = [0, 0]
    if pit is not None and (pit_bonus == "any" or pit == playing):
        bonus[pit] = PIT_BONUS
    nat = not points[playing] + roem[playing] > points[other] + roem[other]
    if nat:
        score = [0, 0]
        score[other] = DEAL_POINTS + roem[0] + roem[1] + bonus[0] + bonus[1]
    else:
        score = [points[t] + roem[t] + bonus[t] for t in (0, 1)]
    return {
        "card_points": list(points),
        "roem": [roem[t] + bonus[t] for t in (0, 1)],
        "nat": nat,
        "pit": pit,
        "score": score,
        "bonus": bonus,
    }


def match_over(rules: dict[str, Any], totals: list[int], deals: int) -> bool:
    """After a deal: a team reached the target (or N deals were played) and the totals differ."""
    if totals[0] == totals[1]:
        return False
    if rules["end"] == "target":
        return max(totals) >= rules["end_value"]
    return deals >= rules["end_value"]


@dataclass
class Referee:
    """Follows one match's events and checks each against the rules."""

    rules: dict[str, Any]  # as ``Rules.to_dict()``
    first_dealer: int = 0
    totals: list[int] = field(default_factory=lambda: [0, 0])
    history: list[dict[str, Any]] = field(default_factory=list)  # deal_ended, as expected
    winner: int | None = None
    expect: str = "deal_started"
    tricks: list[dict[str, Any]] = field(default_factory=list)  # this deal's, as a view shows
    deal: dict[str, Any] = field(default_factory=dict)

    @property
    def over(self) -> bool:
        return self.expect == "nothing"

    def feed(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        phase = {"passed": "trump", "trump_chosen": "trump", "card_played": "play"}.get(kind, kind)
        assert phase == self.expect, f"{kind} while expecting {self.expect}: {event}"
        getattr(self, "_" + kind)(event)

    def _deal_started(self, e: dict[str, Any]) -> None:
        number = len(self.history)
        assert e["number"] == number
        assert e["dealer"] == (self.first_dealer + number) % 4, "the dealer moves clockwise"
        assert e["hand_sizes"] == [8, 8, 8, 8], "eight cards each"
        self.deal = {
            "dealer": e["dealer"],
            "leader": (e["dealer"] + 1) % 4,  # left of the dealer leads the first trick
            "trick": [],
            "won": [0, 0],
            "points": [0, 0],
            "roem": [0, 0],
        }
        self.tricks = []
        self.expect = "trump"

    def _passed(self, e: dict[str, Any]) -> None:
        pass

    def _trump_chosen(self, e: dict[str, Any]) -> None:
        self.deal |= {"trump": e["suit"], "chooser": e["seat"]}
        self.expect = "play"

    def _card_played(self, e: dict[str, Any]) -> None:
        d = self.deal
        assert e["seat"] == (d["leader"] + len(d["trick"])) % 4, "seats play in turn"
        d["trick"].append(e["card"])
        if len(d["trick"]) == 4:
            self.expect = "trick_taken"

    def _trick_taken(self, e: dict[str, Any]) -> None:
        d, trump = self.deal, self.deal["trump"]
        cards = d["trick"]
        winner = (d["leader"] + winning_index(cards, trump)) % 4
        parts = roem_parts(cards, trump)
        roem = sum(parts.values())
        pending = self.rules["roem"] == "claim" and roem > 0
        trick = {
            "leader": d["leader"],
            "cards": cards,
            "winner": winner,
            "points": sum(card_points(c, trump) for c in cards),
            "roem": roem,
            "roem_parts": parts,
            "roem_cards": roem_cards(cards, trump, parts),
        }
        number = len(self.tricks) + 1
        expected = {"type": "trick_taken", "number": number, **trick, "roem_pending": pending}
        assert e == expected, f"trick {number}: got {e}, expected {expected}"
        self.tricks.append(trick)
        team = winner % 2
        d["won"][team] += 1
        d["points"][team] += trick["points"]
        d["leader"], d["trick"] = winner, []
        if pending:
            self.expect = "roem_decided"
            return
        d["roem"][team] += roem
        self._after_trick()

    def _roem_decided(self, e: dict[str, Any]) -> None:
        last = self.tricks[-1]
        assert e["seat"] == last["winner"], "the trick's winner takes or leaves its roem"
        assert e["roem"] == last["roem"]
        if e["take"]:
            self.deal["roem"][last["winner"] % 2] += last["roem"]
        else:
            none = {"run": 0, "four": 0, "stuk": 0}
            self.tricks[-1] = last | {"roem": 0, "roem_parts": none, "roem_cards": []}
        self._after_trick()

    def _after_trick(self) -> None:
        self.expect = "deal_ended" if len(self.tricks) == 8 else "play"

    def _deal_ended(self, e: dict[str, Any]) -> None:
        d = self.deal
        points = list(d["points"])
        points[self.tricks[-1]["winner"] % 2] += LAST_TRICK
        line = {
            "number": len(self.history),
            "dealer": d["dealer"],
            "trump": d["trump"],
            "chooser": d["chooser"],
            **deal_score(d["chooser"], d["won"], points, d["roem"], self.rules["pit_bonus"]),
        }
        self.totals = [self.totals[t] + line["score"][t] for t in (0, 1)]
        self.history.append(line | {"totals": list(self.totals)})
        expected = {"type": "deal_ended", **line, "totals": self.totals}
        assert e == expected, f"deal {line['number']}: got {e}, expected {expected}"
        over = match_over(self.rules, self.totals, len(self.history))
        self.expect = "match_ended" if over else "deal_started"

    def _match_ended(self, e: dict[str, Any]) -> None:
        self.winner = 0 if self.totals[0] > self.totals[1] else 1
        assert e == {"type": "match_ended", "totals": self.totals, "winner": self.winner}
        self.expect = "nothing"
