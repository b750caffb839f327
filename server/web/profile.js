// A player's profile: the counters of their finished matches, tournament places, their
// rating with its board rank and a line of its history, and their match history page by
// page (with each match's review and record). Your own profile also changes your nickname.
//
// The state is `app.profile`, changed only by the pure reducers below (no DOM); the render
// function draws the #profile screen from it. Every number shown is the server's, but
// for the two shares (won %, nat %) the page works out from the server's counts.

import { $, h, patch } from './dom.js';
import { pager } from './widgets.js';
import { fixed } from './rating.js';
import { fill, plural } from './fill.js';
import { currentLanguage, strings } from './i18n.js';

export const PAGE = 20; // matches of the history a page
const SVG = 'http://www.w3.org/2000/svg';

const TEXT = strings('profile', {
  kindSolo: 'Solo game', // a match's kind, in the match history
  kindDailyDay: 'Daily game {day}', // {day}: the day's date, as 2026-12-01
  kindDaily: 'Daily game',
  kindTournament: 'Tournament table',
  kindTable: 'Table', // a match at a table of four, made in the lobby
  titleSolo: 'Solo game, {date}', // a match's title (over its review)
  titleDailyDay: 'Daily game {day}, {date}',
  titleDaily: 'Daily game, {date}',
  titleTournament: 'Tournament table, {date}',
  titleTable: 'Table, {date}',
  resultPlayed: 'Played', // another player's daily game, before its day's results are out
  resultAbandoned: 'Abandoned (a loss)',
  resultWon: 'Won',
  resultLost: 'Lost',
  place1: '1st place × {n}', // a tournament place, and how many times
  place2: '2nd place × {n}',
  place3: '3rd place × {n}',
  placeOther: '{place}th place × {n}',
  yourProfile: 'Your profile',
  playersProfile: '{name}’s profile',
  profile: 'Profile',
  loading: 'Loading the profile…',
  noSuchPlayer: 'There is no such player.',
  loadFailed: 'The profile could not be loaded.',
  tryAgain: 'Try again',
  backToLobby: 'Back to the lobby',
  you: 'you', // the mark next to your own name
  changeNickname: 'Change your nickname',
  saving: 'Saving…',
  change: 'Change', // the button that saves a new nickname
  nicknameRules: '2 to 24 characters: letters, digits, spaces and _ \' . -, with at least one letter. A nickname is yours alone.',
  nicknameTaken: 'That nickname is another player’s: choose another.',
  badNickname: 'That nickname cannot be used: 2 to 24 characters (letters, digits, spaces and _ \' . -), with at least one letter.',
  nicknameNow: 'Your nickname is now {name}.',
  matchesTitle: 'Matches', // the heading of the match counters
  statMatches: 'Matches',
  statWon: 'Won',
  statWonShare: 'Won %',
  statPointsPerDeal: 'Points a deal',
  pointsInDeals: { one: '({points} in {n} deal)', other: '({points} in {n} deals)' },
  statChooser: 'Deals as chooser', // deals in which this player chose trump
  statNat: 'Nat',
  natShare: '({share} of those chosen)',
  statPits: 'Pits',
  statRoem: 'Roem',
  noMatch: 'No finished match yet.',
  tournamentsTitle: 'Tournaments',
  tournamentsPlaced: { one: '{n} tournament finished with a place.', other: '{n} tournaments finished with a place.' },
  noTournament: 'No tournament finished yet.',
  ratingTitle: 'Rating',
  noRatingMine: 'No rating yet. Ratings come from rated matches: four people at a rated table (public tables by default) or a tournament.',
  noRating: 'No rating yet: no rated match played.',
  ratingDetail: { one: 'μ {mu} · σ {sigma} · {n} rated match', other: 'μ {mu} · σ {sigma} · {n} rated matches' },
  rank: 'Rank {rank} on the rating board.',
  seeBoard: 'See the board',
  notListed: {
    one: 'Not on the rating board yet: it lists players after {n} rated match.',
    other: 'Not on the rating board yet: it lists players after {n} rated matches.',
  },
  notListedYet: 'Not on the rating board yet: it lists players after enough rated matches.',
  chartOne: 'Rating after your one rated match shown: {rating}',
  chartMany: {
    one: 'Rating over the last {n} rated match, from {first} to {last}',
    other: 'Rating over the last {n} rated matches, from {first} to {last}',
  },
  chartPoint: '{date}: {rating}', // a point of the rating chart
  chartRange: 'low {low} · high {high}',
  chartOrder: 'oldest → latest',
  yourMatches: 'Your matches',
  historyTitle: 'Matches', // the heading of another player's match history
  historyCaption: 'Matches {from} to {to} of {total}, the latest first',
  colWhen: 'When',
  colMatch: 'Match',
  colResult: 'Result',
  colScore: 'Score',
  colRating: 'Rating',
  colLinks: 'Links',
  noMore: 'No more matches.',
  rated: 'rated', // the mark of a rated match
  hidden: 'hidden', // a daily game's score before the day's results are out
  hiddenTitle: 'Shown once the day’s results are out',
  notRated: 'Not rated',
  review: 'Review',
  reviewLabel: 'Review: {title}', // the Review button's label for a screen reader; {title} as titleSolo ...
  record: 'Record', // the link to the match's record (its file)
  afterDay: 'after the day', // in place of a daily game's links until its day is over
  afterDayTitle: 'A daily game’s review and record open once its day is over',
});

const NICKNAME_ERRORS = { nickname_taken: 'nicknameTaken', bad_nickname: 'badNickname' };

const number = (x, digits) => x.toLocaleString(currentLanguage(), {
  minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false,
});
const percent = (part, whole) => (whole
  ? (part / whole).toLocaleString(currentLanguage(), { style: 'percent', maximumFractionDigits: 0 })
  : '–');
const signed = (x) => {
  if (typeof x !== 'number') return '–';
  if (x > 0) return `+${number(x, 2)}`;
  if (x < 0) return `−${number(-x, 2)}`;
  return `±${number(0, 2)}`;
};
const dateWords = (at) => new Date(at * 1000).toLocaleDateString(currentLanguage(), { day: 'numeric', month: 'short', year: 'numeric' });

// -- state ------------------------------------------------------------------------------------

export function newProfile(playerId) {
  return {
    playerId,
    offset: 0, // the history page asked for
    data: null, // the last profile reply
    pending: 0, // get_profile requests unanswered (only the last one's reply is shown)
    error: null, // {code, message} when the profile was refused
    nick: { sending: null, error: null, saved: null }, // the nickname form (your own profile)
  };
}

export function profileMessage(p) {
  return { type: 'get_profile', player_id: p.playerId, offset: p.offset, limit: PAGE };
}

export function profileAsked(p) {
  return { ...p, pending: p.pending + 1 };
}

export function profileReply(p, f) {
  if (!p || f.player_id !== p.playerId) return p; // another player's, asked before
  const pending = Math.max(0, p.pending - 1);
  if (pending > 0) return { ...p, pending };
  return { ...p, pending, data: f, error: null };
}

export function profileRefused(p, f, sent) {
  if (!p || sent?.player_id !== p.playerId) return p;
  const pending = Math.max(0, p.pending - 1);
  if (pending > 0) return { ...p, pending };
  return { ...p, pending, error: { code: f.code, message: f.message } };
}

export function nicknameSent(p, nickname) {
  return p ? { ...p, nick: { sending: nickname, error: null, saved: null } } : p;
}

export function nicknameSaved(p, f) {
  if (!p) return p;
  const data = p.data && p.data.player_id === f.player_id ? { ...p.data, nickname: f.nickname } : p.data;
  return { ...p, data, nick: { sending: null, error: null, saved: f.nickname } };
}

export function nicknameRefused(p, f) {
  return p ? { ...p, nick: { sending: null, error: { code: f.code, message: f.message }, saved: null } } : p;
}

// -- words ------------------------------------------------------------------------------------

function when(at) {
  const date = new Date(at * 1000);
  return h('time', { datetime: date.toISOString() }, date.toLocaleString(currentLanguage(), {
    day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit',
  }));
}

// A match's kind, as the key of its words: 'Solo' gives kindSolo and titleSolo.
function kindKey(line) {
  if (line.mode === 'solo') return 'Solo';
  if (line.mode === 'daily') return line.day ? 'DailyDay' : 'Daily';
  if (line.tournament) return 'Tournament';
  return 'Table';
}

function kind(line) {
  return fill(TEXT[`kind${kindKey(line)}`], { day: line.day });
}

// A match of the history in a few words: "Solo game, 1 Dec 2026".
export function matchTitle(line) {
  return fill(TEXT[`title${kindKey(line)}`], { day: line.day, date: dateWords(line.at) });
}

function resultWords(line) {
  if (line.score === null) return TEXT.resultPlayed; // another's daily game, before its day is revealed
  if (line.abandoned) return TEXT.resultAbandoned;
  return line.won ? TEXT.resultWon : TEXT.resultLost;
}

function placeWords(place, n) {
  const key = { 1: 'place1', 2: 'place2', 3: 'place3' }[place] ?? 'placeOther';
  return fill(TEXT[key], { place, n });
}

// -- rendering --------------------------------------------------------------------------------

export function renderProfile(app) {
  const p = app.profile;
  const screen = $('#profile');
  const body = $('#profile-body');
  if (!p) {
    patch(body);
    return;
  }
  const mine = p.playerId === app.me;
  const d = p.data && p.data.player_id === p.playerId ? p.data : null;
  let state = 'loading';
  if (p.error && !p.pending) state = p.error.code;
  else if (d) state = 'profile';
  screen.dataset.playerId = p.playerId;
  screen.dataset.state = state;
  screen.dataset.mine = String(mine);
  body.setAttribute('aria-busy', String(p.pending > 0));
  const title = $('#profile-title');
  let heading = TEXT.profile;
  if (d) heading = mine ? TEXT.yourProfile : fill(TEXT.playersProfile, { name: d.nickname });
  if (title.textContent !== heading) title.textContent = heading;

  if (state === 'loading') {
    patch(body, h('p', { class: 'muted', role: 'status', dataset: { key: 'loading' } }, TEXT.loading));
    return;
  }
  if (!d) {
    patch(body, h('div', { class: 'panel board-message', id: 'profile-error', role: 'alert', dataset: { key: 'error' } },
      h('p', {}, h('strong', {}, p.error.code === 'no_such_player' ? TEXT.noSuchPlayer : TEXT.loadFailed)),
      p.error.code === 'no_such_player' ? null : h('p', { class: 'muted small' }, p.error.message ?? ''),
      h('div', { class: 'item-actions' },
        h('button', { type: 'button', class: 'primary', dataset: { profileRetry: '' } }, TEXT.tryAgain),
        h('button', { type: 'button', dataset: { go: 'lobby' } }, TEXT.backToLobby))));
    return;
  }
  patch(body,
    h('div', { class: 'profile-grid', dataset: { key: 'grid' } },
      identity(app, p, d, mine),
      rating(app, d, mine),
      stats(d),
      tournaments(d)),
    history(app, p, d, mine));
  const input = $('#new-nickname');
  if (input && p.nick.saved && document.activeElement !== input && input.value !== p.nick.saved) input.value = p.nick.saved;
}

function identity(app, p, d, mine) {
  return h('section', { class: 'panel profile-id', 'aria-labelledby': 'profile-nickname', dataset: { key: 'id' } },
    h('h2', { id: 'profile-nickname', class: 'profile-name' }, d.nickname,
      mine ? h('span', { class: 'chip you' }, TEXT.you) : null),
    mine ? nicknameForm(p, d) : null);
}

function nicknameForm(p, d) {
  const n = p.nick;
  return h('form', { id: 'nickname-form', class: 'nickname-form', autocomplete: 'off', 'aria-describedby': 'nickname-rules', novalidate: true },
    h('label', { for: 'new-nickname' }, TEXT.changeNickname),
    h('div', { class: 'row' },
      h('input', {
        id: 'new-nickname', name: 'nickname', required: true, maxlength: '24', value: d.nickname,
        autocapitalize: 'off', spellcheck: 'false', 'aria-invalid': n.error ? 'true' : 'false',
        'aria-errormessage': 'nickname-error', dataset: { key: 'input' },
      }),
      h('button', { type: 'submit', class: 'primary', disabled: Boolean(n.sending), dataset: { key: 'save' } },
        n.sending ? TEXT.saving : TEXT.change)),
    h('p', { id: 'nickname-rules', class: 'muted small', dataset: { key: 'rules' } },
      TEXT.nicknameRules),
    h('p', {
      id: 'nickname-error', class: 'form-error', role: 'alert', hidden: !n.error,
      dataset: { code: n.error?.code ?? '', key: 'error' },
    }, n.error ? nicknameError(n.error) : ''),
    h('p', { id: 'nickname-status', class: 'form-ok small', role: 'status', hidden: !n.saved, dataset: { key: 'status' } },
      n.saved ? fill(TEXT.nicknameNow, { name: n.saved }) : ''));
}

function nicknameError(error) {
  const key = NICKNAME_ERRORS[error.code];
  return key ? TEXT[key] : cap(error.message);
}

function cap(text) {
  const t = String(text ?? '').trim();
  const s = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

function stat(key, label, value, extra = null) {
  return h('div', { class: 'stat', dataset: { stat: key, key } },
    h('dt', {}, label),
    h('dd', {}, h('span', { class: 'value' }, value), extra ? h('span', { class: 'muted small stat-extra' }, ` ${extra}`) : null));
}

function stats(d) {
  return h('section', { class: 'panel profile-stats', 'aria-labelledby': 'profile-stats-title', dataset: { key: 'stats' } },
    h('h2', { id: 'profile-stats-title' }, TEXT.matchesTitle),
    d.matches
      ? h('dl', { id: 'profile-stats', class: 'stats' },
        stat('matches', TEXT.statMatches, String(d.matches)),
        stat('wins', TEXT.statWon, String(d.wins)),
        stat('win_share', TEXT.statWonShare, percent(d.wins, d.matches)),
        stat('points_per_deal', TEXT.statPointsPerDeal, d.points_per_deal === null ? '–' : number(d.points_per_deal, 1),
          plural(TEXT.pointsInDeals, d.deals, { points: d.points })),
        stat('chooser_deals', TEXT.statChooser, String(d.chooser_deals)),
        stat('nat', TEXT.statNat, String(d.nat), d.chooser_deals ? fill(TEXT.natShare, { share: percent(d.nat, d.chooser_deals) }) : null),
        stat('pits', TEXT.statPits, String(d.pits)),
        stat('roem', TEXT.statRoem, String(d.roem)))
      : h('p', { id: 'profile-stats', class: 'muted', dataset: { empty: '' } }, TEXT.noMatch));
}

function tournaments(d) {
  const t = d.tournaments ?? { played: 0, places: {}, recent: [] };
  const places = Object.entries(t.places ?? {}).sort((a, b) => Number(a[0]) - Number(b[0]));
  return h('section', { id: 'profile-tournaments', class: 'panel', 'aria-labelledby': 'profile-t-title', dataset: { key: 'tournaments', played: t.played } },
    h('h2', { id: 'profile-t-title' }, TEXT.tournamentsTitle),
    t.played
      ? [
        h('p', {}, plural(TEXT.tournamentsPlaced, t.played)),
        h('ul', { id: 'profile-places', class: 'chips' }, places.map(([place, n]) => h('li', {
          class: ['chip', place === '1' && 'gold'], dataset: { place, count: n, key: place },
        }, placeWords(Number(place), n)))),
      ]
      : h('p', { class: 'muted' }, TEXT.noTournament));
}

function rating(app, d, mine) {
  const r = d.rating;
  const min = app.boards?.rating?.min_matches ?? null;
  let lines;
  if (!r) {
    lines = [h('p', { class: 'muted' }, mine ? TEXT.noRatingMine : TEXT.noRating)];
  } else {
    const listed = r.rank !== null && r.rank !== undefined;
    lines = [
      h('p', { class: 'rating-line' },
        h('strong', { class: 'rating-value' }, fixed(r.rating)),
        ' ',
        h('span', { class: 'muted small' }, plural(TEXT.ratingDetail, r.matches, { mu: fixed(r.mu), sigma: fixed(r.sigma) }))),
      h('p', { class: 'small' },
        listed
          ? [fill(TEXT.rank, { rank: r.rank }), ' ',
            h('button', { type: 'button', class: 'small ghost', dataset: { openRating: '' } }, TEXT.seeBoard)]
          : (min ? plural(TEXT.notListed, min) : TEXT.notListedYet)),
    ];
  }
  return h('section', {
    id: 'profile-rating', class: 'panel', 'aria-labelledby': 'profile-rating-title',
    dataset: { key: 'rating', rating: r ? r.rating : null, rank: r?.rank ?? null },
  },
  h('h2', { id: 'profile-rating-title' }, TEXT.ratingTitle),
  lines,
  (d.rating_history ?? []).length ? chart(d.rating_history) : null);
}

// -- the rating chart: an SVG line, oldest to latest ------------------------------------------------

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'dataset') {
      for (const [k, v] of Object.entries(value)) el.setAttribute(`data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, String(v));
    } else {
      el.setAttribute(name, String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function chartPoints(history, width, height, pad) {
  const points = [...history].reverse(); // the server sends the latest first
  const values = points.map((p) => p.rating);
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 1) {
    const mid = (hi + lo) / 2;
    lo = mid - 0.5;
    hi = mid + 0.5;
  }
  const step = points.length > 1 ? (width - 2 * pad) / (points.length - 1) : 0;
  return {
    lo, hi,
    points: points.map((p, i) => ({
      ...p,
      x: points.length > 1 ? pad + i * step : width / 2,
      y: pad + ((hi - p.rating) / (hi - lo)) * (height - 2 * pad),
    })),
  };
}

function chart(history) {
  const W = 320;
  const H = 120;
  const PAD = 14;
  const { lo, hi, points } = chartPoints(history, W, H, PAD);
  const first = points[0];
  const last = points[points.length - 1];
  const label = points.length === 1
    ? fill(TEXT.chartOne, { rating: fixed(last.rating) })
    : plural(TEXT.chartMany, points.length, { first: fixed(first.rating), last: fixed(last.rating) });
  return h('figure', { class: 'rating-chart-wrap', dataset: { key: 'chart' } },
    svg('svg', {
      id: 'rating-chart', class: 'rating-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label,
      dataset: { points: points.length, first: first.rating, last: last.rating },
    },
    svg('title', {}, label),
    svg('line', { class: 'axis', x1: PAD, x2: W - PAD, y1: H - PAD, y2: H - PAD }),
    points.length > 1
      ? svg('polyline', { class: 'line', points: points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ') })
      : null,
    points.map((p) => svg('circle', {
      class: 'dot', cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: 3.5,
      dataset: { matchId: p.match_id, rating: p.rating },
    }, svg('title', {}, fill(TEXT.chartPoint, { date: new Date(p.at * 1000).toLocaleDateString(currentLanguage()), rating: fixed(p.rating) }))))),
  h('figcaption', { class: 'muted small chart-caption' },
    h('span', {}, fill(TEXT.chartRange, { low: fixed(lo), high: fixed(hi) })),
    h('span', {}, points.length > 1 ? TEXT.chartOrder : '')));
}

// -- the match history ----------------------------------------------------------------------------

function history(app, p, d, mine) {
  const lines = d.history ?? [];
  return h('section', { class: 'panel', 'aria-labelledby': 'profile-history-title', dataset: { key: 'history' } },
    h('h2', { id: 'profile-history-title' }, mine ? TEXT.yourMatches : TEXT.historyTitle),
    lines.length
      ? h('div', { class: 'board-table-wrap' },
        h('table', { id: 'profile-history', class: 'board-table history-table', dataset: { offset: d.offset } },
          h('caption', { class: 'sr-only' }, fill(TEXT.historyCaption, { from: d.offset + 1, to: d.offset + lines.length, total: d.matches })),
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col' }, TEXT.colWhen),
            h('th', { scope: 'col' }, TEXT.colMatch),
            h('th', { scope: 'col' }, TEXT.colResult),
            h('th', { scope: 'col', class: 'num' }, TEXT.colScore),
            h('th', { scope: 'col', class: 'num' }, TEXT.colRating),
            h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, TEXT.colLinks)))),
          h('tbody', {}, lines.map((line) => historyRow(line)))))
      : h('p', { class: 'muted', dataset: { key: 'none' } }, d.offset ? TEXT.noMore : TEXT.noMatch),
    pager('profile', d.offset, lines.length, d.matches, PAGE));
}

function historyRow(line) {
  const [us, them] = line.score ?? ['', ''];
  const outcome = line.score === null ? 'hidden' : line.abandoned ? 'abandoned' : line.won ? 'won' : 'lost';
  return h('tr', {
    class: outcome,
    dataset: { matchId: line.match_id, won: String(line.won), mode: line.mode, rated: String(line.rated), key: line.match_id },
  },
  h('td', { class: 'when small' }, when(line.at)),
  h('th', { scope: 'row', class: 'kind' }, kind(line), line.rated ? h('span', { class: 'chip rated' }, TEXT.rated) : null),
  h('td', { class: ['result', outcome] }, resultWords(line)),
  h('td', { class: 'num score', dataset: { us, them } },
    line.score ? `${us} – ${them}` : h('span', { class: 'muted', title: TEXT.hiddenTitle }, TEXT.hidden)),
  h('td', { class: ['num rating-change', line.rating_change > 0 && 'up', line.rating_change < 0 && 'down', 'diff'], dataset: { word: TEXT.colRating } },
    line.rated ? signed(line.rating_change) : h('span', { class: 'muted', title: TEXT.notRated }, '–')),
  h('td', { class: 'links' },
    line.record
      ? [
        h('button', {
          type: 'button', class: 'small', dataset: { reviewMatch: line.match_id },
          'aria-label': fill(TEXT.reviewLabel, { title: matchTitle(line) }),
        }, TEXT.review),
        h('a', { href: line.record, class: 'small record-link', target: '_blank', rel: 'noopener', dataset: { record: line.match_id } }, TEXT.record),
      ]
      : h('span', { class: 'muted small', title: TEXT.afterDayTitle }, TEXT.afterDay)));
}
