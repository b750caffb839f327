// The review of a finished match: one deal at a time, trick by trick, all four hands open,
// each of your plays against the exact solver (values, best cards, points lost, label), and
// before them each of your trump choices against the strong CPU's trump evaluation (the same).
//
// The state is `app.review`, changed only by the pure reducers below (no DOM); the
// render function draws the #review screen from it.

import { $, h, patch, show } from './dom.js';
import { SUIT_NAMES, SUIT_SYMBOLS, cardWords, isRed, rankShown, sortHand, suitOf } from './cards.js';
import { cardView } from './cardview.js';
import { todayUtc, untilMidnight } from './daily.js';
import { fill, fillParts, plural } from './fill.js';
import { currentLanguage, pluralCategory, strings } from './i18n.js';
import { roomTitle } from './lobby.js';
import { rulesCatalog } from './catalog.js';
import { teamSide } from './state.js';

export const TRICKS = 8; // steps 0-7 are the tricks, step 8 the deal's result
const POSITIONS = ['bottom', 'right', 'top', 'left'];
export const LABELS = ['inaccuracy', 'mistake', 'blunder']; // mildest first
const LABEL_MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

// The verdicts on a play, against the exact solver (mildest first).
const LABEL_WORDS = strings('review.labels', {
  inaccuracy: 'Inaccuracy', // a play that lost a little against perfect play
  mistake: 'Mistake',
  blunder: 'Blunder', // a play that lost a lot
  // how many of them in a deal ({n} shown bold)
  inaccuracies: { one: '{n} inaccuracy', other: '{n} inaccuracies' },
  mistakes: { one: '{n} mistake', other: '{n} mistakes' },
  blunders: { one: '{n} blunder', other: '{n} blunders' },
});
const LABEL_COUNTS = { inaccuracy: 'inaccuracies', mistake: 'mistakes', blunder: 'blunders' };

const TEXT = strings('review', {
  // a seat in a sentence ("led by {who}"), seen from the reviewing player
  whoYou: 'you',
  whoPartner: 'your partner',
  whoLeft: 'left', // the player on your left
  whoRight: 'right', // the player on your right
  whoSeat: 'seat {n}', // a seat, for a reader who did not play (and has no name for it)
  // a seat's title over its hand
  titleYou: 'You',
  titlePartner: 'Partner',
  titleLeft: 'Left',
  titleRight: 'Right',
  titleSeat: 'Seat {n}',
  teamUs: 'Us', // your team
  teamThem: 'Them', // the other team
  teamOf: '{a} & {b}', // a team named after its two players
  retrying: 'The server is busy solving other games: asking again in a moment…',
  solving: 'Solving deal {n} with all hands open…',
  dailyNotOver: 'A daily game’s review opens once its day is over.',
  dailyComeBack: 'Everyone plays the same deals until midnight UTC (in {time}): come back then to see all four hands and your plays solved.',
  backToLobby: 'Back to the lobby',
  noSuchMatch: 'This match cannot be reviewed.',
  noSuchMatchWhy: 'Only a finished match has a record: a match still being played, or an unknown one, has none yet.',
  noSuchDeal: 'This match has no deal {n}.',
  firstDeal: 'Go to the first deal',
  busy: 'The server is busy solving other games.',
  busyWhy: 'Nothing is lost: try again in a moment.',
  tryAgain: 'Try again',
  loadFailed: 'The review could not be loaded.',
  deal: 'Deal {n}',
  dealOf: 'Deal {n} of {total}',
  deals: 'Deals', // the label of the deal navigation
  dealPick: 'Deal', // the label of the list of deals
  previousDeal: 'Previous deal',
  previousDealKey: 'Previous deal (Page Up)',
  previousDealButton: '‹ Previous deal',
  nextDeal: 'Next deal',
  nextDealKey: 'Next deal (Page Down)',
  nextDealButton: 'Next deal ›',
  trumpLine: 'Trump {suit} · chosen by {chooser} · dealt by {dealer}', // {suit}: the suit's symbol
  dealer: 'Dealer',
  dealerBadge: 'dealer', // the mark of the dealer's seat
  chose: 'Chose {suit}', // the title of the mark of the seat that chose trump
  trumpBadge: 'trump {suit}', // the mark of the seat that chose trump; {suit}: the suit's symbol
  leadsBadge: 'leads', // the mark of the seat that leads the trick shown
  seatCards: { one: '{title}: {n} card', other: '{title}: {n} cards' },
  seatCardsNick: { one: '{title} ({nick}): {n} card', other: '{title} ({nick}): {n} cards' },
  inThisTrick: 'Played in this trick: {card}',
  noCardsLeft: 'no cards left',
  points: { one: '{n} point', other: '{n} points' },
  pointsLast: '{points} (+{last} for the last trick)', // {points}: as `points`; {last}: the last trick's points
  pointsRoem: '{points} (+{roem} roem)',
  pointsLastRoem: '{points} (+{last} for the last trick, +{roem} roem)',
  ledMark: 'led', // the small mark under the trick's first card
  led: 'led by {who}', // a card of the trick, for a screen reader: "{card}, led by you"
  played2: 'played 2nd by {who}',
  played3: 'played 3rd by {who}',
  played4: 'played 4th by {who}',
  cardPlay: '{card}, {how}', // {how}: one of the four above
  cardPlayWins: '{card}, {how}, wins the trick',
  trickLine: 'Led by {leader} · won by {winner} · {points}',
  cardPoints: '{n} card points',
  cardPointsRoem: '{n} card points + {roem} roem',
  nat: 'nat', // the mark of a team that went nat
  pit: 'pit', // the mark of a team that took every trick
  natUs: 'We went nat: the other team takes every point.',
  natThem: 'They went nat: the other team takes every point.',
  natTeam: '{team} went nat: the other team takes every point.',
  pitUs: 'We took every trick (pit).',
  pitThem: 'They took every trick (pit).',
  pitTeam: '{team} took every trick (pit).',
  result: 'The deal’s result',
  theResult: 'The result', // the last step of a deal, after its eight tricks
  trickOf: 'Trick {n} of {total}',
  statusTrick: 'Trick {n} of {total}, led by {leader}: {plays}; won by {winner}.', // for a screen reader; {plays}: a list of playBy
  playBy: '{card} by {who}',
  statusResult: 'The deal’s result: {teamA} {a}, {teamB} {b}.',
  tricks: 'Tricks', // the label of the trick navigation
  firstTrick: 'First trick',
  firstTrickKey: 'First trick (Home)',
  previousTrick: 'Previous trick',
  previousTrickKey: 'Previous trick (←)',
  previousButton: '‹ Previous',
  nextTrick: 'Next trick',
  nextTrickKey: 'Next trick (→)',
  resultButton: 'Result ›',
  nextButton: 'Next ›',
  resultKey: 'The result (End)',
  keys: 'Keys: ← → previous / next trick · Home / End first trick / result · Page Up / Page Down previous / next deal',
  dealScore: '{teamA} {a} – {teamB} {b}',
  notPlayed: 'You did not play this match: all four hands are shown, with no plays of yours to weigh.',
  yourPlaysInDeal: 'Your plays in this deal',
  // what a play lost: how much lower our score minus theirs came out than with the best play
  lostInAll: '{n} lost in all', // {n} shown bold
  perfect: 'Every one of your plays was as good as the best, with all hands open.',
  lostWhy: 'Lost: what your plays cost against the best plays with all hands open, in our score minus theirs for this deal.',
  yourPlay: 'Your play',
  youLed: '(you led)',
  toPlay2: '(2nd to play)',
  toPlay3: '(3rd to play)',
  toPlay4: '(4th to play)',
  youPlayed: 'You played {card}.',
  bestAlso: 'A best play; as good: {cards}',
  theBest: 'The best play.',
  best: 'Best: {cards}', // the best cards, when yours was not
  lost: 'Lost {n}', // what a play lost against the best
  nothingLost: 'Nothing lost.',
  values: { one: 'Values of the {n} legal card', other: 'Values of the {n} legal cards' },
  valuesWhy: 'Each card’s value: our final score in this deal minus theirs, if every later card is the best for its side with all hands open.',
  bestValue: 'best', // next to the best value in the list of values
  playedChip: 'played', // the mark of the card you played in the list of values
  yourPlays: 'Your plays',
  trick: 'Trick {n}',
  playAria: 'Trick {n}: you played {card}',
  playAriaLost: 'Trick {n}: you played {card}, lost {lost}',
  playAriaLabel: 'Trick {n}: you played {card}, lost {lost}, {label}', // {label}: Inaccuracy, Mistake or Blunder
  // your trump choices in the deal (each pass, and the suit you named), before the tricks
  yourBid: 'Your trump choice',
  yourBids: 'Your trump choices',
  toBid1: '(1st to choose)',
  toBid2: '(2nd to choose)',
  toBid3: '(3rd to choose)',
  toBid4: '(4th to choose)',
  toBidForced: '(everyone passed: you had to name trump)',
  youPassed: 'You passed.',
  youNamed: 'You named {suit}.', // {suit}: the suit's symbol and name
  passChoice: 'pass', // passing, as one of the choices in a list
  bidBest: 'Best: {choices}', // the best choices, when yours was not; each with its value
  bidBestAlso: 'A best choice; as good: {choices}',
  bidTheBest: 'The best choice.',
  bidValues: { one: 'Value of your {n} choice', other: 'Values of your {n} choices' },
  bidValuesWhy: 'Each choice’s value: what your hand was worth with it by the strong CPU’s trump evaluation, in our score minus theirs for this deal.',
  bidChip: 'your choice', // the mark of the choice you made in the list of values
});

// A plural's form with elements in its slots (the count shown bold, ...).
function pluralParts(forms, n, values) {
  return fillParts(forms[pluralCategory(n)] ?? forms.other, values);
}

// A list in the page's language ("a, b and c").
function list(items) {
  return new Intl.ListFormat(currentLanguage(), { type: 'unit' }).format(items);
}

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
  if (seatOf(reply) === null) return fill(TEXT.titleSeat, { n: seat + 1 });
  if (seat === seatOf(reply)) return TEXT.titleYou;
  return { right: TEXT.titleRight, top: TEXT.titlePartner, left: TEXT.titleLeft }[posOf(reply, seat)];
}

// A seat in a sentence: "you", "your partner", "left", "ann".
function who(r, reply, seat) {
  if (seatOf(reply) === null) return nickname(r, seat) ?? fill(TEXT.whoSeat, { n: seat + 1 });
  if (seat === seatOf(reply)) return TEXT.whoYou;
  return { right: TEXT.whoRight, top: TEXT.whoPartner, left: TEXT.whoLeft }[posOf(reply, seat)];
}

// A team's colour, as at the table: the reviewer's own team is `us` (seat 0's for others).
const sideOf = (reply, team) => teamSide({ seat: seatOf(reply) }, team);

function teamName(r, reply, team) {
  const mine = seatOf(reply);
  if (mine !== null) return team === mine % 2 ? TEXT.teamUs : TEXT.teamThem;
  const [a, b] = [team, team + 2].map((s) => nickname(r, s) ?? fill(TEXT.whoSeat, { n: s + 1 }));
  return fill(TEXT.teamOf, { a, b });
}

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

// A value with at most one decimal (a trump choice's), in the page's language; signed as above.
const decimal = (n) => Math.abs(n).toLocaleString(currentLanguage(), { maximumFractionDigits: 1 });
const signedDecimal = (n) => {
  const shown = decimal(n);
  if (shown === '0') return '0';
  return n > 0 ? `+${shown}` : `−${shown}`;
};

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
  const name = roomTitle(r.room);
  $('#review-match').textContent = name;
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
    h('p', {}, r.retrying ? TEXT.retrying : fill(TEXT.solving, { n: r.deal + 1 })));
}

function refusal(r) {
  const e = r.error;
  const lines = [];
  const actions = [];
  if (e.code === 'daily_not_over') {
    lines.push(h('strong', {}, TEXT.dailyNotOver));
    lines.push(h('span', { class: 'muted small' }, fill(TEXT.dailyComeBack, { time: untilMidnight() })));
    actions.push(h('button', { type: 'button', class: 'primary', dataset: { go: 'lobby' } }, TEXT.backToLobby));
  } else if (e.code === 'no_such_match') {
    lines.push(h('strong', {}, TEXT.noSuchMatch));
    lines.push(h('span', { class: 'muted small' }, TEXT.noSuchMatchWhy));
    actions.push(h('button', { type: 'button', class: 'primary', dataset: { go: 'lobby' } }, TEXT.backToLobby));
  } else if (e.code === 'no_such_deal') {
    lines.push(h('strong', {}, fill(TEXT.noSuchDeal, { n: e.deal + 1 })));
    actions.push(h('button', { type: 'button', class: 'primary', dataset: { reviewDeal: 'first' } }, TEXT.firstDeal));
  } else if (e.code === 'bots_busy') {
    lines.push(h('strong', {}, TEXT.busy));
    lines.push(h('span', { class: 'muted small' }, TEXT.busyWhy));
    actions.push(h('button', { type: 'button', class: 'primary', dataset: { reviewRetry: '' } }, TEXT.tryAgain));
  } else {
    lines.push(h('strong', {}, TEXT.loadFailed));
    if (e.message) lines.push(h('span', { class: 'muted small' }, String(e.message)));
    actions.push(h('button', { type: 'button', class: 'primary', dataset: { reviewRetry: '' } }, TEXT.tryAgain));
  }
  return [h('div', { class: 'panel review-message', dataset: { key: `refused-${e.code}` }, id: 'review-error', role: 'alert' },
    lines.map((line) => h('p', {}, line)),
    h('div', { class: 'item-actions' }, actions,
      e.code !== 'daily_not_over' && e.code !== 'no_such_match'
        ? h('button', { type: 'button', dataset: { go: 'lobby' } }, TEXT.backToLobby) : null))];
}

function dealNav(r) {
  const n = r.deals;
  const label = n === null ? fill(TEXT.deal, { n: r.deal + 1 }) : fill(TEXT.dealOf, { n: r.deal + 1, total: n });
  return h('nav', { class: 'review-nav deal-nav', 'aria-label': TEXT.deals, dataset: { key: 'deal-nav' } },
    h('button', {
      type: 'button', class: 'small', dataset: { reviewDeal: 'prev' }, disabled: r.deal === 0,
      'aria-label': TEXT.previousDeal, title: TEXT.previousDealKey,
    }, TEXT.previousDealButton),
    n !== null && n > 1
      ? h('label', { class: 'deal-pick' },
        h('span', { class: 'sr-only' }, TEXT.dealPick),
        h('select', { id: 'review-deal-select', 'aria-label': TEXT.dealPick },
          Array.from({ length: n }, (_, i) => h('option', { value: String(i), selected: i === r.deal }, fill(TEXT.dealOf, { n: i + 1, total: n })))))
      : h('strong', { id: 'review-deal-label' }, label),
    h('button', {
      type: 'button', class: 'small', dataset: { reviewDeal: 'next' }, disabled: n === null || r.deal >= n - 1,
      'aria-label': TEXT.nextDeal, title: TEXT.nextDealKey,
    }, TEXT.nextDealButton));
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
      bidsView(r, reply),
      end ? null : playView(r, reply, mine, trick),
      playsList(r, reply, plays)));
}

function trumpLine(r, reply) {
  const deal = reply.deal;
  const suit = deal.trump;
  return h('p', { id: 'review-trump', class: 'review-trump', dataset: { trump: suit, chooser: deal.chooser } },
    fillParts(TEXT.trumpLine, {
      suit: [
        h('span', { class: ['suit-big', isRed(suit) && 'red'], 'aria-hidden': 'true' }, SUIT_SYMBOLS[suit]),
        h('span', { class: 'sr-only' }, SUIT_NAMES[suit]),
      ],
      chooser: who(r, reply, deal.chooser),
      dealer: who(r, reply, deal.dealer),
    }).map((part) => (typeof part === 'string' ? h('span', { class: 'muted' }, part) : part)));
}

function seatView(r, reply, seat, cards, inTrick, t, mine) {
  const deal = reply.deal;
  const pos = posOf(reply, seat);
  const you = seatOf(reply) === seat;
  const title = seatTitle(r, reply, seat);
  const nick = nickname(r, seat);
  const trick = deal.tricks[t];
  const marks = [];
  if (seat === deal.dealer) marks.push(h('span', { class: 'badge badge-dealer', title: TEXT.dealer }, TEXT.dealerBadge));
  if (seat === deal.chooser) {
    marks.push(h('span', { class: ['badge badge-chose', isRed(deal.trump) && 'red'], title: fill(TEXT.chose, { suit: SUIT_NAMES[deal.trump] }) },
      fillParts(TEXT.trumpBadge, { suit: h('span', { 'aria-hidden': 'true' }, SUIT_SYMBOLS[deal.trump]) })));
  }
  if (trick && trick.leader === seat) marks.push(h('span', { class: 'badge badge-led' }, TEXT.leadsBadge));
  const best = you && mine ? new Set(mine.best) : new Set();
  const sorted = sortHand(cards, deal.trump);
  // The card played in the trick shown stays in the hand as a ghost, in a gap of its own:
  // it and the card before it are shown whole, the others overlap as far as room needs.
  const ghost = sorted.findIndex((card) => inTrick.has(card));
  return h('div', {
    class: ['review-seat', `side-${sideOf(reply, seat % 2)}`, you && 'you'],
    dataset: { seat, pos, key: `seat-${seat}` },
    role: 'group',
    'aria-label': nick && !you
      ? plural(TEXT.seatCardsNick, cards.length, { title, nick })
      : plural(TEXT.seatCards, cards.length, { title }),
  },
  h('div', { class: 'seat-head' },
    h('span', { class: 'name' }, title),
    nick && title !== nick ? h('span', { class: 'nick small' }, nick) : null,
    marks),
  h('div', { class: 'review-hand', dataset: { seat } },
    sorted.length
      ? sorted.map((card, i) => h('span', { class: ['hand-slot', (i === ghost || i === ghost - 1) && 'whole'], dataset: { key: card } },
        cardView(card, {
          class: [inTrick.has(card) && 'in-trick', best.has(card) && 'best'],
          title: inTrick.has(card) ? fill(TEXT.inThisTrick, { card: cardWords(card) }) : null,
        }, deal.trump)))
      : h('span', { class: 'muted small empty-hand' }, TEXT.noCardsLeft)));
}

function trickView(r, reply, trick, t) {
  const plays = trickPlays(trick);
  const last = t === TRICKS - 1;
  let points = plural(TEXT.points, trick.points);
  const bonus = rulesCatalog()?.scoring.last_trick; // the server's (GET /rules)
  if (last && trick.roem) points = fill(TEXT.pointsLastRoem, { points, last: bonus, roem: trick.roem });
  else if (last) points = fill(TEXT.pointsLast, { points, last: bonus });
  else if (trick.roem) points = fill(TEXT.pointsRoem, { points, roem: trick.roem });
  const how = (order, seat) => fill(TEXT[order === 1 ? 'led' : `played${order}`], { who: who(r, reply, seat) });
  return [
    h('div', { id: 'review-trick', class: 'review-trick', 'aria-label': fill(TEXT.trick, { n: t + 1 }), dataset: { trick: t, leader: trick.leader, winner: trick.winner } },
      plays.map(({ seat, card, order }) => cardView(card, {
        class: ['played', posOf(reply, seat), seat === trick.winner && 'winner', order === 1 && 'leader'],
        dataset: { seat, order, key: card, led: order === 1 ? TEXT.ledMark : null },
        'aria-label': fill(seat === trick.winner ? TEXT.cardPlayWins : TEXT.cardPlay, { card: cardWords(card), how: how(order, seat) }),
      }, reply.deal.trump))),
    h('p', { class: 'review-trick-line' },
      fill(TEXT.trickLine, { leader: who(r, reply, trick.leader), winner: who(r, reply, trick.winner), points })),
  ];
}

function resultView(r, reply) {
  const res = reply.deal.result;
  const chooserTeam = reply.deal.chooser % 2;
  const line = (team) => h('div', { class: ['review-team', `side-${sideOf(reply, team)}`], dataset: { team } },
    h('span', { class: 'team-name' }, teamName(r, reply, team)),
    h('strong', { class: 'review-score' }, String(res.score[team])),
    h('span', { class: 'small' },
      res.roem[team]
        ? fill(TEXT.cardPointsRoem, { n: res.card_points[team], roem: res.roem[team] })
        : fill(TEXT.cardPoints, { n: res.card_points[team] }),
      res.nat && chooserTeam === team ? [' ', h('span', { class: 'mark nat' }, TEXT.nat)] : null,
      res.pit === team ? [' ', h('span', { class: 'mark pit' }, TEXT.pit)] : null));
  let verdict = '';
  if (res.nat) verdict = teamSentence(r, reply, chooserTeam, 'nat');
  else if (res.pit !== null && res.pit !== undefined) verdict = teamSentence(r, reply, res.pit, 'pit');
  return h('div', { id: 'review-result', class: 'review-result' },
    h('h2', {}, TEXT.result),
    h('div', { class: 'review-teams' }, line(0), line(1)),
    verdict ? h('p', { class: 'small' }, verdict) : null);
}

// "We went nat: ...", "They took every trick (pit).", or with the team's name.
function teamSentence(r, reply, team, what) {
  const mine = seatOf(reply);
  if (mine === null) return fill(TEXT[`${what}Team`], { team: teamName(r, reply, team) });
  return TEXT[`${what}${team === mine % 2 ? 'Us' : 'Them'}`];
}

function trickNav(r, reply) {
  const t = r.trick;
  const end = t >= TRICKS;
  const where = end ? TEXT.theResult : fill(TEXT.trickOf, { n: t + 1, total: TRICKS });
  let status;
  if (!end) {
    const trick = reply.deal.tricks[t];
    status = fill(TEXT.statusTrick, {
      n: t + 1, total: TRICKS, leader: who(r, reply, trick.leader), winner: who(r, reply, trick.winner),
      plays: list(trickPlays(trick).map(({ seat, card }) => fill(TEXT.playBy, { card: cardWords(card), who: who(r, reply, seat) }))),
    });
  } else {
    const res = reply.deal.result;
    status = fill(TEXT.statusResult, { teamA: teamName(r, reply, 0), a: res.score[0], teamB: teamName(r, reply, 1), b: res.score[1] });
  }
  return h('div', { class: 'review-steps', dataset: { key: 'steps' } },
    h('nav', { class: 'review-nav trick-nav', 'aria-label': TEXT.tricks },
      h('button', {
        type: 'button', class: 'small', dataset: { reviewTrick: 'first' }, disabled: t === 0,
        'aria-label': TEXT.firstTrick, title: TEXT.firstTrickKey,
      }, '«'),
      h('button', {
        type: 'button', dataset: { reviewTrick: 'prev' }, disabled: t === 0,
        'aria-label': TEXT.previousTrick, title: TEXT.previousTrickKey,
      }, TEXT.previousButton),
      h('strong', { id: 'review-step', class: 'review-step' }, where),
      h('button', {
        type: 'button', class: 'primary', dataset: { reviewTrick: 'next' }, disabled: end,
        'aria-label': t === TRICKS - 1 ? TEXT.theResult : TEXT.nextTrick, title: TEXT.nextTrickKey,
      }, t === TRICKS - 1 ? TEXT.resultButton : TEXT.nextButton),
      h('button', {
        type: 'button', class: 'small', dataset: { reviewTrick: 'end' }, disabled: end,
        'aria-label': TEXT.result, title: TEXT.resultKey,
      }, '»')),
    h('p', { id: 'review-status', class: 'sr-only', role: 'status', 'aria-live': 'polite' }, status),
    h('p', { class: 'muted small review-keys' }, TEXT.keys));
}

function summaryView(r, reply) {
  const s = dealSummary(reply);
  const res = reply.deal.result;
  const mine = seatOf(reply);
  return h('section', { id: 'review-summary', class: 'panel review-summary', 'aria-labelledby': 'review-summary-title', dataset: { lost: s.lost } },
    h('h2', { id: 'review-summary-title' }, fill(TEXT.deal, { n: reply.number + 1 })),
    h('p', { class: 'review-deal-score' },
      fill(TEXT.dealScore, { teamA: teamName(r, reply, 0), a: res.score[0], teamB: teamName(r, reply, 1), b: res.score[1] }),
      res.nat ? [' ', h('span', { class: 'mark nat' }, TEXT.nat)] : null,
      res.pit !== null && res.pit !== undefined ? [' ', h('span', { class: 'mark pit' }, TEXT.pit)] : null),
    mine === null
      ? h('p', { class: 'muted small' }, TEXT.notPlayed)
      : [
        h('ul', { class: 'review-counts', 'aria-label': TEXT.yourPlaysInDeal },
          LABELS.map((label) => h('li', { class: ['count', `count-${label}`], dataset: { count: label, value: s.counts[label] } },
            pluralParts(LABEL_WORDS[LABEL_COUNTS[label]], s.counts[label], { n: h('strong', {}, String(s.counts[label])) }))),
          h('li', { class: 'count count-lost', dataset: { count: 'lost', value: s.lost } },
            fillParts(TEXT.lostInAll, { n: h('strong', {}, String(s.lost)) }))),
        h('p', { class: 'muted small' },
          s.lost === 0 ? TEXT.perfect : TEXT.lostWhy),
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
  h('h2', { id: 'review-play-title' }, TEXT.yourPlay, ' ', h('span', { class: 'muted small' }, order === 1 ? TEXT.youLed : TEXT[`toPlay${order}`])),
  h('div', { class: 'review-played' },
    cardView(mine.card, { class: 'mine', dataset: { key: mine.card } }, reply.deal.trump),
    h('div', {},
      h('p', {}, fillParts(TEXT.youPlayed, { card: cardText(mine.card, { class: 'played-card' }) }), ' ', badge(mine.label)),
      h('p', { class: 'review-best' }, bestLine(mine, best)),
      h('p', { class: 'review-lost' },
        mine.lost
          ? h('strong', {}, fill(TEXT.lost, { n: mine.lost }))
          : h('span', { class: 'muted' }, TEXT.nothingLost)))),
  h('details', { class: 'review-values', open: r.open.has(key), dataset: { openKey: key } },
    h('summary', {}, plural(TEXT.values, values.length)),
    h('p', { class: 'muted small' }, TEXT.valuesWhy),
    h('ol', { class: 'value-list' }, values.map(([card, value]) => h('li', {
      class: [card === mine.card && 'played', value === top && 'best'], dataset: { card, value, key: card },
    },
    cardText(card),
    h('span', { class: 'value' }, signed(value)),
    h('span', { class: 'value-diff muted small' }, value === top ? TEXT.bestValue : signed(value - top)),
    card === mine.card ? h('span', { class: 'chip you' }, TEXT.playedChip) : null)))));
}

// The best cards: yours was one of them ("A best play; as good: ..."), or not ("Best: ...").
function bestLine(mine, best) {
  const others = mine.best.filter((c) => !best || c !== mine.card);
  const cards = others.map((c, i) => [i ? ', ' : '', cardText(c, { class: 'best-card' })]);
  if (!best) return fillParts(TEXT.best, { cards });
  return others.length ? fillParts(TEXT.bestAlso, { cards }) : TEXT.theBest;
}

// A trump choice in a line of text: the suit's symbol and name, or "pass"; `short`: the
// symbol alone to the eye (a list of values), the name to a screen reader.
function choiceText(action, attrs = {}, short = false) {
  if (!action.startsWith('trump:')) return h('span', { ...attrs, class: ['choice-text', 'pass', attrs.class], dataset: { choice: action } }, TEXT.passChoice);
  const suit = action.slice(6).toLowerCase();
  return h('span', { ...attrs, class: ['choice-text', isRed(suit) && 'red', attrs.class], dataset: { choice: action } },
    h('span', { class: 'choice-symbol', 'aria-hidden': 'true' }, SUIT_SYMBOLS[suit]),
    short ? h('span', { class: 'sr-only' }, SUIT_NAMES[suit]) : [' ', SUIT_NAMES[suit]]);
}

// Your trump choices in the deal, before the tricks as the bidding was: each with its
// verdict (as a play's) and every choice's value.
function bidsView(r, reply) {
  const bids = reply.bids ?? [];
  if (seatOf(reply) === null || !bids.length) return null;
  return h('section', { id: 'review-bids', class: 'panel review-bids', 'aria-labelledby': 'review-bids-title', dataset: { key: 'bids' } },
    h('h2', { id: 'review-bids-title' }, bids.length > 1 ? TEXT.yourBids : TEXT.yourBid),
    h('ol', { class: 'review-bid-list' }, bids.map((bid) => bidView(bid))),
    h('p', { class: 'muted small' }, TEXT.bidValuesWhy));
}

function bidView(bid) {
  const values = Object.entries(bid.values).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const top = values.length ? values[0][1] : 0;
  const best = bid.best.includes(bid.action);
  const order = bid.index < 4 ? TEXT[`toBid${bid.index + 1}`] : TEXT.toBidForced;
  const others = bid.best.filter((c) => !best || c !== bid.action);
  const choices = others.map((c, i) => [i ? ', ' : '', choiceText(c, { class: 'best-choice' }), ` (${signedDecimal(bid.values[c])})`]);
  let bestLine = TEXT.bidTheBest;
  if (!best) bestLine = fillParts(TEXT.bidBest, { choices });
  else if (others.length) bestLine = fillParts(TEXT.bidBestAlso, { choices });
  const made = bid.action === 'pass'
    ? TEXT.youPassed
    : fillParts(TEXT.youNamed, { suit: choiceText(bid.action, { class: 'made-choice' }) });
  return h('li', {
    class: ['review-bid', bid.label && `has-${bid.label}`],
    dataset: { index: bid.index, action: bid.action, lost: bid.lost, label: bid.label ?? '', best: bid.best.join(' '), key: `b${bid.index}` },
  },
  h('p', { class: 'review-bid-made' }, made, ' ', h('span', { class: 'muted small' }, order), ' ', badge(bid.label)),
  h('p', { class: 'review-best' }, bestLine),
  h('p', { class: 'review-lost' },
    bid.lost
      ? h('strong', {}, fill(TEXT.lost, { n: decimal(bid.lost) }))
      : h('span', { class: 'muted' }, TEXT.nothingLost)),
  h('ol', { class: 'value-list bid-values', 'aria-label': plural(TEXT.bidValues, values.length) }, values.map(([choice, value]) => h('li', {
    class: [choice === bid.action && 'played', value === top && 'best'], dataset: { choice, value, key: choice },
  },
  choiceText(choice, {}, true),
  h('span', { class: 'value' }, signedDecimal(value)),
  h('span', { class: 'value-diff muted small' }, value === top ? TEXT.bestValue : signedDecimal(value - top)),
  choice === bid.action ? h('span', { class: 'chip you' }, TEXT.bidChip) : null))));
}

function playsList(r, reply, plays) {
  if (seatOf(reply) === null || !plays.length) return null;
  return h('section', { class: 'panel review-plays-panel', 'aria-labelledby': 'review-plays-title' },
    h('h2', { id: 'review-plays-title' }, TEXT.yourPlays),
    h('ol', { id: 'review-plays', class: 'review-plays' }, plays.map((p) => {
      const here = p.trick === r.trick;
      return h('li', {
        class: [here && 'current', p.label && `has-${p.label}`],
        dataset: { index: p.index, card: p.card, trick: p.trick, lost: p.lost, label: p.label ?? '', key: `p${p.index}` },
      },
      h('button', {
        type: 'button', class: 'ghost small', dataset: { reviewGoto: p.trick },
        'aria-current': here ? 'step' : null,
        'aria-label': playLabel(p),
      },
      h('span', { class: 'play-trick muted' }, fill(TEXT.trick, { n: p.trick + 1 })),
      cardText(p.card, { class: 'play-card' }),
      h('span', { class: 'play-lost' }, p.lost ? `−${p.lost}` : '✓'),
      badge(p.label)));
    })));
}

function playLabel(p) {
  const values = { n: p.trick + 1, card: cardWords(p.card), lost: p.lost, label: LABEL_WORDS[p.label] ?? p.label };
  if (p.label) return fill(TEXT.playAriaLabel, values);
  return fill(p.lost ? TEXT.playAriaLost : TEXT.playAria, values);
}
