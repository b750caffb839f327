// The rating board: players ranked by their conservative rating (mu − 3 sigma), once they
// have played enough rated matches. The third tab of the #boards screen.
//
// Its state lives in `app.boards` (`rating`, `ratingOffset`, `ratingPending`), changed only
// by the pure reducers below; `renderRating` draws #rating-body from it.

import { $, h, patch } from './dom.js';
import { PAGE } from './daily.js';
import { pager, playerName } from './widgets.js';
import { fill, plural } from './fill.js';
import { currentLanguage, strings } from './i18n.js';

// The rating board's words (the third tab of the #boards screen).
const TEXT = strings('rating', {
  loading: 'Loading the rating board…',
  rule: {
    one: 'Players ranked by their rating once they have played {n} rated match.',
    other: 'Players ranked by their rating once they have played {n} rated matches.',
  },
  ruleRated: 'A match is rated when four people start it at a rated table (public tables and tournaments); the rating is the model’s cautious estimate, μ − 3σ, so it grows as the model gets surer of you.',
  caption: 'Rating board, ranks {first} to {last}', // the table's caption (read out)
  rank: 'Rank', // a column
  player: 'Player', // a column
  rating: 'Rating', // a column
  beliefTitle: 'The model’s belief μ and its uncertainty σ', // the μ / σ column's tooltip
  matches: 'Matches', // a column: rated matches played
  you: 'you', // a chip beside your own row
  empty: {
    one: 'Nobody has played {n} rated match yet.',
    other: 'Nobody has played {n} rated matches yet.',
  },
  noRating: 'You have no rating yet: play a rated match (four people at a public table, or a tournament).',
  youLabel: 'You:', // before your own rating
  youListed: { // your line on the board, listed: rank of (players) players, rating after n matches
    one: 'rank {rank} of {players} · rating {rating} after {n} rated match',
    other: 'rank {rank} of {players} · rating {rating} after {n} rated matches',
  },
  youUnlisted: { // your line, not yet listed: rating after n matches, and how many (more) to play
    one: 'rating {rating} after {n} rated match · listed after {more}',
    other: 'rating {rating} after {n} rated matches · listed after {more}',
  },
  more: { one: '{n} more rated match', other: '{n} more rated matches' }, // the rated matches still to play
  showMine: 'Show my row',
});

// A rating with two decimals, as the server rounds it (a true minus sign when below 0).
export const fixed = (x) => {
  if (typeof x !== 'number') return '–';
  const text = Math.abs(x).toLocaleString(currentLanguage(), {
    minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false,
  });
  return x < 0 ? `−${text}` : text;
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
    patch(body, h('p', { class: 'muted' }, TEXT.loading));
    return;
  }
  const rows = a.rows ?? [];
  body.dataset.state = rows.length ? 'board' : 'empty';
  const you = a.you;
  const mineShown = rows.some((r) => r.player_id === app.me);
  patch(body,
    h('p', { class: 'muted small', id: 'rating-rule', dataset: { minMatches: a.min_matches, key: 'rule' } },
      plural(TEXT.rule, a.min_matches), ' ', TEXT.ruleRated),
    youLine(a, you, mineShown),
    rows.length
      ? h('div', { class: 'board-table-wrap', dataset: { key: 'table' } },
        h('table', { id: 'rating-table', class: 'board-table' },
          h('caption', { class: 'sr-only' }, fill(TEXT.caption, { first: a.offset + 1, last: a.offset + rows.length })),
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col', class: 'num' }, TEXT.rank),
            h('th', { scope: 'col' }, TEXT.player),
            h('th', { scope: 'col', class: 'num' }, TEXT.rating),
            h('th', { scope: 'col', class: 'num belief', title: TEXT.beliefTitle }, 'μ / σ'),
            h('th', { scope: 'col', class: 'num' }, TEXT.matches))),
          h('tbody', {}, rows.map((r) => {
            const mine = r.player_id === app.me;
            return h('tr', {
              class: mine && 'you', dataset: { playerId: r.player_id, rank: r.rank, key: r.player_id },
              'aria-current': mine ? 'true' : null,
            },
            h('td', { class: 'num rank' }, String(r.rank)),
            h('th', { scope: 'row', class: 'nick' }, playerName(r.player_id, r.nickname),
              mine ? h('span', { class: 'chip you' }, TEXT.you) : null),
            h('td', { class: 'num rating' }, fixed(r.rating)),
            h('td', { class: 'num belief muted small' }, `${fixed(r.mu)} / ${fixed(r.sigma)}`),
            h('td', { class: 'num matches' }, String(r.matches)));
          }))))
      : h('p', { class: 'board-message', dataset: { key: 'empty' } },
        plural(TEXT.empty, a.min_matches)),
    pager('rating', a.offset, rows.length, a.players, PAGE));
}

function youLine(a, you, mineShown) {
  if (!you) {
    return h('p', { id: 'rating-you', class: 'muted small', dataset: { key: 'you' } },
      TEXT.noRating);
  }
  const listed = you.rank !== null && you.rank !== undefined;
  const more = Math.max(0, a.min_matches - you.matches);
  return h('p', { id: 'rating-you', class: 'board-you', dataset: { key: 'you', rank: you.rank ?? '' } },
    h('strong', {}, TEXT.youLabel), ' ',
    listed
      ? plural(TEXT.youListed, you.matches, { rank: you.rank, players: a.players, rating: fixed(you.rating) })
      : plural(TEXT.youUnlisted, you.matches, { rating: fixed(you.rating), more: plural(TEXT.more, more) }),
    listed && !mineShown
      ? h('button', { type: 'button', class: 'small ghost', dataset: { ratingMine: you.rank } }, TEXT.showMine)
      : null);
}
