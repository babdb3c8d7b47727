/**
 * The platforms table of the link-preview check (src/domain/link-previews/platforms.ts): each
 * crawler's published user agent is recognised as its own platform and no other, a browser as
 * none; every row names its source.
 */
import { describe, expect, it } from 'vitest';
import { crawlerOf, PLATFORMS } from '../../src/domain/link-previews/platforms.js';

describe('the platforms table', () => {
  it("recognises each crawler's user agent as its own platform", () => {
    for (const p of PLATFORMS) expect(crawlerOf(p.crawler.sample)?.id, p.crawler.sample).toBe(p.id);
    expect(crawlerOf('facebookexternalhit/1.1')?.id).toBe('facebook');
    expect(crawlerOf('Slack-ImgProxy 0.19 (+https://api.slack.com/robots)')?.id).toBe('slack');
  });

  it('takes a browser, or no user agent, for no crawler', () => {
    expect(
      crawlerOf('Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0'),
    ).toBeUndefined();
    expect(crawlerOf(undefined)).toBeUndefined();
  });

  it('names a source for every row, and sizes that make sense', () => {
    for (const p of PLATFORMS) {
      expect(p.source.length, p.id).toBeGreaterThan(40);
      expect(p.maxImageBytes, p.id).toBeGreaterThan(100_000);
      expect(p.titleMax, p.id).toBeGreaterThan(20);
    }
  });
});
