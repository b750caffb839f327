// Cards and actions in words and symbols. Pure: no DOM.

export const SUITS = ['c', 'd', 'h', 's'];
export const SUIT_NAMES = { c: 'clubs', d: 'diamonds', h: 'hearts', s: 'spades' };
export const SUIT_SYMBOLS = { c: '♣', d: '♦', h: '♥', s: '♠' };
const RANK_NAMES = {
  7: 'seven', 8: 'eight', 9: 'nine', T: 'ten', J: 'jack', Q: 'queen', K: 'king', A: 'ace',
};
const RANK_SHOWN = { T: '10' };
// Strength, strongest first: trump and plain suits differ.
export const TRUMP_ORDER = 'J9ATKQ87';
export const PLAIN_ORDER = 'ATKQJ987';
// Hand order alternates colours: clubs, hearts, spades, diamonds.
const HAND_SUITS = 'chsd';

export const rankOf = (card) => card.slice(0, -1).toUpperCase().replace('10', 'T');
export const suitOf = (card) => card.slice(-1).toLowerCase();
export const isRed = (suit) => suit === 'h' || suit === 'd';
export const rankShown = (card) => RANK_SHOWN[rankOf(card)] || rankOf(card);

export function cardWords(card) {
  return `${RANK_NAMES[rankOf(card)]} of ${SUIT_NAMES[suitOf(card)]}`;
}

export function isCard(action) {
  return /^(10|[2-9TJQKA])[cdhs]$/i.test(action);
}

export function actionWords(action) {
  if (action === 'pass') return 'pass';
  if (action === 'take') return 'take the roem';
  if (action === 'leave') return 'leave the roem';
  if (action.startsWith('trump:')) return `${SUIT_NAMES[action.slice(6).toLowerCase()]} as trump`;
  return cardWords(action);
}

// A hand in display order: suits alternating in colour (trump first when known), each suit
// strongest card first.
export function sortHand(cards, trump = null) {
  const suitRank = (s) => (s === trump ? -1 : HAND_SUITS.indexOf(s));
  const strength = (c) => (suitOf(c) === trump ? TRUMP_ORDER : PLAIN_ORDER).indexOf(rankOf(c));
  return [...cards].sort(
    (a, b) => suitRank(suitOf(a)) - suitRank(suitOf(b)) || strength(a) - strength(b),
  );
}
