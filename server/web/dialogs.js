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

// A question before a step that cannot be undone (`dialog#confirm`, `data-kind` = `kind`):
// `title`, the paragraphs of `body`, and two buttons, `no` (focused: Enter or Escape keeps
// things as they are) and `yes` (`danger`: red). Resolves true for `yes` alone; the focus
// goes back to where it was unless `yes`.
export function confirmStep({ kind, title, body, yes, no, danger = false }) {
  const dialog = document.querySelector('#confirm');
  const opener = document.activeElement;
  dialog.dataset.kind = kind;
  dialog.querySelector('#confirm-title').textContent = title;
  dialog.querySelector('#confirm-body').replaceChildren(...body.map((text) => {
    const p = document.createElement('p');
    p.textContent = text;
    return p;
  }));
  const yesButton = dialog.querySelector('[data-confirm="yes"]');
  const noButton = dialog.querySelector('[data-confirm="no"]');
  yesButton.textContent = yes;
  yesButton.className = danger ? 'danger' : 'primary';
  noButton.textContent = no;
  dialog.returnValue = '';
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      const said = dialog.returnValue === 'yes';
      if (!said && opener instanceof HTMLElement && opener.isConnected) opener.focus();
      resolve(said);
    }, { once: true });
    dialog.showModal();
    noButton.focus();
  });
}

// The answer of `dialog#confirm`: its button's `data-confirm`.
export function wireConfirm() {
  const dialog = document.querySelector('#confirm');
  dialog.addEventListener('click', (event) => {
    const button = event.target.closest('[data-confirm]');
    if (button) dialog.close(button.dataset.confirm);
  });
}
