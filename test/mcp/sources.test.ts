/**
 * base64Bytes (src/mcp/sources.ts): what `imageBase64` accepts and what it refuses, by the
 * character, including where Node's decoder would skip it unnoticed.
 */
import { describe, expect, it } from 'vitest';
import { base64Bytes } from '../../src/mcp/sources.js';

const bytes = Buffer.from('Titlecard!');

describe('imageBase64', () => {
  it('reads standard and URL-safe base64, padded or not, wrapped in lines, or as a data URL', () => {
    const standard = bytes.toString('base64');
    for (const value of [
      standard,
      standard.replace(/=+$/, ''),
      bytes.toString('base64url'),
      `${standard.slice(0, 4)}\r\n${standard.slice(4, 8)}\n ${standard.slice(8)}`,
      `data:image/webp;base64,${standard}`,
      `DATA:;base64,${standard}`,
    ])
      expect(base64Bytes(value).equals(bytes), value).toBe(true);
  });

  it('names the first character that is not base64, wherever it is', () => {
    const refused = (value: string) => {
      try {
        base64Bytes(value);
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(refused('QUJD!')).toBe('Expected base64 for imageBase64 but received "!" at character 5');
    expect(refused('!QUJD')).toBe('Expected base64 for imageBase64 but received "!" at character 1');
    expect(refused('QQ=A')).toBe('Expected base64 for imageBase64 but received "=" at character 3');
    expect(refused('Q===')).toBe('Expected base64 for imageBase64 but received too much padding');
    expect(refused('data:image/png;base64,QU.D')).toBe(
      'Expected base64 for imageBase64 but received "." at character 3 of its data',
    );
    expect(refused('data:image/png,QUJD')).toBe(
      'Expected base64 for imageBase64 but received a data: URL without ;base64',
    );
  });
});
