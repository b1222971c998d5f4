import { describe, expect, it } from 'vitest';
import { checkJsonBody, countJsonValues } from './json-body.parser';

const bytes = (text: string) => Buffer.from(text);

describe('countJsonValues', () => {
  it('counts containers and separators, not the commas, brackets or escaped quotes inside strings', () => {
    expect(countJsonValues(bytes('[]'), 100)).toBe(1);
    expect(countJsonValues(bytes('[{},{},{}]'), 100)).toBe(6);
    expect(countJsonValues(bytes('{"a":1,"b":[1,2]}'), 100)).toBe(4);
    expect(countJsonValues(bytes('["a,b,{[", "x\\",y", "\\\\", ","]'), 100)).toBe(4);
  });

  it('stops counting once past the maximum', () => {
    expect(countJsonValues(bytes(`[${'0,'.repeat(1_000)}0]`), 10)).toBe(11);
  });
});

describe('checkJsonBody', () => {
  it('passes UTF-8 within the limit, multi-byte characters included', () => {
    expect(() => checkJsonBody(bytes('[{"loc":"https://a.example/café/日本"}]'), 10)).not.toThrow();
  });

  it('refuses invalid UTF-8 with 400 and too many values with 413 naming the setting', () => {
    expect(() => checkJsonBody(Buffer.from([0x5b, 0x22, 0xe9, 0x22, 0x5d]), 10)).toThrow(
      expect.objectContaining({ statusCode: 400 }),
    );
    expect(() => checkJsonBody(bytes('[{},{},{}]'), 5)).toThrow(
      expect.objectContaining({ statusCode: 413, message: expect.stringContaining('API_JSON_MAX_VALUES') }),
    );
  });
});
