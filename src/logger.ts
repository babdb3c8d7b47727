/**
 * The structured logger (pino). Logs always go to stderr: stdout belongs to command output
 * (`--json`) and, in stdio MCP mode, to the protocol. Bearer tokens, cookies and redirect locations
 * (which carry an OAuth authorization code after "Allow") are redacted, so a secret never reaches a
 * log line.
 */
import { pino, type Logger } from 'pino';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'res.headers.location',
];

export function createLogger(level: string = 'info'): Logger {
  return pino(
    { level, base: { service: 'titlecard' }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } },
    pino.destination(2),
  );
}
