// Modal dialogs keep the keyboard inside: Tab from the last control comes back to the
// first, Shift+Tab from the first goes to the last (the browser would let it out to its
// own toolbar). Escape closes a dialog by itself (the browser's `cancel`).

const FOCUSABLE = [
  'a[href]', 'button:not([disabled])', 'input:not([disabled]):not([type=hidden])',
  'select:not([disabled])', 'textarea:not([disabled])', 'summary', '[tabindex]:not([tabindex="-1"])',
].join(', ');

function focusable(dialog) {
  return [...dialog.querySelectorAll(FOCUSABLE)].filter((el) => el.getClientRects().length > 0
    && !(el.type === 'radio' && !el.checked && dialog.querySelector(`input[type=radio][name="${el.name}"]:checked`)));
}

export function trapFocus(event) {
  if (event.key !== 'Tab') return;
  const dialog = [...document.querySelectorAll('dialog[open]')].pop();
  if (!dialog) return;
  const controls = focusable(dialog);
  if (!controls.length) return;
  const first = controls[0];
  const last = controls[controls.length - 1];
  const at = document.activeElement;
  if (!dialog.contains(at)) {
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  } else if (event.shiftKey && at === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && at === last) {
    event.preventDefault();
    first.focus();
  }
}
