// The rules of play in words, for the player: why a card may not be played now, and which
// cards of a taken trick made its roem. Pure: no DOM.
//
// Which cards are legal is always the server's `legal` list, and why the others are not its
// `why_not` (a code, and the suit or card it names); this module only puts that in words,
// and points at the cards behind roem whose amount and kinds the server sent (`roem_parts`).

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

// The sentence of each of the server's reasons (`why_not`'s `why`).
const SENTENCES = {
  follow: 'follow',
  follow_trump: 'followTrump',
  trump_higher: 'trumpHigher',
  overtrump: 'overtrump',
  must_trump: 'mustTrump',
  must_trump_opponent: 'mustTrumpOpponent',
  must_trump_partner: 'rotterdamPartner',
  no_undertrump: 'noUndertrump',
  partner_undertrump: 'partnerUndertrump',
};

const NATURAL = 'AKQJT987'; // runs use this order whatever the trump

// Why `card` may not be played, in a sentence: the server's reason `why` ({why, suit,
// card}: the suit led, the trick's highest trump), or a plain "not now" without one.
export function whyWords(card, why) {
  const key = SENTENCES[why?.why] ?? 'notNow';
  const named = why?.card ?? card;
  return fill(TEXT[key], { suit: SUIT_NAMES[why?.suit], card: cardWords(named) });
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
