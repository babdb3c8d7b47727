/**
 * SSRF-safe fetching: the one fetcher for every URL a caller names that the server then fetches, an
 * `imageUrl` (`POST /generate`, the MCP `generate_image` tool), a site's pages (src/domain/sites),
 * and the link-preview check's pages, robots.txt and images (src/domain/link-previews).
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
 * - IPv6 addresses that embed an IPv4 address are refused whatever they embed, as a literal and
 *   as a DNS answer: IPv4-compatible (`::127.0.0.1`, deprecated by RFC 4291 section 2.5.5.1), NAT64
 *   (`64:ff9b::/96`, RFC 6052), 6to4 (`2002::/16`, RFC 3056) and Teredo (`2001::/32`, RFC 4380).
 *   request-filtering-agent 3.2 let `http://[::127.0.0.1]/` through to a connection attempt.
 * - Every redirect is a new request through the same checks; at most 3.
 * - Limits per kind: an image 10 MB (as the REST API, docs/api.md#limits) in 10 s; a page 1 MiB in 5 s (a
 *   page's `<head>` is in its first kilobytes; ours). Both for the whole fetch, redirects included.
 * - Each request of a fetch must connect (DNS included) within 3 s and have its answer's headers
 *   within 5 s of being sent (10 s for a webhook receiver, which may work before answering): a
 *   host that never answers holds a render slot for 5 s, not the whole 10 (issue 41; ours, a
 *   slow but working host answers in well under a second).
 * An image's bytes are then sniffed like an upload (only JPEG, PNG, WebP pass).
 *
 * The same checks serve the OAuth server's fetch of a Client ID Metadata Document
 * ({@link createMetadataDocumentFetcher}): oidc-provider's own fetch looks at the address only
 * after it has connected, which let an anonymous `/authorize` probe the server's own ports.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIPv6, type LookupFunction } from 'node:net';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { AddressRefusedError, FileTooLargeError, ValidationError } from '../domain/kernel/errors.js';
import { LIMITS } from '../domain/design.js';
import type { PageFetcher, ProbeFetcher, WebhookPoster } from '../domain/kernel/ports.js';

export interface ImageFetcherOptions {
  /** Addresses or CIDR ranges allowed although private (an intranet host; `FETCH_ALLOW_ADDRESSES`). Default none. */
  allowAddresses?: string[];
  /** Bytes; default the kind's (10 MB for an image, 1 MiB for a page). */
  maxBytes?: number;
  /** Milliseconds for the whole fetch; default the kind's (10 000 for an image, 5 000 for a page). */
  timeoutMs?: number;
  /** Milliseconds for each request to connect, DNS lookup included; default 3 000. */
  connectTimeoutMs?: number;
  /** Milliseconds from sending a request to its answer's headers; default the kind's (5 000; 10 000 for a webhook). */
  firstByteTimeoutMs?: number;
  /** Redirects followed; default 3. */
  maxRedirects?: number;
  /** DNS lookup to use (tests inject one); default the system resolver. */
  lookup?: LookupFunction;
  /**
   * Certificates (PEM) trusted for https instead of Node's own (tests: a loopback server's test
   * certificate). An operator whose intranet has its own authority adds it with Node's
   * NODE_EXTRA_CA_CERTS instead. Default Node's.
   */
  ca?: string | Buffer | undefined;
}

export type ImageFetcher = (url: string) => Promise<Buffer>;

/** A POST's body and headers. */
interface Post {
  body: string;
  headers: Record<string, string>;
}

/** One kind of fetch: what it accepts, its limits, and the field its refusals name. */
interface FetchKind {
  field: string;
  accept: string;
  maxBytes: number;
  timeoutMs: number;
  firstByteTimeoutMs: number;
  tooLarge: (maxBytes: number) => Error;
  /** Any status is an answer (its body read as a 2xx's): the link-preview check reports it. */
  anyStatus?: boolean;
  /** The User-Agent sent; default `Titlecard fetcher`. */
  userAgent?: string;
}

const refuser = (field: string) => (message: string) =>
  new ValidationError(field, 'format', `Could not fetch ${field}: ${message}`);
/** A refusal that no later try can change (the address, the scheme, credentials). */
const permanentRefuser = (field: string) => (message: string) =>
  new AddressRefusedError(field, 'format', `Could not fetch ${field}: ${message}`);

/** Milliseconds for a request to connect, DNS lookup included (see the module comment). */
const CONNECT_TIMEOUT_MS = 3000;

/** IPv6 ranges that embed an IPv4 address (see the module comment), refused whatever they embed. */
const EMBEDDED_IPV4 = new BlockList();
EMBEDDED_IPV4.addSubnet('::', 96, 'ipv6'); // IPv4-compatible (and the unspecified ::)
EMBEDDED_IPV4.addSubnet('64:ff9b::', 96, 'ipv6'); // NAT64, RFC 6052
EMBEDDED_IPV4.addSubnet('2002::', 16, 'ipv6'); // 6to4, RFC 3056
EMBEDDED_IPV4.addSubnet('2001::', 32, 'ipv6'); // Teredo, RFC 4380

/** Whether `address` is an IPv6 address of a range that embeds an IPv4 address. */
export function embedsIpv4(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  return isIPv6(bare) && EMBEDDED_IPV4.check(bare, 'ipv6');
}

/** A DNS answer refused by {@link refusingEmbedded}. */
class EmbeddedIpv4Error extends Error {
  constructor(host: string) {
    super(`${host} is an IPv6 address that embeds an IPv4 address, which is not allowed`);
  }
}

/** `lookup`, with every answer that embeds an IPv4 address refused before a socket connects to it. */
function refusingEmbedded(lookup: LookupFunction): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) =>
    lookup(hostname, options, (err: unknown, address: unknown, family?: unknown) => {
      if (err) return callback(err);
      const addresses = (Array.isArray(address) ? address : [{ address }]) as { address: unknown }[];
      const bad = addresses.map((a) => a.address).find((a) => typeof a === 'string' && embedsIpv4(a));
      if (typeof bad === 'string') return callback(new EmbeddedIpv4Error(`${hostname} (${bad})`));
      callback(null, address, family);
    })) as LookupFunction;
}

/** The SSRF-safe fetch of one kind (see the module comment). */
function createSafeFetch(options: ImageFetcherOptions, kind: FetchKind) {
  const filter = { allowIPAddressList: options.allowAddresses ?? [] };
  const agents = {
    'http:': new RequestFilteringHttpAgent(filter),
    'https:': new RequestFilteringHttpsAgent(options.ca ? { ...filter, ca: options.ca } : filter),
  };
  const refuse = refuser(kind.field);
  const refuseForGood = permanentRefuser(kind.field);
  const maxBytes = options.maxBytes ?? kind.maxBytes;
  const timeoutMs = options.timeoutMs ?? kind.timeoutMs;
  const lookup = refusingEmbedded(options.lookup ?? dns.lookup);
  const maxRedirects = options.maxRedirects ?? 3;
  const connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const firstByteTimeoutMs = options.firstByteTimeoutMs ?? kind.firstByteTimeoutMs;
  type Answer =
    | { redirect: string }
    | { body: Buffer; contentType: string; headers: http.IncomingHttpHeaders; status: number }
    | { status: number };

  /** One request; with `post`, a POST whose answer is only its status (a webhook's). */
  function once(url: URL, signal: AbortSignal, post?: Post): Promise<Answer> {
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      /** Set when a phase's own timeout ended the request: the refusal says which. */
      let late: string | undefined;
      const giveUp = (message: string) => {
        late = message;
        req.destroy();
      };
      const connectTimer = setTimeout(
        () => giveUp(`no connection within ${connectTimeoutMs} ms`),
        connectTimeoutMs,
      );
      const firstByteTimer = setTimeout(
        () => giveUp(`no answer within ${firstByteTimeoutMs} ms`),
        firstByteTimeoutMs,
      );
      const settle = () => {
        clearTimeout(connectTimer);
        clearTimeout(firstByteTimer);
      };
      const req = client.request(
        url,
        {
          method: post ? 'POST' : 'GET',
          agent: agents[url.protocol as 'http:' | 'https:'],
          signal,
          headers: {
            accept: kind.accept,
            'user-agent': kind.userAgent ?? 'Titlecard fetcher',
            ...post?.headers,
          },
          lookup,
        },
        (res) => {
          settle();
          const status = res.statusCode ?? 0;
          if (post) {
            // Only the status counts: the answer is not read (a receiver could send gigabytes).
            res.destroy();
            resolve({ status });
            return;
          }
          if (status >= 300 && status < 400 && res.headers.location) {
            res.resume();
            resolve({ redirect: res.headers.location });
            return;
          }
          if ((status < 200 || status >= 300) && !kind.anyStatus) {
            res.resume();
            reject(refuse(`the server answered ${status}`));
            return;
          }
          if (Number(res.headers['content-length'] ?? 0) > maxBytes) {
            res.destroy();
            reject(kind.tooLarge(maxBytes));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              res.destroy();
              reject(kind.tooLarge(maxBytes));
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () =>
            resolve({
              body: Buffer.concat(chunks),
              contentType: res.headers['content-type'] ?? '',
              headers: res.headers,
              status,
            }),
          );
          res.on('error', (err) => reject(refuse(err.message)));
        },
      );
      req.on('socket', (socket) => {
        if (!socket.connecting) clearTimeout(connectTimer);
        else socket.once('connect', () => clearTimeout(connectTimer));
      });
      req.on('close', settle);
      req.on('error', (err) => {
        settle();
        if (late) reject(refuse(late));
        else if (signal.aborted) reject(refuse(`no answer within ${timeoutMs} ms`));
        else if (err instanceof EmbeddedIpv4Error) reject(refuseForGood(err.message));
        else if (/is not allowed/.test(err.message))
          reject(
            refuseForGood(
              `${url.hostname} is a private, loopback, link-local or reserved address, which is not allowed`,
            ),
          );
        else reject(refuse(err.message));
      });
      req.end(post?.body);
    });
  }

  /** GETs `raw` following redirects; or POSTs `post` to it, answering the status (no redirects followed). */
  async function safeFetch(
    raw: string,
  ): Promise<Awaited<ReturnType<PageFetcher>> & { headers: http.IncomingHttpHeaders; status: number }>;
  async function safeFetch(raw: string, post: Post): Promise<{ status: number }>;
  async function safeFetch(raw: string, post?: Post) {
    const signal = AbortSignal.timeout(timeoutMs);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw refuse('it is not a valid URL');
    }
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw refuseForGood(`only http and https are allowed, not ${url.protocol}`);
      if (url.username || url.password) throw refuseForGood('credentials in the URL are not allowed');
      if (embedsIpv4(url.hostname)) throw refuseForGood(new EmbeddedIpv4Error(url.hostname).message);
      const result = await once(url, signal, post);
      if (!('body' in result) && 'status' in result) return result;
      if ('body' in result) return { ...result, url: url.href };
      if (hop >= maxRedirects) throw refuse(`more than ${maxRedirects} redirects`);
      url = new URL(result.redirect, url);
    }
  }
  return safeFetch;
}

/** Fetches an `imageUrl`: ValidationError on `imageUrl`, FileTooLargeError past 10 MB. */
export function createImageFetcher(options: ImageFetcherOptions = {}): ImageFetcher {
  const fetch = createSafeFetch(options, {
    field: 'imageUrl',
    accept: 'image/jpeg, image/png, image/webp',
    maxBytes: LIMITS.imageBytes,
    timeoutMs: 10_000,
    firstByteTimeoutMs: 5000,
    tooLarge: (max) => new FileTooLargeError(max),
  });
  return async (url) => (await fetch(url)).body;
}

/** A page's limits (ours): a `<head>` is in the first kilobytes of any page; 5 s is a slow site. */
export const PAGE_LIMITS = { maxBytes: 1024 * 1024, timeoutMs: 5000, firstByteTimeoutMs: 5000 };

/** Fetches a page (see {@link PageFetcher}); refusals name the field `url`. Its Content-Type is the caller's to judge. */
export function createPageFetcher(options: ImageFetcherOptions = {}): PageFetcher {
  return createSafeFetch(options, PAGE_KIND);
}

/** A page's fetch: HTML (or text), {@link PAGE_LIMITS}, refusals on `url`. */
const PAGE_KIND: FetchKind = {
  field: 'url',
  accept: 'text/html, application/xhtml+xml, text/plain;q=0.9',
  ...PAGE_LIMITS,
  tooLarge: (max) => refuser('url')(`the page is larger than ${max} bytes`),
};

/**
 * The link-preview check's fetches (src/domain/link-previews): a page, its robots.txt or an image,
 * through the same checks and limits (a page or robots.txt 1 MiB in 5 s, an image 10 MB in 10 s),
 * answering whatever status comes (the check reports it) and the time the fetch took. Refusals
 * (a private address, no answer in time) throw ValidationError on `url`; an image past 10 MB throws
 * ValidationError too, on `url`, saying so.
 */
export function createProbeFetcher(options: ImageFetcherOptions = {}): ProbeFetcher {
  const refuse = refuser('url');
  const kinds = {
    page: createSafeFetch(options, { ...PAGE_KIND, anyStatus: true, userAgent: PROBE_USER_AGENT }),
    image: createSafeFetch(options, {
      field: 'url',
      accept: 'image/*',
      maxBytes: LIMITS.imageBytes,
      timeoutMs: 10_000,
      firstByteTimeoutMs: 5000,
      anyStatus: true,
      userAgent: PROBE_USER_AGENT,
      tooLarge: (max) => refuse(`the image is larger than ${max} bytes`),
    }),
  };
  return async (url, kind) => {
    const started = performance.now();
    const answer = await kinds[kind === 'image' ? 'image' : 'page'](url);
    return {
      status: answer.status,
      body: answer.body,
      contentType: answer.contentType,
      url: answer.url,
      ms: performance.now() - started,
    };
  };
}

/** The link-preview check's User-Agent: a crawler of link previews, as the platforms' are. */
export const PROBE_USER_AGENT = 'Mozilla/5.0 (compatible; TitlecardPreviewCheck/1.0)';

/** POSTs a webhook delivery (see {@link WebhookPoster}); refusals name the field `url`. */
export function createWebhookPoster(options: ImageFetcherOptions = {}): WebhookPoster {
  const refuse = refuser('url');
  const fetch = createSafeFetch(options, {
    field: 'url',
    accept: '*/*',
    maxBytes: 64 * 1024,
    timeoutMs: 10_000,
    firstByteTimeoutMs: 10_000,
    tooLarge: (max) => refuse(`the answer is larger than ${max} bytes`),
  });
  return async (url, body, headers) => (await fetch(url, { body, headers })).status;
}

/**
 * Limits of a Client ID Metadata Document's fetch: oidc-provider's own (5 KiB, 2.5 s; no redirect,
 * draft-ietf-oauth-client-id-metadata-document section 4).
 */
export const METADATA_DOCUMENT_LIMITS = { maxBytes: 5 * 1024, timeoutMs: 2500, maxRedirects: 0 };

/**
 * The OAuth server's fetch of Client ID Metadata Documents (src/web/oauth/), in the shape of the
 * WHATWG `fetch` that oidc-provider calls: a GET through this module's checks, so a refused address
 * (loopback, private, reserved, unless `FETCH_ALLOW_ADDRESSES` admits it) is refused before any
 * socket opens, and an answer that is not a 2xx, a redirect, or more than 5 KiB rejects (the
 * library then refuses the client). Answers a `Response` with the document, its Content-Type and
 * the Cache-Control and Expires the library caches it by.
 */
export function createMetadataDocumentFetcher(options: ImageFetcherOptions = {}): typeof globalThis.fetch {
  const refuse = refuser('client_id');
  const fetch = createSafeFetch(
    { ...METADATA_DOCUMENT_LIMITS, ...options },
    {
      field: 'client_id',
      accept: 'application/json',
      maxBytes: METADATA_DOCUMENT_LIMITS.maxBytes,
      timeoutMs: METADATA_DOCUMENT_LIMITS.timeoutMs,
      firstByteTimeoutMs: METADATA_DOCUMENT_LIMITS.timeoutMs,
      tooLarge: (max) => refuse(`the document is larger than ${max} bytes`),
    },
  );
  return async (input) => {
    const url = input instanceof Request ? input.url : String(input);
    const answer = await fetch(url);
    const headers = new Headers({ 'content-type': answer.contentType });
    for (const name of ['cache-control', 'expires'] as const) {
      const value = answer.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    return new Response(new Uint8Array(answer.body), { status: 200, headers });
  };
}
