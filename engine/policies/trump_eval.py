"""What a hand is worth with a suit as trump, learned from the solver, and whether naming
it beats passing, learned from play: two linear models.

``value(hand, trump, place)`` estimates the open-card value (the choosing team's deal total
minus the other team's, nat and pit included, both sides playing perfectly) of naming
``trump`` with ``hand``, from the chooser's ``place`` after the opening leader (0: it leads).
The weights (:mod:`.trump_weights`) were fitted by least squares over deals solved exactly
with every suit as trump and either team as chooser (``klaverjas trump-model``, see
:mod:`commands.trump_model`).

``naming_edge(hand, trump, place)`` estimates what naming ``trump`` wins over passing in
the bidding's first round, in points a deal at a real table: its weights
(:mod:`.bid_weights`) were fitted to the outcomes of deals played out by strong and the
heuristic after each choice (``klaverjas bid-model``, :mod:`commands.bid_model`), from
:func:`bid_features`: the evaluator's inputs, the rule of thumb's verdict, the values of
the hand's two best suits and the seat's place in the bidding.

A value is a sum of products in a fixed order, so it is the same on every machine.
"""

from __future__ import annotations

from collections.abc import Sequence

from .bid_weights import BID_WEIGHTS
from .heuristic import accepts
from .trump_weights import WEIGHTS

SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

FEATURE_NAMES = (
    "bias",
    "trump jack", "trump nine", "trump ace", "trump ten",
    "trump king", "trump queen", "trump eight", "trump seven",
    "four trumps or more", "five trumps or more", "jack and nine", "stuk",
    "side aces", "side tens with their ace", "side tens guarded", "side tens bare",
    "side kings", "side voids", "side singletons",
)  # fmt: skip


def features(hand: Sequence[int], trump: int) -> list[float]:
    """The evaluator's inputs for ``hand`` (cards) with ``trump``, in :data:`FEATURE_NAMES`
    order."""
    suits = [0, 0, 0, 0]  # a bit per rank held, by suit
    for card in hand:
        suits[card >> 3] |= 1 << (card & 7)
    t = suits[trump]
    length = t.bit_count()
    out = [1.0]
    out += [float(t >> r & 1) for r in (JACK, NINE, ACE, TEN, KING, QUEEN, EIGHT, SEVEN)]
    out += [float(length >= 4), float(length >= 5), float(t >> JACK & t >> NINE & 1)]
    out.append(float(t >> KING & t >> QUEEN & 1))
    aces = tens_ace = tens_guarded = tens_bare = kings = voids = singletons = 0
    for suit, held in enumerate(suits):
        if suit == trump:
            continue
        n = held.bit_count()
        aces += held >> ACE & 1
        kings += held >> KING & 1
        if held >> TEN & 1:
            if held >> ACE & 1:
                tens_ace += 1
            elif n >= 2:
                tens_guarded += 1
            else:
                tens_bare += 1
        voids += n == 0
        singletons += n == 1
    out += [float(aces), float(tens_ace), float(tens_guarded), float(tens_bare), float(kings)]
    out += [float(voids), float(singletons)]
    return out


def value(
    hand: Sequence[int], trump: int, place: int, weights: Sequence[Sequence[float]] = WEIGHTS
) -> float:
    """The estimated open-card value of naming ``trump`` with ``hand`` from ``place``."""
    return _dot(weights[place], features(hand, trump))


BID_FEATURE_NAMES = (
    *FEATURE_NAMES, "the rule of thumb accepts it",
    "the best suit's value", "the second best suit's value", "aces", "jacks",
    "second to bid", "third to bid", "fourth to bid",
)  # fmt: skip


def bid_features(hand: Sequence[int], trump: int, place: int) -> list[float]:
    """The bidding model's inputs for naming ``trump`` with ``hand`` from ``place`` (the
    first to bid: 0), in :data:`BID_FEATURE_NAMES` order."""
    best, second = sorted((value(hand, t, place) for t in range(4)), reverse=True)[:2]
    out = features(hand, trump)
    out += [float(accepts(hand, trump)), best, second]
    ranks = [c & 7 for c in hand]
    out += [float(ranks.count(ACE)), float(ranks.count(JACK))]
    return out + [float(place == p) for p in (1, 2, 3)]


def naming_edge(
    hand: Sequence[int], trump: int, place: int, weights: Sequence[float] = BID_WEIGHTS
) -> float:
    """How many points a deal naming ``trump`` is expected to win over passing, in the
    bidding's first round, at a real table (learned from play: :mod:`commands.bid_model`)."""
    return _dot(weights, bid_features(hand, trump, place))


def _dot(weights: Sequence[float], xs: Sequence[float]) -> float:
    """A sum of products in a fixed order: the same on every machine."""
    total = 0.0
    for weight, x in zip(weights, xs, strict=True):
        total += weight * x
    return total


def fit(rows: Sequence[tuple[list[float], float, int]], ridge: float = 1.0) -> dict:
    """Least-squares weights a place from ``(features, value, place)`` rows, with each
    place's fit (see :func:`least_squares`)."""
    weights, quality = [], []
    for place in range(4):
        w, q = least_squares([(x, y) for x, y, p in rows if p == place], ridge)
        weights.append(w)
        quality.append(q)
    return {"weights": weights, "fit": quality}


def least_squares(
    data: Sequence[tuple[list[float], float]], ridge: float
) -> tuple[list[float], dict[str, float]]:
    """Weights for ``(features, value)`` rows by least squares, ridge regularised (the
    first feature, the bias, left free), and the fit: samples, R² and RMSE."""
    n = len(data[0][0])
    a = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    for x, y in data:
        for i, xi in enumerate(x):
            if xi:
                b[i] += xi * y
                row = a[i]
                for j, xj in enumerate(x):
                    row[j] += xi * xj
    for i in range(1, n):
        a[i][i] += ridge
    w = _solve(a, b)
    mean = sum(y for _, y in data) / len(data)
    errors = [y - sum(wi * xi for wi, xi in zip(w, x, strict=True)) for x, y in data]
    sse = sum(e * e for e in errors)
    sst = sum((y - mean) ** 2 for _, y in data)
    quality = {"samples": len(data), "r2": round(1 - sse / sst, 3)}
    quality["rmse"] = round((sse / len(data)) ** 0.5, 1)
    return [round(v, 4) for v in w], quality


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x
