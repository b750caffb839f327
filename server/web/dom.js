// Tiny DOM helpers: build elements with h(), patch a live tree with morph().
//
// The views rebuild their part of the page from the model on every change and morph it
// into place: elements that stay are patched (so focus, scroll and transitions survive),
// children with a `data-key` are matched by key, the others by position and tag.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'class' && Array.isArray(value)) {
      const cls = value.flat(Infinity).filter(Boolean).join(' ');
      if (cls) el.setAttribute('class', cls);
    } else if (name === 'dataset') {
      for (const [k, v] of Object.entries(value)) {
        if (v !== null && v !== undefined && v !== false) el.dataset[k] = String(v);
      }
    } else {
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

// Make `live`'s attributes and children equal to `next`'s (same tag assumed).
export function morph(live, next) {
  for (const { name } of [...live.attributes]) {
    if (!next.hasAttribute(name)) live.removeAttribute(name);
  }
  for (const { name, value } of [...next.attributes]) {
    if (live.getAttribute(name) !== value) live.setAttribute(name, value);
  }
  morphChildren(live, next);
}

// Replace `live`'s children by `children` (an array of nodes), reusing what it can.
export function patch(live, ...children) {
  const holder = document.createElement(live.tagName);
  append(holder, children);
  morphChildren(live, holder);
}

function keyOf(node) {
  return node.nodeType === 1 ? node.getAttribute('data-key') : null;
}

function morphChildren(live, next) {
  const keyed = new Map();
  for (const child of live.childNodes) {
    const key = keyOf(child);
    if (key !== null) keyed.set(key, child);
  }
  const wanted = [...next.childNodes];
  let index = 0;
  for (const node of wanted) {
    const current = live.childNodes[index] || null;
    let match = null;
    const key = keyOf(node);
    if (key !== null) {
      const found = keyed.get(key);
      if (found && found.tagName === node.tagName) {
        match = found;
        keyed.delete(key);
      }
    } else if (
      current &&
      current.nodeType === node.nodeType &&
      keyOf(current) === null &&
      (node.nodeType !== 1 || current.tagName === node.tagName)
    ) {
      match = current;
    }
    if (match) {
      if (match !== current) live.insertBefore(match, current);
      if (node.nodeType === 1) morph(match, node);
      else if (match.nodeValue !== node.nodeValue) match.nodeValue = node.nodeValue;
    } else {
      live.insertBefore(node, current);
    }
    index += 1;
  }
  while (live.childNodes.length > index) live.removeChild(live.lastChild);
}

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

export function show(el, visible) {
  if (el.hidden === !visible) return;
  el.hidden = !visible;
}
