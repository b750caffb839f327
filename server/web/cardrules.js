// The rules of play in words, for the player: why a card may not be played now, and which
// cards of a taken trick made its roem. Pure: no DOM.
//
// Which cards are legal is always the server's `legal` list; this module only explains a
// refusal, following the rules of DESIGN.md §1 (engine/legal.py), and points at the cards
// behind roem whose amount and kinds the server sent (`roem_parts`).

import { fill } from './fill.js';
import { strings } from './i18n.js';
import { SUIT_NAMES, cardWords, rankOf, suitOf } from './cards.js';

// Why a card of the hand may not be played ({suit}: a suit's name, {card}: a card's name).
const TEXT = strings('cardrules', {
  follow: 'You must follow {suit}: you hold {suit}.',
  followTrump: 'Trump was led: you must play a trump ({suit}).',
  trumpHigher: 'Trump was led: you must play a trump higher than the {card} when you can.',
  mustTrump: 'You cannot follow {suit}, so you must trump.',
  mustTrumpOpponent: 'You cannot follow {suit} and an opponent is winning the trick, so you must trump.',
  rotterdamPartner: 'Rotterdam: you must trump even while your partner wins the trick.',
  overtrump: 'You must trump higher than the {card}: you hold a higher trump.',
  noUndertrump: 'Amsterdam: you may not undertrump; discard a card of another suit.',
  partnerUndertrump: 'Amsterdam: you may not undertrump while your partner wins the trick.',
  notNow: 'You may not play the {card} now.',
});

const TRUMP_ORDER = 'J9ATKQ87'; // strongest first
const PLAIN_ORDER = 'ATKQJ987';
const NATURAL = 'AKQJT987'; // runs use this order whatever the trump

// How strong `card` is in a trick led with `led` under `trump` (higher wins; -1: cannot win).
function strength(card, led, trump) {
  const suit = suitOf(card);
  if (suit === trump) return 100 - TRUMP_ORDER.indexOf(rankOf(card));
  if (suit === led) return 50 - PLAIN_ORDER.indexOf(rankOf(card));
  return -1;
}

const trumpRank = (card) => 8 - TRUMP_ORDER.indexOf(rankOf(card));

// The seat winning `played` ([{seat, card}], in play order) so far.
export function winningSeat(played, trump) {
  if (!played.length) return null;
  const led = suitOf(played[0].card);
  let best = played[0];
  for (const p of played) {
    if (strength(p.card, led, trump) > strength(best.card, led, trump)) best = p;
  }
  return best.seat;
}

// Why `card` may not be played by `seat` holding `hand` into the trick `played`, trump
// `trump`, in `variant` ('amsterdam' | 'rotterdam'): a sentence. Call it only for a card
// the server's `legal` list leaves out.
export function whyNotLegal({ card, hand, played, trump, variant, seat }) {
  const words = cardWords(card);
  if (!played.length || !trump) return fill(TEXT.notNow, { card: words });
  const led = suitOf(played[0].card);
  const suit = suitOf(card);
  const holds = (test) => hand.some((c) => c !== card && test(c));
  const trumps = played.filter((p) => suitOf(p.card) === trump).map((p) => p.card);
  const high = trumps.reduce((a, c) => (a === null || trumpRank(c) > trumpRank(a) ? c : a), null);
  const above = (c) => suitOf(c) === trump && (high === null || trumpRank(c) > trumpRank(high));
  if (suit !== led && holds((c) => suitOf(c) === led)) {
    return fill(led === trump ? TEXT.followTrump : TEXT.follow, { suit: SUIT_NAMES[led] });
  }
  if (led === trump) {
    return high && holds(above)
      ? fill(TEXT.trumpHigher, { card: cardWords(high) })
      : fill(TEXT.notNow, { card: words });
  }
  // A plain suit was led and the player has none of it.
  const winner = winningSeat(played, trump);
  const partner = winner !== null && winner !== seat && winner % 2 === seat % 2;
  if (suit === trump) {
    // A refused trump is below the trick's highest trump.
    if (variant === 'amsterdam' && partner) return TEXT.partnerUndertrump;
    if (high && holds(above)) return fill(TEXT.overtrump, { card: cardWords(high) });
    if (variant === 'amsterdam') return TEXT.noUndertrump;
    return fill(TEXT.notNow, { card: words });
  }
  // A plain card refused: a trump was due.
  if (high && holds(above)) return fill(TEXT.overtrump, { card: cardWords(high) });
  if (variant === 'rotterdam' && partner) return TEXT.rotterdamPartner;
  if (variant === 'amsterdam' && !partner) return fill(TEXT.mustTrumpOpponent, { suit: SUIT_NAMES[led] });
  return fill(TEXT.mustTrump, { suit: SUIT_NAMES[led] });
}

// The cards of a taken trick (`cards`) behind its roem, by the kinds the server named
// (`parts`: run 20 or 50, four 100 or 200, stuk 20): a Set of cards, empty for none.
export function roemCards(cards, trump, parts) {
  const out = new Set();
  if (!parts) return out;
  if (parts.run) {
    const length = parts.run >= 50 ? 4 : 3;
    for (const suit of 'cdhs') {
      const ranks = cards.filter((c) => suitOf(c) === suit).map((c) => NATURAL.indexOf(rankOf(c))).sort((a, b) => a - b);
      let streak = [];
      for (const r of ranks) {
        streak = streak.length && r === streak[streak.length - 1] + 1 ? [...streak, r] : [r];
        if (streak.length >= length) {
          for (const s of streak) out.add(cards.find((c) => suitOf(c) === suit && NATURAL.indexOf(rankOf(c)) === s));
        }
      }
    }
  }
  if (parts.four) for (const c of cards) out.add(c);
  if (parts.stuk && trump) {
    for (const c of cards) if (suitOf(c) === trump && (rankOf(c) === 'K' || rankOf(c) === 'Q')) out.add(c);
  }
  return out;
}
