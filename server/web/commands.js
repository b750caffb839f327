// An organiser's commands, one at a time (a club evening's, a club's: client_protocol.md
// §15, §16): each is made on the version the one before it made, so that names checked in
// or members added quickly one after another all go in.
//
// The state is a screen's (evening.js `app.evening`, club.js `app.club`): `code` (the code it
// follows with), `version` (the latest shown), `queue` (the commands waiting: {kind, fields})
// and `sent` (the one on its way: {ref, version, kind, fields}), changed only by these pure
// reducers. A command's type is the screen's prefix and its kind: `evening_check_in`.

export const idleQueue = () => ({ queue: [], sent: null });

// A command, queued behind the one on its way.
export function queueCommand(s, kind, fields = {}) {
  return { ...s, queue: [...s.queue, { kind, fields }] };
}

// The next command to send (null: none, or one is on its way), made on the version shown.
export function nextCommand(s, prefix) {
  if (s.sent || !s.queue.length || !s.code) return null;
  const { kind, fields } = s.queue[0];
  return { type: `${prefix}_${kind}`, code: s.code, version: s.version, ...fields };
}

// The queue's first command went out with `ref` (null: it could not: the queue is dropped).
export function commandSent(s, ref) {
  if (ref === null) return { ...s, queue: [], sent: null };
  return { ...s, queue: s.queue.slice(1), sent: { ref, version: s.version, ...s.queue[0] } };
}

// The command on its way, once a frame of `version` came: it went in when the version
// moved past the one it was made on.
export const settled = (s, version) => (s.sent && version > s.sent.version ? null : s.sent);

// A command of ours was refused (said in #error; one sent again after `room_unavailable` has
// a ref of its own): the next one may go. Making, following and leaving (`evening_create`,
// `club_open`, ...) are no commands of the queue.
const FOLLOWING = /_(create|open|leave)$/;
export function commandRefused(s, sent) {
  return s.sent && !FOLLOWING.test(sent?.type ?? '') ? { ...s, sent: null } : s;
}

// Followed again after a reconnect: a command lost on the way is not waited for.
export const queueReopened = (s) => ({ ...s, sent: null });

// The commands of `kind` on their way or waiting (their fields), to show them as done.
export const pending = (s, kind) => [s.sent, ...s.queue].filter((c) => c?.kind === kind).map((c) => c.fields);
