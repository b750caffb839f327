// The card element: a face with rank and suit, used in the hand, the trick and elsewhere.

import { h } from './dom.js';
import { SUIT_SYMBOLS, cardWords, isRed, rankShown, suitOf } from './cards.js';

// The face of a card: rank and suit in the corners, the suit large in the middle.
export function cardFace(card, { trump = null } = {}) {
  const suit = suitOf(card);
  return [
    h('span', { class: 'corner', 'aria-hidden': 'true' },
      h('span', { class: 'rank' }, rankShown(card)),
      h('span', { class: 'pip' }, SUIT_SYMBOLS[suit])),
    h('span', { class: 'big', 'aria-hidden': 'true' }, SUIT_SYMBOLS[suit]),
    suit === trump ? h('span', { class: 'trump-mark', 'aria-hidden': 'true' }, '★') : null,
  ];
}

// A card shown (not pressed): in the trick, the last trick, the turned card.
export function cardView(card, attrs = {}, trump = null) {
  const suit = suitOf(card);
  return h('div', {
    ...attrs,
    class: ['card', isRed(suit) ? 'red' : 'black', attrs.class],
    role: 'img',
    'aria-label': attrs['aria-label'] ?? cardWords(card),
    dataset: { card, ...(attrs.dataset || {}) },
  }, cardFace(card, { trump }));
}
