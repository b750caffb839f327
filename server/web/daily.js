// The daily game's boards: a day's results (today's once you have finished today's game),
// each deal against the field, a past day's deals as dealt, and the all-time board.
//
// The state is `app.boards`, changed only by the pure reducers below (no DOM); the
// render functions draw the #boards screen from it.

import { $, h, patch, show } from './dom.js';
import { SUIT_NAMES, SUIT_SYMBOLS, isRed, rankOf, rankShown, sortHand, suitOf } from './cards.js';
import { pager, playerName } from './widgets.js';
import { fill, fillParts, plural } from './fill.js';
import { currentLanguage, strings } from './i18n.js';
import { confirmStep } from './dialogs.js';

export const PAGE = 20; // rows a page
const DAY_MS = 86_400_000;
const HAND_ORDER = ['c', 'h', 's', 'd']; // the hand's alternating colours, as at the table

// The daily boards' words (the #boards screen's Day and All-time tabs).
const TEXT = strings('daily', {
  seat_0: 'You', // a revealed deal's hands, as the table shows seat 0's view: your hand
  seat_1: 'Right', // the hand of the player on your right
  seat_2: 'Partner', // your partner's hand
  seat_3: 'Left', // the hand of the player on your left
  rank_7: 'seven', // a card's rank, read out in a revealed deal's hand
  rank_8: 'eight',
  rank_9: 'nine',
  rank_T: 'ten',
  rank_J: 'jack',
  rank_Q: 'queen',
  rank_K: 'king',
  rank_A: 'ace',
  untilHours: '{h} h {m} min', // time left until midnight
  untilMinutes: '{m} min', // time left until midnight
  streak: { one: 'Your streak: {n} day in a row', other: 'Your streak: {n} days in a row' },
  noStreak: 'No streak yet: play today',
  loading: 'Loading the board…',
  nobodyFinished: 'Nobody finished the daily game of {date}.', // date: "Monday 3 June 2024"
  notFinished: 'Today’s board shows once you have finished today’s daily game.',
  notFinishedWhy: 'Everyone plays the same deals beside the same CPUs: play yours first, then see how the others did.',
  continueDaily: 'Continue today’s daily game',
  playDaily: 'Play today’s daily game',
  yesterday: 'See yesterday’s board',
  notYetDay: '{date} has not come yet.',
  notYet: 'That day has not come yet.',
  utc: 'Days are counted in UTC; today is {date}.',
  todayBoard: 'Today’s board',
  today: 'today', // a chip beside the board's date
  finished: { one: '{n} player finished this daily game.', other: '{n} players finished this daily game.' },
  youLabel: 'You:', // before your own result on the board
  youLine: { // your result: rank of n players, your points, and (diff) your difference from the field
    one: 'rank {rank} of {n} · {total} points · {diff}',
    other: 'rank {rank} of {n} · {total} points · {diff}',
  },
  againstField: '{diff} against the field', // diff: "+12.5"
  showMine: 'Show my row',
  notPlayed: 'You did not play this daily game.',
  caption: 'Results of {date}, ranks {first} to {last}', // the results table's caption (read out)
  rank: 'Rank', // a column
  player: 'Player', // a column
  total: 'Total', // a column: the points of the match
  fieldTitle: 'The total minus the field’s: the sum of each deal’s mean score', // the Against the field column's tooltip
  fieldColumn: 'Against the field', // a column: the total minus the field's
  you: 'you', // a chip beside your own row
  theDeals: 'The deals', // a past day's deals (the hands shown)
  dealByDeal: 'Deal by deal', // today's deals (the hands hidden)
  dealsNote: 'Each deal is scored against the field: your team’s points minus the mean of everyone who finished that day’s game.',
  dealsOpen: 'Open a deal to see the four hands as they were dealt.',
  best: 'The day’s best:', // before the best players of the day
  bestPlayer: '{rank}. {name} {total}', // one of the day's best: "1. ann 1620"
  bestPoints: '{name} {points}', // a best player's points in one deal
  deal: 'Deal {n}',
  meanTitle: { one: 'The mean of {n} game', other: 'The mean of {n} games' },
  fieldMean: 'field {mean}', // the field's mean score in one deal
  yourPoints: 'you {points}', // your team's points in one deal
  dealDiff: 'against the field', // read out after your difference in one deal ("+21.0")
  dealer: 'Dealer', // tooltip of the dealer's mark
  dealerMark: '(dealer)', // after the dealer's seat in a revealed deal
  suitCards: '{suit}: {cards}', // read out: a suit of a hand and its cards
  noCards: 'none', // read out: a hand with no cards of a suit
  loadingAlltime: 'Loading the all-time board…',
  alltimeRule: {
    one: 'Players ranked by their mean difference from the field in a daily game, once they have finished at least {n} daily game.',
    other: 'Players ranked by their mean difference from the field in a daily game, once they have finished at least {n} daily games.',
  },
  alltimeDelay: 'A day counts once it is two days past.',
  alltimeCaption: 'All-time board', // the table's caption (read out)
  days: 'Days', // a column: the number of daily games played
  meanColumn: 'Mean against the field', // a column
  alltimeEmpty: {
    one: 'Nobody has finished {n} daily game yet.',
    other: 'Nobody has finished {n} daily games yet.',
  },
});

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
  return new Date(`${day}T00:00:00Z`).toLocaleDateString(currentLanguage(), {
    weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC',
  });
}

// Until the next UTC midnight, in words: "3 h 12 min".
export function untilMidnight(now = Date.now()) {
  const minutes = Math.max(1, Math.ceil((DAY_MS - (now % DAY_MS)) / 60_000));
  const hours = Math.floor(minutes / 60);
  return hours ? fill(TEXT.untilHours, { h: hours, m: minutes % 60 }) : fill(TEXT.untilMinutes, { m: minutes });
}

// -- starting today's game ------------------------------------------------------------------

// The question before today's one attempt starts (namespace `daily.start`).
const START = strings('daily.start', {
  title: 'Start today’s daily game?',
  once: 'You have one attempt a day: once you start, this game is today’s, and leaving it or starting again does not give you another.',
  away: 'Nobody plays your cards for you: if you go away, your game waits for you until the day’s games close, after midnight (UTC). A game not finished by then ends unfinished, with no place on the board.',
  start: 'Start the daily game', // the button that starts it
  notNow: 'Not now', // the button that keeps the attempt for later
});

// Whether the player, told that today's game is one attempt, starts it (a dialog).
export function confirmDailyStart() {
  return confirmStep({
    kind: 'daily', title: START.title, body: [START.once, START.away], yes: START.start, no: START.notNow,
  });
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

// A number with one decimal, as the page's language writes it ("12.5", "12,5").
export const oneDecimal = (x) => x.toLocaleString(currentLanguage(), {
  minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false,
});

export function signed(x) {
  const text = oneDecimal(Math.abs(x));
  if (x > 0) return `+${text}`;
  if (x < 0) return `−${text}`;
  return `±${text}`;
}

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
  streak.textContent = b.streak ? plural(TEXT.streak, b.streak) : TEXT.noStreak;
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
    content = [h('p', { class: 'muted' }, TEXT.loading)];
  } else if (b.board.players === 0) {
    state = 'empty';
    content = [
      boardTitle(b.board, today),
      h('p', { class: 'board-message' }, fill(TEXT.nobodyFinished, { date: longDay(b.board.date) })),
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
      h('p', {}, h('strong', {}, TEXT.notFinished)),
      h('p', { class: 'muted small' }, TEXT.notFinishedWhy),
      h('div', { class: 'item-actions' },
        h('button', { type: 'button', class: 'primary', dataset: { playDaily: '' } },
          going ? TEXT.continueDaily : TEXT.playDaily),
        h('button', { type: 'button', dataset: { boardDay: 'prev' } }, TEXT.yesterday)))];
  }
  if (error.code === 'no_such_day') {
    const day = error.date;
    return [h('div', { class: 'board-message', dataset: { key: 'refused' } },
      h('p', {}, h('strong', {}, isDay(day) ? fill(TEXT.notYetDay, { date: longDay(day) }) : TEXT.notYet)),
      h('p', { class: 'muted small' }, fill(TEXT.utc, { date: longDay(today) })),
      h('div', { class: 'item-actions' },
        h('button', { type: 'button', class: 'primary', dataset: { boardDay: 'today' } }, TEXT.todayBoard)))];
  }
  return [h('p', { class: 'board-message' }, error.message)];
}

function boardTitle(board, today) {
  return h('div', { class: 'board-title', dataset: { key: 'title' } },
    h('h2', {}, longDay(board.date), board.date === today ? h('span', { class: 'chip you' }, TEXT.today) : null),
    h('p', { class: 'muted small' }, plural(TEXT.finished, board.players)));
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
        h('strong', {}, TEXT.youLabel), ' ',
        fillParts(plural(TEXT.youLine, board.players, { rank: you.rank, total: you.total }), {
          diff: h('span', { class: ['diff', you.difference > 0 && 'up', you.difference < 0 && 'down'] },
            fill(TEXT.againstField, { diff: signed(you.difference) })),
        }),
        !mineShown
          ? [' ', h('button', { type: 'button', class: 'small ghost', dataset: { boardMine: you.rank } }, TEXT.showMine)]
          : null)
      : h('p', { class: 'muted small', dataset: { key: 'you' } }, TEXT.notPlayed),
    h('div', { class: 'board-table-wrap', dataset: { key: 'table' } },
      h('table', { id: 'board-table', class: 'board-table' },
        h('caption', { class: 'sr-only' }, fill(TEXT.caption, { date: longDay(board.date), first, last })),
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col', class: 'num' }, TEXT.rank),
          h('th', { scope: 'col' }, TEXT.player),
          h('th', { scope: 'col', class: 'num' }, TEXT.total),
          h('th', { scope: 'col', class: 'num', title: TEXT.fieldTitle }, TEXT.fieldColumn))),
        h('tbody', {}, rows.map((r) => {
          const mine = r.player_id === me;
          return h('tr', {
            class: mine && 'you', dataset: { playerId: r.player_id, rank: r.rank, key: r.player_id },
            'aria-current': mine ? 'true' : null,
          },
          h('td', { class: 'num rank' }, String(r.rank)),
          h('th', { scope: 'row', class: 'nick' }, playerName(r.player_id, r.nickname), mine ? h('span', { class: 'chip you' }, TEXT.you) : null),
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
    h('h3', { id: 'deals-title' }, past ? TEXT.theDeals : TEXT.dealByDeal),
    h('p', { class: 'muted small' }, TEXT.dealsNote, past ? [' ', TEXT.dealsOpen] : null),
    best.length
      ? h('p', { id: 'board-best', class: 'small' }, h('strong', {}, TEXT.best), ' ',
        best.map((p, i) => h('span', { class: 'best-name', dataset: { key: `b${i}` } },
          i ? ' · ' : '', fill(TEXT.bestPlayer, { rank: i + 1, name: p.nickname, total: p.total }))))
      : null,
    h('ol', { class: 'deal-list' }, field.map((f) => dealItem(app, board, f, revealed[f.number], best))));
}

// Your own points in a deal and their difference from the field's mean (you finished it).
function yourDeal(you, number) {
  const points = you?.points?.[number];
  if (points === undefined) return null;
  const diff = you.differences?.[number] ?? 0;
  const sign = [diff > 0 && 'up', diff < 0 && 'down'];
  return [
    h('span', { class: 'deal-you', dataset: { points } }, fill(TEXT.yourPoints, { points })),
    h('span', { class: ['deal-diff diff', sign], title: TEXT.dealDiff, dataset: { diff } },
      signed(diff), h('span', { class: 'sr-only' }, ` ${TEXT.dealDiff}`)),
  ];
}

function dealItem(app, board, f, deal, best) {
  const day = board.date;
  const mine = yourDeal(board.you, f.number);
  const head = [
    h('span', { class: 'deal-no' }, fill(TEXT.deal, { n: f.number + 1 })),
    mine?.[0],
    h('span', { class: 'deal-mean', title: plural(TEXT.meanTitle, f.players) },
      fill(TEXT.fieldMean, { mean: oneDecimal(f.mean) })),
    mine?.[1],
    best.length
      ? h('span', { class: 'deal-best' }, best.map((p, i) => h('span', { class: 'best-points' },
        fill(TEXT.bestPoints, { name: p.nickname, points: p.points?.[f.number] ?? '–' }), i < best.length - 1 ? ' · ' : '')))
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
    h('span', { class: 'hand-who' }, TEXT[`seat_${seat}`],
      seat === dealer ? [' ', h('span', { class: 'dealer-mark', title: TEXT.dealer }, TEXT.dealerMark)] : null),
    h('span', { class: 'hand-cards' }, HAND_ORDER.map((suit) => {
      const ranks = sorted.filter((c) => suitOf(c) === suit);
      const words = ranks.length ? ranks.map((c) => TEXT[`rank_${rankOf(c)}`]).join(', ') : TEXT.noCards;
      return h('span', { class: ['suit-group', isRed(suit) && 'red'] },
        h('span', { class: 'sr-only' }, fill(TEXT.suitCards, { suit: SUIT_NAMES[suit], cards: words }), '; '),
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
    patch(body, h('p', { class: 'muted' }, TEXT.loadingAlltime));
    return;
  }
  const rows = a.rows ?? [];
  body.dataset.state = rows.length ? 'board' : 'empty';
  patch(body,
    h('p', { class: 'muted small', id: 'alltime-rule', dataset: { minDays: a.min_days } },
      plural(TEXT.alltimeRule, a.min_days), ' ', TEXT.alltimeDelay),
    rows.length
      ? h('div', { class: 'board-table-wrap' },
        h('table', { id: 'alltime-table', class: 'board-table' },
          h('caption', { class: 'sr-only' }, TEXT.alltimeCaption),
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col', class: 'num' }, TEXT.rank),
            h('th', { scope: 'col' }, TEXT.player),
            h('th', { scope: 'col', class: 'num' }, TEXT.days),
            h('th', { scope: 'col', class: 'num' }, TEXT.meanColumn))),
          h('tbody', {}, rows.map((r) => {
            const mine = r.player_id === app.me;
            return h('tr', {
              class: mine && 'you', dataset: { playerId: r.player_id, rank: r.rank, key: r.player_id },
              'aria-current': mine ? 'true' : null,
            },
            h('td', { class: 'num rank' }, String(r.rank)),
            h('th', { scope: 'row', class: 'nick' }, playerName(r.player_id, r.nickname), mine ? h('span', { class: 'chip you' }, TEXT.you) : null),
            h('td', { class: 'num' }, String(r.days)),
            h('td', { class: ['num diff', r.average > 0 && 'up', r.average < 0 && 'down'] }, signed(r.average)));
          }))))
      : h('p', { class: 'board-message' }, plural(TEXT.alltimeEmpty, a.min_days)),
    pager('alltime', a.offset, rows.length, a.players));
}
