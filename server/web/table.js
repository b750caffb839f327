// The table: four seats around the trick, your hand, the trump choice, scores and chat.

import { $, h, patch, show } from './dom.js';
import {
  SUIT_NAMES, SUIT_SYMBOLS, actionWords, cardWords, isCard, isRed, sortHand, suitOf,
} from './cards.js';
import { cardFace, cardView } from './cardview.js';
import {
  POSITIONS, bidsBySeat, isOwner, playedCards, rematchState, rematchWords, roemWords, seatAt,
  seatName, seatPosition, subject, teamLabel, teamOf, trickCards, who,
} from './state.js';
import { levelName, rulesText } from './lobby.js';
import { dayOfRoom, todayUtc } from './daily.js';
import { reviewOpen } from './review.js';
import { rematchPlayers } from './widgets.js';

const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);

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

  for (const pos of POSITIONS) {
    const seat = seatAt(m, pos);
    patch(table.querySelector(`[data-slot="${pos}"]`), seatElement(app, m, seat));
  }
  renderBar(app, m);
  renderCenter(app, m);
  renderHand(app, m);
  renderSide(app, m);
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

function turnWord(v) {
  if (!v) return '';
  if (v.phase === 'trump') return 'choosing';
  if (v.phase === 'claim') return 'deciding';
  return 'to play';
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
  const name = empty ? 'Empty seat' : s.cpu ? s.nickname ?? 'CPU' : s.nickname ?? '?';
  const you = m.seat === seat;
  const size = v ? v.hand_sizes[seat] : 0;
  const label = `${you ? 'You' : name}, seat ${seat + 1}, team ${teamLabel(m, teamOf(seat))}`;

  const badges = [];
  if (you) badges.push(h('span', { class: 'badge badge-you' }, 'you'));
  if (s.cpu) badges.push(h('span', { class: 'badge badge-cpu', title: `A computer player (${s.level ?? 'heuristic'})` }, 'bot'));
  if (s.away) badges.push(h('span', { class: 'badge badge-away', title: 'Away: the server plays for this seat' }, 'away'));
  if (open && !empty && !s.cpu && s.ready) badges.push(h('span', { class: 'badge badge-ready' }, 'ready'));
  if (v && v.dealer === seat && !m.result) badges.push(h('span', { class: 'badge badge-dealer', title: 'Dealer' }, 'dealer'));
  if (isTurn) badges.push(h('span', { class: 'badge badge-turn' }, turnWord(v)));

  let bubble = null;
  if (v && v.phase === 'trump' && bids[seat]) {
    const bid = bids[seat];
    bubble = bid === 'pass'
      ? h('span', { class: 'bid pass' }, 'Pass')
      : h('span', { class: ['bid', isRed(bid.slice(6)) && 'red'] }, SUIT_SYMBOLS[bid.slice(6)]);
  } else if (v && v.trump && v.chooser === seat && v.phase !== 'done') {
    bubble = h('span', { class: ['bid chose', isRed(v.trump) && 'red'], title: `Chose ${SUIT_NAMES[v.trump]}` },
      'plays ', SUIT_SYMBOLS[v.trump]);
  }

  const controls = [];
  if (open && empty && owner) {
    controls.push(h('button', {
      type: 'button', class: 'small', dataset: { addCpu: seat }, 'aria-label': `Add a CPU player in seat ${seat + 1}`,
    }, 'Add CPU'));
  }
  if (open && empty && m.seat === null) {
    controls.push(h('button', {
      type: 'button', class: 'small primary', dataset: { sit: seat }, 'aria-label': `Take seat ${seat + 1}`,
    }, 'Sit here'));
  }
  if (open && !empty && owner && s.player_id !== app.me) {
    controls.push(h('button', {
      type: 'button', class: 'small ghost', dataset: { removeSeat: seat }, 'aria-label': `Remove ${name} from seat ${seat + 1}`,
    }, 'Remove'));
  }

  const backs = v && (pos !== 'bottom' || m.seat === null) && !m.result
    ? h('div', { class: 'backs', 'aria-label': `${size} ${size === 1 ? 'card' : 'cards'} in hand` },
      Array.from({ length: size }, () => h('span', { class: 'back' })))
    : null;

  return h('div', {
    class: ['seat', `team-${teamOf(seat)}`, isTurn && 'turn', empty && 'empty', you && 'you'],
    dataset: { seat, pos, key: `seat-${seat}`, level: s.cpu ? s.level : null },
    role: 'group',
    'aria-label': label,
  },
  h('div', { class: 'seat-head' },
    h('span', { class: 'avatar', 'aria-hidden': 'true' }, empty ? '·' : s.cpu ? '⚙' : name.charAt(0).toUpperCase()),
    h('span', { class: 'name' }, name),
    badges),
  backs,
  bubble,
  controls.length ? h('div', { class: 'seat-controls' }, controls) : null);
}

function renderBar(app, m) {
  const v = m.view;
  const info = $('#trump-info');
  if (v && v.trump) {
    patch(info,
      h('span', { class: 'muted ti-deal' }, `Deal ${v.deal_number + 1} · `),
      h('span', { class: 'muted' }, 'trump '),
      h('span', { class: ['suit-big', isRed(v.trump) && 'red'], 'aria-hidden': 'true' }, SUIT_SYMBOLS[v.trump]),
      h('span', { class: 'sr-only' }, SUIT_NAMES[v.trump]),
      h('span', { class: 'muted ti-chooser' }, ` · ${who(m, v.chooser)}`));
    info.dataset.trump = v.trump;
  } else if (v) {
    patch(info, h('span', { class: 'muted' }, `Deal ${v.deal_number + 1} · choosing trump`));
    delete info.dataset.trump;
  } else {
    patch(info, h('span', { class: 'muted' }, m.room.status === 'open' ? 'Waiting for players' : ''));
    delete info.dataset.trump;
  }

  const lastButton = $('#show-last-trick');
  lastButton.disabled = !m.lastTrick;
  const open = Boolean(app.ui.lastTrickOpen && m.lastTrick);
  lastButton.setAttribute('aria-expanded', String(open));
  const box = $('#last-trick');
  show(box, open);
  if (open) {
    const t = m.lastTrick;
    const roem = t.roem ? `, ${roemWords(t.roem_parts, t.roem).text}` : '';
    patch(box,
      h('div', { class: 'mini-trick' },
        playedCards(t).map(({ seat, card }) => cardView(card, {
          class: ['played', seatPosition(m, seat), seat === t.winner && 'winner'],
          dataset: { seat, key: card },
        }, m.view?.trump))),
      h('p', { class: 'small' },
        `Won by ${who(m, t.winner)}: ${t.points} points${roem}.`),
      h('button', { type: 'button', class: 'small', dataset: { closeLastTrick: '' } }, 'Close'));
  }
  renderTimer(app, m);
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
  const text = `${left} s`;
  const label = `${m.turn === m.seat ? 'You have' : `${subject(m, m.turn)} has`} ${left} seconds`;
  if (el.textContent !== text) el.textContent = text;
  if (el.getAttribute('aria-label') !== label) el.setAttribute('aria-label', label);
  el.setAttribute('role', 'timer');
  show(el, true);
}

function renderCenter(app, m) {
  const v = m.view;
  const myTurn = m.seat !== null && m.legal.length > 0 && !acted(app, m);

  // The trick: the cards being played, or the one just taken for a moment.
  let cards = trickCards(v);
  let taken = null;
  const hold = app.ui.trickHold;
  const claiming = Boolean(v && v.phase === 'claim' && m.lastTrick);
  if (!cards.length && m.lastTrick && (claiming || (hold && hold.roomId === m.roomId
      && hold.serial === m.trickSerial && app.now() < hold.until))) {
    taken = m.lastTrick;
    cards = playedCards(taken);
  }
  const trick = $('#trick');
  trick.classList.toggle('taken', Boolean(taken) && !claiming);
  trick.classList.toggle('claiming', claiming);
  if (taken) trick.dataset.winnerPos = seatPosition(m, taken.winner);
  else delete trick.dataset.winnerPos;
  patch(trick, cards.map(({ seat, card }) => cardView(card, {
    class: ['played', seatPosition(m, seat), taken && seat === taken.winner && 'winner'],
    dataset: { seat, key: card },
  }, v?.trump)));

  // The prompt: what the table waits for.
  patch($('#prompt'), promptText(app, m, myTurn, Boolean(taken) || cards.length > 0));

  // The turned card (turned mode).
  const turned = $('#turned');
  const showTurned = Boolean(v && v.turned && v.phase === 'trump');
  show(turned, showTurned);
  if (showTurned) {
    turned.dataset.card = v.turned;
    patch(turned, h('span', { class: 'small muted' }, 'Turned up'), cardView(v.turned, { dataset: { key: v.turned } }));
  } else {
    delete turned.dataset.card;
  }

  // A hint for this decision: its reason in words, its action highlighted.
  const hint = hintNow(app, m);
  const reason = $('#hint-reason');
  show(reason, Boolean(hint));
  reason.textContent = hint ? hint.reason : '';
  if (hint) reason.dataset.action = hint.action;
  else delete reason.dataset.action;

  // Trump choice: only the legal actions.
  const bids = m.legal.filter((a) => a === 'pass' || a.startsWith('trump:'));
  const bidBox = $('#bids');
  show(bidBox, myTurn && bids.length > 0);
  if (myTurn && bids.length) {
    const mustName = !bids.includes('pass');
    patch(bidBox,
      h('p', { class: 'panel-title' }, mustName ? 'Name trump' : 'Play or pass?'),
      h('div', { class: 'bid-buttons' }, bids.map((a) => {
        if (a === 'pass') {
          return h('button', { type: 'button', class: ['bid-button pass', hint?.action === a && 'hinted'], dataset: { action: a, key: a }, 'aria-label': 'Pass' }, 'Pass');
        }
        const suit = a.slice(6);
        return h('button', {
          type: 'button', class: ['bid-button', isRed(suit) && 'red', hint?.action === a && 'hinted'], dataset: { action: a, key: a },
          'aria-label': `${cap(SUIT_NAMES[suit])} as trump`,
        }, h('span', { class: 'suit-big', 'aria-hidden': 'true' }, SUIT_SYMBOLS[suit]), ` ${cap(SUIT_NAMES[suit])}`);
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
        c?.roem ? `Your trick has ${roemWords(c.roem_parts, c.roem).text}` : 'Your trick has roem'),
      h('div', { class: 'bid-buttons' }, claims.map((a) => h('button', {
        type: 'button', class: ['bid-button', a === 'take' && 'primary', hint?.action === a && 'hinted'], dataset: { action: a, key: a },
        'aria-label': cap(actionWords(a)),
      }, a === 'take' ? 'Take it' : 'Leave it'))));
  } else {
    patch(claimBox);
  }

  renderToast(app, m);
  renderResult(app, m);
}

function promptText(app, m, myTurn, trickShown) {
  const v = m.view;
  const room = m.room;
  if (m.result) return [];
  if (room.status === 'open') {
    const filled = room.seats.filter((s) => s.player_id || s.cpu).length;
    const waiting = room.seats.filter((s) => s.player_id && !s.ready).length;
    const mine = m.seat !== null ? room.seats[m.seat] : null;
    const lines = [h('strong', {}, filled < 4 ? `Waiting for players: ${filled} of 4 seated` : 'Everyone is seated')];
    if (mine && !mine.ready) lines.push(h('span', { class: 'small' }, 'Press Ready when you are.'));
    else if (waiting) lines.push(h('span', { class: 'small' }, `${waiting} ${waiting === 1 ? 'player is' : 'players are'} not ready yet.`));
    if (filled < 4 && isOwner(m, app.me)) lines.push(h('span', { class: 'small muted' }, 'Add CPU players to the empty seats, or share the table.'));
    return lines;
  }
  if (room.status === 'closed') return [h('strong', {}, 'This table was closed.')];
  if (!v || m.turn === null) return [];
  if (myTurn) {
    if (v.phase === 'trump') return [];
    if (v.phase === 'claim') return [];
    return trickShown ? [] : [h('strong', { class: 'your-turn' }, 'Your turn: play a card')];
  }
  if (trickShown) return [];
  if (v.phase === 'trump') return [h('span', {}, `${subject(m, m.turn)} ${m.turn === m.seat ? 'are' : 'is'} choosing trump…`)];
  if (v.phase === 'claim') return [h('span', {}, `${subject(m, m.turn)} may take or leave the roem…`)];
  return [h('span', { class: 'muted' }, `${subject(m, m.turn)} to ${v.trick.length ? 'play' : 'lead'}…`)];
}

function renderToast(app, m) {
  const toast = $('#toast');
  const t = app.ui.toast;
  const visible = Boolean(t && t.roomId === m.roomId && app.now() < t.until);
  toast.classList.toggle('visible', visible);
  if (visible) {
    toast.dataset.kind = t.kind;
    if (toast.textContent !== t.text) toast.textContent = t.text;
  }
}

function renderResult(app, m) {
  const box = $('#result');
  show(box, Boolean(m.result));
  if (!m.result) {
    delete box.dataset.winner;
    return;
  }
  const { winner, totals } = m.result;
  box.dataset.winner = String(winner);
  const mine = m.seat !== null ? teamOf(m.seat) : null;
  let title;
  if (mine === null) title = `${teamLabel(m, winner)} won`;
  else title = winner === mine ? 'You won the match!' : 'You lost the match';
  const tid = m.room.tournament;
  const mode = m.room.mode;
  const day = mode === 'daily' ? dayOfRoom(m.room) : null;
  let next = null; // what comes after this match, besides the lobby
  if (tid) {
    next = h('button', { type: 'button', class: 'primary', dataset: { backTournament: tid } }, 'Back to the tournament');
  } else if (mode === 'daily') {
    next = h('button', { type: 'button', class: 'primary', dataset: { openBoards: '', date: day } },
      !day || day === todayUtc() ? 'See today’s board' : `See the board of ${day}`);
  } else if (mode === 'solo') {
    next = h('button', { type: 'button', class: 'primary', dataset: { newGame: '' } }, 'New game');
  }
  const review = reviewOpen(m.room)
    ? h('button', { type: 'button', dataset: { reviewMatch: m.roomId, key: 'review' } }, 'Review this match')
    : null;
  patch(box,
    h('h2', {}, title),
    h('p', { class: 'final-score' },
      h('span', { class: 'team-0' }, `${teamLabel(m, 0)} ${totals[0]}`),
      ' – ',
      h('span', { class: 'team-1' }, `${teamLabel(m, 1)} ${totals[1]}`)),
    mode === 'daily' ? h('p', { class: 'small' }, 'Your score is on the day’s board: see how the others did with the same cards.') : null,
    rematchOffered(m) ? rematchView(app, m) : null,
    h('div', { class: 'bid-buttons' },
      next,
      review,
      h('button', { type: 'button', class: next ? '' : 'primary', dataset: { go: 'lobby' } }, 'Back to the lobby')));
}

// A rematch: the same players at a new table (seats one to the left), once every human who
// played has accepted. Casual and solo matches only; the players only.
function rematchOffered(m) {
  return m.seat !== null && !m.room.tournament && m.room.mode !== 'daily';
}

function rematchView(app, m) {
  const r = app.rematches.get(m.roomId) ?? null;
  const st = rematchState(r, app.me);
  const humans = m.room.seats.filter((s) => s.player_id).length;
  const text = rematchWords(r, m.room, app.me);
  let line = text ? h('p', { class: 'small', role: 'status' }, st === 'offered' ? h('strong', {}, text) : text) : null;
  let button = null;
  if (st === 'offered') {
    button = h('button', { type: 'button', class: 'primary', dataset: { rematch: m.roomId } }, 'Accept the rematch');
  } else if (st === 'none') {
    line = null;
    button = h('button', {
      type: 'button', dataset: { rematch: m.roomId }, disabled: app.rematchAsked.has(m.roomId),
      title: humans > 1 ? 'The same players at a new table, one seat to the left, once everyone accepts' : 'The same CPUs at a new table, one seat to the left',
    }, 'Rematch');
  }
  return h('div', {
    id: 'rematch', class: 'rematch', dataset: { key: 'rematch', state: st, newRoomId: r?.newRoomId ?? null },
  },
  line,
  button,
  r && st !== 'none' ? rematchPlayers(r, m.room, app.me) : null);
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
    return h('button', {
      type: 'button',
      class: ['card', isRed(suitOf(card)) ? 'red' : 'black', ok && 'legal', v.trump === suitOf(card) && 'is-trump', hinted === card && 'hinted'],
      dataset: { card, key: card, index: i + 1 },
      'aria-label': cardWords(card),
      disabled: !ok,
      title: ok ? `Play the ${cardWords(card)} (${i + 1})` : null,
    }, cardFace(card, { trump: v.trump }));
  }));
}

function renderSide(app, m) {
  const room = m.room;
  const v = m.view;
  $('#room-name').textContent = room.name;
  $('#room-rules').textContent = rulesText(room.rules, room.move_seconds);
  // Solo and daily games: what kind of game this is; nobody to chat with.
  const modeLine = $('#room-mode');
  const cpu = room.seats.find((s) => s.cpu);
  let modeText = '';
  if (room.mode === 'solo') modeText = `Solo game · you and a CPU partner against two CPUs (${levelName(cpu?.level ?? 'strong')})`;
  else if (room.mode === 'daily') modeText = 'The same deals and CPUs for everyone · one attempt · no hints';
  show(modeLine, Boolean(modeText));
  modeLine.dataset.mode = room.mode ?? 'casual';
  if (modeLine.textContent !== modeText) modeLine.textContent = modeText;
  show($('.chat-panel'), room.mode !== 'solo' && room.mode !== 'daily');
  // A rated room: its match changes ratings when four people start it (never with a CPU).
  show($('#room-rated'), Boolean(room.rated) && !room.seats.some((s) => s.cpu));

  // Totals.
  const totals = v?.totals ?? room.totals ?? [0, 0];
  const mine = m.seat !== null ? teamOf(m.seat) : null;
  patch($('#totals'), [0, 1].map((team) => {
    const dealPoints = v && v.phase !== 'done' ? v.points[team] + v.roem[team] : null;
    return h('div', {
      class: ['team-score', `team-${team}`, mine === team && 'mine'],
      dataset: { team, key: `team-${team}` },
    },
    h('span', { class: 'team-name' }, teamLabel(m, team),
      m.seat !== null
        ? h('span', { class: 'team-players small muted' }, ` ${seatName(m, team)} & ${seatName(m, team + 2)}`)
        : null),
    h('span', { class: 'team-total', 'aria-label': `${totals[team]} points` }, String(totals[team])),
    dealPoints !== null && v.phase !== 'trump'
      ? h('span', { class: 'team-deal small muted' }, `this deal ${v.points[team]}${v.roem[team] ? ` + ${v.roem[team]}` : ''}`)
      : null);
  }));

  // Controls.
  const seat = m.seat !== null ? room.seats[m.seat] : null;
  const ready = $('#ready');
  show(ready, Boolean(seat) && room.status === 'open');
  if (seat) {
    ready.setAttribute('aria-pressed', String(Boolean(seat.ready)));
    ready.textContent = seat.ready ? 'Ready ✓' : 'Ready';
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
  leave.title = running
    ? 'Back to the lobby: the match is running, so your seat stays yours'
    : m.seat === null ? 'Stop watching this table' : 'Give up your seat and go back to the lobby';

  // The invite, for a private room's seated players.
  const invite = $('#invite');
  show(invite, Boolean(m.inviteCode));
  if (m.inviteCode) {
    const link = `${window.location.origin}/?invite=${m.inviteCode}`;
    invite.dataset.code = m.inviteCode;
    patch(invite,
      h('p', { class: 'small' }, 'Private table. Invite code: ', h('strong', { class: 'code' }, m.inviteCode)),
      h('div', { class: 'row' },
        h('input', { type: 'text', readonly: true, value: link, 'aria-label': 'Invite link', class: 'invite-link', dataset: { key: 'link' } }),
        h('button', { type: 'button', class: 'small', dataset: { copy: link, key: 'copy' } }, 'Copy link')));
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

function renderSheet(m) {
  const v = m.view;
  const sheet = v?.sheet ?? [];
  const table = $('#sheet');
  const head = h('thead', {}, h('tr', {},
    h('th', { scope: 'col' }, '#'),
    h('th', { scope: 'col' }, 'Trump'),
    h('th', { scope: 'col', class: 'team-0' }, teamLabel(m, 0)),
    h('th', { scope: 'col', class: 'team-1' }, teamLabel(m, 1))));
  const rows = sheet.map((line) => {
    const chooserTeam = teamOf(line.chooser);
    const cell = (team) => {
      const nat = line.nat && chooserTeam === team;
      const pit = line.pit === team;
      const detail = `${line.card_points[team]} + ${line.roem[team]} roem`;
      return h('td', {
        class: ['score', nat && 'nat', pit && 'pit', chooserTeam === team && 'chooser'],
        title: detail,
      },
      h('span', { class: 'score-main' }, String(line.score[team])),
      nat ? h('span', { class: 'mark' }, ' nat') : null,
      pit ? h('span', { class: 'mark' }, ' pit') : null,
      h('span', { class: 'score-detail' }, detail));
    };
    return h('tr', { dataset: { deal: line.number, key: `d${line.number}` } },
      h('td', {}, String(line.number + 1)),
      h('td', { class: ['trump', isRed(line.trump) && 'red'] },
        h('span', { 'aria-label': SUIT_NAMES[line.trump] }, SUIT_SYMBOLS[line.trump]),
        h('span', { class: 'small muted' }, ` ${seatName(m, line.chooser)}`)),
      cell(0), cell(1));
  });
  const totals = v?.totals ?? m.room.totals ?? [0, 0];
  const foot = h('tfoot', {}, h('tr', {},
    h('th', { scope: 'row', colspan: '2' }, 'Total'),
    h('td', { class: 'total' }, String(totals[0])),
    h('td', { class: 'total' }, String(totals[1]))));
  const body = rows.length
    ? h('tbody', {}, rows)
    : h('tbody', {}, h('tr', { class: 'empty-row' }, h('td', { colspan: '4', class: 'muted small' }, 'No deals played yet.')));
  patch(table, head, body, foot);
}
