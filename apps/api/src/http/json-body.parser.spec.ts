import { describe, expect, it } from 'vitest';
import { checkJsonBody, countJsonValues, countSeparatorBytes, mayPoisonPrototypes } from './json-body.parser';

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

  it('bounds the count by every separator byte first, then counts exactly outside strings', () => {
    // Separators inside strings pass the bound's over-count only through the exact count.
    const inStrings = bytes(`["${',{['.repeat(100)}"]`);
    expect(countSeparatorBytes(inStrings)).toBe(301);
    expect(() => checkJsonBody(inStrings, 10)).not.toThrow();
    expect(() => checkJsonBody(bytes(`["${',{['.repeat(100)}", ${'{},'.repeat(10)}{}]`), 10)).toThrow(
      expect.objectContaining({ statusCode: 413 }),
    );
  });
});

describe('mayPoisonPrototypes', () => {
  it('sends to the checked parser every body that can spell __proto__ or constructor as a key', () => {
    expect(mayPoisonPrototypes(bytes('[{"__proto__":{}}]'))).toBe(true);
    expect(mayPoisonPrototypes(bytes('[{"constructor":{"prototype":{}}}]'))).toBe(true);
    expect(mayPoisonPrototypes(bytes('[{"\\u005f_proto__":{}}]'))).toBe(true);
    expect(mayPoisonPrototypes(bytes('[{"loc":"https://a.example/caf\\u00e9"}]'))).toBe(true);
    expect(mayPoisonPrototypes(bytes('[{"loc":"https://a.example/proto/construct"}]'))).toBe(false);
  });
});
