/**
 * The MCP clients Titlecard's connector must serve, each as its SDK builds it: the v2 client at
 * the current revision (2026-07-28: no `initialize`, a `_meta` envelope on every request), the v2
 * client at 2025-11-25 (the `initialize` handshake), and a v1 client (SDK 1.32, as most installed
 * hosts still ship). One small interface over the three, for tests that run a scenario with each.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport, type StdioServerParameters } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export type ClientKind = 'v2 at 2026-07-28' | 'v2 at 2025-11-25' | 'v1 (SDK 1.32)';
export const CLIENT_KINDS: ClientKind[] = ['v2 at 2026-07-28', 'v2 at 2025-11-25', 'v1 (SDK 1.32)'];

/** The revision each kind must end up speaking. */
export const REVISION_OF: Record<ClientKind, string> = {
  'v2 at 2026-07-28': '2026-07-28',
  'v2 at 2025-11-25': '2025-11-25',
  'v1 (SDK 1.32)': '2025-11-25',
};

/** A content block of a tool result, as both SDKs give it. */
export interface Content {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
}

export interface ToolResult {
  isError?: boolean;
  structuredContent?: unknown;
  content: Content[];
}

export interface McpTestClient {
  kind: ClientKind;
  listTools(): Promise<{ name: string; _meta?: Record<string, unknown> }[]>;
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  listResources(): Promise<{ uri: string; mimeType?: string }[]>;
  readResource(uri: string): Promise<{ uri: string; mimeType?: string; text?: string; _meta?: unknown }[]>;
  /** The revision the client and the server agreed on. */
  revision(): string | undefined;
  close(): Promise<void>;
}

function v2Client(kind: ClientKind): Client {
  const info = { name: `titlecard-test ${kind}`, version: '1.0.0' };
  return kind === 'v2 at 2026-07-28'
    ? new Client(info, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
    : new Client(info, { supportedProtocolVersions: ['2025-11-25'] });
}

function wrap(
  kind: ClientKind,
  client: Client | V1Client,
  revision: () => string | undefined,
): McpTestClient {
  // The two SDKs' methods have the same names and shapes for what these tests use.
  const c = client as Client;
  return {
    kind,
    listTools: async () => (await c.listTools()).tools,
    callTool: async (name, args = {}) => await c.callTool({ name, arguments: args }),
    listResources: async () => (await c.listResources()).resources,
    readResource: async (uri) => (await c.readResource({ uri })).contents,
    revision,
    close: () => c.close(),
  };
}

/**
 * A v1 client on `transport`. The v1 client hands the revision of the `initialize` answer to its
 * transport's `setProtocolVersion` (which stdio's lacks): recorded there.
 */
async function v1Connected(
  transport: V1StreamableHTTPClientTransport | V1StdioClientTransport,
): Promise<McpTestClient> {
  let agreed: string | undefined;
  const own = (transport as { setProtocolVersion?: (v: string) => void }).setProtocolVersion?.bind(transport);
  Object.assign(transport, {
    setProtocolVersion: (version: string) => {
      agreed = version;
      own?.(version);
    },
  });
  const client = new V1Client({ name: 'titlecard-test v1', version: '1.0.0' });
  await client.connect(transport);
  return wrap('v1 (SDK 1.32)', client, () => agreed);
}

/** A client of `kind` connected to the Streamable HTTP endpoint `url` with a bearer token. */
export async function httpClient(kind: ClientKind, url: string, token: string): Promise<McpTestClient> {
  const requestInit = { headers: { authorization: `Bearer ${token}` } };
  if (kind === 'v1 (SDK 1.32)')
    return v1Connected(new V1StreamableHTTPClientTransport(new URL(url), { requestInit }));
  const client = v2Client(kind);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
  return wrap(kind, client, () => client.getNegotiatedProtocolVersion());
}

/** A client of `kind` that spawns `server` and speaks over its stdin and stdout. */
export async function stdioClient(kind: ClientKind, server: StdioServerParameters): Promise<McpTestClient> {
  if (kind === 'v1 (SDK 1.32)') return v1Connected(new V1StdioClientTransport(server));
  const client = v2Client(kind);
  await client.connect(new StdioClientTransport(server));
  return wrap(kind, client, () => client.getNegotiatedProtocolVersion());
}
