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

export const PAGE = 20; // matches of the history a page
const SVG = 'http://www.w3.org/2000/svg';

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const percent = (part, whole) => (whole ? `${Math.round((100 * part) / whole)} %` : '–');
const signed = (x) => {
  if (typeof x !== 'number') return '–';
  if (x > 0) return `+${x.toFixed(2)}`;
  if (x < 0) return `−${(-x).toFixed(2)}`;
  return '±0.00';
};

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
  return h('time', { datetime: date.toISOString() }, date.toLocaleString([], {
    day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit',
  }));
}

function kind(line) {
  if (line.mode === 'solo') return 'Solo game';
  if (line.mode === 'daily') return line.day ? `Daily game ${line.day}` : 'Daily game';
  if (line.tournament) return 'Tournament table';
  return 'Table';
}

// A match of the history in a few words: "Solo game, 1 Dec 2026".
export function matchTitle(line) {
  return `${kind(line)}, ${new Date(line.at * 1000).toLocaleDateString([], { day: 'numeric', month: 'short', year: 'numeric' })}`;
}

function resultWords(line) {
  if (line.score === null) return 'Played'; // another's daily game, before its day is revealed
  if (line.abandoned) return 'Abandoned (a loss)';
  return line.won ? 'Won' : 'Lost';
}

const PLACE_WORDS = { 1: '1st', 2: '2nd', 3: '3rd' };
const placeName = (place) => PLACE_WORDS[place] ?? `${place}th`;

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
  const heading = d ? (mine ? 'Your profile' : `${d.nickname}’s profile`) : 'Profile';
  if (title.textContent !== heading) title.textContent = heading;

  if (state === 'loading') {
    patch(body, h('p', { class: 'muted', role: 'status', dataset: { key: 'loading' } }, 'Loading the profile…'));
    return;
  }
  if (!d) {
    patch(body, h('div', { class: 'panel board-message', id: 'profile-error', role: 'alert', dataset: { key: 'error' } },
      h('p', {}, h('strong', {}, p.error.code === 'no_such_player' ? 'There is no such player.' : 'The profile could not be loaded.')),
      h('p', { class: 'muted small' }, p.error.message ?? ''),
      h('div', { class: 'item-actions' },
        h('button', { type: 'button', class: 'primary', dataset: { profileRetry: '' } }, 'Try again'),
        h('button', { type: 'button', dataset: { go: 'lobby' } }, 'Back to the lobby'))));
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
      mine ? h('span', { class: 'chip you' }, 'you') : null),
    mine ? nicknameForm(p, d) : null);
}

function nicknameForm(p, d) {
  const n = p.nick;
  return h('form', { id: 'nickname-form', class: 'nickname-form', autocomplete: 'off', 'aria-describedby': 'nickname-rules', novalidate: true },
    h('label', { for: 'new-nickname' }, 'Change your nickname'),
    h('div', { class: 'row' },
      h('input', {
        id: 'new-nickname', name: 'nickname', required: true, maxlength: '24', value: d.nickname,
        autocapitalize: 'off', spellcheck: 'false', 'aria-invalid': n.error ? 'true' : 'false',
        'aria-errormessage': 'nickname-error', dataset: { key: 'input' },
      }),
      h('button', { type: 'submit', class: 'primary', disabled: Boolean(n.sending), dataset: { key: 'save' } },
        n.sending ? 'Saving…' : 'Change')),
    h('p', { id: 'nickname-rules', class: 'muted small', dataset: { key: 'rules' } },
      '2 to 24 characters: letters, digits, spaces and _ \' . -, with at least one letter. A nickname is yours alone.'),
    h('p', {
      id: 'nickname-error', class: 'form-error', role: 'alert', hidden: !n.error,
      dataset: { code: n.error?.code ?? '', key: 'error' },
    }, n.error ? cap(n.error.message) : ''),
    h('p', { id: 'nickname-status', class: 'form-ok small', role: 'status', hidden: !n.saved, dataset: { key: 'status' } },
      n.saved ? `Your nickname is now ${n.saved}.` : ''));
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
    h('h2', { id: 'profile-stats-title' }, 'Matches'),
    d.matches
      ? h('dl', { id: 'profile-stats', class: 'stats' },
        stat('matches', 'Matches', String(d.matches)),
        stat('wins', 'Won', String(d.wins)),
        stat('win_share', 'Won %', percent(d.wins, d.matches)),
        stat('points_per_deal', 'Points a deal', d.points_per_deal === null ? '–' : d.points_per_deal.toFixed(1),
          `(${d.points} in ${plural(d.deals, 'deal')})`),
        stat('chooser_deals', 'Deals as chooser', String(d.chooser_deals)),
        stat('nat', 'Nat', String(d.nat), d.chooser_deals ? `(${percent(d.nat, d.chooser_deals)} of those chosen)` : null),
        stat('pits', 'Pits', String(d.pits)),
        stat('roem', 'Roem', String(d.roem)))
      : h('p', { id: 'profile-stats', class: 'muted', dataset: { empty: '' } }, 'No finished match yet.'));
}

function tournaments(d) {
  const t = d.tournaments ?? { played: 0, places: {}, recent: [] };
  const places = Object.entries(t.places ?? {}).sort((a, b) => Number(a[0]) - Number(b[0]));
  return h('section', { id: 'profile-tournaments', class: 'panel', 'aria-labelledby': 'profile-t-title', dataset: { key: 'tournaments', played: t.played } },
    h('h2', { id: 'profile-t-title' }, 'Tournaments'),
    t.played
      ? [
        h('p', {}, `${plural(t.played, 'tournament')} finished with a place.`),
        h('ul', { id: 'profile-places', class: 'chips' }, places.map(([place, n]) => h('li', {
          class: ['chip', place === '1' && 'gold'], dataset: { place, count: n, key: place },
        }, `${placeName(Number(place))} place × ${n}`))),
      ]
      : h('p', { class: 'muted' }, 'No tournament finished yet.'));
}

function rating(app, d, mine) {
  const r = d.rating;
  const min = app.boards?.rating?.min_matches ?? null;
  let lines;
  if (!r) {
    lines = [h('p', { class: 'muted' }, mine
      ? 'No rating yet. Ratings come from rated matches: four people at a rated table (public tables by default) or a tournament.'
      : 'No rating yet: no rated match played.')];
  } else {
    const listed = r.rank !== null && r.rank !== undefined;
    lines = [
      h('p', { class: 'rating-line' },
        h('strong', { class: 'rating-value' }, fixed(r.rating)),
        h('span', { class: 'muted small' }, ` μ ${fixed(r.mu)} · σ ${fixed(r.sigma)} · ${plural(r.matches, 'rated match', 'rated matches')}`)),
      h('p', { class: 'small' },
        listed
          ? [`Rank ${r.rank} on the rating board. `,
            h('button', { type: 'button', class: 'small ghost', dataset: { openRating: '' } }, 'See the board')]
          : `Not on the rating board yet: it lists players after ${min ? plural(min, 'rated match', 'rated matches') : 'enough rated matches'}.`),
    ];
  }
  return h('section', {
    id: 'profile-rating', class: 'panel', 'aria-labelledby': 'profile-rating-title',
    dataset: { key: 'rating', rating: r ? r.rating : null, rank: r?.rank ?? null },
  },
  h('h2', { id: 'profile-rating-title' }, 'Rating'),
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
    ? `Rating after your one rated match shown: ${fixed(last.rating)}`
    : `Rating over the last ${points.length} rated matches, from ${fixed(first.rating)} to ${fixed(last.rating)}`;
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
    }, svg('title', {}, `${new Date(p.at * 1000).toLocaleDateString()}: ${fixed(p.rating)}`)))),
  h('figcaption', { class: 'muted small chart-caption' },
    h('span', {}, `low ${fixed(lo)} · high ${fixed(hi)}`),
    h('span', {}, points.length > 1 ? 'oldest → latest' : '')));
}

// -- the match history ----------------------------------------------------------------------------

function history(app, p, d, mine) {
  const lines = d.history ?? [];
  return h('section', { class: 'panel', 'aria-labelledby': 'profile-history-title', dataset: { key: 'history' } },
    h('h2', { id: 'profile-history-title' }, mine ? 'Your matches' : 'Matches'),
    lines.length
      ? h('div', { class: 'board-table-wrap' },
        h('table', { id: 'profile-history', class: 'board-table history-table', dataset: { offset: d.offset } },
          h('caption', { class: 'sr-only' }, `Matches ${d.offset + 1} to ${d.offset + lines.length} of ${d.matches}, the latest first`),
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col' }, 'When'),
            h('th', { scope: 'col' }, 'Match'),
            h('th', { scope: 'col' }, 'Result'),
            h('th', { scope: 'col', class: 'num' }, 'Score'),
            h('th', { scope: 'col', class: 'num' }, 'Rating'),
            h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Links')))),
          h('tbody', {}, lines.map((line) => historyRow(line)))))
      : h('p', { class: 'muted', dataset: { key: 'none' } }, d.offset ? 'No more matches.' : 'No finished match yet.'),
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
  h('th', { scope: 'row', class: 'kind' }, kind(line), line.rated ? h('span', { class: 'chip rated' }, 'rated') : null),
  h('td', { class: ['result', outcome] }, resultWords(line)),
  h('td', { class: 'num score', dataset: { us, them } },
    line.score ? `${us} – ${them}` : h('span', { class: 'muted', title: 'Shown once the day’s results are out' }, 'hidden')),
  h('td', { class: ['num rating-change', line.rating_change > 0 && 'up', line.rating_change < 0 && 'down', 'diff'] },
    line.rated ? signed(line.rating_change) : h('span', { class: 'muted', title: 'Not rated' }, '–')),
  h('td', { class: 'links' },
    line.record
      ? [
        h('button', {
          type: 'button', class: 'small', dataset: { reviewMatch: line.match_id },
          'aria-label': `Review the ${kind(line).toLowerCase()} of ${new Date(line.at * 1000).toLocaleDateString()}`,
        }, 'Review'),
        h('a', { href: line.record, class: 'small record-link', target: '_blank', rel: 'noopener', dataset: { record: line.match_id } }, 'Record'),
      ]
      : h('span', { class: 'muted small', title: 'A daily game’s review and record open once its day is over' }, 'after the day')));
}
