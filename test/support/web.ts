/**
 * A browser-like HTTP client for the dashboard (a cookie jar, no redirects followed, an Origin on
 * every POST), and a real SMTP server that keeps the mail Titlecard sends.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface PageAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The Location of a redirect, as a path. */
  location: string | undefined;
}

/** A person in a browser: keeps the session cookie it is given, sends it back, posts forms. */
export class WebClient {
  /** The cookies it was given, by name (the session's, and the OAuth server's own). */
  readonly jar = new Map<string, string>();
  /** The dashboard session cookie, `name=value`, if any. */
  get cookie(): string | undefined {
    const entry = [...this.jar].find(([name]) => name.endsWith('titlecard_session'));
    return entry ? `${entry[0]}=${entry[1]}` : undefined;
  }
  /**
   * Sent as X-Forwarded-For on every request: the client address a trusted proxy would pass on (the
   * server must trust its loopback proxy, TRUST_PROXY=loopback). Default none.
   */
  forwardedFor: string | undefined;
  constructor(
    readonly url: string,
    /** The Origin header sent with POSTs (the site's own, unless a test forges another). */
    public origin: string | undefined = new URL(url).origin,
  ) {}

  async request(
    method: string,
    path: string,
    /** A form's fields (sent urlencoded), or a FormData (sent multipart, as a page with a file input does). */
    form?: Record<string, string> | FormData,
    headers: Record<string, string> = {},
  ): Promise<PageAnswer> {
    const h: Record<string, string> = { ...headers };
    if (this.forwardedFor) h['x-forwarded-for'] = this.forwardedFor;
    if (this.jar.size > 0) h.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (method !== 'GET' && this.origin) h.origin = this.origin;
    let body: string | FormData | undefined;
    if (form instanceof FormData) body = form;
    else if (form) {
      h['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(form).toString();
    }
    const res = await fetch(`${this.url}${path}`, { method, headers: h, body, redirect: 'manual' });
    for (const set of res.headers.getSetCookie()) {
      const [pair = ''] = set.split(';');
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(set)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    const location = res.headers.get('location') ?? undefined;
    return { status: res.status, headers: res.headers, text: await res.text(), location };
  }

  get(path: string): Promise<PageAnswer> {
    return this.request('GET', path);
  }

  post(path: string, form: Record<string, string> = {}): Promise<PageAnswer> {
    return this.request('POST', path, form);
  }

  /**
   * Signs up through the form, then signs in (sign-up signs nobody in); resolves once signed in.
   * The email is not confirmed yet: `TestServer.confirmEmail` does that.
   */
  async signUp(
    email: string,
    password = 'a long enough password',
    displayName = 'Web Person',
  ): Promise<void> {
    const res = await this.post('/sign-up', { email, displayName, password });
    if (res.status !== 200 || !/we sent a link to confirm the address/.test(res.text))
      throw new Error(`sign-up failed: ${res.status} ${res.text.slice(0, 300)}`);
    const signedIn = await this.signIn(email, password);
    if (signedIn.status !== 303 || signedIn.location !== '/overview')
      throw new Error(`sign-in after sign-up failed: ${signedIn.status} ${signedIn.text.slice(0, 300)}`);
  }

  async signIn(email: string, password: string): Promise<PageAnswer> {
    return this.post('/sign-in', { email, password, next: '/overview' });
  }
}

export interface Mail {
  to: string;
  raw: string;
  /** The first Titlecard link in the message. */
  link: string | undefined;
}

/** A real SMTP server on 127.0.0.1 (smtp-server), no TLS, no authentication, keeping every message. */
export async function startSmtpServer(): Promise<{ url: string; mail: Mail[]; close(): Promise<void> }> {
  const mail: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        // Quoted-printable soft line breaks would cut links: undo them before reading the link.
        const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        mail.push({
          to: session.envelope.rcptTo.map((r) => r.address).join(', '),
          raw: text,
          link: /https?:\/\/\S+?token=lnk_[0-9A-Za-z]{43}/.exec(text)?.[0],
        });
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mail,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Waits until `mail` holds a message to `to` (among those from index `after` on) and returns the newest. */
export async function mailTo(mail: Mail[], to: string, timeoutMs = 5000, after = 0): Promise<Mail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = mail
      .slice(after)
      .filter((m) => m.to === to)
      .at(-1);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no mail to ${to}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
