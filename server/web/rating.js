// The rating board: players ranked by their conservative rating (mu − 3 sigma), once they
// have played enough rated matches. The third tab of the #boards screen.
//
// Its state lives in `app.boards` (`rating`, `ratingOffset`, `ratingPending`), changed only
// by the pure reducers below; `renderRating` draws #rating-body from it.

import { $, h, patch } from './dom.js';
import { PAGE } from './daily.js';
import { pager, playerName } from './widgets.js';

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
// A rating with two decimals, as the server rounds it (a true minus sign when below 0).
export const fixed = (x) => {
  if (typeof x !== 'number') return '–';
  return x < 0 ? `−${(-x).toFixed(2)}` : x.toFixed(2);
};

// -- state ------------------------------------------------------------------------------------

export function ratingMessage(b) {
  return { type: 'rating_board', offset: b.ratingOffset, limit: PAGE };
}

export function ratingAsked(b) {
  return { ...b, ratingPending: b.ratingPending + 1 };
}

// Replies come in the order asked: while more are on their way, this one is already old.
export function ratingReply(b, f) {
  const ratingPending = Math.max(0, b.ratingPending - 1);
  return ratingPending > 0 ? { ...b, ratingPending } : { ...b, ratingPending, rating: f };
}

export function ratingRefused(b) {
  return { ...b, ratingPending: Math.max(0, b.ratingPending - 1) };
}

// -- rendering --------------------------------------------------------------------------------

export function renderRating(app) {
  const b = app.boards;
  const a = b.rating;
  const body = $('#rating-body');
  body.setAttribute('aria-busy', String(b.ratingPending > 0));
  if (!a) {
    body.dataset.state = 'loading';
    patch(body, h('p', { class: 'muted' }, 'Loading the rating board…'));
    return;
  }
  const rows = a.rows ?? [];
  body.dataset.state = rows.length ? 'board' : 'empty';
  const you = a.you;
  const mineShown = rows.some((r) => r.player_id === app.me);
  patch(body,
    h('p', { class: 'muted small', id: 'rating-rule', dataset: { minMatches: a.min_matches, key: 'rule' } },
      `Players ranked by their rating once they have played ${plural(a.min_matches, 'rated match', 'rated matches')}. `,
      'A match is rated when four people start it at a rated table (public tables and tournaments); ',
      'the rating is the model’s cautious estimate, μ − 3σ, so it grows as the model gets surer of you.'),
    youLine(a, you, mineShown),
    rows.length
      ? h('div', { class: 'board-table-wrap', dataset: { key: 'table' } },
        h('table', { id: 'rating-table', class: 'board-table' },
          h('caption', { class: 'sr-only' }, `Rating board, ranks ${a.offset + 1} to ${a.offset + rows.length}`),
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col', class: 'num' }, 'Rank'),
            h('th', { scope: 'col' }, 'Player'),
            h('th', { scope: 'col', class: 'num' }, 'Rating'),
            h('th', { scope: 'col', class: 'num belief', title: 'The model’s belief μ and its uncertainty σ' }, 'μ / σ'),
            h('th', { scope: 'col', class: 'num' }, 'Matches'))),
          h('tbody', {}, rows.map((r) => {
            const mine = r.player_id === app.me;
            return h('tr', {
              class: mine && 'you', dataset: { playerId: r.player_id, rank: r.rank, key: r.player_id },
              'aria-current': mine ? 'true' : null,
            },
            h('td', { class: 'num rank' }, String(r.rank)),
            h('th', { scope: 'row', class: 'nick' }, playerName(r.player_id, r.nickname),
              mine ? h('span', { class: 'chip you' }, 'you') : null),
            h('td', { class: 'num rating' }, fixed(r.rating)),
            h('td', { class: 'num belief muted small' }, `${fixed(r.mu)} / ${fixed(r.sigma)}`),
            h('td', { class: 'num matches' }, String(r.matches)));
          }))))
      : h('p', { class: 'board-message', dataset: { key: 'empty' } },
        `Nobody has played ${plural(a.min_matches, 'rated match', 'rated matches')} yet.`),
    pager('rating', a.offset, rows.length, a.players, PAGE));
}

function youLine(a, you, mineShown) {
  if (!you) {
    return h('p', { id: 'rating-you', class: 'muted small', dataset: { key: 'you' } },
      'You have no rating yet: play a rated match (four people at a public table, or a tournament).');
  }
  const listed = you.rank !== null && you.rank !== undefined;
  const more = Math.max(0, a.min_matches - you.matches);
  return h('p', { id: 'rating-you', class: 'board-you', dataset: { key: 'you', rank: you.rank ?? '' } },
    h('strong', {}, 'You: '),
    listed ? `rank ${you.rank} of ${a.players} · ` : '',
    `rating ${fixed(you.rating)} after ${plural(you.matches, 'rated match', 'rated matches')}`,
    listed ? '' : ` · listed after ${plural(more, 'more rated match', 'more rated matches')}`,
    listed && !mineShown
      ? h('button', { type: 'button', class: 'small ghost', dataset: { ratingMine: you.rank } }, 'Show my row')
      : null);
}
