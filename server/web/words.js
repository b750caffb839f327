// Sentences with values in them: every such string is one template with named blanks
// ("{owner} invited you"), filled here, never glued together from pieces, so that a
// translation may put the blanks in its own order.

export function fill(template, values = {}) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}
