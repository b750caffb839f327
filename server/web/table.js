// The table: four seats around the trick, your hand, the trump choice, scores and chat.

import { $, h, patch, show } from './dom.js';
import {
  SUIT_NAMES, SUIT_SYMBOLS, cardWords, isCard, isRed, sortHand, suitOf,
} from './cards.js';
import { cardFace, cardView } from './cardview.js';
import { whyWords } from './cardrules.js';
import { fill, fillParts, plural } from './fill.js';
import { currentLanguage, strings } from './i18n.js';
import {
  POSITIONS, bidsBySeat, cpuLevelWord, isOwner, isSeated, playedCards, roemWords, seatAt, seatName,
  seatPosition, subject, teamLabel, teamOf, teamOrder, teamPlayers, teamSide, trickCards, who,
} from './state.js';
import { levelName, roomTitle, rulesText } from './lobby.js';
import { dealVerdict, renderDealEnd, renderResult } from './results.js';
import { renderSoundSwitch } from './alerts.js';

// Every word the table shows (see fill.js); cards and suits in words are cards.js's.
// {name}: a player's name; {team}: a team ("Us", "Them" or two players' names); {suit}: a
// suit's name or sign; {card}: a card's name ("ace of spades").
const TEXT = strings('table', {
  seatLabel: '{name}, seat {n}, team {team}', // a seat, read out
  emptySeat: 'Empty seat',
  badgeYou: 'you', // the small badges next to a seat's name
  badgeCpu: 'bot',
  badgeCpuTitle: 'A CPU player ({level})', // {level}: random, heuristic or strong
  badgeAway: 'away',
  badgeAwayTitle: 'Away: the server plays for this seat',
  badgeAwayWaitsTitle: 'Away: the game waits for this player', // the daily game
  badgeReady: 'ready',
  badgeDealer: 'dealer',
  badgeDealerTitle: 'Dealer',
  turnChoosing: 'choosing', // the badge of the seat whose turn it is: choosing trump
  turnDeciding: 'deciding', // taking or leaving roem
  turnPlaying: 'to play', // playing a card
  pass: 'Pass', // a bid, and its button
  plays: 'plays {suit}', // next to the trump chooser's name, {suit}: the suit's sign
  chose: 'Chose {suit}',
  addCpu: 'Add CPU',
  addCpuLabel: 'Add a CPU player in seat {n}',
  sitHere: 'Sit here',
  sitHereLabel: 'Take seat {n}',
  moveHere: 'Move here',
  moveHereLabel: 'Move to seat {n}',
  remove: 'Remove',
  removeLabel: 'Remove {name} from seat {n}',
  cardsInHand: { one: '{n} card in hand', other: '{n} cards in hand' },
  deal: 'Deal {n}',
  dealOf: 'Deal {n} of {of}',
  trump: 'trump', // the top bar: "Deal 3 · trump ♥ · by ann"
  chosenBy: 'by {name}',
  choosingTrump: 'choosing trump',
  waitingForPlayers: 'Waiting for players',
  wonBy: 'Won by {name}: {points} points.',
  wonByRoem: 'Won by {name}: {points} points, {roem}.',
  roemCards: 'The cards of the roem are marked.',
  close: 'Close',
  seconds: '{n} s', // the turn's countdown, in seconds
  youHave: 'You have {n} seconds',
  hasSeconds: '{name} has {n} seconds',
  turnedUp: 'Turned up',
  nameTrump: 'Name trump',
  playOrPass: 'Play or pass?',
  asTrump: '{suit} as trump',
  roemClaim: 'Your trick has {roem}',
  roemClaimPlain: 'Your trick has roem',
  takeIt: 'Take it',
  leaveIt: 'Leave it',
  takeLabel: 'Take the roem',
  leaveLabel: 'Leave the roem',
  seated: { one: 'Waiting for players: {n} of 4 seated', other: 'Waiting for players: {n} of 4 seated' },
  everyoneSeated: 'Everyone is seated',
  pressReady: 'Press Ready when you are.',
  notReady: { one: '{n} player is not ready yet.', other: '{n} players are not ready yet.' },
  addCpus: 'Add CPU players to the empty seats, or share the table.',
  closed: 'This table was closed.',
  yourTurn: 'Your turn: play a card',
  youChoose: 'You are choosing trump…',
  choosing: '{name} is choosing trump…',
  mayClaim: '{name} may take or leave the roem…',
  toPlay: '{name} to play…',
  toLead: '{name} to lead…',
  soloMode: 'Solo game · you and a CPU partner against two CPUs ({level})',
  dailyMode: 'The same deals and CPUs for everyone · one attempt · no hints',
  thisDeal: 'this deal {points}',
  thisDealRoem: 'this deal {points} + {roem}',
  points: '{n} points',
  scorelineLabel: '{team}: {total} points, {deal} this deal',
  ready: 'Ready',
  readyDone: 'Ready ✓',
  leaveRunning: 'Back to the lobby: the match is running, so your seat stays yours',
  leaveWatching: 'Stop watching this table',
  leaveTable: 'Leave', // the button that leaves the table
  endGame: 'End game', // the same button in your own solo game: ends it for good (it asks first)
  endGameTitle: 'End this game for good, unfinished',
  toLobbyKept: 'Back to the lobby: this game stays under “Your tables”, to go on with later',
  leaveSeat: 'Give up your seat and go back to the lobby',
  invite: 'Private table. Invite code: {code}',
  inviteLink: 'Invite link',
  copyLink: 'Copy link',
  sheetTrump: 'Trump', // the score sheet's column heads
  sheetTotal: 'Total',
  noDeals: 'No deals played yet.',
  sheetDetail: '{points} + {roem} roem',
  sheetNat: 'nat', // a mark next to a deal's score: the team went nat
  sheetPit: 'pit', // the team took every trick
  sheetNatAward: '162 + all roem',
  sheetNatZero: 'nat: 0',
  yourCard: 'Play the {card} ({n})',
  notLegal: 'Not now: {reason}', // {reason}: why the card may not be played
  hintBadge: 'hint', // the mark under the card a hint suggests
});

// The suits on the trump choice's buttons.
const SUITS = strings('table.suits', { c: 'Clubs', d: 'Diamonds', h: 'Hearts', s: 'Spades' });

// A hint's reason (the server's `why`, see client_protocol.md): {card} a card's name,
// {suit} a suit's name, {value} and {margin} points expected (signed: "+12").
const HINTS = strings('table.hints', {
  playOnly: 'Play the {card}: {effect}; the only legal card', // {effect}: one of the effects below
  playEven: 'Play the {card}: {effect}; as good as the next best (expected {value})',
  playBetter: 'Play the {card}: {effect}; expected {margin} over the next best',
  leadTrumps: 'lead trumps', // the effects of playing a card
  leadHighest: 'the highest card of {suit} still out',
  lead: 'lead {suit}',
  takes: 'takes the trick ({points} points)',
  trumps: 'trumps the trick',
  winning: 'wins the trick so far',
  partnerWins: 'your partner’s {card} wins this trick',
  partnerWinning: 'your partner’s {card} is winning this trick',
  follows: 'follows suit; the opponents hold the trick',
  discards: 'discards; the opponents hold the trick',
  take: 'Take the roem: expected {margin} over leaving it',
  leave: 'Leave the roem: it would count for the other side if the deal goes nat; expected {margin} over taking it',
  nameOnly: 'Name {suit}: your hand is worth about {value} with {suit} as trump; the only choice',
  nameOverPass: 'Name {suit}: your hand is worth about {value} with {suit} as trump, {margin} over passing',
  nameOverName: 'Name {suit}: your hand is worth about {value} with {suit} as trump, {margin} over naming {next}',
  passOnly: 'Pass: expected {value} by passing; the only choice',
  passOverName: 'Pass: your hand is worth about {best} with {next}, less than passing ({value})',
  thumbPass: 'Pass: no suit of three or more cards with its jack, or its nine and ace',
  thumbPassWorth: 'Pass: no suit of three or more cards with its jack, or its nine and ace; your hand is worth about {worth} with {suit}',
  thumbJack: { one: 'Name {suit}: {n} card of it, with its jack', other: 'Name {suit}: {n} cards of it, with its jack' },
  thumbNineAce: { one: 'Name {suit}: {n} card of it, with its nine and ace', other: 'Name {suit}: {n} cards of it, with its nine and ace' },
  thumbForced: 'Name {suit}: the strongest suit in hand, and a suit must be named',
});

// Marks, not words.
const MARKS = { unknown: '?', scorelineDeal: '+{n}', sheetNumber: '#' };

// Render the current room into #table. `app` holds me, the room models and the UI state.
export function renderTable(app) {
  const m = app.rooms.get(app.current);
  if (!m || !m.room) return;
  const table = $('#table');
  const v = m.view;
  table.dataset.roomId = m.roomId;
  table.dataset.version = String(m.version);
  table.dataset.spectator = m.seat === null ? 'true' : 'false';
  table.dataset.status = m.room.status;
  table.dataset.phase = v?.phase ?? 'waiting';
  table.dataset.myTurn = String(m.seat !== null && m.legal.length > 0 && !acted(app, m));
  table.dataset.pause = String(Boolean(m.room.pause));

  for (const pos of POSITIONS) {
    const seat = seatAt(m, pos);
    patch(table.querySelector(`[data-slot="${pos}"]`), seatElement(app, m, seat));
  }
  renderBar(app, m);
  renderCenter(app, m);
  renderHand(app, m);
  renderSide(app, m);
  renderLive(app, m);
}

// Has the player already answered the decision of this version (so buttons stay quiet)?
function acted(app, m) {
  return app.acted.get(m.roomId) === m.version;
}

// The hint for the decision on screen, if one came for this very version.
function hintNow(app, m) {
  const hint = app.hints.get(m.roomId);
  return hint && hint.version === m.version && m.legal.length > 0 && !acted(app, m) ? hint : null;
}

// The trick just taken, while it has its moment on the table (or waits for a claim).
function heldTrick(app, m) {
  const v = m.view;
  if (!m.lastTrick || (v && v.trick.length)) return null;
  if (v && v.phase === 'claim') return m.lastTrick;
  const hold = app.ui.trickHold;
  if (hold && hold.roomId === m.roomId && hold.serial === m.trickSerial && app.now() < hold.until) return m.lastTrick;
  return null;
}

function turnWord(v) {
  if (!v) return '';
  if (v.phase === 'trump') return TEXT.turnChoosing;
  if (v.phase === 'claim') return TEXT.turnDeciding;
  return TEXT.turnPlaying;
}

function seatElement(app, m, seat) {
  const s = m.room.seats[seat];
  const v = m.view;
  const pos = seatPosition(m, seat);
  const empty = !s.player_id && !s.cpu;
  const open = m.room.status === 'open';
  const owner = isOwner(m, app.me);
  const isTurn = Boolean(v) && m.turn === seat && !m.result;
  const bids = bidsBySeat(v);
  const name = empty ? TEXT.emptySeat : s.cpu ? seatName(m, seat) : s.nickname ?? MARKS.unknown;
  const you = m.seat === seat;
  const size = v ? v.hand_sizes[seat] : 0;
  const label = fill(TEXT.seatLabel, { name: you ? subject(m, seat) : name, n: seat + 1, team: teamLabel(m, teamOf(seat)) });

  const badges = [];
  if (you) badges.push(h('span', { class: 'badge badge-you' }, TEXT.badgeYou));
  if (s.cpu) badges.push(h('span', { class: 'badge badge-cpu', title: fill(TEXT.badgeCpuTitle, { level: cpuLevelWord(s.level ?? 'heuristic') }) }, TEXT.badgeCpu));
  if (s.away) {
    const title = m.room.mode === 'daily' ? TEXT.badgeAwayWaitsTitle : TEXT.badgeAwayTitle;
    badges.push(h('span', { class: 'badge badge-away', title }, TEXT.badgeAway));
  }
  if (open && !empty && !s.cpu && s.ready) badges.push(h('span', { class: 'badge badge-ready' }, TEXT.badgeReady));
  if (v && v.dealer === seat && !m.result) badges.push(h('span', { class: 'badge badge-dealer', title: TEXT.badgeDealerTitle }, TEXT.badgeDealer));
  if (isTurn) badges.push(h('span', { class: 'badge badge-turn' }, turnWord(v)));

  let bubble = null;
  if (v && v.phase === 'trump' && bids[seat]) {
    const bid = bids[seat];
    bubble = bid === 'pass'
      ? h('span', { class: 'bid pass' }, TEXT.pass)
      : h('span', { class: ['bid', isRed(bid.slice(6)) && 'red'] }, SUIT_SYMBOLS[bid.slice(6)]);
  } else if (v && v.trump && v.chooser === seat && v.phase !== 'done') {
    bubble = h('span', { class: ['bid chose', isRed(v.trump) && 'red'], title: fill(TEXT.chose, { suit: SUIT_NAMES[v.trump] }) },
      fill(TEXT.plays, { suit: SUIT_SYMBOLS[v.trump] }));
  }

  const controls = [];
  if (open && empty && owner) {
    controls.push(h('button', {
      type: 'button', class: 'small', dataset: { addCpu: seat }, 'aria-label': fill(TEXT.addCpuLabel, { n: seat + 1 }),
    }, TEXT.addCpu));
  }
  if (open && empty && m.seat === null) {
    controls.push(h('button', {
      type: 'button', class: 'small primary', dataset: { sit: seat }, 'aria-label': fill(TEXT.sitHereLabel, { n: seat + 1 }),
    }, TEXT.sitHere));
  } else if (open && empty) {
    controls.push(h('button', {
      type: 'button', class: 'small', dataset: { sit: seat }, 'aria-label': fill(TEXT.moveHereLabel, { n: seat + 1 }),
    }, TEXT.moveHere));
  }
  if (open && !empty && owner && s.player_id !== app.me) {
    controls.push(h('button', {
      type: 'button', class: 'small ghost', dataset: { removeSeat: seat }, 'aria-label': fill(TEXT.removeLabel, { name, n: seat + 1 }),
    }, TEXT.remove));
  }

  const backs = v && (pos !== 'bottom' || m.seat === null) && !m.result
    ? h('div', { class: 'backs', role: 'img', 'aria-label': plural(TEXT.cardsInHand, size) },
      Array.from({ length: size }, () => h('span', { class: 'back' })))
    : null;

  return h('div', {
    class: ['seat', `side-${teamSide(m, teamOf(seat))}`, isTurn && 'turn', empty && 'empty', you && 'you'],
    dataset: { seat, pos, key: `seat-${seat}`, level: s.cpu ? s.level : null },
    role: 'group',
    'aria-label': label,
  },
  h('div', { class: 'seat-head' },
    h('span', { class: 'avatar', 'aria-hidden': 'true' }, empty ? '·' : s.cpu ? '⚙' : name.charAt(0).toUpperCase()),
    h('span', { class: 'name', title: name }, name),
    badges),
  backs,
  bubble,
  controls.length ? h('div', { class: 'seat-controls' }, controls) : null);
}

function renderBar(app, m) {
  const v = m.view;
  const info = $('#trump-info');
  const rules = v?.rules ?? m.room.rules;
  const dealWords = v
    ? fill(rules?.end === 'deals' ? TEXT.dealOf : TEXT.deal, { n: v.deal_number + 1, of: rules?.end_value })
    : '';
  if (v && v.trump) {
    const chosen = fill(TEXT.chosenBy, { name: who(m, v.chooser) });
    patch(info,
      h('span', { class: 'muted ti-deal', dataset: { deal: v.deal_number } }, dealWords),
      h('span', { class: 'ti-trump' },
        h('span', { class: 'muted' }, TEXT.trump),
        h('span', { class: ['suit-big', isRed(v.trump) && 'red'], 'aria-hidden': 'true' }, SUIT_SYMBOLS[v.trump]),
        h('span', { class: 'sr-only' }, SUIT_NAMES[v.trump])),
      h('span', { class: 'muted ti-chooser', dataset: { seat: v.chooser }, title: chosen }, chosen));
    info.dataset.trump = v.trump;
  } else if (v) {
    patch(info,
      h('span', { class: 'muted ti-deal', dataset: { deal: v.deal_number } }, dealWords),
      h('span', { class: 'muted' }, TEXT.choosingTrump));
    delete info.dataset.trump;
  } else {
    patch(info, h('span', { class: 'muted' }, m.room.status === 'open' ? TEXT.waitingForPlayers : ''));
    delete info.dataset.trump;
  }
  renderScoreline(m);
  renderSoundSwitch();

  const lastButton = $('#show-last-trick');
  lastButton.disabled = !m.lastTrick;
  const open = Boolean(app.ui.lastTrickOpen && m.lastTrick && !m.result);
  lastButton.setAttribute('aria-expanded', String(open));
  const box = $('#last-trick');
  show(box, open);
  if (open) {
    const t = m.lastTrick;
    const marked = new Set(t.roem_cards);
    const values = { name: who(m, t.winner), points: t.points, roem: t.roem ? roemWords(t.roem_parts, t.roem).text : '' };
    patch(box,
      h('div', { class: 'mini-trick' },
        playedCards(t).map(({ seat, card }) => cardView(card, {
          class: ['played', seatPosition(m, seat), seat === t.winner && 'winner', marked.has(card) && 'roem'],
          dataset: { seat, key: card },
        }, v?.trump))),
      h('p', { class: 'small' }, fill(t.roem ? TEXT.wonByRoem : TEXT.wonBy, values)),
      marked.size ? h('p', { class: 'small muted' }, TEXT.roemCards) : null,
      h('button', { type: 'button', class: 'small', dataset: { closeLastTrick: '' } }, TEXT.close));
  }
  renderTimer(app, m);
}

// Both teams' match scores on the felt (ours first), with what this deal has brought so far.
function renderScoreline(m) {
  const v = m.view;
  const totals = v?.totals ?? m.room.totals ?? [0, 0];
  const line = $('#scoreline');
  show(line, m.room.status !== 'open');
  const mine = isSeated(m) ? teamOf(m.seat) : null;
  patch(line, teamOrder(m).map((team) => {
    const deal = v && v.phase !== 'done' && v.phase !== 'trump' && !m.room.pause ? v.points[team] + v.roem[team] : 0;
    return h('span', {
      class: ['sl-team', `side-${teamSide(m, team)}`, mine === team && 'mine'],
      dataset: { team, key: `sl${team}`, total: totals[team] },
      'aria-label': fill(TEXT.scorelineLabel, { team: teamLabel(m, team), total: totals[team], deal }),
      title: teamPlayers(m, team),
    },
    h('span', { class: 'sl-name' }, teamLabel(m, team)),
    h('strong', { class: 'sl-total' }, String(totals[team])),
    deal ? h('span', { class: 'sl-deal' }, fill(MARKS.scorelineDeal, { n: deal })) : null);
  }));
}

// The countdown; called on every render and by the app's ticker.
export function renderTimer(app, m = app.rooms.get(app.current)) {
  const el = $('#timer');
  if (!m || !m.deadline || m.result || m.turn === null) {
    show(el, false);
    delete el.dataset.deadline;
    return;
  }
  const left = Math.max(0, Math.ceil(m.deadline - app.now()));
  el.dataset.deadline = String(m.deadline);
  el.dataset.seat = String(m.turn);
  el.classList.toggle('low', left <= 5);
  el.classList.toggle('mine', m.turn === m.seat);
  const text = fill(TEXT.seconds, { n: left });
  const label = m.turn === m.seat ? fill(TEXT.youHave, { n: left }) : fill(TEXT.hasSeconds, { name: subject(m, m.turn), n: left });
  if (el.textContent !== text) el.textContent = text;
  if (el.getAttribute('aria-label') !== label) el.setAttribute('aria-label', label);
  el.setAttribute('role', 'timer');
  show(el, true);
}

function renderCenter(app, m) {
  const v = m.view;
  const myTurn = m.seat !== null && m.legal.length > 0 && !acted(app, m);

  // The trick: the cards being played, or the one just taken for a moment (its roem's
  // cards marked).
  let cards = trickCards(v);
  const taken = cards.length ? null : heldTrick(app, m);
  const claiming = Boolean(taken && v && v.phase === 'claim');
  if (taken) cards = playedCards(taken);
  const marked = new Set((claiming ? m.claim?.roem_cards : taken?.roem_cards) ?? []);
  const trick = $('#trick');
  trick.classList.toggle('taken', Boolean(taken) && !claiming);
  trick.classList.toggle('claiming', claiming);
  if (taken) trick.dataset.winnerPos = seatPosition(m, taken.winner);
  else delete trick.dataset.winnerPos;
  patch(trick, cards.map(({ seat, card }) => cardView(card, {
    class: ['played', seatPosition(m, seat), taken && seat === taken.winner && 'winner', marked.has(card) && 'roem'],
    dataset: { seat, key: card },
  }, v?.trump)));

  // The prompt: what the table waits for.
  patch($('#prompt'), promptText(app, m, myTurn, Boolean(taken) || cards.length > 0));

  // The turned card (turned mode).
  const turned = $('#turned');
  const showTurned = Boolean(v && v.turned && v.phase === 'trump' && !m.room.pause);
  show(turned, showTurned);
  if (showTurned) {
    turned.dataset.card = v.turned;
    patch(turned, h('span', { class: 'small muted' }, TEXT.turnedUp), cardView(v.turned, { dataset: { key: v.turned } }));
  } else {
    delete turned.dataset.card;
  }

  // A hint for this decision: its reason in words, its action highlighted.
  const hint = hintNow(app, m);
  const reason = $('#hint-reason');
  show(reason, Boolean(hint));
  const reasonText = hint ? hintWords(hint) : '';
  if (reason.textContent !== reasonText) reason.textContent = reasonText;
  if (hint) reason.dataset.action = hint.action;
  else delete reason.dataset.action;

  // Trump choice: only the legal actions.
  const bids = m.legal.filter((a) => a === 'pass' || a.startsWith('trump:'));
  const bidBox = $('#bids');
  show(bidBox, myTurn && bids.length > 0);
  if (myTurn && bids.length) {
    const mustName = !bids.includes('pass');
    patch(bidBox,
      h('p', { class: 'panel-title' }, mustName ? TEXT.nameTrump : TEXT.playOrPass),
      h('div', { class: 'bid-buttons' }, bids.map((a) => {
        if (a === 'pass') {
          return h('button', { type: 'button', class: ['bid-button pass', hint?.action === a && 'hinted'], dataset: { action: a, key: a }, 'aria-label': TEXT.pass }, TEXT.pass);
        }
        const suit = a.slice(6);
        return h('button', {
          type: 'button', class: ['bid-button', isRed(suit) && 'red', hint?.action === a && 'hinted'], dataset: { action: a, key: a },
          'aria-label': fill(TEXT.asTrump, { suit: SUITS[suit] }),
        }, h('span', { class: 'suit-big', 'aria-hidden': 'true' }, SUIT_SYMBOLS[suit]), h('span', {}, SUITS[suit]));
      })));
  } else {
    patch(bidBox);
  }

  // Claim mode: take or leave the roem of the trick just won.
  const claims = m.legal.filter((a) => a === 'take' || a === 'leave');
  const claimBox = $('#claim');
  show(claimBox, myTurn && claims.length > 0);
  if (myTurn && claims.length) {
    const c = m.claim;
    patch(claimBox,
      h('p', { class: 'panel-title' },
        c?.roem ? fill(TEXT.roemClaim, { roem: roemWords(c.roem_parts, c.roem).text }) : TEXT.roemClaimPlain),
      h('div', { class: 'bid-buttons' }, claims.map((a) => h('button', {
        type: 'button', class: ['bid-button', a === 'take' && 'primary', hint?.action === a && 'hinted'], dataset: { action: a, key: a },
        'aria-label': a === 'take' ? TEXT.takeLabel : TEXT.leaveLabel,
      }, a === 'take' ? TEXT.takeIt : TEXT.leaveIt))));
  } else {
    patch(claimBox);
  }

  renderToast(app, m);
  renderDealEnd(app, m, Boolean(taken));
  renderResult(app, m);
}

// A hint's reason in words, from the server's `why` (its English `reason` without one).
export function hintWords(hint) {
  const w = hint.why;
  if (!w) return hint.reason ?? '';
  const signed = (x) => Number(x ?? 0).toLocaleString(currentLanguage(), { signDisplay: 'exceptZero', maximumFractionDigits: 0 });
  const suit = SUIT_NAMES[w.suit];
  const next = w.next && w.next !== 'pass' ? SUIT_NAMES[w.next.slice(-1).toLowerCase()] : null;
  const values = { suit, next, value: signed(w.value), margin: signed(w.margin) };
  switch (w.kind) {
    case 'thumb_pass':
      return w.suit ? fill(HINTS.thumbPassWorth, { suit, worth: signed(w.worth) }) : HINTS.thumbPass;
    case 'thumb_name':
      return plural(w.top === 'jack' ? HINTS.thumbJack : HINTS.thumbNineAce, w.held, { suit });
    case 'thumb_forced':
      return fill(HINTS.thumbForced, { suit });
    case 'take':
      return fill(HINTS.take, values);
    case 'leave':
      return fill(HINTS.leave, values);
    case 'play': {
      const effect = fill(HINTS[EFFECTS[w.effect] ?? 'discards'], {
        suit, points: w.points, card: w.partner_card ? cardWords(w.partner_card) : '',
      });
      const key = { only: 'playOnly', even: 'playEven' }[w.compare] ?? 'playBetter';
      return fill(HINTS[key], { ...values, card: cardWords(w.card), effect });
    }
    default: {
      const head = w.kind === 'name' ? 'name' : 'pass';
      if (w.compare === 'only') return fill(HINTS[`${head}Only`], values);
      const best = signed(Number(w.value ?? 0) - Number(w.margin ?? 0));
      return fill(HINTS[`${head}Over${next ? 'Name' : 'Pass'}`] ?? hint.reason, { ...values, best });
    }
  }
}

const EFFECTS = {
  lead_trumps: 'leadTrumps', lead_highest: 'leadHighest', lead: 'lead', takes: 'takes', trumps: 'trumps',
  winning: 'winning', partner_wins: 'partnerWins', partner_winning: 'partnerWinning', follows: 'follows',
  discards: 'discards',
};

function promptText(app, m, myTurn, trickShown) {
  const v = m.view;
  const room = m.room;
  if (m.result || room.pause) return [];
  if (room.status === 'open') {
    const filled = room.seats.filter((s) => s.player_id || s.cpu).length;
    const waiting = room.seats.filter((s) => s.player_id && !s.ready).length;
    const mine = m.seat !== null ? room.seats[m.seat] : null;
    const lines = [h('strong', {}, filled < 4 ? plural(TEXT.seated, filled) : TEXT.everyoneSeated)];
    if (mine && !mine.ready) lines.push(h('span', { class: 'small' }, TEXT.pressReady));
    else if (waiting) lines.push(h('span', { class: 'small' }, plural(TEXT.notReady, waiting)));
    if (filled < 4 && isOwner(m, app.me)) lines.push(h('span', { class: 'small muted' }, TEXT.addCpus));
    return lines;
  }
  if (room.status === 'closed') return [h('strong', {}, TEXT.closed)];
  if (!v || m.turn === null) return [];
  if (myTurn) {
    if (v.phase === 'trump') return [];
    if (v.phase === 'claim') return [];
    return trickShown ? [] : [h('strong', { class: 'your-turn' }, TEXT.yourTurn)];
  }
  if (trickShown) return [];
  const name = subject(m, m.turn);
  if (v.phase === 'trump') return [h('span', {}, m.turn === m.seat ? TEXT.youChoose : fill(TEXT.choosing, { name }))];
  if (v.phase === 'claim') return [h('span', {}, fill(TEXT.mayClaim, { name }))];
  return [h('span', { class: 'muted' }, fill(v.trick.length ? TEXT.toPlay : TEXT.toLead, { name }))];
}

// The toast: roem, stuk, nat and pit for a moment, or why a card may not be played. It is
// read out (a status) except when it repeats the table talk's announcements.
function renderToast(app, m) {
  const toast = $('#toast');
  const t = app.ui.toast;
  const visible = Boolean(t && t.roomId === m.roomId && app.now() < t.until);
  toast.classList.toggle('visible', visible);
  if (visible) {
    toast.dataset.kind = t.kind;
    if (t.card) toast.dataset.card = t.card;
    else delete toast.dataset.card;
    if (toast.textContent !== t.text) toast.textContent = t.text;
    toast.removeAttribute('aria-hidden');
  } else {
    toast.setAttribute('aria-hidden', 'true');
  }
}

// Why `card` of the hand may not be played now, in words (null: it may, or it is not our
// turn to play a card).
export function whyNot(m, card) {
  const v = m.view;
  if (!v || v.phase !== 'play' || !isSeated(m) || !m.legal.some(isCard) || m.legal.includes(card)) return null;
  return whyWords(card, m.whyNot[card]);
}

function renderHand(app, m) {
  const hand = $('#hand');
  const v = m.view;
  const cards = m.seat !== null && v ? sortHand(v.hand, v.trump) : [];
  const legal = new Set(acted(app, m) ? [] : m.legal.filter(isCard));
  const hinted = hintNow(app, m)?.action;
  hand.classList.toggle('choosing', Boolean(v && v.phase !== 'play'));
  hand.classList.toggle('my-turn', legal.size > 0);
  show(hand, m.seat !== null);
  patch(hand, cards.map((card, i) => {
    const ok = legal.has(card);
    // On your turn a card you may not play stays clickable, to say why not.
    const why = !ok && legal.size ? whyNot(m, card) : null;
    return h('button', {
      type: 'button',
      class: ['card', isRed(suitOf(card)) ? 'red' : 'black', ok && 'legal', why && 'illegal', v.trump === suitOf(card) && 'is-trump', hinted === card && 'hinted'],
      dataset: { card, key: card, index: i + 1 },
      'aria-disabled': why ? 'true' : null,
      disabled: !ok && !why,
      title: ok ? fill(TEXT.yourCard, { card: cardWords(card), n: i + 1 }) : why ? fill(TEXT.notLegal, { reason: why }) : null,
    }, h('span', { class: 'sr-only' }, cardWords(card)), cardFace(card, { trump: v.trump }),
    hinted === card ? h('span', { class: 'hint-badge', 'aria-hidden': 'true' }, TEXT.hintBadge) : null);
  }));
}

// What screen readers hear of the play: the cards others play, who wins each trick, and
// your turn (the latest few lines, in a polite live region).
function renderLive(app, m) {
  const live = $('#live');
  patch(live, m.spoken.slice(-3).map((s) => h('p', { dataset: { key: `l${s.seq}` } }, s.text)));
}

function renderSide(app, m) {
  const room = m.room;
  const v = m.view;
  const title = roomTitle(room, [...app.tournaments.values()]);
  for (const heading of [$('#room-name'), $('#table-title')]) {
    if (heading.textContent !== title) heading.textContent = title;
  }
  $('#room-rules').textContent = rulesText(room.rules, room.move_seconds);
  // Solo and daily games: what kind of game this is; nobody to chat with.
  const modeLine = $('#room-mode');
  const cpu = room.seats.find((s) => s.cpu);
  let modeText = '';
  if (room.mode === 'solo') modeText = fill(TEXT.soloMode, { level: levelName(cpu?.level ?? 'strong') });
  else if (room.mode === 'daily') modeText = TEXT.dailyMode;
  show(modeLine, Boolean(modeText));
  modeLine.dataset.mode = room.mode ?? 'casual';
  if (modeLine.textContent !== modeText) modeLine.textContent = modeText;
  show($('.chat-panel'), room.mode !== 'solo' && room.mode !== 'daily');
  // A rated room: its match changes ratings when four people start it (never with a CPU).
  show($('#room-rated'), Boolean(room.rated) && !room.seats.some((s) => s.cpu));

  // Totals, ours first.
  const totals = v?.totals ?? room.totals ?? [0, 0];
  const mine = m.seat !== null ? teamOf(m.seat) : null;
  patch($('#totals'), teamOrder(m).map((team) => {
    const dealPoints = v && v.phase !== 'done' ? v.points[team] + v.roem[team] : null;
    return h('div', {
      class: ['team-score', `side-${teamSide(m, team)}`, mine === team && 'mine'],
      dataset: { team, key: `team-${team}` },
    },
    h('span', { class: 'team-name' }, teamLabel(m, team),
      m.seat !== null
        ? h('span', { class: 'team-players small muted', title: teamPlayers(m, team) }, teamPlayers(m, team))
        : null),
    h('span', { class: 'team-total', 'aria-label': fill(TEXT.points, { n: totals[team] }) }, String(totals[team])),
    dealPoints !== null && v.phase !== 'trump'
      ? h('span', { class: 'team-deal small muted' },
        fill(v.roem[team] ? TEXT.thisDealRoem : TEXT.thisDeal, { points: v.points[team], roem: v.roem[team] }))
      : null);
  }));

  // Controls.
  const seat = m.seat !== null ? room.seats[m.seat] : null;
  const ready = $('#ready');
  show(ready, Boolean(seat) && room.status === 'open');
  if (seat) {
    ready.setAttribute('aria-pressed', String(Boolean(seat.ready)));
    ready.textContent = seat.ready ? TEXT.readyDone : TEXT.ready;
    ready.classList.toggle('primary', !seat.ready);
  }
  show($('#back'), Boolean(seat && seat.away && room.status === 'playing'));
  // Hints: a seated player on turn, where the room gives them (the server says).
  const hintButton = $('#hint');
  const canHint = Boolean(seat) && room.status === 'playing' && room.hints === true && !m.result
    && m.legal.length > 0 && !acted(app, m);
  show(hintButton, canHint);
  hintButton.disabled = app.hintAsked.get(m.roomId) === m.version || Boolean(hintNow(app, m));
  // The level of the CPUs the owner adds, while a seat is free.
  const free = room.seats.some((s) => !s.player_id && !s.cpu);
  show($('#cpu-level-label'), room.status === 'open' && free && isOwner(m, app.me));
  const leave = $('#leave');
  const running = room.status === 'playing' && m.seat !== null && !m.result;
  // While a match runs your seat stays yours ("‹ Lobby" only); your own solo game you may end.
  const resigns = running && room.mode === 'solo';
  show(leave, !running || resigns);
  const leaveWord = resigns ? TEXT.endGame : TEXT.leaveTable;
  if (leave.textContent !== leaveWord) leave.textContent = leaveWord;
  leave.title = resigns ? TEXT.endGameTitle : m.seat === null ? TEXT.leaveWatching : TEXT.leaveSeat;
  const kept = running && (room.mode === 'solo' || room.mode === 'daily');
  $('#to-lobby').title = kept ? TEXT.toLobbyKept : running ? TEXT.leaveRunning : '';

  // The invite, for a private room's seated players.
  const invite = $('#invite');
  show(invite, Boolean(m.inviteCode));
  if (m.inviteCode) {
    const link = `${window.location.origin}/?invite=${m.inviteCode}`;
    invite.dataset.code = m.inviteCode;
    patch(invite,
      h('p', { class: 'small' }, fillParts(TEXT.invite, { code: h('strong', { class: 'code' }, m.inviteCode) })),
      h('div', { class: 'row' },
        h('input', { type: 'text', readonly: true, value: link, 'aria-label': TEXT.inviteLink, class: 'invite-link', dataset: { key: 'link' } }),
        h('button', { type: 'button', class: 'small', dataset: { copy: link, key: 'copy' } }, TEXT.copyLink)));
    const input = invite.querySelector('input');
    if (input.value !== link) input.value = link;
  }

  // Announcements, newest last.
  const log = $('#announce');
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  patch(log, m.log.slice(-30).map((n) => h('li', { class: `note-${n.kind}`, dataset: { key: `n${n.seq}` } }, n.text)));
  if (atEnd) log.scrollTop = log.scrollHeight;

  renderSheet(m);

  // Chat.
  const chat = $('#chat-log');
  const chatEnd = chat.scrollTop + chat.clientHeight >= chat.scrollHeight - 4;
  patch(chat, m.chat.map((line, i) => h('li', { class: line.mine && 'mine', dataset: { key: `c${i}` } },
    h('span', { class: 'chat-nick' }, line.nickname), ' ', h('span', { class: 'chat-text' }, line.text))));
  if (chatEnd) chat.scrollTop = chat.scrollHeight;
}

// The score sheet: a row a finished deal, the viewer's team first ("Us | Them" from any
// seat); a nat deal's cells say what the award is made of.
function renderSheet(m) {
  const v = m.view;
  const sheet = v?.sheet ?? [];
  const order = teamOrder(m);
  const table = $('#sheet');
  const head = h('thead', {}, h('tr', {},
    h('th', { scope: 'col' }, MARKS.sheetNumber),
    h('th', { scope: 'col' }, TEXT.sheetTrump),
    order.map((team) => h('th', { scope: 'col', class: `side-${teamSide(m, team)}`, dataset: { team } }, teamLabel(m, team)))));
  const rows = sheet.map((line) => {
    const chooserTeam = teamOf(line.chooser);
    const explained = dealVerdict(m, line).join(' ');
    const cell = (team) => {
      const nat = line.nat && chooserTeam === team;
      const award = line.nat && chooserTeam !== team;
      const pit = line.pit === team;
      let detail = fill(TEXT.sheetDetail, { points: line.card_points[team], roem: line.roem[team] });
      if (award) detail = TEXT.sheetNatAward;
      else if (nat) detail = TEXT.sheetNatZero;
      return h('td', {
        class: ['score', nat && 'nat', pit && 'pit', chooserTeam === team && 'chooser'],
        dataset: { team },
        title: explained,
      },
      h('span', { class: 'score-main' }, String(line.score[team])),
      nat ? h('span', { class: 'mark' }, ` ${TEXT.sheetNat}`) : null,
      pit ? h('span', { class: 'mark' }, ` ${TEXT.sheetPit}`) : null,
      h('span', { class: 'score-detail' }, detail));
    };
    return h('tr', { dataset: { deal: line.number, key: `d${line.number}` }, title: explained },
      h('td', {}, String(line.number + 1)),
      h('td', { class: ['trump', isRed(line.trump) && 'red'] },
        h('span', { 'aria-label': SUIT_NAMES[line.trump] }, SUIT_SYMBOLS[line.trump]),
        h('span', { class: 'small muted' }, ` ${seatName(m, line.chooser)}`)),
      order.map(cell));
  });
  const totals = v?.totals ?? m.room.totals ?? [0, 0];
  const foot = h('tfoot', {}, h('tr', {},
    h('th', { scope: 'row', colspan: '2' }, TEXT.sheetTotal),
    order.map((team) => h('td', { class: 'total', dataset: { team } }, String(totals[team])))));
  const body = rows.length
    ? h('tbody', {}, rows)
    : h('tbody', {}, h('tr', { class: 'empty-row' }, h('td', { colspan: '4', class: 'muted small' }, TEXT.noDeals)));
  patch(table, head, body, foot);
}

