// Progressive enhancement for every page: copy buttons and confirmations. Without JavaScript the
// pages still work (forms post, links open); this only adds conveniences.

/** Copies text and says so on the button for a moment. */
async function copy(button, text) {
  const label = button.textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    button.textContent = 'Select and copy';
  }
  setTimeout(() => (button.textContent = label), 1500);
}

document.addEventListener('click', (event) => {
  const button =
    event.target instanceof Element ? event.target.closest('[data-copy], [data-copy-from]') : null;
  if (!button) return;
  const from = button.getAttribute('data-copy-from');
  const field = from ? document.getElementById(from) : null;
  if (field && 'select' in field) field.select();
  void copy(button, field ? field.value : (button.getAttribute('data-copy') ?? ''));
});

document.addEventListener('submit', (event) => {
  const form = event.target;
  const message = form instanceof HTMLFormElement ? form.getAttribute('data-confirm') : null;
  if (message && !window.confirm(message)) event.preventDefault();
});

// A region marked data-refresh (a running batch's progress) is fetched again every 2 s and
// replaced, until the page answers it without the mark. Without JavaScript, reloading does the same.
const live = document.querySelector('[data-refresh]');
if (live && live.id) {
  const tick = async () => {
    const res = await fetch(location.href, { headers: { accept: 'text/html' } });
    if (!res.ok) return;
    const next = new DOMParser().parseFromString(await res.text(), 'text/html').getElementById(live.id);
    const current = document.getElementById(live.id);
    if (!next || !current) return;
    current.replaceWith(next);
    if (next.hasAttribute('data-refresh')) setTimeout(tick, 2000);
  };
  setTimeout(tick, 2000);
}
