// The interface's languages: each module's English words and their translations.
//
// A module declares its words once, in English, under a namespace of its own:
//   const TEXT = strings('lobby', { join: 'Join', seats: { one: '{n} seat', other: '{n} seats' } });
// and reads them as before (`TEXT.join`, `plural(TEXT.seats, n)`): the table answers in
// the page's language, falling back to English for a word not translated.  A language's
// translations are one file, `i18n/<code>.json`: `{ "lobby": { "join": "Meedoen" } }` (a
// plural gives the forms its language needs: Intl.PluralRules' categories).
// The static page marks its words with `data-t` (text), `data-t-label` (aria-label),
// `data-t-title` (title), `data-t-placeholder` and `data-t-word` (`data-word`, words the
// stylesheet shows), each naming a key of namespace `page`; the page holds the English.
//
// The language: `?lang=xx` in the address, else the one chosen here before (kept on this
// device), else the first of the browser's languages we have, else English.  Choosing
// another reloads the page, which resumes where it was.

export const LANGUAGES = {
  en: 'English',
  nl: 'Nederlands',
  fr: 'Français',
  pt: 'Português',
  bg: 'Български',
  tl: 'Tagalog',
};

const LANGUAGE_KEY = 'klaverjas.language';
const ATTRIBUTES = {
  t: null, tLabel: 'aria-label', tTitle: 'title', tPlaceholder: 'placeholder', tWord: 'data-word',
};

const english = {}; // namespace -> the English table, as declared
let language = 'en';
let translated = {}; // namespace -> the current language's table

/** The language the page shows now (a key of LANGUAGES). */
export const currentLanguage = () => language;

/** Every namespace's English words (for the translation check). */
export const englishTables = () => english;

/** The words of namespace `ns`: `table` in English, answered in the page's language. */
export function strings(ns, table) {
  if (ns in english) throw new Error(`words of namespace ${ns} declared twice`);
  english[ns] = table;
  return new Proxy(table, {
    get(target, key) {
      const own = translated[ns];
      return own && key in own ? own[key] : target[key];
    },
  });
}

/** The plural category of `n` in the page's language ('one', 'other', ...). */
export function pluralCategory(n) {
  return new Intl.PluralRules(language).select(n);
}

function stored() {
  try {
    return localStorage.getItem(LANGUAGE_KEY);
  } catch {
    return null;
  }
}

/** The language to show: the address's `?lang=`, the stored choice, the browser's. */
export function pickLanguage(search = window.location.search, browser = navigator.languages) {
  const asked = [new URLSearchParams(search).get('lang'), stored(), ...(browser || [])];
  for (const tag of asked) {
    const code = tag && tag.toLowerCase().split('-')[0];
    if (code === 'fil') return 'tl'; // Filipino is the standard form of Tagalog
    if (code && code in LANGUAGES) return code;
  }
  return 'en';
}

/** Remember `code` on this device and reload the page in it. */
export function chooseLanguage(code) {
  if (!(code in LANGUAGES)) return;
  try {
    localStorage.setItem(LANGUAGE_KEY, code);
  } catch {
    // private mode: the choice lasts this page only
  }
  const url = new URL(window.location.href);
  url.searchParams.delete('lang');
  window.location.replace(url.href);
}

/** The page's static words: English read off the page, then shown in `language`. */
function translatePage() {
  const page = {};
  for (const element of document.querySelectorAll('[data-t],[data-t-label],[data-t-title],[data-t-placeholder],[data-t-word]')) {
    for (const [data, attribute] of Object.entries(ATTRIBUTES)) {
      const key = element.dataset[data];
      if (!key) continue;
      page[key] = attribute ? element.getAttribute(attribute) : element.textContent;
      const word = translated.page?.[key];
      if (word === undefined) continue;
      if (attribute) element.setAttribute(attribute, word);
      else element.textContent = word;
    }
  }
  english.page = page;
}

/** Load the page's language (before the first render) and translate the static page. */
export async function startLanguage() {
  language = pickLanguage();
  if (language !== 'en') {
    try {
      const reply = await fetch(`/web/i18n/${language}.json`);
      if (!reply.ok) throw new Error(`no words for ${language}`);
      translated = await reply.json();
    } catch {
      language = 'en';
    }
  }
  document.documentElement.lang = language;
  translatePage();
}
