// The playground's live preview: whenever an option changes, the form goes to /playground/preview
// (debounced) and the answer, a small JPEG, replaces the preview. A chosen photo is first scaled
// down in the browser to at most 1600 px, so a preview never uploads the full file. "Generate"
// sends the form itself, with the original photo, and puts the answer's result in this page, so
// the photo stays chosen and the preview keeps showing what Generate makes. Choosing a file
// deselects the sample; picking a sample clears the file. Without JavaScript the form posts as usual.
import { showPreview } from './preview.js';
const form = document.getElementById('playground-form');
const preview = document.getElementById('preview');
const status = document.getElementById('preview-status');
const fileInput = document.getElementById('image');
let scaled; // the chosen photo, scaled down, as a Blob
let timer;
let controller;

async function scaleDown(file) {
  const bitmap = await createImageBitmap(file);
  const ratio = Math.min(1, 1600 / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * ratio);
  canvas.height = Math.round(bitmap.height * ratio);
  canvas.getContext('2d').drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.9));
}

async function refresh() {
  const data = new FormData(form);
  if (!String(data.get('title') ?? '').trim()) {
    status.textContent = 'Type a title to see a preview.';
    return;
  }
  data.delete('image');
  if (scaled) data.set('image', scaled, 'photo.jpg');
  controller?.abort();
  controller = new AbortController();
  status.textContent = 'Updating the preview…';
  try {
    const res = await fetch('/playground/preview', { method: 'POST', body: data, signal: controller.signal });
    if (!res.ok) {
      const { error } = await res.json().catch(() => ({ error: `Preview failed (${res.status})` }));
      status.textContent = error;
      return;
    }
    showPreview(preview, status, await res.blob());
  } catch (err) {
    if (err.name !== 'AbortError') status.textContent = 'The preview could not be loaded.';
  }
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(refresh, 400);
}

const samples = () => [...form.querySelectorAll('input[name="sample"]')];

fileInput.addEventListener('change', async () => {
  const file = fileInput.files?.[0];
  if (file) for (const radio of samples()) radio.checked = false;
  scaled = file ? await scaleDown(file).catch(() => file) : undefined;
  schedule();
});
form.addEventListener('input', (event) => {
  if (event.target !== fileInput) schedule();
});
form.addEventListener('change', (event) => {
  if (event.target instanceof HTMLInputElement && event.target.name === 'sample') {
    fileInput.value = '';
    scaled = undefined;
  }
  if (event.target !== fileInput) schedule();
});

/** Replaces the element matching `selector` in this page by the one in `next` (or removes it). */
function adopt(next, selector, parent, before) {
  const fresh = next.querySelector(selector);
  const old = document.querySelector(selector);
  if (old && fresh) old.replaceWith(document.importNode(fresh, true));
  else if (old) old.remove();
  else if (fresh) parent.insertBefore(document.importNode(fresh, true), before ?? null);
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = form.querySelector('button[type="submit"]');
  button.disabled = true;
  status.textContent = 'Generating…';
  try {
    const res = await fetch(form.action, { method: 'POST', body: new FormData(form) });
    const next = new DOMParser().parseFromString(await res.text(), 'text/html');
    const playground = document.querySelector('.playground');
    adopt(next, 'main .alert', playground.parentElement, playground);
    adopt(next, '.result', document.querySelector('.preview'));
    adopt(next, '#remaining', form);
    status.textContent = res.ok ? 'Your image is ready.' : 'The image was not made: see the message above.';
    (res.ok ? document.querySelector('.result') : document.querySelector('main .alert'))?.scrollIntoView({
      block: 'nearest',
    });
  } catch {
    status.textContent = 'The image could not be made: try again.';
  } finally {
    button.disabled = false;
  }
});
schedule();
