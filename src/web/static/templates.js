// The template editor's live preview: whenever the document or a variable changes, the editor's
// JSON and the variables go to /templates/:id/preview (debounced) and the answer, a small JPEG,
// replaces the preview. A refusal's message and the path it names (layers[3].box.w) show next to
// the editor. Nothing is saved and no quota is used; Save posts the form as usual.
import { showPreview } from './preview.js';
const editor = document.getElementById('document');
const form = document.getElementById('preview-form');
const preview = document.getElementById('preview');
const status = document.getElementById('preview-status');
const problem = document.getElementById('document-problem');
let timer;
let controller;

function showProblem(message, field) {
  problem.textContent = '';
  if (message) {
    if (field) {
      const code = document.createElement('code');
      code.textContent = field;
      problem.append(code, ': ');
    }
    problem.append(message);
  }
  problem.hidden = !message;
  if (message) editor.setAttribute('aria-invalid', 'true');
  else editor.removeAttribute('aria-invalid');
}

async function refresh() {
  let document_;
  try {
    document_ = JSON.parse(editor.value);
  } catch (err) {
    showProblem(`Expected the template as JSON: ${err.message}`, 'document');
    status.textContent = 'The preview waits for valid JSON.';
    return;
  }
  const data = new FormData(form);
  const fields = {};
  for (const [name, value] of data)
    if (name.startsWith('field:') && String(value).trim()) fields[name.slice(6)] = String(value);
  const body = {
    document: document_,
    title: String(data.get('title') ?? ''),
    subtitle: String(data.get('subtitle') ?? ''),
    fields,
    sample: String(data.get('sample') ?? ''),
  };
  controller?.abort();
  controller = new AbortController();
  status.textContent = 'Updating the preview…';
  try {
    const res = await fetch(form.dataset.preview, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (!res.ok) {
      const { error, field } = await res.json().catch(() => ({ error: `Preview failed (${res.status})` }));
      showProblem(error, field);
      status.textContent = 'The preview shows the last version that rendered.';
      return;
    }
    showProblem('');
    showPreview(preview, status, await res.blob());
  } catch (err) {
    if (err.name !== 'AbortError') status.textContent = 'The preview could not be loaded.';
  }
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(refresh, 500);
}

editor.addEventListener('input', schedule);
form.addEventListener('input', schedule);
form.addEventListener('change', schedule);
form.addEventListener('submit', (event) => event.preventDefault());
refresh();
