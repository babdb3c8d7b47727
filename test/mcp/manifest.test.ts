/**
 * The MCPB desktop extension (manifest.json) lists exactly the tools the server lists: `mcpb
 * validate` (in `npm run check`) checks the manifest's form, not that it keeps up with the server.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/process.js';
import { startTestServer } from '../support/server.js';

describe('manifest.json', () => {
  it("lists every tool of the server's tools/list, and no other", async () => {
    const manifest = JSON.parse(await readFile(path.join(ROOT, 'manifest.json'), 'utf8')) as {
      tools: { name: string; description: string }[];
    };
    const srv = await startTestServer();
    try {
      const { token } = await srv.createUser('pro');
      const client = new Client({ name: 'manifest-check', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      const { tools } = await client.listTools();
      await client.close();
      expect(manifest.tools.map((t) => t.name).sort()).toEqual(tools.map((t) => t.name).sort());
      for (const t of manifest.tools) expect(t.description, t.name).not.toBe('');
    } finally {
      await srv.close();
    }
  });
});
