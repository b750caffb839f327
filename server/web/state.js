// The table model: a pure reducer from the server's room frames (snapshot, update, chat) to
// what the page shows, plus the lobby and tournament reducers. No DOM, no clock, no I/O:
// every function here returns a new value and leaves its arguments alone.
//
// A room model holds the last applied `version`. Updates are applied strictly in order:
// one whose version is not exactly `version + 1` is a gap, and `applyFrame` answers with
// the version to `resume` from instead of applying it.

import { SUIT_NAMES } from './cards.js';

export const POSITIONS = ['bottom', 'right', 'top', 'left'];
const LOG_LIMIT = 60;
const CHAT_LIMIT = 100;

export const teamOf = (seat) => seat % 2;
const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const plus = (list, item) => [...list, item];
const bump = (pair, index, amount) => pair.map((v, i) => (i === index ? v + amount : v));

// -- rooms -----------------------------------------------------------------------------

export function newRoom(roomId) {
  return {
    roomId,
    version: 0, // the last version applied; 0: no snapshot yet
    room: null, // the room summary
    seat: null, // our seat, null for a spectator
    inviteCode: null,
    view: null, // the match as we may see it (the server's view object, kept up to date)
    turn: null,
    deadline: null,
    legal: [],
    lastTrick: null, // the last finished trick, as in the view's `tricks`, with its `number`
    trickSerial: 0, // counts finished tricks seen, so the page can show each one a moment
    claim: null, // claim mode: {seat, roem, roem_parts} of the roem that waits for take/leave
    result: null, // {winner, totals} once the match is over
    closed: false,
    resyncFrom: null, // the version a resume was asked from (to ask only once per gap)
    log: [], // announcements: {seq, kind, text}
    noteSeq: 0,
    chat: [],
  };
}

// Where `seat` sits on our screen: we are at the bottom (a spectator sees seat 0 there).
export function seatPosition(model, seat) {
  return POSITIONS[(seat - (model.seat ?? 0) + 4) % 4];
}

export function seatAt(model, position) {
  return ((model.seat ?? 0) + POSITIONS.indexOf(position)) % 4;
}

export function seatName(model, seat) {
  const s = model.room?.seats?.[seat];
  if (!s) return `seat ${seat + 1}`;
  if (s.cpu) return s.nickname ?? 'CPU';
  return s.nickname ?? 'empty seat';
}

const PLACE_WORDS = { bottom: 'bottom', right: 'right', top: 'across', left: 'left' };

// The subject of a sentence: "you", "ann", "CPU left".
export function who(model, seat) {
  if (seat === null || seat === undefined) return 'someone';
  if (model.seat === seat) return 'you';
  const s = model.room?.seats?.[seat];
  if (s?.cpu) return `CPU ${PLACE_WORDS[seatPosition(model, seat)]}`;
  return seatName(model, seat);
}

// The same at the start of a sentence: "You", "ann" (nicknames keep their case), "CPU left".
export function subject(model, seat) {
  return model.seat === seat ? 'You' : who(model, seat);
}

const verb = (model, seat, you, them) => `${subject(model, seat)} ${model.seat === seat ? you : them}`;

// A team in a heading: "Us" / "Them" when seated, the players' names for a spectator.
export function teamLabel(model, team) {
  if (model.seat !== null && model.seat !== undefined) {
    return team === teamOf(model.seat) ? 'Us' : 'Them';
  }
  return `${seatName(model, team)} & ${seatName(model, team + 2)}`;
}

const Cap = (text) => (text === 'we' || text === 'they' ? cap(text) : text);

// A team as the subject of a sentence.
function teamSubject(model, team) {
  if (model.seat !== null && model.seat !== undefined) {
    return team === teamOf(model.seat) ? 'we' : 'they';
  }
  return teamLabel(model, team);
}

export function isOver(model) {
  return model.result !== null || model.room?.status === 'finished';
}

export function isOwner(model, me) {
  return Boolean(me) && model.room?.owner === me;
}

// Apply one frame for this room. Returns {model, resume}: `resume` is the version to
// resume from when the frame showed a gap, else null.
export function applyFrame(model, frame, me = null) {
  switch (frame.type) {
    case 'snapshot':
      return { model: applySnapshot(model, frame), resume: null };
    case 'update':
      return applyUpdate(model, frame, me);
    case 'chat':
      return { model: applyChat(model, frame, me), resume: null };
    default:
      return { model, resume: null };
  }
}

function applySnapshot(m, f) {
  const view = f.view ? { ...f.view } : null;
  const tricks = view?.tricks ?? [];
  const last = tricks.length
    ? { ...tricks[tricks.length - 1], number: tricks.length }
    : (view && m.view && m.view.deal_number === view.deal_number - 1 ? m.lastTrick : null);
  const over = view && view.winner !== null && view.winner !== undefined;
  return {
    ...m,
    version: f.version,
    room: f.room,
    seat: f.seat ?? null,
    inviteCode: f.invite_code ?? null,
    view,
    turn: view ? view.turn : null,
    deadline: f.deadline ?? null,
    legal: view ? view.legal ?? [] : [],
    lastTrick: last,
    result: over ? { winner: view.winner, totals: view.totals } : null,
    claim: view?.phase === 'claim' && last
      ? { seat: view.turn, roem: last.roem, roem_parts: last.roem_parts } : null,
    closed: f.room?.status === 'closed',
    resyncFrom: null,
  };
}

function applyUpdate(m, f, me) {
  if (m.version > 0 && f.version <= m.version) return { model: m, resume: null }; // seen
  if (m.version === 0 || f.version !== m.version + 1) {
    if (m.resyncFrom === m.version) return { model: m, resume: null }; // already asked
    return { model: { ...m, resyncFrom: m.version }, resume: m.version };
  }
  let next = {
    ...m,
    version: f.version,
    turn: f.turn ?? null,
    deadline: f.deadline ?? null,
    legal: f.legal ?? [],
    resyncFrom: null,
  };
  if (f.room) next.room = f.room;
  const notes = kindNotes(m, next, f, me);
  for (const event of f.events ?? []) next = applyEvent(next, event, notes);
  if (next.view) next.view = { ...next.view, turn: next.turn, legal: next.legal };
  if (f.kind === 'closed' || next.room?.status === 'closed') next.closed = true;
  return { model: addNotes(next, notes), resume: null };
}

function note(kind, text) {
  return { kind, text };
}

function addNotes(m, notes) {
  if (!notes.length) return m;
  let seq = m.noteSeq;
  const added = notes.map((n) => ({ ...n, seq: ++seq }));
  return { ...m, noteSeq: seq, log: [...m.log, ...added].slice(-LOG_LIMIT) };
}

function kindNotes(before, after, f, me) {
  const seat = f.seat;
  const was = before.room?.seats?.[seat];
  const now = after.room?.seats?.[seat];
  const name = (s) => (s?.player_id && s.player_id === me ? 'You' : s?.cpu ? 'A CPU' : s?.nickname);
  switch (f.kind) {
    case 'seat':
      if (!now) return [];
      if (now.cpu || now.player_id) {
        const subject = name(now);
        return [note('seat', `${subject} ${subject === 'You' ? 'sit' : 'sits'} down.`)];
      }
      if (was && (was.cpu || was.player_id)) {
        const subject = name(was);
        return [note('seat', `${subject} left the table.`)];
      }
      return [];
    case 'ready':
      if (!now) return [];
      return [note('ready', `${verb(after, seat, 'are', 'is')} ${now.ready ? 'ready' : 'not ready'}.`)];
    case 'start':
      return [note('start', 'The match starts. Good luck!')];
    case 'away':
      if (!now || !was || now.away === was.away) return [];
      return now.away
        ? [note('away', `${verb(after, seat, 'are', 'is')} away: the server plays for ${after.seat === seat ? 'you' : 'them'}.`)]
        : [note('away', `${verb(after, seat, 'are', 'is')} back.`)];
    case 'act':
      if (f.by === 'timeout') {
        return [note('timeout', `${subject(after, seat)} ran out of time: the server played instead.`)];
      }
      return [];
    case 'closed':
      return [note('closed', 'The room was closed.')];
    default:
      return [];
  }
}

const NO_ROEM = { run: 0, four: 0, stuk: 0 };

// A trick's roem in words, from the parts the server sends (`roem_parts`: run, four of a
// kind, stuk): "roem 50", "four of a kind (100)", "stuk (20)", "roem 20 and stuk (40)".
export function roemWords(parts, roem) {
  const named = [
    parts.run && `roem ${parts.run}`, parts.four && 'four of a kind', parts.stuk && 'stuk',
  ].filter(Boolean);
  if (!named.length) return { text: `roem ${roem}`, kind: 'roem' };
  const onlyRun = named.length === 1 && parts.run;
  return {
    text: onlyRun ? named[0] : `${named.join(' and ')} (${roem})`,
    kind: parts.run || parts.four ? 'roem' : 'stuk',
  };
}

function applyEvent(m, e, notes) {
  const v = m.view;
  switch (e.type) {
    case 'deal_started': {
      const base = v ?? {
        seat: m.seat, rules: m.room?.rules ?? null, totals: [0, 0], sheet: [], winner: null,
      };
      const view = {
        ...base,
        phase: 'trump',
        deal_number: e.number,
        dealer: e.dealer,
        turn: null,
        hand: e.hand ?? [],
        hand_sizes: [8, 8, 8, 8],
        legal: [],
        turned: e.turned ?? null,
        bids: [],
        trump: null,
        chooser: null,
        leader: (e.dealer + 1) % 4,
        trick: [],
        tricks: [],
        points: [0, 0],
        roem: [0, 0],
      };
      notes.push(note('deal', `Deal ${e.number + 1}: ${who(m, e.dealer)} ${m.seat === e.dealer ? 'deal' : 'deals'}.`));
      return { ...m, view, claim: null };
    }
    case 'passed':
      if (!v) return m;
      notes.push(note('bid', `${verb(m, e.seat, 'pass', 'passes')}.`));
      return { ...m, view: { ...v, bids: plus(v.bids, 'pass') } };
    case 'trump_chosen':
      if (!v) return m;
      notes.push(note('trump', `${verb(m, e.seat, 'choose', 'chooses')} ${SUIT_NAMES[e.suit]} as trump.`));
      return {
        ...m,
        view: { ...v, trump: e.suit, chooser: e.seat, bids: plus(v.bids, `trump:${e.suit}`), phase: 'play' },
      };
    case 'card_played': {
      if (!v) return m;
      const fresh = v.trick.length === 0 || v.trick.length >= 4;
      const sizes = v.hand_sizes.map((n, i) => (i === e.seat ? Math.max(0, n - 1) : n));
      return {
        ...m,
        view: {
          ...v,
          phase: 'play',
          leader: fresh ? e.seat : v.leader,
          trick: fresh ? [e.card] : plus(v.trick, e.card),
          hand: m.seat === e.seat ? v.hand.filter((c) => c !== e.card) : v.hand,
          hand_sizes: sizes,
        },
      };
    }
    case 'trick_taken': {
      if (!v) return m;
      const pending = Boolean(e.roem_pending);
      const team = teamOf(e.winner);
      const trick = {
        leader: e.leader, cards: e.cards, winner: e.winner, points: e.points,
        roem: pending ? 0 : e.roem, roem_parts: pending ? NO_ROEM : e.roem_parts,
      };
      if (e.roem > 0) {
        const roem = roemWords(e.roem_parts, e.roem);
        if (pending) {
          const whose = m.seat === e.winner ? 'Your' : `${subject(m, e.winner)}'s`;
          notes.push(note(roem.kind, `${whose} trick has ${roem.text}: take it or leave it?`));
        } else {
          const partner = m.seat !== null && m.seat !== e.winner && teamOf(m.seat) === team;
          notes.push(note(roem.kind, `${cap(roem.text)} for ${who(m, e.winner)}${partner ? ' (your team)' : ''}.`));
        }
      }
      return {
        ...m,
        view: {
          ...v,
          phase: pending ? 'claim' : 'play',
          trick: [],
          leader: e.winner,
          tricks: plus(v.tricks, trick),
          points: bump(v.points, team, e.points),
          roem: pending ? v.roem : bump(v.roem, team, e.roem),
        },
        lastTrick: { ...trick, number: e.number },
        trickSerial: m.trickSerial + 1,
        claim: pending ? { seat: e.winner, roem: e.roem, roem_parts: e.roem_parts } : null,
      };
    }
    case 'roem_decided': {
      if (!v) return m;
      const team = teamOf(e.seat);
      notes.push(note('roem', e.take
        ? `${verb(m, e.seat, 'take', 'takes')} the roem: ${e.roem}.`
        : `${verb(m, e.seat, 'leave', 'leaves')} the roem (${e.roem}).`));
      // Taken: the trick scores its roem, by the parts it was announced with; left: nothing.
      const decided = (t) => (e.take
        ? { ...t, roem: e.roem, roem_parts: m.claim?.roem_parts ?? t.roem_parts }
        : { ...t, roem: 0, roem_parts: NO_ROEM });
      const tricks = v.tricks.map((t, i) => (i === v.tricks.length - 1 ? decided(t) : t));
      return {
        ...m,
        view: { ...v, phase: 'play', tricks, roem: e.take ? bump(v.roem, team, e.roem) : v.roem },
        lastTrick: m.lastTrick ? decided(m.lastTrick) : m.lastTrick,
        claim: null,
      };
    }
    case 'deal_ended': {
      const base = v ?? { sheet: [], totals: [0, 0] };
      const line = {
        number: e.number, dealer: e.dealer, trump: e.trump, chooser: e.chooser,
        card_points: e.card_points, roem: e.roem, nat: e.nat, pit: e.pit, score: e.score,
      };
      const chooserTeam = teamOf(e.chooser);
      notes.push(note('deal', `Deal ${e.number + 1}: ${teamLabel(m, 0)} ${e.score[0]}, ${teamLabel(m, 1)} ${e.score[1]}.`));
      if (e.nat) {
        notes.push(note('nat', `Nat! ${Cap(teamSubject(m, chooserTeam))} chose ${SUIT_NAMES[e.trump]} and did not make it.`));
      }
      if (e.pit !== null && e.pit !== undefined) {
        notes.push(note('pit', `Pit! ${Cap(teamSubject(m, e.pit))} took every trick.`));
      }
      return {
        ...m,
        view: { ...base, sheet: plus(base.sheet ?? [], line), totals: e.totals },
      };
    }
    case 'match_ended': {
      const [a, b] = e.totals;
      const mine = m.seat !== null && m.seat !== undefined ? teamOf(m.seat) : null;
      let text;
      if (mine === null) text = `${Cap(teamSubject(m, e.winner))} won the match, ${e.totals[e.winner]} to ${e.totals[1 - e.winner]}.`;
      else if (e.winner === mine) text = `You won the match, ${mine === 0 ? a : b} to ${mine === 0 ? b : a}!`;
      else text = `You lost the match, ${mine === 0 ? a : b} to ${mine === 0 ? b : a}.`;
      notes.push(note('match', text));
      return {
        ...m,
        view: v ? { ...v, phase: 'done', turn: null, winner: e.winner, totals: e.totals } : v,
        result: { winner: e.winner, totals: e.totals },
      };
    }
    default:
      return m;
  }
}

function applyChat(m, f, me) {
  const line = {
    nickname: f.nickname, text: f.text, at: f.at, mine: Boolean(me) && f.player_id === me,
  };
  return { ...m, chat: [...m.chat, line].slice(-CHAT_LIMIT) };
}

// Who speaks first in the trump choice (`dealer` mode: the dealer, else the next seat).
export function firstBidder(view) {
  return view.rules?.trump_mode === 'dealer' ? view.dealer : (view.dealer + 1) % 4;
}

// Each seat's latest word in the trump choice this deal: seat -> "pass" | "trump:h".
export function bidsBySeat(view) {
  const out = {};
  if (!view) return out;
  const first = firstBidder(view);
  view.bids.forEach((bid, i) => {
    out[(first + i) % 4] = bid;
  });
  return out;
}

// The current trick's cards with their seats: [{seat, card}].
export function trickCards(view) {
  if (!view) return [];
  return view.trick.map((card, i) => ({ seat: (view.leader + i) % 4, card }));
}

export function playedCards(trick) {
  return trick.cards.map((card, i) => ({ seat: (trick.leader + i) % 4, card }));
}

// -- the lobby --------------------------------------------------------------------------

export function newLobby() {
  return { rooms: {}, tournaments: {}, online: null, loaded: false };
}

const byId = (list) => Object.fromEntries((list ?? []).map((x) => [x.id, x]));

function without(map, id) {
  const copy = { ...map };
  delete copy[id];
  return copy;
}

export function applyLobby(lobby, f) {
  switch (f.type) {
    case 'lobby':
      return {
        rooms: byId(f.rooms), tournaments: byId(f.tournaments), online: f.online ?? lobby.online,
        loaded: true,
      };
    case 'lobby_room':
      return { ...lobby, rooms: { ...lobby.rooms, [f.room.id]: f.room } };
    case 'lobby_room_gone':
      return { ...lobby, rooms: without(lobby.rooms, f.room_id) };
    case 'lobby_presence':
      return { ...lobby, online: f.online };
    case 'lobby_tournament':
      return {
        ...lobby,
        tournaments: {
          ...lobby.tournaments,
          [f.tournament.id]: newerTournament(lobby.tournaments[f.tournament.id], f.tournament),
        },
      };
    case 'lobby_tournament_gone':
      return { ...lobby, tournaments: without(lobby.tournaments, f.tournament_id) };
    default:
      return lobby;
  }
}

// -- tournaments ------------------------------------------------------------------------

// The newer of two summaries of one tournament (live scores come without a new version).
export function newerTournament(prev, next) {
  if (prev && (prev.version ?? 0) > (next.version ?? 0)) return prev;
  return next;
}

export function roundName(t, index) {
  const total = t.round_count ?? t.rounds.length;
  if (index === total - 1) return 'Final';
  if (index === total - 2 && total >= 3) return 'Semi-finals';
  return `Round ${index + 1}`;
}

// An entrant by name: a player's nickname, or a CPU's own ("Bram (CPU, strong)").
export function entrantName(t, id) {
  for (const r of t.registered ?? []) if (r.id === id) return r.nickname ?? id;
  for (const tables of t.rounds ?? []) {
    for (const table of tables) {
      for (const s of table.seats) if (s.id === id) return s.nickname ?? id;
    }
  }
  return id;
}

// What a tournament means for player `me`: registered?, their table, waiting, through, out.
export function tournamentInfo(t, me) {
  const registered = (t.registered ?? []).some((r) => r.id === me);
  let mine = null;
  (t.rounds ?? []).forEach((tables, round) => {
    tables.forEach((table, index) => {
      const seat = table.seats.findIndex((s) => s.id === me);
      if (seat >= 0) mine = { round, index, seat, table };
    });
  });
  const last = (t.rounds ?? []).length - 1;
  const current = last >= 0 ? t.rounds[last] : [];
  const decided = mine && mine.table.winner !== null && mine.table.winner !== undefined;
  const won = decided && mine.table.winner === teamOf(mine.seat);
  const playing = t.status === 'running' && mine && mine.round === last && !decided;
  const othersPlaying = current.some((table) => table.winner === null || table.winner === undefined);
  return {
    registered,
    mine, // {round, index, seat, table} in the latest round where `me` sat
    playing, // seated at a table of the current round that is still being played
    waiting: t.status === 'running' && Boolean(decided) && mine.round === last && othersPlaying,
    through: Boolean(won) && t.status === 'running',
    out: Boolean(decided) && !won && t.status === 'running',
    roundCount: t.round_count ?? t.rounds.length,
  };
}

export function prizeName(prize) {
  return { grand: 'Grand Prize', second: 'Second Prize' }[prize] ?? null;
}

// A resume was asked from `version`: remember it, so a gap seen meanwhile asks no more.
export function markResync(model, version) {
  return { ...model, resyncFrom: version };
}

// -- rematches ---------------------------------------------------------------------------

// A `rematch` frame onto the last one of that room: each lists everyone who accepted so
// far, so the one with the new table, else the one with the most acceptances, wins.
export function applyRematch(prev, f) {
  const next = {
    roomId: f.room_id, accepted: f.accepted ?? [], waiting: f.waiting ?? [], newRoomId: f.new_room_id ?? null,
  };
  if (!prev) return next;
  if (prev.newRoomId) return prev;
  if (next.newRoomId || next.accepted.length >= prev.accepted.length) return next;
  return prev;
}

// Where a rematch stands for player `me`: `none` (nobody accepted yet), `offered` (others
// accepted, not you), `waiting` (you accepted, others have not), `ready` (the new table).
export function rematchState(r, me) {
  if (!r) return 'none';
  if (r.newRoomId) return 'ready';
  if (r.accepted.includes(me)) return 'waiting';
  return r.accepted.length ? 'offered' : 'none';
}

// The rematch in a sentence for player `me` (`room`: the finished room's summary, for the
// names): "ann wants a rematch.", "You accepted the rematch. Waiting for bob.".
export function rematchWords(r, room, me) {
  const names = (ids) => ids.map((id) => rematchName(room, id, me)).join(ids.length === 2 ? ' and ' : ', ');
  const state = rematchState(r, me);
  if (state === 'ready') return 'Everyone accepted: opening the new table…';
  if (state === 'waiting') return `You accepted the rematch. Waiting for ${names(r.waiting)}.`;
  if (state === 'offered') return `${names(r.accepted)} ${r.accepted.length === 1 ? 'wants' : 'want'} a rematch.`;
  return '';
}

// A player of the finished room by name ("you" for `me`).
export function rematchName(room, id, me) {
  if (id === me) return 'you';
  return room?.seats?.find((s) => s.player_id === id)?.nickname ?? 'a player';
}
