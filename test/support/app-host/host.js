// A minimal MCP Apps host for tests, in the browser: the ext-apps AppBridge talking to an app in a
// sandboxed iframe, as basic-host does. Tool calls from the app go to the test's Node side through
// window.hostCallTool (page.exposeFunction), which holds a real MCP client; what the app tells the
// host (model context, messages, links, size) is recorded in window.hostEvents. Bundled by esbuild
// in test/mcp/studio.test.ts.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

window.hostEvents = [];
const record = (kind, params) => window.hostEvents.push({ kind, params });

/** The policy a host gives an app without network (the spec's default when the app declares none). */
const CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; media-src data:; connect-src 'none'";

/**
 * Shows `html` in a sandboxed iframe, connects the bridge, and sends the tool's input and result.
 * Resolves once the app has initialised and has both.
 */
window.startApp = async ({ html, toolInput, toolResult, hostContext }) => {
  const frame = document.createElement('iframe');
  frame.title = 'Titlecard studio';
  frame.setAttribute('sandbox', 'allow-scripts allow-forms');
  frame.setAttribute('allow', 'clipboard-write');
  frame.style.width = '100%';
  frame.style.border = '0';
  document.getElementById('app').appendChild(frame);

  const bridge = new AppBridge(
    null,
    { name: 'titlecard-test-host', version: '1.0.0' },
    {
      openLinks: {},
      serverTools: {},
      logging: {},
      updateModelContext: { text: {}, structuredContent: {} },
      message: { text: {} },
    },
    { hostContext },
  );
  bridge.oncalltool = (params) => window.hostCallTool(params);
  bridge.onupdatemodelcontext = async (params) => {
    record('model-context', params);
    return {};
  };
  bridge.onmessage = async (params) => {
    record('message', params);
    return {};
  };
  bridge.onopenlink = async (params) => {
    record('open-link', params);
    return {};
  };
  bridge.onloggingmessage = (params) => record('log', params);
  bridge.onsizechange = ({ height }) => {
    if (height != null) frame.style.height = `${height}px`;
  };
  const initialized = new Promise((resolve) => {
    bridge.oninitialized = resolve;
  });
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.srcdoc = html.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${CSP}">`);
  await initialized;
  await bridge.sendToolInput({ arguments: toolInput });
  await bridge.sendToolResult(toolResult);
  window.hostBridge = bridge;
};

/** Changes the host's theme (and so its style variables), as a host does when the person switches. */
window.setHostContext = (context) => window.hostBridge.setHostContext(context);
