// Sentences with values in them: every such string is one template with named blanks
// ("{owner} invited you"), filled here, never glued together from pieces, so that a
// translation may put the blanks in its own order.

export function fill(template, values = {}) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

// The same, as parts for h(): a blank may hold an element (a countdown, a name that is a
// button), kept in the place the template gives it.
export function fillParts(template, values = {}) {
  return template.split(/(\{\w+\})/).filter(Boolean).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name && name in values ? values[name] : part;
  });
}
