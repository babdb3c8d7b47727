// The card studio's page (src/mcp/studio.ts): an MCP App on the ext-apps App class, which the page
// inlines as globalThis.McpExtApps. It shows the card generate_image made, lets the person change
// its title, subtitle, template, aspect, colours and format with a live preview (preview_card: free),
// makes the card anew (generate_image: one unit), copies its URL or its og:image tag, and tells the
// model what the person chose (ui/update-model-context).
const { App, applyDocumentTheme, applyHostStyleVariables, applyHostFonts } = globalThis.McpExtApps;

/** Pixel sizes per aspect (docs/api.md#generate-options, `aspect`). */
const SIZES = { og: [1200, 630], square: [1080, 1080], portrait: [1080, 1350] };
/** The options the form edits; the rest of the tool's input (the background above all) is kept. */
const FORM_KEYS = ['title', 'subtitle', 'template', 'aspect', 'colorMode', 'fileFormat'];
const DEFAULTS = { template: '', aspect: 'og', colorMode: 'auto', fileFormat: 'png' };
/** Milliseconds of quiet typing before a preview is asked for (previews are limited to 60 a minute). */
const PREVIEW_DELAY_MS = 200;

const form = document.getElementById('form');
const image = document.getElementById('card-image');
const status = document.getElementById('status');
const urlField = document.getElementById('url');
const tagField = document.getElementById('tag');
const generateButton = document.getElementById('generate');
const copyUrlButton = document.getElementById('copy-url');
const copyTagButton = document.getElementById('copy-tag');

/** The arguments the card was made with: its background and the options the form does not show. */
let madeWith = {};
let previewTimer;
let previewCount = 0;

const say = (text) => {
  status.textContent = text;
};
const errorText = (result) =>
  (result.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join(' ') || 'Something went wrong.';

/** The form's choice, as tool arguments (an empty subtitle or template is left out). */
function choice() {
  const data = new FormData(form);
  const chosen = {};
  for (const key of FORM_KEYS) {
    const value = String(data.get(key) ?? '').trim();
    if (value !== '') chosen[key] = value;
  }
  return chosen;
}

function argumentsFor() {
  const kept = Object.fromEntries(Object.entries(madeWith).filter(([k]) => !FORM_KEYS.includes(k)));
  return { ...kept, ...choice() };
}

function fillForm(args) {
  for (const key of FORM_KEYS) {
    const field = form.elements.namedItem(key);
    const value = args[key] ?? DEFAULTS[key] ?? '';
    if (field.tagName === 'SELECT' && ![...field.options].some((o) => o.value === value)) {
      // A template id from another source, before the list arrives: keep it choosable.
      field.add(new Option(String(value), String(value)));
    }
    field.value = value;
  }
}

/** Counts what the image showed: a full-size card replaces only the card it was asked for. */
let shown = 0;

function showImage(block, width, height, alt) {
  if (!block) return;
  shown++;
  image.src = `data:${block.mimeType};base64,${block.data}`;
  image.width = width;
  image.height = height;
  image.alt = alt;
  image.hidden = false;
}

function showCard(result) {
  const record = result.structuredContent;
  const title = form.elements.namedItem('title').value;
  showImage(
    result.content.find((c) => c.type === 'image'),
    record.width,
    record.height,
    `The card: ${title}`,
  );
  urlField.value = record.url;
  tagField.value = `<meta property="og:image" content="${record.url}">`;
  copyUrlButton.disabled = false;
  copyTagButton.disabled = false;
  const format = record.url.slice(record.url.lastIndexOf('.') + 1).toUpperCase();
  say(`Card ${record.id}: ${record.width}×${record.height}, ${format}.`);
  void showFullSize(record, `The card: ${title}`);
  return record;
}

/** Replaces the small preview of `record` by the card at its own size (card_image), unless something newer is shown. */
async function showFullSize(record, alt) {
  const asked = shown;
  try {
    const result = await app.callServerTool({ name: 'card_image', arguments: { id: record.id } });
    if (result.isError || asked !== shown) return;
    showImage(
      result.content.find((c) => c.type === 'image'),
      record.width,
      record.height,
      alt,
    );
  } catch {
    // The small preview stays: it is the same card.
  }
}

function applyContext(context) {
  if (!context) return;
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
}

async function preview() {
  const mine = ++previewCount;
  const args = argumentsFor();
  if (!args.title) return say('A title is needed.');
  say('Previewing…');
  try {
    const result = await app.callServerTool({ name: 'preview_card', arguments: args });
    if (mine !== previewCount) return; // a newer preview is on its way
    if (result.isError) return say(errorText(result));
    const [width, height] = SIZES[args.aspect] ?? SIZES.og;
    showImage(
      result.content.find((c) => c.type === 'image'),
      width,
      height,
      `Preview of the card: ${args.title}`,
    );
    say('Preview: not saved, no quota used. Generate makes the card.');
  } catch (err) {
    if (mine === previewCount) say(`The preview failed: ${err.message}`);
  }
}

async function generate() {
  const args = argumentsFor();
  if (!args.title) return say('A title is needed.');
  generateButton.disabled = true;
  say('Generating… (uses one unit of the monthly quota)');
  try {
    const result = await app.callServerTool({ name: 'generate_image', arguments: args });
    if (result.isError) return say(errorText(result));
    madeWith = args;
    const record = showCard(result);
    const chosen = choice();
    const described = Object.entries(chosen)
      .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
      .join(', ');
    await app.updateModelContext({
      content: [
        {
          type: 'text',
          text: `In the Titlecard studio the person generated a new card ${record.id} (${described}): ${record.url}`,
        },
      ],
      structuredContent: { image: record, choice: chosen },
    });
  } catch (err) {
    say(`Generating failed: ${err.message}`);
  } finally {
    generateButton.disabled = false;
  }
}

async function copy(field, what) {
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    // A host that does not grant clipboard-write: the selection, copied the old way.
    field.select();
    document.execCommand('copy');
  }
  say(`${what} copied.`);
}

const app = new App({ name: 'Titlecard studio', version: '1.0.0' });
// Handlers before connect: the tool's input and result are sent right after the handshake.
app.ontoolinput = ({ arguments: args = {} }) => {
  madeWith = { ...args };
  fillForm(args);
};
app.ontoolresult = (result) => {
  if (result.isError) return say(errorText(result));
  if (result.structuredContent?.url) showCard(result);
};
app.onhostcontextchanged = applyContext;

form.addEventListener('input', () => {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(preview, PREVIEW_DELAY_MS);
});
form.addEventListener('submit', (event) => {
  event.preventDefault();
  clearTimeout(previewTimer);
  generate();
});
copyUrlButton.addEventListener('click', () => copy(urlField, 'The URL'));
copyTagButton.addEventListener('click', () => copy(tagField, 'The og:image tag'));

await app.connect();
applyContext(app.getHostContext());
// The built-in templates and the account's own.
try {
  const listed = await app.callServerTool({ name: 'list_templates', arguments: {} });
  const select = form.elements.namedItem('template');
  const current = select.value;
  for (const template of listed.structuredContent?.templates ?? []) {
    if ([...select.options].some((o) => o.value === template.id)) continue;
    select.add(new Option(template.builtIn ? template.name : `${template.name} (yours)`, template.id));
  }
  select.value = current;
} catch {
  // The template list is a convenience: the card can still be edited without it.
}
