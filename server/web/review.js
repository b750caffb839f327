// The review of a finished match: one deal at a time, trick by trick, all four hands open,
// and each of your plays against the exact solver (values, best cards, points lost, label).
//
// The state is `app.review`, changed only by the pure reducers below (no DOM); the
// render function draws the #review screen from it.

import { $, h, patch, show } from './dom.js';
import { SUIT_NAMES, SUIT_SYMBOLS, cardWords, isRed, rankShown, sortHand, suitOf } from './cards.js';
import { cardView } from './cardview.js';
import { todayUtc, untilMidnight } from './daily.js';

export const TRICKS = 8; // steps 0-7 are the tricks, step 8 the deal's result
const POSITIONS = ['bottom', 'right', 'top', 'left'];
const PLACE_WORDS = { right: 'right', top: 'your partner', left: 'left' };
const PLACE_TITLES = { right: 'Right', top: 'Partner', left: 'Left' };
export const LABELS = ['inaccuracy', 'mistake', 'blunder']; // mildest first
const LABEL_WORDS = { inaccuracy: 'Inaccuracy', mistake: 'Mistake', blunder: 'Blunder' };
const LABEL_MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };
const LABEL_PLURALS = { inaccuracy: 'inaccuracies', mistake: 'mistakes', blunder: 'blunders' };

const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// Whether the page offers the review of a finished room: a daily game's opens once its
// day (UTC) is over, every other match's at once.
export function reviewOpen(room, today = todayUtc()) {
  if (!room) return false;
  if (room.mode !== 'daily') return true;
  return Boolean(room.day) && room.day < today;
}

// -- state ------------------------------------------------------------------------------------

// `room`: the room summary when known (the players' names), else null.
export function newReview(matchId, room = null) {
  return {
    matchId,
    room,
    deal: 0, // the deal shown (counting from 0)
    deals: null, // how many deals the match has, once a reply said so
    trick: 0, // the step shown: 0-7 a trick, TRICKS the deal's result
    replies: {}, // deal number -> its review reply (a deal is solved once)
    pending: null, // the deal number asked for and not answered yet
    retrying: false, // the server was busy: asked again by itself
    error: null, // {code, message, deal} when the deal shown was refused
    open: new Set(), // value lists shown open: "deal:index"
  };
}

export function reviewMessage(r, deal = r.deal) {
  return { type: 'review', match_id: r.matchId, deal };
}

export const shown = (r) => (r ? r.replies[r.deal] ?? null : null);

// Show deal `deal` from its first trick (the app asks for it unless it came already).
export function showDeal(r, deal) {
  const last = r.deals === null ? deal : r.deals - 1;
  const next = Math.max(0, Math.min(deal, last));
  return { ...r, deal: next, trick: 0, error: null, retrying: false };
}

export function asked(r, deal) {
  return { ...r, pending: deal, error: null };
}

export function stepTrick(r, to) {
  return { ...r, trick: Math.max(0, Math.min(TRICKS, to)) };
}

export function reviewReply(r, f) {
  if (!r || f.match_id !== r.matchId) return r;
  const mine = f.number === r.deal;
  return {
    ...r,
    replies: { ...r.replies, [f.number]: f },
    deals: f.deals ?? r.deals,
    pending: mine ? null : r.pending,
    retrying: mine ? false : r.retrying,
    error: mine ? null : r.error,
  };
}

// The server's own fault, retried once by itself after `retry_after`.
export function reviewRetrying(r, sent) {
  if (!r || sent.match_id !== r.matchId || sent.deal !== r.deal) return r;
  return { ...r, retrying: true };
}

export function reviewRefused(r, f, sent) {
  if (!r || sent.match_id !== r.matchId || (sent.deal ?? 0) !== r.deal) return r; // an old ask
  return { ...r, pending: null, retrying: false, error: { code: f.code, message: f.message, deal: r.deal } };
}

// -- the deal, derived ------------------------------------------------------------------------

// The four cards of a trick with who played each, in play order from the leader.
export function trickPlays(trick) {
  return trick.cards.map((card, i) => ({ seat: (trick.leader + i) % 4, card, order: i + 1 }));
}

// Each seat's hand before trick `t` (cards played in the tricks before it removed).
export function handsBefore(deal, t) {
  const gone = new Set();
  for (const trick of deal.tricks.slice(0, t)) for (const card of trick.cards) gone.add(card);
  return deal.hands.map((hand) => hand.filter((card) => !gone.has(card)));
}

// The reviewer's plays with the trick each was in.
export function myPlays(reply) {
  return (reply.plays ?? []).map((p) => ({ ...p, trick: Math.floor(p.index / 4) }));
}

// Per deal: how many plays got each label, and the total lost.
export function dealSummary(reply) {
  const counts = Object.fromEntries(LABELS.map((label) => [label, 0]));
  let lost = 0;
  for (const p of reply.plays ?? []) {
    if (p.label in counts) counts[p.label] += 1;
    lost += p.lost;
  }
  return { counts, lost, plays: (reply.plays ?? []).length };
}

// -- words ------------------------------------------------------------------------------------

const seatOf = (reply) => reply.seat ?? null;
const posOf = (reply, seat) => POSITIONS[(seat - (seatOf(reply) ?? 0) + 4) % 4];

function nickname(r, seat) {
  return r.room?.seats?.[seat]?.nickname ?? null;
}

// A seat's title over its hand: "You", "Partner", "Left", or for a reader who did not
// play, its place at the table.
function seatTitle(r, reply, seat) {
  if (seatOf(reply) === null) return `Seat ${seat + 1}`;
  if (seat === seatOf(reply)) return 'You';
  return PLACE_TITLES[posOf(reply, seat)];
}

// A seat in a sentence: "you", "your partner", "left", "ann".
function who(r, reply, seat) {
  if (seatOf(reply) === null) return nickname(r, seat) ?? `seat ${seat + 1}`;
  if (seat === seatOf(reply)) return 'you';
  return PLACE_WORDS[posOf(reply, seat)];
}

function teamName(r, reply, team) {
  const mine = seatOf(reply);
  if (mine !== null) return team === mine % 2 ? 'Us' : 'Them';
  const names = [team, team + 2].map((s) => nickname(r, s) ?? `seat ${s + 1}`);
  return names.join(' & ');
}

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');
const given = (lost) => `${lost / 2} ${lost === 2 ? 'point' : 'points'} given away`;

// A card in a line of text: symbols to the eye, words to a screen reader.
function cardText(card, attrs = {}) {
  return h('span', { ...attrs, class: ['card-text', isRed(suitOf(card)) && 'red', attrs.class], dataset: { card, ...(attrs.dataset || {}) } },
    h('span', { 'aria-hidden': 'true' }, `${rankShown(card)}${SUIT_SYMBOLS[suitOf(card)]}`),
    h('span', { class: 'sr-only' }, cardWords(card)));
}

function badge(label) {
  if (!label) return null;
  return h('span', { class: ['verdict', `verdict-${label}`], dataset: { label } },
    LABEL_WORDS[label] ?? label,
    h('span', { class: 'verdict-mark', 'aria-hidden': 'true' }, ` ${LABEL_MARKS[label] ?? ''}`));
}

// -- rendering --------------------------------------------------------------------------------

export function renderReview(app) {
  const r = app.review;
  const screen = $('#review');
  const body = $('#review-body');
  if (!r) {
    patch(body);
    return;
  }
  // The value lists a player opened stay open across redraws.
  for (const details of body.querySelectorAll('details[data-open-key]')) {
    if (details.open) r.open.add(details.dataset.openKey);
    else r.open.delete(details.dataset.openKey);
  }
  const reply = shown(r);
  let state = 'loading';
  if (r.error) state = r.error.code;
  else if (reply) state = 'review';
  screen.dataset.matchId = r.matchId;
  screen.dataset.state = state;
  screen.dataset.deal = String(r.deal);
  screen.dataset.deals = r.deals === null ? '' : String(r.deals);
  screen.dataset.trick = String(r.trick);
  body.setAttribute('aria-busy', String(!reply && !r.error));
  const name = r.room?.name;
  $('#review-match').textContent = name ? `${name}` : '';
  show($('#review-match'), Boolean(name));

  let content;
  if (r.error) content = refusal(r);
  else if (!reply) content = [dealNav(r), loading(r)];
  else content = [dealNav(r), dealView(r, reply)];
  patch(body, content);
  // A select the player has used no longer follows its options' `selected`: set it.
  const select = $('#review-deal-select');
  if (select && select.value !== String(r.deal)) select.value = String(r.deal);
}

function loading(r) {
  return h('div', { class: 'panel review-message', dataset: { key: 'loading' }, role: 'status' },
    h('p', {}, r.retrying
      ? 'The server is busy solving other games: asking again in a moment…'
      : `Solving deal ${r.deal + 1} with all hands open…`));
}

function refusal(r) {
  const e = r.error;
  const lines = [];
  const actions = [];
  if (e.code === 'daily_not_over') {
    lines.push(h('strong', {}, 'A daily game’s review opens once its day is over.'));
    lines.push(h('span', { class: 'muted small' },
      `Everyone plays the same deals until midnight UTC (in ${untilMidnight()}): come back then to see all four hands and your plays solved.`));
    actions.push(h('button', { type: 'button', class: 'primary', dataset: { go: 'lobby' } }, 'Back to the lobby'));
  } else if (e.code === 'no_such_match') {
    lines.push(h('strong', {}, 'This match cannot be reviewed.'));
    lines.push(h('span', { class: 'muted small' }, 'Only a finished match has a record: a match still being played, or an unknown one, has none yet.'));
    actions.push(h('button', { type: 'button', class: 'primary', dataset: { go: 'lobby' } }, 'Back to the lobby'));
  } else if (e.code === 'no_such_deal') {
    lines.push(h('strong', {}, `This match has no deal ${e.deal + 1}.`));
    lines.push(h('span', { class: 'muted small' }, cap(String(e.message ?? ''))));
    actions.push(h('button', { type: 'button', class: 'primary', dataset: { reviewDeal: 'first' } }, 'Go to the first deal'));
  } else if (e.code === 'bots_busy') {
    lines.push(h('strong', {}, 'The server is busy solving other games.'));
    lines.push(h('span', { class: 'muted small' }, 'Nothing is lost: try again in a moment.'));
    actions.push(h('button', { type: 'button', class: 'primary', dataset: { reviewRetry: '' } }, 'Try again'));
  } else {
    lines.push(h('strong', {}, cap(String(e.message ?? 'The review could not be loaded.'))));
    actions.push(h('button', { type: 'button', class: 'primary', dataset: { reviewRetry: '' } }, 'Try again'));
  }
  return [h('div', { class: 'panel review-message', dataset: { key: `refused-${e.code}` }, id: 'review-error', role: 'alert' },
    lines.map((line) => h('p', {}, line)),
    h('div', { class: 'item-actions' }, actions,
      e.code !== 'daily_not_over' && e.code !== 'no_such_match'
        ? h('button', { type: 'button', dataset: { go: 'lobby' } }, 'Back to the lobby') : null))];
}

function dealNav(r) {
  const n = r.deals;
  const label = n === null ? `Deal ${r.deal + 1}` : `Deal ${r.deal + 1} of ${n}`;
  return h('nav', { class: 'review-nav deal-nav', 'aria-label': 'Deals', dataset: { key: 'deal-nav' } },
    h('button', {
      type: 'button', class: 'small', dataset: { reviewDeal: 'prev' }, disabled: r.deal === 0,
      'aria-label': 'Previous deal', title: 'Previous deal (Page Up)',
    }, '‹ Previous deal'),
    n !== null && n > 1
      ? h('label', { class: 'deal-pick' },
        h('span', { class: 'sr-only' }, 'Deal'),
        h('select', { id: 'review-deal-select', 'aria-label': 'Deal' },
          Array.from({ length: n }, (_, i) => h('option', { value: String(i), selected: i === r.deal }, `Deal ${i + 1} of ${n}`))))
      : h('strong', { id: 'review-deal-label' }, label),
    h('button', {
      type: 'button', class: 'small', dataset: { reviewDeal: 'next' }, disabled: n === null || r.deal >= n - 1,
      'aria-label': 'Next deal', title: 'Next deal (Page Down)',
    }, 'Next deal ›'));
}

function dealView(r, reply) {
  const deal = reply.deal;
  const t = r.trick;
  const end = t >= TRICKS;
  const hands = end ? deal.hands.map(() => []) : handsBefore(deal, t);
  const trick = end ? null : deal.tricks[t];
  const plays = myPlays(reply);
  const mine = plays.find((p) => p.trick === t) ?? null;
  const inTrick = new Set(trick ? trick.cards : []);
  return h('div', { class: 'review-layout', dataset: { key: `deal-${r.deal}` } },
    h('div', { class: 'review-main' },
      h('div', { class: 'review-felt', id: 'review-board' },
        h('div', { class: 'review-bar' }, trumpLine(r, reply)),
        [0, 1, 2, 3].map((seat) => seatView(r, reply, seat, hands[seat], inTrick, t, mine)),
        h('div', { class: 'review-center' }, end ? resultView(r, reply) : trickView(r, reply, trick, t))),
      trickNav(r, reply)),
    h('aside', { class: 'review-side' },
      summaryView(r, reply),
      end ? null : playView(r, reply, mine, trick),
      playsList(r, reply, plays)));
}

function trumpLine(r, reply) {
  const deal = reply.deal;
  const suit = deal.trump;
  return h('p', { id: 'review-trump', class: 'review-trump', dataset: { trump: suit, chooser: deal.chooser } },
    h('span', { class: 'muted' }, 'Trump '),
    h('span', { class: ['suit-big', isRed(suit) && 'red'], 'aria-hidden': 'true' }, SUIT_SYMBOLS[suit]),
    h('span', { class: 'sr-only' }, SUIT_NAMES[suit]),
    h('span', { class: 'muted' }, ` · chosen by ${who(r, reply, deal.chooser)} · dealt by ${who(r, reply, deal.dealer)}`));
}

function seatView(r, reply, seat, cards, inTrick, t, mine) {
  const deal = reply.deal;
  const pos = posOf(reply, seat);
  const you = seatOf(reply) === seat;
  const title = seatTitle(r, reply, seat);
  const nick = nickname(r, seat);
  const trick = deal.tricks[t];
  const marks = [];
  if (seat === deal.dealer) marks.push(h('span', { class: 'badge badge-dealer', title: 'Dealer' }, 'dealer'));
  if (seat === deal.chooser) {
    marks.push(h('span', { class: ['badge badge-chose', isRed(deal.trump) && 'red'], title: `Chose ${SUIT_NAMES[deal.trump]}` },
      'trump ', h('span', { 'aria-hidden': 'true' }, SUIT_SYMBOLS[deal.trump])));
  }
  if (trick && trick.leader === seat) marks.push(h('span', { class: 'badge badge-led' }, 'leads'));
  const best = you && mine ? new Set(mine.best) : new Set();
  const sorted = sortHand(cards, deal.trump);
  return h('div', {
    class: ['review-seat', `team-${seat % 2}`, you && 'you'],
    dataset: { seat, pos, key: `seat-${seat}` },
    role: 'group',
    'aria-label': `${title}${nick && !you ? ` (${nick})` : ''}: ${plural(cards.length, 'card')}`,
  },
  h('div', { class: 'seat-head' },
    h('span', { class: 'name' }, title),
    nick && title !== nick ? h('span', { class: 'nick small' }, nick) : null,
    marks),
  h('div', { class: 'review-hand', dataset: { seat } },
    sorted.length
      ? sorted.map((card) => cardView(card, {
        class: [inTrick.has(card) && 'in-trick', best.has(card) && 'best'],
        dataset: { key: card },
        title: inTrick.has(card) ? `${cap(cardWords(card))}: played in this trick` : null,
      }, deal.trump))
      : h('span', { class: 'muted small empty-hand' }, 'no cards left')));
}

function trickView(r, reply, trick, t) {
  const plays = trickPlays(trick);
  const last = t === TRICKS - 1;
  const extra = [];
  if (last) extra.push('+10 for the last trick');
  if (trick.roem) extra.push(`+${trick.roem} roem`);
  const points = `${trick.points} ${trick.points === 1 ? 'point' : 'points'}${extra.length ? ` (${extra.join(', ')})` : ''}`;
  return [
    h('div', { id: 'review-trick', class: 'review-trick', 'aria-label': `Trick ${t + 1}`, dataset: { trick: t, leader: trick.leader, winner: trick.winner } },
      plays.map(({ seat, card, order }) => cardView(card, {
        class: ['played', posOf(reply, seat), seat === trick.winner && 'winner', order === 1 && 'leader'],
        dataset: { seat, order, key: card },
        'aria-label': `${cardWords(card)}, ${order === 1 ? 'led' : `played ${order}${['', 'st', 'nd', 'rd', 'th'][order]}`} by ${who(r, reply, seat)}${seat === trick.winner ? ', wins the trick' : ''}`,
      }, reply.deal.trump))),
    h('p', { class: 'review-trick-line' },
      `${cap(who(r, reply, trick.leader))} led · won by ${who(r, reply, trick.winner)} · ${points}`),
  ];
}

function resultView(r, reply) {
  const res = reply.deal.result;
  const chooserTeam = reply.deal.chooser % 2;
  const line = (team) => h('div', { class: ['review-team', `team-${team}`], dataset: { team } },
    h('span', { class: 'team-name' }, teamName(r, reply, team)),
    h('strong', { class: 'review-score' }, String(res.score[team])),
    h('span', { class: 'small' },
      `${res.card_points[team]} card points${res.roem[team] ? ` + ${res.roem[team]} roem` : ''}`,
      res.nat && chooserTeam === team ? h('span', { class: 'mark nat' }, ' nat') : null,
      res.pit === team ? h('span', { class: 'mark pit' }, ' pit') : null));
  let verdict = '';
  if (res.nat) verdict = `${teamName(r, reply, chooserTeam)} went nat: the other team takes every point.`;
  else if (res.pit !== null && res.pit !== undefined) verdict = `${teamName(r, reply, res.pit)} took every trick (pit).`;
  return h('div', { id: 'review-result', class: 'review-result' },
    h('h2', {}, 'The deal’s result'),
    h('div', { class: 'review-teams' }, line(0), line(1)),
    verdict ? h('p', { class: 'small' }, verdict) : null);
}

function trickNav(r, reply) {
  const t = r.trick;
  const end = t >= TRICKS;
  const where = end ? 'The result' : `Trick ${t + 1} of ${TRICKS}`;
  let status = where;
  if (!end) {
    const trick = reply.deal.tricks[t];
    status = `Trick ${t + 1} of ${TRICKS}: ${who(r, reply, trick.leader)} led `
      + `${trickPlays(trick).map(({ seat, card }) => `${cardWords(card)} by ${who(r, reply, seat)}`).join(', ')}; `
      + `won by ${who(r, reply, trick.winner)}.`;
  } else {
    const res = reply.deal.result;
    status = `The deal’s result: ${teamName(r, reply, 0)} ${res.score[0]}, ${teamName(r, reply, 1)} ${res.score[1]}.`;
  }
  return h('div', { class: 'review-steps', dataset: { key: 'steps' } },
    h('nav', { class: 'review-nav trick-nav', 'aria-label': 'Tricks' },
      h('button', {
        type: 'button', class: 'small', dataset: { reviewTrick: 'first' }, disabled: t === 0,
        'aria-label': 'First trick', title: 'First trick (Home)',
      }, '«'),
      h('button', {
        type: 'button', dataset: { reviewTrick: 'prev' }, disabled: t === 0,
        'aria-label': 'Previous trick', title: 'Previous trick (←)',
      }, '‹ Previous'),
      h('strong', { id: 'review-step', class: 'review-step' }, where),
      h('button', {
        type: 'button', class: 'primary', dataset: { reviewTrick: 'next' }, disabled: end,
        'aria-label': t === TRICKS - 1 ? 'The result' : 'Next trick', title: 'Next trick (→)',
      }, t === TRICKS - 1 ? 'Result ›' : 'Next ›'),
      h('button', {
        type: 'button', class: 'small', dataset: { reviewTrick: 'end' }, disabled: end,
        'aria-label': 'The deal’s result', title: 'The result (End)',
      }, '»')),
    h('p', { id: 'review-status', class: 'sr-only', role: 'status', 'aria-live': 'polite' }, status),
    h('p', { class: 'muted small review-keys' },
      'Keys: ← → previous / next trick · Home / End first trick / result · Page Up / Page Down previous / next deal'));
}

function summaryView(r, reply) {
  const s = dealSummary(reply);
  const res = reply.deal.result;
  const mine = seatOf(reply);
  return h('section', { id: 'review-summary', class: 'panel review-summary', 'aria-labelledby': 'review-summary-title', dataset: { lost: s.lost } },
    h('h2', { id: 'review-summary-title' }, `Deal ${reply.number + 1}`),
    h('p', { class: 'review-deal-score' },
      `${teamName(r, reply, 0)} ${res.score[0]} – ${teamName(r, reply, 1)} ${res.score[1]}`,
      res.nat ? h('span', { class: 'mark nat' }, ' nat') : null,
      res.pit !== null && res.pit !== undefined ? h('span', { class: 'mark pit' }, ' pit') : null),
    mine === null
      ? h('p', { class: 'muted small' }, 'You did not play this match: all four hands are shown, with no plays of yours to weigh.')
      : [
        h('ul', { class: 'review-counts', 'aria-label': 'Your plays in this deal' },
          LABELS.map((label) => h('li', { class: ['count', `count-${label}`], dataset: { count: label, value: s.counts[label] } },
            h('strong', {}, String(s.counts[label])), ` ${s.counts[label] === 1 ? label : LABEL_PLURALS[label]}`)),
          h('li', { class: 'count count-lost', dataset: { count: 'lost', value: s.lost } },
            h('strong', {}, String(s.lost)), ' lost in all')),
        h('p', { class: 'muted small' },
          s.lost === 0
            ? 'Every one of your plays was as good as the best, with all hands open.'
            : `Against perfect play with all hands open you gave away ${s.lost / 2} ${s.lost === 2 ? 'point' : 'points'}.`),
      ]);
}

function playView(r, reply, mine, trick) {
  if (seatOf(reply) === null) return null;
  if (!mine) return null;
  const best = mine.best.includes(mine.card);
  const key = `${reply.number}:${mine.index}`;
  const values = Object.entries(mine.values).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const top = values.length ? values[0][1] : 0;
  const order = trickPlays(trick).find((p) => p.card === mine.card)?.order ?? 1;
  return h('section', {
    id: 'review-play', class: ['panel review-play', mine.label && `has-${mine.label}`], 'aria-labelledby': 'review-play-title',
    dataset: { index: mine.index, card: mine.card, lost: mine.lost, label: mine.label ?? '', key },
  },
  h('h2', { id: 'review-play-title' }, 'Your play', h('span', { class: 'muted small' }, order === 1 ? ' (you led)' : ` (${order}${['', 'st', 'nd', 'rd', 'th'][order]} to play)`)),
  h('div', { class: 'review-played' },
    cardView(mine.card, { class: 'mine', dataset: { key: mine.card } }, reply.deal.trump),
    h('div', {},
      h('p', {}, 'You played ', cardText(mine.card, { class: 'played-card' }), '. ', badge(mine.label)),
      h('p', { class: 'review-best' },
        best
          ? (mine.best.length > 1 ? 'A best play; as good: ' : 'The best play.')
          : 'Best: ',
        mine.best.filter((c) => !best || c !== mine.card).map((c, i) => [i ? ', ' : '', cardText(c, { class: 'best-card' })])),
      h('p', { class: 'review-lost' },
        mine.lost
          ? [h('strong', {}, `Lost ${mine.lost}`), h('span', { class: 'muted small' }, ` (${given(mine.lost)})`)]
          : h('span', { class: 'muted' }, 'Nothing lost.')))),
  h('details', { class: 'review-values', open: r.open.has(key), dataset: { openKey: key } },
    h('summary', {}, `Values of the ${plural(values.length, 'legal card')}`),
    h('p', { class: 'muted small' },
      'Each card’s value: our final score in this deal minus theirs, if every later card is the best for its side with all hands open.'),
    h('ol', { class: 'value-list' }, values.map(([card, value]) => h('li', {
      class: [card === mine.card && 'played', value === top && 'best'], dataset: { card, value, key: card },
    },
    cardText(card),
    h('span', { class: 'value' }, signed(value)),
    h('span', { class: 'value-diff muted small' }, value === top ? 'best' : signed(value - top)),
    card === mine.card ? h('span', { class: 'chip you' }, 'played') : null)))));
}

function playsList(r, reply, plays) {
  if (seatOf(reply) === null || !plays.length) return null;
  return h('section', { class: 'panel review-plays-panel', 'aria-labelledby': 'review-plays-title' },
    h('h2', { id: 'review-plays-title' }, 'Your plays'),
    h('ol', { id: 'review-plays', class: 'review-plays' }, plays.map((p) => {
      const here = p.trick === r.trick;
      return h('li', {
        class: [here && 'current', p.label && `has-${p.label}`],
        dataset: { index: p.index, card: p.card, trick: p.trick, lost: p.lost, label: p.label ?? '', key: `p${p.index}` },
      },
      h('button', {
        type: 'button', class: 'ghost small', dataset: { reviewGoto: p.trick },
        'aria-current': here ? 'step' : null,
        'aria-label': `Trick ${p.trick + 1}: you played ${cardWords(p.card)}${p.lost ? `, lost ${p.lost}` : ''}${p.label ? `, ${p.label}` : ''}`,
      },
      h('span', { class: 'play-trick muted' }, `Trick ${p.trick + 1}`),
      cardText(p.card, { class: 'play-card' }),
      h('span', { class: 'play-lost' }, p.lost ? `−${p.lost}` : '✓'),
      badge(p.label)));
    })));
}
