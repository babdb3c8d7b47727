/**
 * SSRF-safe fetching of `imageUrl`: the one fetcher the domain uses for every edge (`POST /generate`,
 * the MCP `generate_image` tool).
 *
 * Threat model: a caller (or a prompt-injected assistant) names a URL so that the server fetches
 * something only it can reach: a loopback service, the private network, a cloud metadata endpoint
 * (169.254.169.254), possibly through a redirect or a hostname whose DNS answer is private.
 *
 * Defences:
 * - http and https only; no credentials in the URL.
 * - request-filtering-agent validates the address: IP literals before any socket opens (WHATWG URL
 *   parsing has already turned decimal and octal forms such as 2130706433 or 0177.0.0.1 into
 *   127.0.0.1), and every address a DNS lookup returns before connecting. The socket then connects
 *   to the address that was validated, so a second DNS answer cannot swap it (no rebinding window).
 *   Only unicast public addresses pass: loopback, private, link-local, carrier-grade NAT, unique
 *   local, multicast, reserved and IPv4-mapped forms of them are refused.
 * - Every redirect is a new request through the same checks; at most 3.
 * - Limits: 10 MB (as the REST API, spec 8), 10 s for the whole fetch including redirects.
 * The bytes are then sniffed like an upload (only JPEG, PNG, WebP pass).
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { FileTooLargeError, ValidationError } from './domain/kernel/errors.js';
import { LIMITS } from './domain/design.js';

export interface ImageFetcherOptions {
  /** Addresses or CIDR ranges allowed although private (an intranet image host). Default none. */
  allowAddresses?: string[];
  /** Bytes; default 10 MB. */
  maxBytes?: number;
  /** Milliseconds for the whole fetch; default 10 000. */
  timeoutMs?: number;
  /** Redirects followed; default 3. */
  maxRedirects?: number;
  /** DNS lookup to use (tests inject one); default the system resolver. */
  lookup?: LookupFunction;
}

export type ImageFetcher = (url: string) => Promise<Buffer>;

const refuse = (message: string) =>
  new ValidationError('imageUrl', 'format', `Could not fetch imageUrl: ${message}`);

export function createImageFetcher(options: ImageFetcherOptions = {}): ImageFetcher {
  const filter = { allowIPAddressList: options.allowAddresses ?? [] };
  const agents = {
    'http:': new RequestFilteringHttpAgent(filter),
    'https:': new RequestFilteringHttpsAgent(filter),
  };
  const maxBytes = options.maxBytes ?? LIMITS.imageBytes;
  const maxRedirects = options.maxRedirects ?? 3;

  function once(url: URL, signal: AbortSignal): Promise<{ redirect: string } | { body: Buffer }> {
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = client.get(
        url,
        {
          agent: agents[url.protocol as 'http:' | 'https:'],
          signal,
          headers: { accept: 'image/jpeg, image/png, image/webp', 'user-agent': 'Titlecard image fetcher' },
          ...(options.lookup ? { lookup: options.lookup } : {}),
        },
        (res) => {
          const status = res.statusCode ?? 0;
          if (status >= 300 && status < 400 && res.headers.location) {
            res.resume();
            resolve({ redirect: res.headers.location });
            return;
          }
          if (status < 200 || status >= 300) {
            res.resume();
            reject(refuse(`the server answered ${status}`));
            return;
          }
          if (Number(res.headers['content-length'] ?? 0) > maxBytes) {
            res.destroy();
            reject(new FileTooLargeError(maxBytes));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              res.destroy();
              reject(new FileTooLargeError(maxBytes));
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () => resolve({ body: Buffer.concat(chunks) }));
          res.on('error', (err) => reject(refuse(err.message)));
        },
      );
      req.on('error', (err) => {
        if (signal.aborted) reject(refuse(`no answer within ${options.timeoutMs ?? 10_000} ms`));
        else if (/is not allowed/.test(err.message))
          reject(
            refuse(
              `${url.hostname} is a private, loopback, link-local or reserved address, which is not allowed`,
            ),
          );
        else reject(refuse(err.message));
      });
    });
  }

  return async (raw) => {
    const signal = AbortSignal.timeout(options.timeoutMs ?? 10_000);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw refuse('it is not a valid URL');
    }
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw refuse(`only http and https are allowed, not ${url.protocol}`);
      if (url.username || url.password) throw refuse('credentials in the URL are not allowed');
      const result = await once(url, signal);
      if ('body' in result) return result.body;
      if (hop >= maxRedirects) throw refuse(`more than ${maxRedirects} redirects`);
      url = new URL(result.redirect, url);
    }
  };
}
