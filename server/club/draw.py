"""The draw of a club evening: each round's tables, partners and sit-outs, or the movement
of fixed pairs (issue 35, item 3).  Pure: the same seed, players and rounds played give the
same draw, so anyone can draw it again and compare.

**Individual evenings** (:func:`draw_individual`).  Each round ``N mod 4`` of the ``N``
players present sit out and the others play at tables of four, seats 0 and 2 against 1 and
3, seat 0 dealing first.  What the draw seeks, in order:

1. Sit-outs rotate, a hard rule: a round's sit-outs are the players who missed the fewest
   rounds so far, where a round missed is one sat out *or not yet arrived*, so a late
   arrival sits out only after everyone who played every round has sat out as often ("rounds
   played" fairness).  Hence nobody sits out twice before everyone present has sat out once,
   and among the players present all evening the sit-outs differ by at most one.  (Held above
   partners because it is always possible and a club counts it most.)
2. Never a ``never_partners`` pair, and no partner twice, counting the rounds played; where
   a repeat cannot be avoided, the fewest, scored as the sum over pairs of ``C(times, 2)``
   (as count squared: two pairs twice beat one pair three times).  A ``never_partners``
   pair is kept apart even at the price of repeats, up to ``ALLOWANCE`` points more than the
   fewest conceivable; past that it is merely avoided where it can be.
3. The fewest repeated opponents, by the same score.
4. The first deal spread: at each table the player who dealt first least often deals first.

Method.  A fresh evening for ``N ≡ 0, 1 (mod 4)`` starts from the round-robin "circle"
1-factorisation (with a nobody, whose partner sits out, when ``N`` is odd), players placed
on the circle by the seed: ``R <= N - 1`` rounds of it repeat no partner, whatever the seed
(with ``N ≡ 1`` everyone sits out at most once), as a whist tournament cut after ``R``
rounds does.  Otherwise, and for more candidates, the rounds still to play are planned
together by a depth-first search: the players with the fewest unmet partners first,
partners tried in a seeded order, sit-outs as rule 1 allows, backtracking across rounds
(round-by-round greed paints itself into a corner for small ``N``: 8 players, 6 rounds).
It looks for a draw within 0 repeat points, or rather within the floor that counting
alone puts under any draw, then one point more, and so on, each look within ``BUDGET``
nodes, so the time is bounded and the draw deterministic.  Each round's partnerships are
then paired into tables (greedily, then swapping partnerships between tables); a few seeded
candidates (more for small ``N``) are scored (partners, then opponents) and the best kept;
if it repeats anybody, ``STEPS`` steps of simulated annealing (two players of a round swap
places) lower the repeats further, which matters for small rooms.

Measured (``tests/club/test_draw.py`` asserts it, ``bench/club_draw.py`` counts it): no
repeated partner for any ``N`` from 4 to 200 and ``R`` from 3 to 6 (``R <= N - 1``),
``N ≡ 2, 3 (mod 4)`` included, nor for any ``N <= 20`` up to ``R = N - 1`` rounds: a
schedule exists for each of them, since the draw finds one.  Nor after a late arrival (one
or two) or a leaver before round 2 or 3 (every leaver tried up to 9 players, two a room in
samples up to 200), with one exception: 5 players who become 4 in a 4-round evening (four
players have three partnerships in all), for which the tests prove by exhaustive search
that no rest without a repeat exists.  From 21 players on no opponent is
met twice either.  200 players take a few milliseconds.  A draw of the rest of an evening
in which nobody came or went is the rest of its first draw, so drawing round by round
gives the rounds drawn all at once.

**Pairs competitions** (:func:`draw_pairs`).  Pairs are numbered in the order given.  The
clubs' movement: at table ``t`` the even pair ``2t`` stays (north-south), the odd pairs
move up one table each round (east-west), with a phantom pair at the last table when the
pairs are odd: whoever meets it sits out.  With at most as many rounds as tables nobody
meets a pair twice and nobody sits out twice.  With more rounds the movement would bring a
mover back to a stationary pair it met, so the rounds are drawn as a round robin by the
search above instead (opponents in place of partners); a pair that comes late or leaves
re-draws the rest the same way.

:func:`fairness` and :func:`pairs_fairness` report how fair a draw was, for the organiser
and the results page.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, islice, pairwise
from typing import Any

BUDGET = 40_000  # search nodes (partnerships tried) per attempt: bounded and deterministic
ALLOWANCE = 12  # the most repeat points the search allows before never_partners give way
PARTNER_WEIGHT = 1000  # a partner's repeat point against an opponent's, in the annealing
STEPS = 10_000  # swaps the annealing tries, when a draw repeats anybody
Pair = tuple[int, int]
Plan = list[tuple[tuple[int, ...], list[Pair]]]  # each round: who sits out, the partnerships
Tables = list[list[list[int]]]  # each round's tables, [a, b, c, d]: a and b against c and d


@dataclass(frozen=True, slots=True)
class Table:
    """A table of a round: seats 0 and 2 partner against seats 1 and 3; seat 0 deals first."""

    number: int
    seats: tuple[str, str, str, str]

    @property
    def teams(self) -> tuple[tuple[str, str], tuple[str, str]]:
        s = self.seats
        return (s[0], s[2]), (s[1], s[3])


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    tables: tuple[Table, ...]
    sitting_out: tuple[str, ...]

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone in the round: at the tables, then sitting out."""
        return (*(p for t in self.tables for p in t.seats), *self.sitting_out)


@dataclass(frozen=True, slots=True)
class PairTable:
    number: int
    ns: str
    ew: str


@dataclass(frozen=True, slots=True)
class PairRound:
    number: int
    tables: tuple[PairTable, ...]
    sitting_out: tuple[str, ...]

    @property
    def players(self) -> tuple[str, ...]:
        """Every pair in the round: at the tables, then sitting out."""
        return (*(p for t in self.tables for p in (t.ns, t.ew)), *self.sitting_out)


@dataclass(frozen=True, slots=True)
class Fairness:
    """How fair a draw was.  ``repeated_partners`` and ``repeated_opponents`` list each two
    who partnered (faced each other) in more than one round, as ``(a, b, rounds)`` with
    ``a < b``; ``sit_outs`` every player's sit-outs; ``sit_out_spread`` the most minus the
    fewest sit-outs among those present all evening."""

    repeated_partners: tuple[tuple[str, str, int], ...]
    repeated_opponents: tuple[tuple[str, str, int], ...]
    sit_outs: tuple[tuple[str, int], ...]
    sit_out_spread: int

    @property
    def partner_repeats(self) -> int:
        """Partnerships beyond each two's first: each extra round counts."""
        return sum(n - 1 for *_, n in self.repeated_partners)

    @property
    def opponent_repeats(self) -> int:
        """Meetings as opponents beyond each two's first: each extra round counts."""
        return sum(n - 1 for *_, n in self.repeated_opponents)

    def to_dict(self) -> dict[str, Any]:
        def listed(repeats: tuple[tuple[str, str, int], ...]) -> list[dict[str, Any]]:
            return [{"players": [a, b], "rounds": n} for a, b, n in repeats]

        return {
            "repeated_partners": listed(self.repeated_partners),
            "partner_repeats": self.partner_repeats,
            "repeated_opponents": listed(self.repeated_opponents),
            "opponent_repeats": self.opponent_repeats,
            "sit_outs": dict(self.sit_outs),
            "sit_out_spread": self.sit_out_spread,
        }


# -- the public functions ------------------------------------------------------------------


def draw_individual(
    players: Sequence[str],
    rounds: int,
    seed: int,
    played: Sequence[Round] = (),
    never_partners: Collection[frozenset[str]] = (),
) -> tuple[Round, ...]:
    """The rounds still to play of an evening of ``rounds`` rounds in all, numbered after
    ``played``, for ``players`` (who is here from now on, in any order: a late arrival is in
    ``players`` and not in ``played``, a leaver the other way round), two of any
    ``never_partners`` pair never partners.  ``ValueError`` for fewer than four players, a
    name twice, a never-pair not of two, or ``played`` not numbered 1, 2, ..."""
    present = _checked(players, rounds, played, 4)
    for pair in never_partners:
        if len(pair) != 2:
            raise ValueError(f"never_partners names two players each, not {sorted(pair)}")
    never = frozenset(never_partners)
    return _kept(present, rounds, played, lambda ps, pl: _individual(ps, rounds, seed, pl, never))


def draw_pairs(
    pairs: Sequence[str], rounds: int, seed: int, played: Sequence[PairRound] = ()
) -> tuple[PairRound, ...]:
    """The rounds still to play of a pairs competition of ``rounds`` rounds, numbered after
    ``played``, for ``pairs`` (here from now on, pair 1 first).  ``ValueError`` for fewer
    than two pairs, a pair twice, or ``played`` not numbered 1, 2, ..."""
    present = _checked(pairs, rounds, played, 2)
    order = list(pairs)  # their numbers, unlike players, matter

    def drawn(here: list[str], before: Sequence[PairRound]) -> tuple[PairRound, ...]:
        ranked = sorted(here, key=order.index)
        if not before and rounds <= (len(ranked) + 1) // 2:
            return _movement(ranked, rounds)
        return _pairs_drawn(ranked, rounds, seed, before)

    return _kept(present, rounds, played, drawn)


def exchanged(names: Iterable[str], a: str, b: str) -> tuple[str, ...]:
    """``names`` with ``a`` and ``b`` in each other's places."""
    return tuple(b if name == a else a if name == b else name for name in names)


def swap(round: Round, a: str, b: str) -> Round:
    """``round`` with ``a`` and ``b`` in each other's places (a seat or sitting out)."""
    for name in (a, b):
        if name not in round.players:
            raise ValueError(f"{name!r} is not in round {round.number}")
    tables = tuple(Table(t.number, _four(exchanged(t.seats, a, b))) for t in round.tables)
    return Round(round.number, tables, tuple(sorted(exchanged(round.sitting_out, a, b))))


def fairness(rounds: Sequence[Round]) -> Fairness:
    partners: Counter[tuple[str, str]] = Counter()
    opponents: Counter[tuple[str, str]] = Counter()
    for r in rounds:
        for t in r.tables:
            (a, c), (b, d) = t.teams
            partners.update(_key(*two) for two in ((a, c), (b, d)))
            opponents.update(_key(x, y) for x in (a, c) for y in (b, d))
    return _fairness(partners, opponents, rounds)


def pairs_fairness(rounds: Sequence[PairRound]) -> Fairness:
    opponents = Counter(_key(t.ns, t.ew) for r in rounds for t in r.tables)
    return _fairness(Counter(), opponents, rounds)


# -- individual evenings --------------------------------------------------------------------


def _individual(
    players: list[str], rounds: int, seed: int, played: Sequence[Round], never: frozenset
) -> tuple[Round, ...]:
    n, start = len(players), len(played)
    index = {p: i for i, p in enumerate(players)}
    met: Counter[Pair] = Counter()
    partners, opponents = _square(n), _square(n)
    dealt, seen = [0] * n, [0] * n
    for r in played:
        for t in r.tables:
            (a, c), (b, d) = ((index.get(x), index.get(y)) for x, y in t.teams)
            for x, y in ((a, c), (b, d)):
                if x is not None and y is not None:
                    met[_key(x, y)] += 1
                    _touch(partners, x, y, 1)
            for x in (a, c):
                for y in (b, d):
                    if x is not None and y is not None:
                        _touch(opponents, x, y, 1)
            for name in t.seats:
                if name in index:
                    seen[index[name]] += 1
            if t.seats[0] in index:
                dealt[index[t.seats[0]]] += 1
    apart = [0] * n
    for pair in never:
        x, y = (index.get(p) for p in pair)
        if x is not None and y is not None:
            apart[x] |= 1 << y
            apart[y] |= 1 << x
    rng = random.Random(f"klaverjas club draw {seed} {start} {n}")
    todo = rounds - start
    missed = [start - s for s in seen]
    plans = _plans(n, n % 4, todo, met, missed, apart, rng, not played and n % 4 in (0, 1))
    best: tuple[tuple[int, int], Plan, Tables] | None = None
    for plan in islice(plans, _candidates(n)):
        if plan is None:
            continue
        grouped, added = _grouped(plan, [row[:] for row in opponents], rng)
        score = (_repeat_points(met, apart, plan), added)
        if best is None or score < best[0]:
            best = score, plan, grouped
        if score == (0, 0):
            break
    assert best is not None
    (points, added), plan, grouped = best
    if points or added:
        for tables in grouped:
            for a, b, c, d in tables:
                for x, y in ((a, b), (c, d)):
                    _touch(partners, x, y, 1)
                for x in (a, b):
                    for y in (c, d):
                        _touch(opponents, x, y, 1)
        _anneal(grouped, partners, opponents, apart, rng, points * PARTNER_WEIGHT + added)
    return _seated(grouped, [out for out, _ in plan], players, start, dealt, rng)


def _candidates(n: int) -> int:
    """How many candidate draws to score: more for a small room, where opponents repeat."""
    return max(2, min(12, 240 // n))


def _repeat_points(before: Counter[Pair], apart: list[int], plan: Plan) -> int:
    """What ``plan`` adds to the sum over pairs of C(times partnered, 2), a
    ``never_partners`` pair counting as a repeat beyond the allowance."""
    times = Counter(before)
    points = 0
    for _, pairs in plan:
        for x, y in pairs:
            key = _key(x, y)
            points += times[key] + (ALLOWANCE + 1 if apart[x] >> y & 1 else 0)
            times[key] += 1
    return points


def _circle(n: int, todo: int, apart: list[int], rng: random.Random) -> Plan | None:
    """``todo`` rounds of the circle method's 1-factorisation of ``n`` (plus a nobody when
    ``n`` is odd: its partner sits out), players placed by ``rng``; None if there are not
    enough rounds or a few placements all partner a ``never_partners`` pair."""
    m = n + n % 2
    if todo > m - 1:
        return None
    for _ in range(8):
        spot = rng.sample(range(m), m)  # spot[k]: who is at place k of the circle (n: nobody)
        plan: Plan = []
        for r in rng.sample(range(m - 1), todo):
            pairs = [(spot[m - 1], spot[r])]
            pairs += [(spot[(r + i) % (m - 1)], spot[(r - i) % (m - 1)]) for i in range(1, m // 2)]
            out = tuple(x + y - n for x, y in pairs if n in (x, y))
            plan.append((out, [p for p in pairs if n not in p]))
        if not any(apart[x] >> y & 1 for _, pairs in plan for x, y in pairs):
            return plan
    return None


def _grouped(plan: Plan, opponents: list[list[int]], rng: random.Random) -> tuple[Tables, int]:
    """Each round's partnerships two by two into tables, so that few have met as
    opponents (counted in ``opponents`` as it goes); and the repeat points they add."""
    grouped, added = [], 0
    for _, pairs in plan:
        tables = _tables(pairs, opponents, rng)
        for a, b, c, d in tables:
            for x in (a, b):
                for y in (c, d):
                    added += _touch(opponents, x, y, 1)
        grouped.append(tables)
    return grouped, added


def _tables(pairs: list[Pair], opponents: list[list[int]], rng: random.Random) -> list[list[int]]:
    """``pairs`` two by two: greedy, then two tables at a time swap partnerships while that
    lowers the opponents' meetings.  A table is ``[a, b, c, d]``: a and b against c and d."""

    def cost(p: Pair, q: Pair) -> int:
        (a, b), (c, d) = p, q
        return opponents[a][c] + opponents[a][d] + opponents[b][c] + opponents[b][d]

    left = rng.sample(pairs, len(pairs))
    tables = []
    while left:
        p = left.pop()
        j = _cheapest(cost(p, q) for q in left)
        tables.append([p, left.pop(j)])
    costs = [cost(p, q) for p, q in tables]
    improved = any(costs)
    while improved:
        improved = False
        for i, j in combinations(range(len(tables)), 2):
            now = costs[i] + costs[j]
            if now == 0:
                continue
            (p, q), (r, s) = tables[i], tables[j]
            for a, b, c, d in ((p, r, q, s), (p, s, q, r)):
                one, two = cost(a, b), cost(c, d)
                if one + two < now:
                    tables[i], tables[j], costs[i], costs[j] = [a, b], [c, d], one, two
                    improved = True
                    break
    return [[*p, *q] for p, q in tables]


def _cheapest(costs: Iterable[int]) -> int:
    """The index of the first lowest of ``costs`` (the first 0 at once: they are lazy)."""
    best, lowest = 0, None
    for j, c in enumerate(costs):
        if c == 0:
            return j
        if lowest is None or c < lowest:
            best, lowest = j, c
    return best


def _anneal(
    rounds: Tables, partners: list[list[int]], opponents: list[list[int]], apart: list[int],
    rng: random.Random, points: int,
) -> None:  # fmt: skip
    """Lowers the repeat ``points`` of ``rounds`` in place (a partner's weighing
    ``PARTNER_WEIGHT``, an opponent's one; ``partners`` and ``opponents`` count the evening
    so far): ``STEPS`` times two players at different tables of a round swap places, kept
    when that lowers the points, and now and then when it raises them a little, ever less
    often (simulated annealing); the best found stays."""

    def moved(table: list[int], place: int, sign: int) -> int:
        x, mate = table[place], table[place ^ 1]
        cost = PARTNER_WEIGHT * (_touch(partners, x, mate, sign) + sign * (apart[x] >> mate & 1))
        for y in table[2:] if place < 2 else table[:2]:
            cost += _touch(opponents, x, y, sign)
        return cost

    def swapped(a: list[int], i: int, b: list[int], j: int) -> int:
        delta = moved(a, i, -1) + moved(b, j, -1)
        a[i], b[j] = b[j], a[i]
        return delta + moved(a, i, 1) + moved(b, j, 1)

    if all(len(tables) < 2 for tables in rounds):
        return  # one table a round: no two tables to swap between
    best, kept = points, [[t[:] for t in tables] for tables in rounds]
    for step in range(STEPS):
        tables = rounds[rng.randrange(len(rounds))]
        if len(tables) < 2:
            continue
        i, j = rng.sample(range(4 * len(tables)), 2)
        (ta, i), (tb, j) = divmod(i, 4), divmod(j, 4)
        if ta == tb:
            continue
        a, b = tables[ta], tables[tb]
        delta = swapped(a, i, b, j)
        if delta > 0 and rng.random() >= math.exp(-delta / (1 - step / STEPS)):
            swapped(a, i, b, j)  # back
            continue
        points += delta
        if points < best:
            best, kept = points, [[t[:] for t in tables] for tables in rounds]
            if not best:
                break
    rounds[:] = kept


def _seated(
    rounds: Tables, outs: list[tuple[int, ...]], players: list[str], start: int,
    dealt: list[int], rng: random.Random,
) -> tuple[Round, ...]:  # fmt: skip
    """The rounds: at each table the player who dealt first least often deals first, the
    partner opposite and the opponents either side; the tables in a seeded order."""
    drawn = []
    for number, (tables, out) in enumerate(zip(rounds, outs, strict=True), start + 1):
        seated = []
        for table in tables:
            fewest = min(dealt[x] for x in table)
            first = rng.choice([x for x in table if dealt[x] == fewest])
            dealt[first] += 1
            place = table.index(first)
            left, right = rng.sample(table[2:] if place < 2 else table[:2], 2)
            seated.append((first, left, table[place ^ 1], right))
        rng.shuffle(seated)
        numbered = tuple(Table(i, _four(players[x] for x in s)) for i, s in enumerate(seated, 1))
        drawn.append(Round(number, numbered, tuple(sorted(players[x] for x in out))))
    return tuple(drawn)


# -- the search: rounds of matchings --------------------------------------------------------


class _Exhausted(Exception):
    """The search used its node budget."""


def _plans(
    n: int, sit: int, todo: int, met: Counter[Pair], missed: list[int], apart: list[int],
    rng: random.Random, circle: bool,
) -> Iterator[Plan | None]:  # fmt: skip
    """Candidate plans of ``todo`` rounds in which ``sit`` of ``n`` sit out (by the
    rotation) and the others pair off: first the circle's (if ``circle`` and it fits), or
    the search's with the fewest repeat points it finds from the counting bound up, with
    ``apart`` pairs kept apart (or, past ``ALLOWANCE`` points more, greed's with them merely
    avoided); then more searches at that many points (None for one that failed)."""
    first = _circle(n, todo, apart, rng) if circle else None
    points: int | None = 0
    if first is None:
        lowest = _bound(n, sit, todo, met)
        for points in range(lowest, lowest + ALLOWANCE + 1):
            first = _attempt(n, sit, todo, met, missed, apart, rng, points)
            if first is not None:
                break
    if first is None:
        apart_pairs = [(x, y) for x in range(n) for y in range(x + 1, n) if apart[x] >> y & 1]
        met, apart, points = met + Counter(dict.fromkeys(apart_pairs, ALLOWANCE)), [0] * n, None
        first = _attempt(n, sit, todo, met, missed, apart, rng, points)
    while True:
        yield first
        first = _attempt(n, sit, todo, met, missed, apart, rng, points)


def _attempt(
    n: int, sit: int, todo: int, met: Counter[Pair], missed: list[int], apart: list[int],
    rng: random.Random, points: int | None,
) -> Plan | None:  # fmt: skip
    """A plan within ``points`` repeat points (None: any, greedily), or None if the search
    finds none within its budget."""
    search = _Search(n, sit, todo, met, missed, apart, rng, BUDGET if points is not None else None)
    try:
        found = search.rounds(0, points if points is not None else 1 << 62)
    except _Exhausted:
        return None
    return search.plan() if found else None


def _bound(n: int, sit: int, todo: int, met: Counter[Pair]) -> int:
    """A floor under any plan's repeat points: its partnerships spread as evenly as they
    could be over the ``n`` players' pairs, as if any partnerships could make a round."""
    left = todo * ((n - sit) // 2)
    at = Counter(c for c in met.values() if c)
    at[0] = n * (n - 1) // 2 - sum(at.values())
    points = level = 0
    while left > 0:
        taken = min(left, at[level])
        points += taken * level
        left -= taken
        at[level + 1] += taken
        level += 1
    return points


class _Search:
    """A depth-first search over the rounds still to play.  ``count`` holds how often each
    two partnered (before and in the rounds planned so far); pairing two who partnered
    ``c`` times costs ``c`` of the allowance (the rise in the sum of C(times, 2))."""

    def __init__(
        self, n: int, sit: int, todo: int, met: Counter[Pair], missed: list[int],
        apart: list[int], rng: random.Random, budget: int | None,
    ) -> None:  # fmt: skip
        self.n, self.sit, self.todo, self.apart, self.budget = n, sit, todo, apart, budget
        self.count = [[0] * n for _ in range(n)]
        self.used = [0] * n  # bit y of used[x]: x and y have partnered
        for (x, y), c in met.items():
            self.count[x][y] = self.count[y][x] = c
            if c:
                self.used[x] |= 1 << y
                self.used[y] |= 1 << x
        self.missed = list(missed)
        self.orders = [rng.sample(range(n), n) for _ in range(todo)]
        self.order: list[int] = []
        self.outs: list[tuple[int, ...]] = []
        self.pairs: list[Pair] = []
        self.ends: list[int] = []
        self.nodes = 0

    def plan(self) -> Plan:
        starts = [0, *self.ends[:-1]]
        return [(o, self.pairs[a:b]) for o, a, b in zip(self.outs, starts, self.ends, strict=True)]

    def rounds(self, k: int, allowance: int) -> bool:
        """Plan round ``k`` and the rest within ``allowance``; True with the plan in place."""
        if k == self.todo:
            return True
        self.order = self.orders[k]
        everyone = (1 << self.n) - 1
        for out in self._sit_outs():
            for x in out:
                self.missed[x] += 1
            self.outs.append(out)
            for left in self._matchings(everyone & ~_mask(out), allowance):
                self.ends.append(len(self.pairs))
                if self.rounds(k + 1, left):
                    return True
                self.ends.pop()
                self.order = self.orders[k]
            self.outs.pop()
            for x in out:
                self.missed[x] -= 1
        return False

    def _sit_outs(self) -> Iterator[tuple[int, ...]]:
        """Who may sit out next: everyone below the level that fills the places, and any
        choice from that level (in the round's seeded order)."""
        if self.sit == 0:
            yield ()
            return
        level = sorted(self.missed)[self.sit - 1]
        below = tuple(x for x in self.order if self.missed[x] < level)
        at = [x for x in self.order if self.missed[x] == level]
        for chosen in combinations(at, self.sit - len(below)):
            yield below + chosen

    def _matchings(self, free: int, allowance: int) -> Iterator[int]:
        """Every way to pair off ``free`` within ``allowance``, each in place in ``pairs``
        and ``count`` while the caller looks at it; yields the allowance left."""
        if not free:
            yield allowance
            return
        pairs, base = self.pairs, len(self.pairs)
        levels = [(self._options(self._pick(free), free, allowance), free, allowance)]
        while levels:
            options, before, budget = levels[-1]
            if len(pairs) > base + len(levels) - 1:
                self._part(*pairs.pop())
            option = next(options, None)
            if option is None:
                levels.pop()
                continue
            self.nodes += 1
            if self.budget is not None and self.nodes > self.budget:
                raise _Exhausted
            x, y, cost = option
            self._join(x, y)
            pairs.append((x, y))
            rest, left = before & ~(1 << x | 1 << y), budget - cost
            if rest:
                levels.append((self._options(self._pick(rest), rest, left), rest, left))
            else:
                yield left

    def _pick(self, free: int) -> int:
        """The player to pair next: with few players, the one with the fewest unmet
        partners left; with many (where that barely matters), the lowest-numbered."""
        if self.n > 48:
            return (free & -free).bit_length() - 1
        return min(_bits(free), key=lambda x: (free & ~self.used[x] & ~self.apart[x]).bit_count())

    def _options(self, x: int, free: int, allowance: int) -> Iterator[tuple[int, int, int]]:
        """``x``'s possible partners: the unmet in the round's order, then the met (the
        fewest times first) while the allowance lasts."""
        others = free & ~(1 << x) & ~self.apart[x]
        fresh = others & ~self.used[x]
        for y in self.order:
            if fresh >> y & 1:
                yield x, y, 0
        if allowance > 0:
            rank = {y: i for i, y in enumerate(self.order)}
            met = sorted(_bits(others & self.used[x]), key=lambda y: (self.count[x][y], rank[y]))
            for y in met:
                if self.count[x][y] > allowance:
                    return
                yield x, y, self.count[x][y]

    def _join(self, x: int, y: int) -> None:
        self.count[x][y] += 1
        self.count[y][x] += 1
        self.used[x] |= 1 << y
        self.used[y] |= 1 << x

    def _part(self, x: int, y: int) -> None:
        self.count[x][y] -= 1
        self.count[y][x] -= 1
        if not self.count[x][y]:
            self.used[x] &= ~(1 << y)
            self.used[y] &= ~(1 << x)


# -- pairs competitions ---------------------------------------------------------------------


def _movement(pairs: list[str], rounds: int) -> tuple[PairRound, ...]:
    """The clubs' movement for ``rounds`` <= tables: even pairs stay, odd pairs move up."""
    count = (len(pairs) + 1) // 2
    drawn = []
    for r in range(rounds):
        tables, out = [], []
        for t in range(count):
            stays = 2 * t + 1  # pair 2t + 2 in the clubs' numbering, from 0 here
            moves = 2 * ((t - r) % count)
            if stays < len(pairs):
                tables.append((pairs[stays], pairs[moves]))
            else:
                out.append(pairs[moves])  # met the phantom pair
        numbered = tuple(PairTable(i, ns, ew) for i, (ns, ew) in enumerate(tables, 1))
        drawn.append(PairRound(r + 1, numbered, tuple(out)))
    return tuple(drawn)


def _pairs_drawn(
    pairs: list[str], rounds: int, seed: int, played: Sequence[PairRound]
) -> tuple[PairRound, ...]:
    """The rest of a pairs competition by the search: a round robin that rotates sit-outs."""
    n, start = len(pairs), len(played)
    index = {p: i for i, p in enumerate(pairs)}
    met: Counter[Pair] = Counter()
    seen = [0] * n
    for r in played:
        for t in r.tables:
            x, y = index.get(t.ns), index.get(t.ew)
            if x is not None and y is not None:
                met[_key(x, y)] += 1
            for z in (x, y):
                if z is not None:
                    seen[z] += 1
    rng = random.Random(f"klaverjas club pairs {seed} {start} {n}")
    missed = [start - s for s in seen]
    plan = next(_plans(n, n % 2, rounds - start, met, missed, [0] * n, rng, not played))
    assert plan is not None
    drawn = []
    for number, (out, matches) in enumerate(plan, start + 1):
        tables = [tuple(pairs[x] for x in sorted(m)) for m in matches]
        rng.shuffle(tables)
        numbered = tuple(PairTable(i, ns, ew) for i, (ns, ew) in enumerate(tables, 1))
        drawn.append(PairRound(number, numbered, tuple(pairs[x] for x in out)))
    return tuple(drawn)


# -- helpers ---------------------------------------------------------------------------------


def _checked(
    names: Sequence[str], rounds: int, played: Sequence[Round | PairRound], least: int
) -> list[str]:
    present = sorted(names)
    if len(set(present)) != len(present):
        twice = next(a for a, b in pairwise(present) if a == b)
        raise ValueError(f"{twice!r} is named twice")
    if len(present) < least:
        raise ValueError(f"a draw needs at least {least}, not {len(present)}")
    if [r.number for r in played] != list(range(1, len(played) + 1)):
        raise ValueError("the rounds played are numbered 1, 2, ... in order")
    if rounds < len(played):
        raise ValueError(f"{len(played)} rounds are played of an evening of {rounds}")
    return present


def _kept(present: list[str], rounds: int, played: Sequence[Any], draw: Callable) -> tuple:
    """``draw(present, played)``; but when nobody came or went since the first round and
    the rounds played are the first draw's, the rest of that first draw."""
    if played and set(present) == set(played[0].players):
        first = draw(present, ())
        if first[: len(played)] == tuple(played):
            return first[len(played) :]
    return draw(present, played) if len(played) < rounds else ()


def _fairness(
    partners: Counter[tuple[str, str]],
    opponents: Counter[tuple[str, str]],
    rounds: Sequence[Round] | Sequence[PairRound],
) -> Fairness:
    out = Counter(p for r in rounds for p in r.sitting_out)
    everyone = sorted({p for r in rounds for p in r.players})
    always = set(everyone).intersection(*(r.players for r in rounds)) if rounds else set()
    counts = [out[p] for p in always]
    return Fairness(
        repeated_partners=_repeats(partners),
        repeated_opponents=_repeats(opponents),
        sit_outs=tuple((p, out[p]) for p in everyone),
        sit_out_spread=max(counts) - min(counts) if counts else 0,
    )


def _repeats(times: Counter[tuple[str, str]]) -> tuple[tuple[str, str, int], ...]:
    return tuple(sorted((a, b, n) for (a, b), n in times.items() if n > 1))


def _four(names: Iterable[str]) -> tuple[str, str, str, str]:
    a, b, c, d = names
    return a, b, c, d


def _key(a: Any, b: Any) -> Any:
    return (a, b) if a < b else (b, a)


def _square(n: int) -> list[list[int]]:
    return [[0] * n for _ in range(n)]


def _touch(counts: list[list[int]], x: int, y: int, sign: int) -> int:
    """Counts one meeting of ``x`` and ``y`` more (``sign`` 1) or fewer (-1); returns the
    change in the sum over pairs of C(meetings, 2)."""
    before = counts[x][y]
    counts[x][y] = counts[y][x] = before + sign
    return before if sign > 0 else -(before - 1)


def _mask(players: Iterable[int]) -> int:
    mask = 0
    for x in players:
        mask |= 1 << x
    return mask


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
