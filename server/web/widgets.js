// Small view pieces the screens share: a pager for long lists, a player's name that opens
// their profile, who accepted a rematch.

import { h } from './dom.js';
import { rematchName } from './state.js';
import { fill } from './fill.js';
import { strings } from './i18n.js';

const TEXT = strings('widgets', {
  range: '{first}–{last} of {total}', // a pager: the rows shown, "21–40 of 57"
  rangeOne: '{first} of {total}', // a pager: one row shown, "41 of 41"
  rangeNone: 'none of {total}', // a pager: no row shown
  pages: 'Pages', // the pager's label (read out)
  previous: '‹ Previous', // the pager's button
  next: 'Next ›', // the pager's button
  previousLabel: 'Previous {n}', // the pager's button, read out: the previous 20 rows
  nextLabel: 'Next {n}', // the pager's button, read out: the next 20 rows
  profile: '{name}: profile', // a player's name's tooltip: it opens their profile
  accepted: 'Who accepted the rematch',
  hasAccepted: '{name} accepted', // read out: a player accepted the rematch
  notYet: '{name} has not accepted yet', // read out: a player has not accepted the rematch yet
  youAccepted: 'You accepted', // read out: you accepted the rematch
  youNotYet: 'You have not accepted yet', // read out: you have not accepted the rematch yet
});

// "‹ Previous · 21–40 of 57 · Next ›" over a list shown `page` rows at a time; its buttons
// carry `data-<which>-page` = `prev` / `next`. Nothing while everything fits on one page.
export function pager(which, offset, shown, total, page = 20) {
  if (total <= page && offset === 0) return null;
  let range = fill(TEXT.range, { first: offset + 1, last: offset + shown, total });
  if (shown === 1) range = fill(TEXT.rangeOne, { first: offset + 1, total });
  else if (!shown) range = fill(TEXT.rangeNone, { total });
  return h('div', { class: 'pager', role: 'group', 'aria-label': TEXT.pages, dataset: { key: `${which}-pager` } },
    h('button', {
      type: 'button', class: 'small', dataset: { [`${which}Page`]: 'prev' }, disabled: offset === 0,
      'aria-label': fill(TEXT.previousLabel, { n: page }),
    }, TEXT.previous),
    h('span', { class: 'muted small' }, range),
    h('button', {
      type: 'button', class: 'small', dataset: { [`${which}Page`]: 'next' }, disabled: offset + page >= total,
      'aria-label': fill(TEXT.nextLabel, { n: page }),
    }, TEXT.next));
}

// A player's nickname as a button that opens their profile (`data-open-profile`).
export function playerName(playerId, nickname) {
  if (!playerId) return h('span', { class: 'player-name' }, nickname ?? '?');
  return h('button', {
    type: 'button', class: 'player-name link', dataset: { openProfile: playerId },
    title: fill(TEXT.profile, { name: nickname }),
  }, nickname ?? '?');
}

// Who accepted (✓) and who has not yet (…).
export function rematchPlayers(r, room, me) {
  return h('ul', { class: 'rematch-players', 'aria-label': TEXT.accepted },
    [...r.accepted.map((id) => [id, true]), ...r.waiting.map((id) => [id, false])].map(([id, yes]) => h('li', {
      class: ['chip', yes ? 'you' : 'empty'], dataset: { playerId: id, accepted: String(yes), key: id },
    }, h('span', { 'aria-hidden': 'true' }, yes ? '✓ ' : '… ', rematchName(room, id, me)),
    h('span', { class: 'sr-only' }, id === me
      ? (yes ? TEXT.youAccepted : TEXT.youNotYet)
      : fill(yes ? TEXT.hasAccepted : TEXT.notYet, { name: rematchName(room, id, me) })))));
}
