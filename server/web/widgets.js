// Small view pieces the screens share: a pager for long lists, a player's name that opens
// their profile, who accepted a rematch.

import { h } from './dom.js';
import { rematchName } from './state.js';

// "‹ Previous · 21–40 of 57 · Next ›" over a list shown `page` rows at a time; its buttons
// carry `data-<which>-page` = `prev` / `next`. Nothing while everything fits on one page.
export function pager(which, offset, shown, total, page = 20) {
  if (total <= page && offset === 0) return null;
  let range = `${offset + 1}–${offset + shown} of ${total}`;
  if (shown === 1) range = `${offset + 1} of ${total}`;
  else if (!shown) range = `none of ${total}`;
  return h('div', { class: 'pager', role: 'group', 'aria-label': 'Pages', dataset: { key: `${which}-pager` } },
    h('button', {
      type: 'button', class: 'small', dataset: { [`${which}Page`]: 'prev' }, disabled: offset === 0,
      'aria-label': `Previous ${page}`,
    }, '‹ Previous'),
    h('span', { class: 'muted small' }, range),
    h('button', {
      type: 'button', class: 'small', dataset: { [`${which}Page`]: 'next' }, disabled: offset + page >= total,
      'aria-label': `Next ${page}`,
    }, 'Next ›'));
}

// A player's nickname as a button that opens their profile (`data-open-profile`).
export function playerName(playerId, nickname) {
  if (!playerId) return h('span', { class: 'player-name' }, nickname ?? '?');
  return h('button', {
    type: 'button', class: 'player-name link', dataset: { openProfile: playerId },
    title: `${nickname}: profile`,
  }, nickname ?? '?');
}

// Who accepted (✓) and who has not yet (…).
export function rematchPlayers(r, room, me) {
  return h('ul', { class: 'rematch-players', 'aria-label': 'Who accepted the rematch' },
    [...r.accepted.map((id) => [id, true]), ...r.waiting.map((id) => [id, false])].map(([id, yes]) => h('li', {
      class: ['chip', yes ? 'you' : 'empty'], dataset: { playerId: id, accepted: String(yes), key: id },
    }, h('span', { 'aria-hidden': 'true' }, yes ? '✓ ' : '… '), rematchName(room, id, me),
    h('span', { class: 'sr-only' }, yes ? ' accepted' : ' has not accepted yet'))));
}
