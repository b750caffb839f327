// The daily game's boards: a day's results (today's once you have finished today's game),
// each deal against the field, a past day's deals as dealt, and the all-time board.
//
// The state is `app.boards`, changed only by the pure reducers below (no DOM); the
// render functions draw the #boards screen from it.

import { $, h, patch, show } from './dom.js';
import { SUIT_NAMES, SUIT_SYMBOLS, isRed, rankOf, rankShown, sortHand, suitOf } from './cards.js';
import { pager, playerName } from './widgets.js';

export const PAGE = 20; // rows a page
const DAY_MS = 86_400_000;
const HAND_ORDER = ['c', 'h', 's', 'd']; // the hand's alternating colours, as at the table
const SEAT_WORDS = ['You', 'Right', 'Partner', 'Left']; // as the table shows seat 0's view
const RANK_WORDS = { 7: 'seven', 8: 'eight', 9: 'nine', T: 'ten', J: 'jack', Q: 'queen', K: 'king', A: 'ace' };

// -- days (UTC, `YYYY-MM-DD`) -----------------------------------------------------------------

export const todayUtc = (now = Date.now()) => new Date(now).toISOString().slice(0, 10);
export const isDay = (text) => /^\d{4}-\d{2}-\d{2}$/.test(text ?? '') && !Number.isNaN(Date.parse(`${text}T00:00:00Z`));

export function shiftDay(day, days) {
  return todayUtc(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);
}

// The day of a daily game's room (its summary's `day`).
export function dayOfRoom(room) {
  return room?.day ?? null;
}

export function longDay(day) {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString([], {
    weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC',
  });
}

// Until the next UTC midnight, in words: "3 h 12 min".
export function untilMidnight(now = Date.now()) {
  const minutes = Math.max(1, Math.ceil((DAY_MS - (now % DAY_MS)) / 60_000));
  const hours = Math.floor(minutes / 60);
  return hours ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

// -- state ------------------------------------------------------------------------------------

export function newBoards() {
  return {
    view: 'day', // day | alltime | rating
    date: null, // the day asked for; null: today (the server's)
    offset: 0,
    board: null, // the last daily_board reply
    error: null, // {code, message, date} when the day's board was refused
    pending: 0, // daily_board requests unanswered (only the last one's reply is shown)
    streak: null,
    alltime: null,
    alltimeOffset: 0,
    alltimePending: 0,
    rating: null, // the last rating_board reply (rating.js)
    ratingOffset: 0,
    ratingPending: 0,
    open: new Set(), // revealed deals shown open: "date:number"
  };
}

export function boardMessage(b) {
  return { type: 'daily_board', ...(b.date ? { date: b.date } : {}), offset: b.offset, limit: PAGE };
}

export function alltimeMessage(b) {
  return { type: 'daily_alltime', offset: b.alltimeOffset, limit: PAGE };
}

// Replies come in the order asked: while more are on their way, this one is already old.
export function boardReply(b, f) {
  const pending = Math.max(0, b.pending - 1);
  if (pending > 0) return { ...b, pending };
  return { ...b, pending, board: f, error: null, streak: f.streak ?? b.streak };
}

export function boardRefused(b, f, sent) {
  const pending = Math.max(0, b.pending - 1);
  if (pending > 0) return { ...b, pending };
  return { ...b, pending, board: null, error: { code: f.code, message: f.message, date: sent?.date ?? null } };
}

export function alltimeReply(b, f) {
  const alltimePending = Math.max(0, b.alltimePending - 1);
  return alltimePending > 0 ? { ...b, alltimePending } : { ...b, alltimePending, alltime: f };
}

// -- words ------------------------------------------------------------------------------------

export function signed(x) {
  const text = Math.abs(x).toFixed(1);
  if (x > 0) return `+${text}`;
  if (x < 0) return `−${text}`;
  return `±${text}`;
}

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// -- rendering --------------------------------------------------------------------------------

export function renderBoards(app) {
  const b = app.boards;
  const day = b.view === 'day';
  for (const tab of document.querySelectorAll('#boards [role="tab"]')) {
    const selected = tab.dataset.boardView === b.view;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
  }
  $('#boards').dataset.view = b.view;
  show($('#board-day'), day);
  show($('#board-alltime'), b.view === 'alltime');
  show($('#board-rating'), b.view === 'rating'); // drawn by rating.js
  const streak = $('#board-streak');
  show(streak, b.streak !== null && b.streak !== undefined);
  streak.textContent = b.streak ? `Your streak: ${plural(b.streak, 'day')} in a row` : 'No streak yet: play today';
  if (day) renderDay(app);
  else if (b.view === 'alltime') renderAlltime(app);
}

function renderDay(app) {
  const b = app.boards;
  const today = todayUtc();
  const day = b.date ?? b.board?.date ?? today;
  const input = $('#board-date');
  input.max = today;
  if (document.activeElement !== input && input.value !== day) input.value = day;
  $('#boards [data-board-day="next"]').disabled = day >= today;
  $('#boards [data-board-day="today"]').disabled = b.date === null || b.date === today;

  const body = $('#board-body');
  body.setAttribute('aria-busy', String(b.pending > 0));
  // The deals a player opened stay open across redraws.
  for (const details of body.querySelectorAll('details[data-open-key]')) {
    if (details.open) b.open.add(details.dataset.openKey);
    else b.open.delete(details.dataset.openKey);
  }
  let state;
  let content;
  if (b.error && !b.pending) {
    state = b.error.code;
    content = refusal(app, b.error, today);
  } else if (!b.board) {
    state = 'loading';
    content = [h('p', { class: 'muted' }, 'Loading the board…')];
  } else if (b.board.players === 0) {
    state = 'empty';
    content = [
      boardTitle(b.board, today),
      h('p', { class: 'board-message' }, `Nobody finished the daily game of ${longDay(b.board.date)}.`),
    ];
  } else {
    state = 'board';
    content = board(app, b.board, today);
  }
  body.dataset.state = state;
  body.dataset.date = b.board?.date ?? b.error?.date ?? b.date ?? '';
  patch(body, content);
}

function refusal(app, error, today) {
  // (a past day not yet revealed: its games are still closing; the server says until when)
  if (error.code === 'daily_not_finished' && !(isDay(error.date) && error.date < today)) {
    const going = [...app.rooms.values()].some((m) => m.room?.mode === 'daily' && !m.result && !m.closed);
    return [h('div', { class: 'board-message', dataset: { key: 'refused' } },
      h('p', {}, h('strong', {}, 'Today’s board shows once you have finished today’s daily game.')),
      h('p', { class: 'muted small' },
        'Everyone plays the same deals beside the same CPUs: play yours first, then see how the others did.'),
      h('div', { class: 'item-actions' },
        h('button', { type: 'button', class: 'primary', dataset: { playDaily: '' } },
          going ? 'Continue today’s daily game' : 'Play today’s daily game'),
        h('button', { type: 'button', dataset: { boardDay: 'prev' } }, 'See yesterday’s board')))];
  }
  if (error.code === 'no_such_day') {
    const day = error.date;
    return [h('div', { class: 'board-message', dataset: { key: 'refused' } },
      h('p', {}, h('strong', {}, isDay(day) ? `${longDay(day)} has not come yet.` : 'That day has not come yet.')),
      h('p', { class: 'muted small' }, `Days are counted in UTC; today is ${longDay(today)}.`),
      h('div', { class: 'item-actions' },
        h('button', { type: 'button', class: 'primary', dataset: { boardDay: 'today' } }, 'Today’s board')))];
  }
  return [h('p', { class: 'board-message' }, error.message)];
}

function boardTitle(board, today) {
  return h('div', { class: 'board-title', dataset: { key: 'title' } },
    h('h2', {}, longDay(board.date), board.date === today ? h('span', { class: 'chip you' }, 'today') : null),
    h('p', { class: 'muted small' }, `${plural(board.players, 'player')} finished this daily game.`));
}

function board(app, board, today) {
  const me = app.me;
  const rows = board.rows ?? [];
  const you = board.you;
  const first = board.offset + 1;
  const last = board.offset + rows.length;
  const mineShown = rows.some((r) => r.player_id === me);
  return [
    boardTitle(board, today),
    you
      ? h('p', { id: 'board-you', class: 'board-you', dataset: { key: 'you', rank: you.rank } },
        h('strong', {}, 'You: '),
        `rank ${you.rank} of ${board.players} · ${you.total} points · `,
        h('span', { class: ['diff', you.difference > 0 && 'up', you.difference < 0 && 'down'] },
          `${signed(you.difference)} against the field`),
        !mineShown
          ? h('button', { type: 'button', class: 'small ghost', dataset: { boardMine: you.rank } }, 'Show my row')
          : null)
      : h('p', { class: 'muted small', dataset: { key: 'you' } }, 'You did not play this daily game.'),
    h('div', { class: 'board-table-wrap', dataset: { key: 'table' } },
      h('table', { id: 'board-table', class: 'board-table' },
        h('caption', { class: 'sr-only' }, `Results of ${longDay(board.date)}, ranks ${first} to ${last}`),
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col', class: 'num' }, 'Rank'),
          h('th', { scope: 'col' }, 'Player'),
          h('th', { scope: 'col', class: 'num' }, 'Total'),
          h('th', { scope: 'col', class: 'num', title: 'The total minus the field’s: the sum of each deal’s mean score' },
            'Against the field'))),
        h('tbody', {}, rows.map((r) => {
          const mine = r.player_id === me;
          return h('tr', {
            class: mine && 'you', dataset: { playerId: r.player_id, rank: r.rank, key: r.player_id },
            'aria-current': mine ? 'true' : null,
          },
          h('td', { class: 'num rank' }, String(r.rank)),
          h('th', { scope: 'row', class: 'nick' }, playerName(r.player_id, r.nickname), mine ? h('span', { class: 'chip you' }, 'you') : null),
          h('td', { class: 'num total' }, String(r.total)),
          h('td', { class: ['num diff', r.difference > 0 && 'up', r.difference < 0 && 'down'] }, signed(r.difference)));
        })))),
    pager('board', board.offset, rows.length, board.players),
    deals(app, board),
  ];
}

function deals(app, board) {
  const field = board.field ?? [];
  if (!field.length) return null;
  const revealed = board.deals ?? [];
  const best = board.best ?? [];
  const past = revealed.length > 0;
  return h('section', { id: 'board-deals', class: 'board-deals', 'aria-labelledby': 'deals-title', dataset: { key: 'deals' } },
    h('h3', { id: 'deals-title' }, past ? 'The deals' : 'Deal by deal'),
    h('p', { class: 'muted small' },
      'Each deal is scored against the field: your team’s points minus the mean of everyone who finished that day’s game.',
      past ? ' Open a deal to see the four hands as they were dealt.' : ''),
    best.length
      ? h('p', { id: 'board-best', class: 'small' }, h('strong', {}, 'The day’s best: '),
        best.map((p, i) => h('span', { class: 'best-name', dataset: { key: `b${i}` } },
          i ? ' · ' : '', `${i + 1}. ${p.nickname} ${p.total}`)))
      : null,
    h('ol', { class: 'deal-list' }, field.map((f) => dealItem(app, board.date, f, revealed[f.number], best))));
}

function dealItem(app, day, f, deal, best) {
  const head = [
    h('span', { class: 'deal-no' }, `Deal ${f.number + 1}`),
    h('span', { class: 'deal-mean', title: `The mean of ${plural(f.players, 'game')}` }, `field ${f.mean.toFixed(1)}`),
    best.length
      ? h('span', { class: 'deal-best' }, best.map((p, i) => h('span', { class: 'best-points' },
        `${p.nickname} ${p.points?.[f.number] ?? '–'}`, i < best.length - 1 ? ' · ' : '')))
      : null,
  ];
  const key = `${day}:${f.number}`;
  if (!deal) return h('li', { class: 'deal', dataset: { deal: f.number, key } }, h('div', { class: 'deal-head' }, head));
  return h('li', { class: 'deal', dataset: { deal: f.number, key } },
    h('details', { open: app.boards.open.has(key), dataset: { openKey: key } },
      h('summary', { class: 'deal-head' }, head),
      h('div', { class: 'hands' }, deal.hands.map((cards, seat) => handLine(cards, seat, deal.dealer)))));
}

function handLine(cards, seat, dealer) {
  const sorted = sortHand(cards);
  return h('div', { class: 'hand-line', dataset: { seat, cards: cards.join(' ') } },
    h('span', { class: 'hand-who' }, SEAT_WORDS[seat],
      seat === dealer ? h('span', { class: 'dealer-mark', title: 'Dealer' }, ' (dealer)') : null),
    h('span', { class: 'hand-cards' }, HAND_ORDER.map((suit) => {
      const ranks = sorted.filter((c) => suitOf(c) === suit);
      const words = ranks.length ? ranks.map((c) => RANK_WORDS[rankOf(c)]).join(', ') : 'none';
      return h('span', { class: ['suit-group', isRed(suit) && 'red'] },
        h('span', { class: 'sr-only' }, `${SUIT_NAMES[suit]}: ${words}; `),
        h('span', { class: 'pip', 'aria-hidden': 'true' }, SUIT_SYMBOLS[suit]),
        h('span', { 'aria-hidden': 'true' }, ranks.length ? ranks.map(rankShown).join(' ') : '—'));
    })));
}

function renderAlltime(app) {
  const b = app.boards;
  const a = b.alltime;
  const body = $('#alltime-body');
  body.setAttribute('aria-busy', String(b.alltimePending > 0));
  if (!a) {
    body.dataset.state = 'loading';
    patch(body, h('p', { class: 'muted' }, 'Loading the all-time board…'));
    return;
  }
  const rows = a.rows ?? [];
  body.dataset.state = rows.length ? 'board' : 'empty';
  patch(body,
    h('p', { class: 'muted small', id: 'alltime-rule', dataset: { minDays: a.min_days } },
      `Players ranked by their mean difference from the field in a daily game, once they have finished at least ${plural(a.min_days, 'daily game')}. `,
      'A day counts once it is two days past.'),
    rows.length
      ? h('div', { class: 'board-table-wrap' },
        h('table', { id: 'alltime-table', class: 'board-table' },
          h('caption', { class: 'sr-only' }, 'All-time board'),
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col', class: 'num' }, 'Rank'),
            h('th', { scope: 'col' }, 'Player'),
            h('th', { scope: 'col', class: 'num' }, 'Days'),
            h('th', { scope: 'col', class: 'num' }, 'Mean against the field'))),
          h('tbody', {}, rows.map((r) => {
            const mine = r.player_id === app.me;
            return h('tr', {
              class: mine && 'you', dataset: { playerId: r.player_id, rank: r.rank, key: r.player_id },
              'aria-current': mine ? 'true' : null,
            },
            h('td', { class: 'num rank' }, String(r.rank)),
            h('th', { scope: 'row', class: 'nick' }, playerName(r.player_id, r.nickname), mine ? h('span', { class: 'chip you' }, 'you') : null),
            h('td', { class: 'num' }, String(r.days)),
            h('td', { class: ['num diff', r.average > 0 && 'up', r.average < 0 && 'down'] }, signed(r.average)));
          }))))
      : h('p', { class: 'board-message' }, `Nobody has finished ${plural(a.min_days, 'daily game')} yet.`),
    pager('alltime', a.offset, rows.length, a.players));
}
