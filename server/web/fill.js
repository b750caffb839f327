import { pluralCategory } from './i18n.js';

// Sentences with slots: fill('Deal {number}', { number: 3 }) gives 'Deal 3'.
//
// Every sentence the table shows is one whole template in its module's TEXT table, never
// pieced together from parts, so that each can be translated as a whole (the words may
// move around their slots). A slot with no value stays as it is, to be seen and fixed.

export function fill(template, values = {}) {
  return template.replace(/\{(\w+)\}/g, (slot, name) => (name in values ? String(values[name]) : slot));
}

// One of a template's forms by count, as the page's language counts: { one: '{n} card',
// other: '{n} cards' } in English; a language gives the forms it needs (Intl.PluralRules).
export function plural(forms, n, values = {}) {
  return fill(forms[pluralCategory(n)] ?? forms.other, { n, ...values });
}

// The same with elements in slots: an array of text and nodes, for h()'s children.
export function fillParts(template, values = {}) {
  return template.split(/(\{\w+\})/).filter(Boolean).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name && name in values ? values[name] : part;
  });
}
