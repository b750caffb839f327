// Why a card may not be played now, in words for the player. Pure: no DOM.
//
// Which cards are legal is always the server's `legal` list, and why the others are not its
// `why_not` (a code, and the suit or card it names); this module only puts that in words.

import { fill } from './fill.js';
import { strings } from './i18n.js';
import { SUIT_NAMES, cardWords } from './cards.js';

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

// Why `card` may not be played, in a sentence: the server's reason `why` ({why, suit,
// card}: the suit led, the trick's highest trump), or a plain "not now" without one.
export function whyWords(card, why) {
  const key = SENTENCES[why?.why] ?? 'notNow';
  const named = why?.card ?? card;
  return fill(TEXT[key], { suit: SUIT_NAMES[why?.suit], card: cardWords(named) });
}
