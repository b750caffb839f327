// Sentences with slots: fill('Deal {number}', { number: 3 }) gives 'Deal 3'.
//
// Every sentence the table shows is one whole template in its module's TEXT table, never
// pieced together from parts, so that each can be translated as a whole (the words may
// move around their slots). A slot with no value stays as it is, to be seen and fixed.

export function fill(template, values = {}) {
  return template.replace(/\{(\w+)\}/g, (slot, name) => (name in values ? String(values[name]) : slot));
}

// One of a template's forms by count: { one: '{n} card', other: '{n} cards' }.
export function plural(forms, n, values = {}) {
  return fill(n === 1 ? forms.one : forms.other, { n, ...values });
}

// The same with elements in slots: an array of text and nodes, for h()'s children.
export function fillParts(template, values = {}) {
  return template.split(/(\{\w+\})/).filter(Boolean).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name && name in values ? values[name] : part;
  });
}
