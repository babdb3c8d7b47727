/** Reading a page's card texts (src/domain/sites/page.ts) from real-world HTML. */
import { describe, expect, it } from 'vitest';
import { cleanText, decodePage, readPage } from '../../src/domain/sites/page.js';

describe('readPage', () => {
  it('takes titlecard:title over og:title over <title>, decodes entities, collapses white space, and reads the verification tag', () => {
    const page = `<!DOCTYPE html><HTML><HEAD>
      <TITLE>Ignored | Blog</TITLE>
      <meta property="og:title" content="Fish &amp; chips">
      <meta name="titlecard:title" content="  Fish
        &amp; chips,   explained ">
      <meta name="titlecard:subtitle" content="Part 2">
      <meta property="og:description" content="A long read">
      <meta name="titlecard:image" content=" ast_0123456789012345678901 ">
      <meta name="titlecard-site-verification" content="tcv_abc">
      </HEAD><body>`;
    expect(readPage(page)).toEqual({
      title: 'Fish & chips, explained',
      subtitle: 'Part 2',
      description: 'A long read',
      image: 'ast_0123456789012345678901',
      verification: 'tcv_abc',
    });
    expect(readPage('<title>Only a &lt;title&gt;</title>').title).toBe('Only a <title>');
    expect(readPage('<p>no head at all')).toEqual({});
  });

  it('cuts a title at 200 grapheme clusters with an ellipsis (docs/api.md#generate-options), never inside an emoji', () => {
    const long = '👩‍👩‍👧 '.repeat(150);
    const cut = cleanText(long)!;
    const clusters = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(cut)];
    expect(clusters.length).toBeLessThanOrEqual(200);
    expect(cut.endsWith('👩‍👩‍👧…')).toBe(true);
    expect(cleanText(' \u0007 ')).toBeUndefined();
  });

  it("decodes a page in its Content-Type's charset, UTF-8 when it names none or an unknown one", () => {
    const latin1 = Buffer.from([0x43, 0x61, 0x66, 0xe9]); // "Café" in ISO-8859-1
    expect(decodePage(latin1, 'text/html; charset=ISO-8859-1')).toBe('Café');
    expect(decodePage(Buffer.from('Café'), 'text/html')).toBe('Café');
    expect(decodePage(Buffer.from('Café'), 'text/html; charset=x-unknown')).toBe('Café');
  });
});
