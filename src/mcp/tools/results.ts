/**
 * Tool results: structured content with its JSON as text, and errors the model can act on. Errors of
 * the domain (a bad argument, the quota, an unreachable URL) and of a remote Titlecard become
 * `isError` results with their message; anything else is a fault of ours, logged with an id and answered generically.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { outageOf, TitlecardError, ValidationError } from '../../domain/kernel/errors.js';
import { RemoteApiError } from '../../backend/port.js';

/** `structuredContent` and the same JSON as a text block (for clients without structured output), then `extra`. */
export function structuredResult(
  structured: Record<string, unknown>,
  extra: CallToolResult['content'] = [],
): CallToolResult {
  return {
    structuredContent: structured,
    content: [{ type: 'text', text: JSON.stringify(structured) }, ...extra],
  };
}

/** An error as an `isError` result (MCP tools specification, "Error Handling"). */
export function errorResult(err: unknown, logger: Logger): CallToolResult {
  let text: string;
  const outage = outageOf(err);
  if (outage) {
    logger.warn({ err }, 'MCP tool: a store or the queue is away');
    text = `${outage.message} (after about ${outage.retryAfterSeconds} s).`;
  } else if (err instanceof ValidationError)
    text = `Invalid ${err.field} (${err.constraint}): ${err.message}`;
  else if (err instanceof TitlecardError || err instanceof RemoteApiError) text = err.message;
  else {
    const id = crypto.randomUUID();
    logger.error({ err, id }, 'MCP tool failed');
    text = `Internal error (id ${id}); try again later.`;
  }
  return { isError: true, content: [{ type: 'text', text }] };
}

/** Wraps a tool callback so that whatever it throws becomes an {@link errorResult}. */
export const safely =
  <A>(logger: Logger, fn: (args: A) => Promise<CallToolResult>) =>
  async (args: A): Promise<CallToolResult> => {
    try {
      return await fn(args);
    } catch (err) {
      return errorResult(err, logger);
    }
  };
