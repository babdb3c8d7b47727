// The link-preview view (src/mcp/link-preview-app.ts): an MCP App on the ext-apps App class, which
// the page inlines as globalThis.McpExtApps. It shows check_link_preview's report: the problems, and
// each platform's mock-up side by side (link_preview_mockup), and Fix it: a card for the page made
// with generate_image (title from the page, photo from its image or one the person gives), then the
// tags to paste in the page's <head>.
const { App, applyDocumentTheme, applyHostStyleVariables, applyHostFonts } = globalThis.McpExtApps;

const status = document.getElementById('status');
const problemsList = document.getElementById('problems');
const mockups = document.getElementById('mockups');
const pageUrl = document.getElementById('page-url');
const form = document.getElementById('fix');
const makeButton = document.getElementById('make');
const copyButton = document.getElementById('copy-tags');
const made = document.getElementById('made');
const madeImage = document.getElementById('made-image');
const tagsLabel = document.getElementById('tags-label');
const tags = document.getElementById('tags');

let report;

const say = (text) => {
  status.textContent = text;
};
const errorText = (result) =>
  (result.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join(' ') || 'Something went wrong.';

function applyContext(context) {
  if (!context) return;
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
}

async function showReport(next) {
  report = next;
  pageUrl.textContent = report.finalUrl;
  problemsList.replaceChildren(
    ...(report.problems.length === 0
      ? [
          Object.assign(document.createElement('li'), {
            textContent: 'None: every platform shows the card as meant.',
          }),
        ]
      : report.problems.map((p) => {
          const item = document.createElement('li');
          item.dataset.code = p.code;
          const severity = Object.assign(document.createElement('span'), {
            className: 'severity',
            textContent: p.severity,
          });
          const names = p.platforms
            .map((id) => report.platforms.find((x) => x.platform === id)?.name ?? id)
            .join(', ');
          item.append(severity, `${p.code}: ${p.message} (${names})`);
          return item;
        })),
  );
  const tags = report.tags?.meta ?? {};
  form.elements.namedItem('title').value = tags['og:title'] ?? report.tags?.title ?? '';
  form.elements.namedItem('subtitle').value = '';
  form.elements.namedItem('imageUrl').value = report.images.find((i) => i.format)?.url ?? '';
  say(
    `${report.problems.length} problem${report.problems.length === 1 ? '' : 's'} found; drawing the previews…`,
  );
  mockups.replaceChildren();
  await Promise.all(
    report.platforms.map(async (p) => {
      const figure = document.createElement('figure');
      figure.dataset.platform = p.platform;
      const image = document.createElement('img');
      image.alt = `${p.name}: ${p.card === 'none' ? 'no preview' : `${p.card} card, ${p.title ?? 'no title'}`}`;
      const caption = Object.assign(document.createElement('figcaption'), {
        textContent: `${p.name}: ${p.card}${p.problems.length ? ` · ${p.problems.join(', ')}` : ''}`,
      });
      figure.append(image, caption);
      mockups.append(figure);
      const result = await app.callServerTool({
        name: 'link_preview_mockup',
        arguments: { id: report.id, platform: p.platform },
      });
      const block = (result.content ?? []).find((c) => c.type === 'image');
      if (block) image.src = `data:${block.mimeType};base64,${block.data}`;
    }),
  );
  say(
    `${report.problems.length} problem${report.problems.length === 1 ? '' : 's'} found. The previews are drawn.`,
  );
}

const readFile = (file) =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

async function fix() {
  const data = new FormData(form);
  const title = String(data.get('title') ?? '').trim();
  if (!title) return say('A title is needed.');
  const args = { title, fileFormat: 'jpeg' };
  const subtitle = String(data.get('subtitle') ?? '').trim();
  if (subtitle) args.subtitle = subtitle;
  const file = data.get('photo');
  if (file && file.size > 0) args.imageBase64 = await readFile(file);
  else if (String(data.get('imageUrl') ?? '').trim()) args.imageUrl = String(data.get('imageUrl')).trim();
  makeButton.disabled = true;
  say('Making the card… (uses one unit of the monthly quota)');
  try {
    const result = await app.callServerTool({ name: 'generate_image', arguments: args });
    if (result.isError) return say(errorText(result));
    const record = result.structuredContent;
    const block = (result.content ?? []).find((c) => c.type === 'image');
    if (block) madeImage.src = `data:${block.mimeType};base64,${block.data}`;
    madeImage.alt = `The card made for the page: ${title}`;
    made.hidden = false;
    const attribute = (text) =>
      text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
    tags.value = [
      `<meta property="og:title" content="${attribute(title)}">`,
      `<meta property="og:image" content="${record.url}">`,
      `<meta property="og:image:width" content="${record.width}">`,
      `<meta property="og:image:height" content="${record.height}">`,
      `<meta property="og:image:alt" content="${attribute(title)}">`,
      '<meta name="twitter:card" content="summary_large_image">',
    ].join('\n');
    tagsLabel.hidden = false;
    copyButton.disabled = false;
    say(`Card ${record.id} made: paste the tags in the page's <head>, then check it again.`);
    await app.updateModelContext({
      content: [
        {
          type: 'text',
          text: `In the link-preview view the person made card ${record.id} for ${report?.finalUrl ?? 'the page'}: ${record.url}`,
        },
      ],
    });
  } catch (err) {
    say(`Making the card failed: ${err.message}`);
  } finally {
    makeButton.disabled = false;
  }
}

const app = new App({ name: 'Titlecard link preview', version: '1.0.0' });
app.ontoolresult = (result) => {
  if (result.isError) return say(errorText(result));
  if (result.structuredContent?.platforms) void showReport(result.structuredContent);
};
app.onhostcontextchanged = applyContext;
form.addEventListener('submit', (event) => {
  event.preventDefault();
  void fix();
});
copyButton.addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(tags.value);
  } catch {
    tags.select();
    document.execCommand('copy');
  }
  say('The tags are copied.');
});

await app.connect();
applyContext(app.getHostContext());
