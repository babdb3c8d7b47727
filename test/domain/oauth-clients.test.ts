/**
 * Which OAuth clients and issuers are accepted (src/domain/oauth/clients.ts): one loopback rule for
 * redirect URIs and for the issuer, so `http://[::1]` is this machine in both (issue 50: the
 * issuer's list lacked it).
 */
import { describe, expect, it } from 'vitest';
import {
  acceptableRedirectUri,
  isCanonicalHttpsUrl,
  oauthAvailable,
} from '../../src/domain/oauth/clients.js';

describe('OAuth clients and issuers', () => {
  it('takes http only on a loopback host, for redirect URIs and the issuer alike', () => {
    for (const host of ['localhost', '127.0.0.1', '[::1]']) {
      expect(acceptableRedirectUri(`http://${host}:8123/callback`), host).toBe(true);
      expect(oauthAvailable(`http://${host}:3000`), host).toBe(true);
    }
    for (const host of ['example.com', '10.0.0.1', '[::2]']) {
      expect(acceptableRedirectUri(`http://${host}/callback`), host).toBe(false);
      expect(oauthAvailable(`http://${host}`), host).toBe(false);
    }
    expect(oauthAvailable('https://cards.example.com')).toBe(true);
  });

  it('takes https and private-use schemes with a period, never a fragment', () => {
    expect(acceptableRedirectUri('https://app.example.com/cb')).toBe(true);
    expect(acceptableRedirectUri('com.example.app:/cb')).toBe(true);
    expect(acceptableRedirectUri('myapp:/cb')).toBe(false);
    expect(acceptableRedirectUri('https://app.example.com/cb#x')).toBe(false);
  });

  it('names a metadata-document client only by its canonical https URL', () => {
    expect(isCanonicalHttpsUrl('https://app.example.com/client.json')).toBe(true);
    expect(isCanonicalHttpsUrl('HTTPS://app.example.com/client.json')).toBe(false);
    expect(isCanonicalHttpsUrl('http://app.example.com/client.json')).toBe(false);
  });
});
