// The invite: a friend who opens an invite link (or types its code) watches the table
// first and is asked where to sit, in a dialog that says who invited them and to which
// table; the inviter's partner seat is chosen unless taken. Before the nickname, the
// nickname screen says what the link opens (`#hello-context`): the invite's table (GET
// /invites/<code>), or the score sheet of a sheet's link (sheet.js).

import { $, h, patch, show } from './dom.js';
import { cpuName } from './state.js';
import { roomTitle, rulesText } from './lobby.js';
import { sheetIntro } from './sheet.js';
import { fill, plural } from './fill.js';
import { strings } from './i18n.js';

const WORDS = strings('invite', {
  title: '{owner} invited you', // the invite dialog's title
  titleNobody: 'You are invited',
  table: 'To the table “{table}”.',
  legend: 'Choose your seat',
  partner: 'Seat {seat}: {owner}’s partner',
  opponent: 'Seat {seat}: against {owner}',
  free: 'Seat {seat}: free',
  taken: 'Seat {seat}: {name}',
  you: 'Seat {seat}: you',
  sameTeam: 'same team', // a chip beside a seat: in the inviter's team
  otherTeam: 'other team',
  sit: 'Sit down',
  watch: 'Just watch', // a button: do not sit down, only watch
  note: 'You can move to another free seat until the match starts.',
});

// What an invite link says above the nickname field.
const HELLO = strings('invite.hello', {
  loading: 'Looking up your invite…',
  invited: '{owner} invited you to the table “{table}”.',
  invitedNobody: 'You are invited to the table “{table}”.',
  seats: 'At the table: {names}.', // the seats taken: "ann, bob"
  list: '{a}, {b}', // names in a list
  free: { one: '{n} seat free.', other: '{n} seats free.' },
  pickToSit: 'Pick a nickname to sit down.',
  playing: 'The match has started: pick a nickname to watch it.',
  bad_invite: 'This invite opens no table: check the link, or ask for a new one.',
  no_such_room: 'The table of this invite has ended.',
  unknown: 'Your invite could not be looked up: pick a nickname and it opens afterwards.',
});

const free = (s) => !s.player_id && !s.cpu;

// The seat the inviter sits in, or null (a table made to watch, or a tournament's).
function ownerSeat(room) {
  const at = room.seats.findIndex((s) => s.player_id && s.player_id === room.owner);
  return at >= 0 ? at : null;
}

// Where an invited friend sits unless they choose: the inviter's partner seat when free,
// else the first free seat.
export function defaultSeat(room) {
  const owner = ownerSeat(room);
  if (owner !== null && free(room.seats[(owner + 2) % 4])) return (owner + 2) % 4;
  const first = room.seats.findIndex(free);
  return first >= 0 ? first : null;
}

// Whether to ask: an open room with a free seat, where this page does not sit yet.
export function wantsSeat(model) {
  return Boolean(model?.room) && model.seat === null && model.room.status === 'open'
    && model.room.seats.some(free);
}

// The invite for room model `m`: {roomId, seat} (the seat chosen so far).
export function newInvite(m) {
  return { roomId: m.roomId, seat: defaultSeat(m.room) };
}

function seatLine(room, index, me) {
  const s = room.seats[index];
  const owner = ownerSeat(room);
  const seat = index + 1;
  const nick = room.owner_nickname;
  if (!free(s)) {
    if (s.player_id && s.player_id === me) return fill(WORDS.you, { seat });
    return fill(WORDS.taken, { seat, name: s.nickname ?? '?' });
  }
  if (owner === null || !nick) return fill(WORDS.free, { seat });
  return fill(owner % 2 === index % 2 ? WORDS.partner : WORDS.opponent, { seat, owner: nick });
}

// Draw the dialog for `app.invite` (and open it), or close it when the invite is over.
export function renderInvite(app) {
  const dialog = $('#join-seat');
  const invite = app.invite;
  const m = invite ? app.rooms.get(invite.roomId) : null;
  if (!m || !wantsSeat(m) || app.current !== invite.roomId || app.screen !== 'table') {
    if (dialog.open) dialog.close();
    return;
  }
  const room = m.room;
  let chosen = invite.seat;
  if (chosen === null || !free(room.seats[chosen])) chosen = defaultSeat(room);
  invite.seat = chosen;
  const owner = ownerSeat(room);
  $('#join-seat-title').textContent = room.owner_nickname
    ? fill(WORDS.title, { owner: room.owner_nickname }) : WORDS.titleNobody;
  patch($('#join-seat-body'),
    h('p', { class: 'join-table', dataset: { key: 'table' } }, fill(WORDS.table, { table: roomTitle(room) })),
    h('p', { class: 'muted small', dataset: { key: 'rules' } }, rulesText(room.rules, room.move_seconds)),
    h('fieldset', { class: 'join-seats', dataset: { key: 'seats' } },
      h('legend', {}, WORDS.legend),
      room.seats.map((s, i) => h('label', {
        class: ['join-seat', !free(s) && 'taken', owner !== null && `team-${i % 2}`],
        dataset: { key: `seat-${i}` },
      },
      h('input', {
        type: 'radio', name: 'seat', value: String(i), disabled: !free(s), checked: i === chosen,
      }),
      h('span', {}, seatLine(room, i, app.me)),
      owner !== null && free(s)
        ? h('span', { class: 'chip small' }, owner % 2 === i % 2 ? WORDS.sameTeam : WORDS.otherTeam)
        : null))),
    h('p', { class: 'muted small', dataset: { key: 'note' } }, WORDS.note));
  for (const input of dialog.querySelectorAll('input[name=seat]')) {
    input.checked = Number(input.value) === chosen;
  }
  const actions = dialog.querySelector('.form-actions');
  if (!actions.dataset.filled) {
    patch(actions,
      h('button', { type: 'button', dataset: { closeDialog: '' } }, WORDS.watch),
      h('button', { type: 'submit', class: 'primary' }, WORDS.sit));
    actions.dataset.filled = 'true';
  }
  if (!dialog.open) {
    dialog.showModal();
    dialog.querySelector('input[name=seat]:checked')?.focus();
  }
}

// What an invite code opens, asked before the nickname (`GET /invites/<code>`): the page's
// `app.hello` for the nickname screen.
export async function lookUpInvite(code) {
  try {
    const reply = await fetch(`/invites/${encodeURIComponent(code.trim())}`, { cache: 'no-store' });
    const body = await reply.json();
    if (reply.ok) return { kind: 'invite', state: 'room', room: body };
    return { kind: 'invite', state: body.error in HELLO ? body.error : 'unknown' };
  } catch {
    return { kind: 'invite', state: 'unknown' };
  }
}

function inviteIntro(hello) {
  if (hello.state !== 'room') return [h('p', { class: 'hello-line' }, HELLO[hello.state] ?? HELLO.unknown)];
  const room = hello.room;
  const table = roomTitle(room);
  const names = room.seats.filter((s) => s.nickname || s.cpu).map((s) => (s.cpu ? cpuName(s) : s.nickname));
  const open = room.seats.filter((s) => !s.nickname && !s.cpu).length;
  return [
    h('p', { class: 'hello-line' }, h('strong', {}, room.owner_nickname
      ? fill(HELLO.invited, { owner: room.owner_nickname, table }) : fill(HELLO.invitedNobody, { table }))),
    h('p', { class: 'muted small' }, rulesText(room.rules, room.move_seconds)),
    names.length
      ? h('p', { class: 'small' }, fill(HELLO.seats, { names: names.reduce((a, b) => fill(HELLO.list, { a, b })) }),
        room.status === 'open' && open ? [' ', plural(HELLO.free, open)] : null)
      : null,
    h('p', { class: 'small' }, room.status === 'open' ? HELLO.pickToSit : HELLO.playing),
  ];
}

// The nickname screen's word on the link that opened the page (`app.hello`), if any.
export function renderHello(app) {
  const box = $('#hello-context');
  const hello = app.hello;
  show(box, Boolean(hello));
  if (!hello) return;
  box.dataset.kind = hello.kind;
  box.dataset.state = hello.state;
  let intro = [h('p', { class: 'hello-line' }, HELLO.loading)];
  if (hello.kind === 'sheet') intro = sheetIntro(hello);
  else if (hello.state !== 'loading') intro = inviteIntro(hello);
  patch(box, ...intro);
}
