// The results at the table: the end-of-deal panel shown while the room pauses between
// deals (#deal-end), and the match's end with its statistics (#result). The explanations
// of a deal's score (made, nat, pit) are also the score sheet's.

import { $, h, patch, show } from './dom.js';
import { SUIT_NAMES, SUIT_SYMBOLS, isRed } from './cards.js';
import { fill, fillParts } from './fill.js';
import { currentLanguage, strings } from './i18n.js';
import {
  isSeated, paused, rematchState, rematchWords, seatName, teamLabel, teamOf, teamOrder, teamPlayers, teamSide,
} from './state.js';
import { dayOfRoom, todayUtc } from './daily.js';
import { reviewOpen } from './review.js';
import { rematchPlayers } from './widgets.js';

// {suit}: a suit's name, {symbol} its sign (♥); {name}: a player; {team}, {playing},
// {other}: a team ("Us", "Them" or two players' names); {ours}/{theirs}: points.
const TEXT = strings('results', {
  dealTitle: 'Deal {number}: {suit} {symbol}, chosen by {name}',
  dealTitleOf: 'Deal {number} of {of}: {suit} {symbol}, chosen by {name}',
  team: 'Team', // the head of the column of row names (read out only)
  madeUs: 'Made: we played {suit} and scored more than them, {ours} against {theirs}; each team scores its own points and roem.',
  madeThem: 'Made: they played {suit} and scored more than us, {theirs} against {ours}; each team scores its own points and roem.',
  madeTeam: 'Made: {playing} played {suit} and scored more, {ours} against {theirs}; each team scores its own points and roem.',
  natUs: 'Nat: we played {suit} but did not score more than them ({ours} against {theirs}), so they take all 162 points and all roem: {award}.',
  natThem: 'Nat: they played {suit} but did not score more than us ({theirs} against {ours}), so we take all 162 points and all roem: {award}.',
  natTeam: 'Nat: {playing} played {suit} but did not score more than {other} ({ours} against {theirs}), so {other} take all 162 points and all roem: {award}.',
  pitUs: 'Pit: we took all eight tricks, and score 100 more.',
  pitThem: 'Pit: they took all eight tricks, and score 100 more.',
  pitTeam: 'Pit: {team} took all eight tricks, and score 100 more.',
  pitNoBonusUs: 'Pit: we took all eight tricks (no bonus: only the playing team earns it here).',
  pitNoBonusThem: 'Pit: they took all eight tricks (no bonus: only the playing team earns it here).',
  pitNoBonusTeam: 'Pit: {team} took all eight tricks (no bonus: only the playing team earns it here).',
  seenTitle: 'Seen by',
  seenLabel: '{name} has seen the result',
  notSeenLabel: '{name} is still looking',
  countdown: 'The next deal starts in {n} s',
  countdownLabel: 'The next deal starts in {n} seconds, or once everyone has continued',
  continue: 'Continue',
  continued: 'Waiting for the others…',
  matchWon: 'You won the match!',
  matchLost: 'You lost the match',
  teamWon: '{team} won',
  lastDeal: 'Last deal: {text}',
  statsTitle: 'The match in numbers',
  chooserValue: '{won} of {chose}',
  dailyNote: 'Your score is on the day’s board: see how the others did with the same cards.',
  backTournament: 'Back to the tournament',
  todaysBoard: 'See today’s board',
  dayBoard: 'See the board of {day}', // {day}: a date, "2 December 2026"
  newGame: 'New game',
  review: 'Review this match',
  lobby: 'Back to the lobby',
  acceptRematch: 'Accept the rematch',
  rematch: 'Rematch',
  rematchHumans: 'The same players at a new table, one seat to the left, once everyone accepts',
  rematchCpus: 'The same CPUs at a new table, one seat to the left',
});

// The rows of the end-of-deal table (each team's numbers in a column).
const ROWS = strings('results.rows', {
  tricks: 'Tricks',
  card_points: 'Card points (the last trick 10 more)',
  run: 'Roem: runs',
  four: 'Roem: four of a kind',
  stuk: 'Stuk (king and queen of trump)',
  bonus: 'Pit bonus',
  roem: 'Roem',
  score: 'This deal',
  totals: 'Match score',
});

// The rows of the match's statistics at its end.
const STATS = strings('results.stats', {
  chooser: 'Deals won as chooser',
  nat: 'Nat', // deals the team went nat
  pits: 'Pit', // deals the team took every trick
  roem: 'Roem (without pit bonuses)',
  points_per_deal: 'Points per deal',
});

// Marks, not words.
// (a player still looking: the name alone, in a dashed chip; "…" would read as a name cut short)
const MARKS = { seen: '{name} ✓', notSeen: '{name}', finalScore: '{team} {total}' };

// One of three sentences about `team`: ours (`key + 'Us'`), theirs (`'Them'`), or for a
// spectator (`'Team'`, the team named in {team}).
function byTeam(m, team, key, values = {}) {
  if (!isSeated(m)) return fill(TEXT[`${key}Team`], { team: teamLabel(m, team), ...values });
  return fill(TEXT[`${key}${team === teamOf(m.seat) ? 'Us' : 'Them'}`], values);
}

// Whether the pit of `deal` (a sheet line or deal end) earned its team the bonus: the
// server's `bonus`, each team's pit bonus in its roem.
const pitEarned = (deal) => deal.bonus[deal.pit] > 0;

// A finished deal's score in words: made, nat (and why the other team scores what it
// does), pit. `deal`: a line of the sheet or the deal end (card_points, roem, score, nat,
// pit, bonus, chooser, trump). One or two sentences.
export function dealVerdict(m, deal) {
  const playing = teamOf(deal.chooser);
  const other = 1 - playing;
  const made = (team) => deal.card_points[team] + deal.roem[team];
  const suit = SUIT_NAMES[deal.trump];
  // "ours"/"theirs" are the viewer's team's and the other's when seated (made: the
  // chooser's and the other's; nat: the playing team's and the other's for a spectator).
  const mine = isSeated(m) ? teamOf(m.seat) : playing;
  const values = {
    suit, playing: teamLabel(m, playing), other: teamLabel(m, other),
    ours: made(mine), theirs: made(1 - mine), award: deal.score[other],
  };
  const lines = [];
  lines.push(byTeam(m, playing, deal.nat ? 'nat' : 'made', values));
  if (deal.pit !== null && deal.pit !== undefined) {
    lines.push(byTeam(m, deal.pit, pitEarned(deal) ? 'pit' : 'pitNoBonus'));
  }
  return lines;
}

// -- the end of a deal -------------------------------------------------------------------------

// Whether the panel is up: the room pauses after a deal we know, and its last trick has
// had its moment on the table (`holding`).
export function dealEndShown(m, holding) {
  return Boolean(m.dealEnd) && paused(m) && !holding;
}

function cell(team, value, attrs = {}) {
  return h('td', { dataset: { team }, ...attrs }, String(value));
}

function dealRows(m, d) {
  const order = teamOrder(m);
  const row = (key, values, attrs = {}) => h('tr', { dataset: { row: key }, ...attrs },
    h('th', { scope: 'row' }, ROWS[key]),
    order.map((team) => cell(team, values[team])));
  const rows = [];
  if (d.tricksWon) rows.push(row('tricks', d.tricksWon));
  rows.push(row('card_points', d.card_points));
  if (d.kinds) {
    for (const kind of ['run', 'four', 'stuk']) {
      const values = d.kinds.map((k) => k[kind]);
      if (values.some(Boolean)) rows.push(row(kind, values));
    }
  }
  if (d.bonus.some(Boolean)) rows.push(row('bonus', d.bonus));
  rows.push(row('roem', d.roem));
  rows.push(row('score', d.score, { class: 'deal-score' }));
  rows.push(row('totals', d.totals, { class: 'deal-totals' }));
  return rows;
}

function dealTitle(m, d) {
  const rules = m.view?.rules ?? m.room?.rules;
  const values = {
    number: d.number + 1, of: rules?.end_value, suit: SUIT_NAMES[d.trump], symbol: SUIT_SYMBOLS[d.trump],
    name: seatName(m, d.chooser),
  };
  return fill(rules?.end === 'deals' ? TEXT.dealTitleOf : TEXT.dealTitle, values);
}

function teamHead(m, team) {
  return h('th', { scope: 'col', class: `side-${teamSide(m, team)}`, dataset: { team } },
    h('span', { class: 'team-head' }, teamLabel(m, team)),
    isSeated(m) ? h('span', { class: 'team-players' }, teamPlayers(m, team)) : null);
}

function seenList(m) {
  const waiting = new Set(m.room.pause?.waiting ?? []);
  const people = m.room.seats
    .map((s, seat) => ({ s, seat }))
    .filter(({ s, seat }) => s.player_id && (!s.away || waiting.has(seat)));
  if (!people.length) return null;
  return h('div', { class: 'deal-seen', dataset: { key: 'seen' } },
    h('span', { class: 'small muted' }, TEXT.seenTitle),
    h('ul', { id: 'deal-end-seen', class: 'chips' }, people.map(({ seat }) => {
      const seen = !waiting.has(seat);
      const name = seatName(m, seat);
      return h('li', {
        class: ['chip', seen && 'ready'], dataset: { seat, seen: String(seen), key: `s${seat}` },
        'aria-label': fill(seen ? TEXT.seenLabel : TEXT.notSeenLabel, { name }), title: name,
      }, fillParts(seen ? MARKS.seen : MARKS.notSeen, { name: h('span', { class: 'chip-name' }, name) }));
    })));
}

export function renderDealEnd(app, m, holding) {
  const box = $('#deal-end');
  const on = dealEndShown(m, holding);
  show(box, on);
  if (!on) {
    delete box.dataset.deal;
    return;
  }
  const d = m.dealEnd;
  box.dataset.deal = String(d.number);
  box.dataset.nat = String(Boolean(d.nat));
  box.dataset.pit = d.pit === null || d.pit === undefined ? '' : String(d.pit);
  const waiting = m.room.pause?.waiting ?? [];
  const mineWaits = isSeated(m) && waiting.includes(m.seat);
  const sent = app.continued.get(m.roomId) === d.number;
  const verdict = dealVerdict(m, d);
  patch(box,
    h('div', { class: 'overlay-card', dataset: { key: 'card' } },
      h('h2', { id: 'deal-end-title', class: ['deal-title', isRed(d.trump) && 'red-suit'] }, dealTitle(m, d)),
      h('table', { class: 'deal-table' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, TEXT.team)),
          teamOrder(m).map((team) => teamHead(m, team)))),
        h('tbody', {}, dealRows(m, d))),
      verdict.map((text, i) => h('p', {
        class: ['deal-verdict', d.nat && i === 0 && 'nat'], dataset: { verdict: i === 0 ? (d.nat ? 'nat' : 'made') : 'pit' },
      }, text)),
      seenList(m),
      h('div', { class: 'deal-next' },
        h('span', { id: 'deal-end-countdown', class: 'countdown', dataset: { until: m.room.pause?.until ?? '' } }),
        isSeated(m) ? h('button', {
          type: 'button', id: 'continue', class: ['primary', !mineWaits && 'done'],
          dataset: { continue: m.roomId, key: 'continue' }, disabled: !mineWaits || sent,
        }, mineWaits && !sent ? TEXT.continue : TEXT.continued) : null)));
  renderPauseClock(app, m);
}

// The countdown to the pause's end; called on every render and by the app's ticker.
export function renderPauseClock(app, m) {
  const el = $('#deal-end-countdown');
  if (!el || !m?.room?.pause) return;
  const left = Math.max(0, Math.ceil(m.room.pause.until - app.now()));
  const text = fill(TEXT.countdown, { n: left });
  if (el.textContent !== text) el.textContent = text;
  el.setAttribute('aria-label', fill(TEXT.countdownLabel, { n: left }));
}

// -- the end of the match ----------------------------------------------------------------------

// Each team's numbers over the finished deals of `sheet`: deals chosen and won as chooser,
// nats, pits, roem without pit bonuses, points per deal (one decimal).
export function matchStats(sheet) {
  return [0, 1].map((team) => {
    const chose = sheet.filter((d) => teamOf(d.chooser) === team);
    const points = sheet.reduce((sum, d) => sum + d.score[team], 0);
    const bonus = sheet.reduce((sum, d) => sum + d.bonus[team], 0);
    return {
      chose: chose.length,
      chooser: chose.filter((d) => !d.nat).length,
      nat: chose.filter((d) => d.nat).length,
      pits: sheet.filter((d) => d.pit === team).length,
      roem: sheet.reduce((sum, d) => sum + d.roem[team], 0) - bonus,
      points_per_deal: sheet.length ? Math.round((points / sheet.length) * 10) / 10 : 0,
    };
  });
}

function statsTable(m) {
  const sheet = m.view?.sheet ?? [];
  if (!sheet.length) return null;
  const stats = matchStats(sheet);
  const order = teamOrder(m);
  return h('table', { id: 'match-stats', class: 'deal-table', dataset: { key: 'stats', deals: sheet.length } },
    h('caption', {}, TEXT.statsTitle),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, TEXT.team)),
      order.map((team) => teamHead(m, team)))),
    h('tbody', {}, Object.keys(STATS).map((key) => h('tr', { dataset: { stat: key } },
      h('th', { scope: 'row' }, STATS[key]),
      order.map((team) => {
        const s = stats[team];
        const text = key === 'chooser'
          ? fill(TEXT.chooserValue, { won: s.chooser, chose: s.chose })
          : s[key].toLocaleString(currentLanguage());
        return cell(team, text, { 'data-value': String(s[key]) });
      })))));
}

export function renderResult(app, m) {
  const box = $('#result');
  const appearing = box.hidden && Boolean(m.result);
  show(box, Boolean(m.result));
  if (!m.result) {
    delete box.dataset.winner;
    return;
  }
  const { winner, totals } = m.result;
  box.dataset.winner = String(winner);
  const mine = isSeated(m) ? teamOf(m.seat) : null;
  let title;
  if (mine === null) title = fill(TEXT.teamWon, { team: teamLabel(m, winner) });
  else title = winner === mine ? TEXT.matchWon : TEXT.matchLost;
  const tid = m.room.tournament;
  const mode = m.room.mode;
  const day = mode === 'daily' ? dayOfRoom(m.room) : null;
  let next = null; // what comes after this match, besides the lobby
  if (tid) {
    next = h('button', { type: 'button', class: 'primary', dataset: { backTournament: tid } }, TEXT.backTournament);
  } else if (mode === 'daily') {
    next = h('button', { type: 'button', class: 'primary', dataset: { openBoards: '', date: day } },
      !day || day === todayUtc() ? TEXT.todaysBoard : fill(TEXT.dayBoard, { day: dayWords(day) }));
  } else if (mode === 'solo') {
    next = h('button', { type: 'button', class: 'primary', dataset: { newGame: '' } }, TEXT.newGame);
  }
  const review = reviewOpen(m.room)
    ? h('button', { type: 'button', dataset: { reviewMatch: m.roomId, key: 'review' } }, TEXT.review)
    : null;
  const last = m.dealEnd?.final ? m.dealEnd : (m.view?.sheet ?? []).at(-1);
  patch(box,
    h('div', { class: 'overlay-card', dataset: { key: 'card' } },
      h('h2', { id: 'result-title', tabindex: '-1' }, title),
      h('p', { class: 'final-score' }, teamOrder(m).map((team, i) => [
        i ? ' – ' : null,
        h('span', { class: `side-${teamSide(m, team)}`, dataset: { team } }, fill(MARKS.finalScore, { team: teamLabel(m, team), total: totals[team] })),
      ])),
      last ? h('p', { class: 'deal-verdict small', dataset: { key: 'last' } },
        fill(TEXT.lastDeal, { text: dealVerdict(m, last).join(' ') })) : null,
      statsTable(m),
      mode === 'daily' ? h('p', { class: 'small' }, TEXT.dailyNote) : null,
      h('div', { class: 'bid-buttons result-buttons' },
        rematchOffered(m) ? rematchView(app, m) : null,
        next,
        review,
        h('button', { type: 'button', class: next ? '' : 'primary', dataset: { go: 'lobby' } }, TEXT.lobby))));
  if (appearing) focusResult(box);
}

// The match's end takes the focus (from the page's body, the table's heading or the felt: the
// card just played is gone), never from a field the player is typing in.
function focusResult(box) {
  const active = document.activeElement;
  const lost = !active || active === document.body || active.id === 'table-title' || Boolean(active.closest('#felt'));
  if (lost && !box.contains(active)) $('#result-title').focus({ preventScroll: true });
}

// A day (YYYY-MM-DD, UTC) in the page's language: "2 December 2026".
function dayWords(day) {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return date.toLocaleDateString(currentLanguage(), { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

// A rematch: the same players at a new table (seats one to the left), once every human who
// played has accepted. Casual and solo matches only; the players only.
function rematchOffered(m) {
  return isSeated(m) && !m.room.tournament && m.room.mode !== 'daily';
}

function rematchView(app, m) {
  const r = app.rematches.get(m.roomId) ?? null;
  const st = rematchState(r, app.me);
  const humans = m.room.seats.filter((s) => s.player_id).length;
  const text = rematchWords(r, m.room, app.me);
  let line = text ? h('p', { class: 'small', role: 'status' }, st === 'offered' ? h('strong', {}, text) : text) : null;
  let button = null;
  if (st === 'offered') {
    button = h('button', { type: 'button', class: 'primary', dataset: { rematch: m.roomId } }, TEXT.acceptRematch);
  } else if (st === 'none') {
    line = null;
    button = h('button', {
      type: 'button', dataset: { rematch: m.roomId }, disabled: app.rematchAsked.has(m.roomId),
      title: humans > 1 ? TEXT.rematchHumans : TEXT.rematchCpus,
    }, TEXT.rematch);
  }
  return h('div', {
    id: 'rematch', class: 'rematch', dataset: { key: 'rematch', state: st, newRoomId: r?.newRoomId ?? null },
  },
  line,
  button,
  r && st !== 'none' ? rematchPlayers(r, m.room, app.me) : null);
}
