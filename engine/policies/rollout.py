"""Fast heuristic playouts: a deal finished by :class:`~.heuristic.HeuristicPolicy` in
every seat, on the deal's trusted fast path (no views, no events, no validation).

Each seat decides from exactly what its view would show (its hand, the cards played, the
voids shown), so a playout ends as :func:`engine.playout.policy_playout` with four
heuristic players would (the tests check it), several times faster.
"""

from __future__ import annotations

from ..actions import Kind
from ..cards import SUIT_MASK, cards_of
from ..deal import Deal, Phase
from .heuristic import Knowledge, choose_card, choose_trump, shown_voids


def heuristic_playout(deal: Deal) -> Deal:
    """Finish ``deal`` (any phase) with the heuristic in every seat; returns it."""
    while deal.phase is Phase.TRUMP:
        choice = choose_trump(cards_of(deal.hands[deal.turn]), deal.trump_choices())
        if choice.kind is Kind.PASS:
            deal.pass_()
        else:
            deal.choose(choice.value, deal.turn)
    while deal.phase is not Phase.DONE:
        if deal.phase is Phase.CLAIM:
            deal.decide(True)  # the heuristic always takes roem
            continue
        deal.play(heuristic_card(deal))
    return deal


def heuristic_card(deal: Deal) -> int:
    """The card the heuristic would play for the seat to move in ``deal`` (phase PLAY),
    from what that seat's view shows."""
    seat, trump = deal.turn, deal.trump
    hand = deal.hands[seat]
    legal = deal.legal_mask()
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    voids = shown_voids(deal, trump)  # type: ignore[arg-type]  # reads tricks, trick, leader
    held = deal.hands[0] | deal.hands[1] | deal.hands[2] | deal.hands[3]
    unseen = held & ~hand
    possible = tuple(
        unseen & ~sum(SUIT_MASK[s] for s in range(4) if voids[k] >> s & 1) for k in range(4)
    )
    knowledge = Knowledge(
        seat=seat,
        trump=trump,
        playing=not (deal.chooser ^ seat) & 1,
        leader=deal.leader,
        trick=tuple(deal.trick),
        legal=tuple(cards_of(legal)),
        unseen=unseen,
        possible=possible,
        last=len(deal.tricks) == 7,
    )
    return choose_card(knowledge)


__all__ = ["heuristic_card", "heuristic_playout"]
