// Cards and actions in words and symbols, and hand order by the server's card orders
// (GET /rules `cards`, in catalog.js). No DOM.

import { fill } from './fill.js';
import { strings } from './i18n.js';
import { rulesCatalog } from './catalog.js';

const TEXT = strings('cards', {
  card: '{rank} of {suit}', // a card in a sentence: "ace of spades" ({rank}, {suit}: the words below)
  pass: 'pass', // an action in words
  take: 'take the roem',
  leave: 'leave the roem',
  asTrump: '{suit} as trump',
});

export const SUITS = ['c', 'd', 'h', 's'];
// The suits in a sentence (lower case in English: "You must follow hearts").
export const SUIT_NAMES = strings('cards.suits', { c: 'clubs', d: 'diamonds', h: 'hearts', s: 'spades' });
export const SUIT_SYMBOLS = { c: '♣', d: '♦', h: '♥', s: '♠' };
// The ranks in a card's name ({rank} of TEXT.card).
const RANK_NAMES = strings('cards.ranks', {
  7: 'seven', 8: 'eight', 9: 'nine', T: 'ten', J: 'jack', Q: 'queen', K: 'king', A: 'ace',
});
const RANK_SHOWN = { T: '10' };
// Hand order alternates colours: clubs, hearts, spades, diamonds.
const HAND_SUITS = 'chsd';

export const rankOf = (card) => card.slice(0, -1).toUpperCase().replace('10', 'T');
export const suitOf = (card) => card.slice(-1).toLowerCase();
export const isRed = (suit) => suit === 'h' || suit === 'd';
export const rankShown = (card) => RANK_SHOWN[rankOf(card)] || rankOf(card);

export function cardWords(card) {
  return fill(TEXT.card, { rank: RANK_NAMES[rankOf(card)], suit: SUIT_NAMES[suitOf(card)] });
}

export function isCard(action) {
  return /^(10|[2-9TJQKA])[cdhs]$/i.test(action);
}

export function actionWords(action) {
  if (action === 'pass') return TEXT.pass;
  if (action === 'take') return TEXT.take;
  if (action === 'leave') return TEXT.leave;
  if (action.startsWith('trump:')) return fill(TEXT.asTrump, { suit: SUIT_NAMES[action.slice(6).toLowerCase()] });
  return cardWords(action);
}

// The server's table of the trump suit (`trump` true) or of a plain suit: `order`, its ranks
// strongest first, and `points`, each rank's card points; null until GET /rules answered.
export function suitTable(trump) {
  return rulesCatalog()?.cards[trump ? 'trump' : 'plain'] ?? null;
}

// Where `card` stands in its suit's order under trump `trump` (0: the strongest), by the
// server's orders; 0 for every card until they came.
export function orderIndex(card, trump) {
  return Math.max(0, suitTable(suitOf(card) === trump)?.order.indexOf(rankOf(card)) ?? 0);
}

// A hand in display order: suits alternating in colour (trump first when known), each suit
// strongest card first.
export function sortHand(cards, trump = null) {
  const suitRank = (s) => (s === trump ? -1 : HAND_SUITS.indexOf(s));
  return [...cards].sort(
    (a, b) => suitRank(suitOf(a)) - suitRank(suitOf(b)) || orderIndex(a, trump) - orderIndex(b, trump),
  );
}
