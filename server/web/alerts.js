// Turn alerts: a short sound when a decision becomes yours (WebAudio; switchable, the
// choice remembered), the tab's title while a decision of yours waits at any table, on any
// screen, and the sound switch (#sound).

import { $ } from './dom.js';
import { fill } from './fill.js';
import { strings } from './i18n.js';

// The tab's title and the sound switch (#sound: its label and tooltip).
const TEXT = strings('alerts', {
  title: 'Klaverjas', // the tab's title
  titleTurn: 'Your turn · Klaverjas',
  titleTurnAt: 'Your turn at {table} · Klaverjas',
  soundOn: 'Turn sound on',
  soundOff: 'Turn sound off',
  soundOnTitle: 'A short sound when it is your turn: on (click to turn it off)',
  soundOffTitle: 'A short sound when it is your turn: off (click to turn it on)',
});

const SOUND_KEY = 'klaverjas.sound';

export function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) !== 'off';
  } catch {
    return true;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem(SOUND_KEY, on ? 'on' : 'off');
  } catch {
    // private mode: the choice lasts as long as the page
  }
  renderSoundSwitch(on);
}

let audio = null;

// Browsers start sound only after the player touched the page: called on every click and
// key, it makes (or wakes) the audio context then.
export function wakeAudio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    if (!audio) audio = new Context();
    if (audio.state === 'suspended') audio.resume();
  } catch {
    audio = null;
  }
}

// Two short rising notes, quiet; nothing when switched off or before the page was touched.
export function turnSound() {
  if (!soundOn() || !audio) return;
  try {
    const now = audio.currentTime;
    for (const [at, freq] of [[0, 660], [0.13, 880]]) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.type = 'sine';
      tone.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.18, now + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.12);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + at);
      tone.stop(now + at + 0.14);
    }
  } catch {
    // no sound is no harm
  }
}

// The tab's title: says so while a decision of yours waits (`table`: that table's name).
export function setTitle(waiting, table = null) {
  let title = TEXT.title;
  if (waiting) title = table ? fill(TEXT.titleTurnAt, { table }) : TEXT.titleTurn;
  if (document.title !== title) document.title = title;
}

export function renderSoundSwitch(on = soundOn()) {
  const button = $('#sound');
  if (!button) return;
  button.setAttribute('aria-pressed', String(on));
  button.setAttribute('aria-label', on ? TEXT.soundOn : TEXT.soundOff);
  button.title = on ? TEXT.soundOnTitle : TEXT.soundOffTitle;
  button.dataset.sound = on ? 'on' : 'off';
}
