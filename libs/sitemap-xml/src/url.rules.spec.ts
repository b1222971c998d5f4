import { describe, expect, it } from 'vitest';
import { normalizeHttpUrl, originOf, whatwgNormalizeHttpUrl } from './url.rules';

describe('normalizeHttpUrl', () => {
  it.each([
    ['https://shop.example.com', 'https://shop.example.com/'],
    ['HTTPS://Shop.Example.COM:443/A', 'https://shop.example.com/A'],
    ['http://shop.example.com:80/', 'http://shop.example.com/'],
    ['https://shop.example.com:8443/x', 'https://shop.example.com:8443/x'],
    ['https://bücher.example/ü', 'https://xn--bcher-kva.example/%C3%BC'],
    ['https://例え.jp/', 'https://xn--r8jz45g.jp/'],
    ['https://shop.example.com/%41%e2%82%ac', 'https://shop.example.com/%41%e2%82%ac'],
    ['https://shop.example.com/100%', 'https://shop.example.com/100%25'],
    ['https://shop.example.com/a b', 'https://shop.example.com/a%20b'],
    ['https://shop.example.com/a/./b/../c', 'https://shop.example.com/a/c'],
    ['https://shop.example.com/[x]|{y}^`\\', 'https://shop.example.com/%5Bx%5D%7C%7By%7D%5E%60/'],
    ["https://shop.example.com/it's?q='x'&a=<b>", "https://shop.example.com/it's?q=%27x%27&a=%3Cb%3E"],
    ['https://shop.example.com/?q="x"#a#b', 'https://shop.example.com/?q=%22x%22#a%23b'],
    ['https://[2001:db8::1]:8080/x', 'https://[2001:db8::1]:8080/x'],
    ['  https://shop.example.com/x \n', 'https://shop.example.com/x'],
  ])('%s → %s', (input, href) => {
    const result = normalizeHttpUrl(input);
    expect(result).toMatchObject({ ok: true, href });
  });

  it('produces strict RFC 3986 URIs for any input it accepts', () => {
    const rfc3986 = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;
    const weird = 'https://shop.example.com/ü😀 "<>`{}|\\^[]%%zz?ä=ö&"x"#frag ment ü';
    const result = normalizeHttpUrl(weird);
    expect(result.ok && rfc3986.test(result.href) && !/%(?![0-9A-Fa-f]{2})/.test(result.href)).toBe(true);
  });

  it.each([
    ['/relative', 'not-absolute'],
    ['shop.example.com/x', 'not-absolute'],
    ['https:shop.example.com', 'not-absolute'],
    ['https:///x', 'not-absolute'],
    ['https://', 'not-absolute'],
    ['ftp://shop.example.com/', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['mailto:a@example.com', 'scheme'],
    ['https://user:pw@shop.example.com/', 'credentials'],
    ['https://shop.example.com/a\tb', 'invalid'],
    ['https://shop.example.com/a\u0001', 'invalid'],
    ['https://shop.example.com:99999/', 'invalid'],
    ['https://exa mple.com/', 'invalid'],
  ])('rejects %s (%s)', (input, reason) => {
    expect(normalizeHttpUrl(input)).toEqual({ ok: false, reason });
  });

  it('gives the origin for host comparisons', () => {
    expect(originOf('https://Shop.Example.com:443/a?b')).toBe('https://shop.example.com');
    expect(originOf('/a')).toBeUndefined();
  });
});

describe('normalizeHttpUrl fast path', () => {
  // Seeded, so a failure reproduces; pieces chosen to hit every rule the fast path relies on.
  let seed = 42;
  const pick = <T>(items: readonly T[]): T => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return items[(seed >>> 8) % items.length] as T;
  };
  const schemes = ['https://', 'http://', 'HTTPS://', 'https:/', 'ftp://', 'https:///'];
  const hosts = [
    'a.example.com',
    'shop.example.co.uk',
    'A.example.com',
    'example.com.',
    '1.2.3.4',
    'x.0x7f',
    '127.1',
    'a-b.c1',
    'xn--bcher-kva.example',
    'xn--a.example',
    'ab',
    'a..b',
    '-a.com',
    'a.com:443',
    'a.com:8080',
    'u:p@a.com',
    '[::1]',
    'bücher.de',
  ];
  const safe = ['a', 'Z', '0', '-', '.', '_', '~', '/', 'p', 'q'];
  const tricky = [
    '!',
    '$',
    '&',
    "'",
    '(',
    ')',
    '*',
    '+',
    ',',
    ';',
    '=',
    ':',
    '@',
    '/',
    '?',
    '#',
    '%',
    '%2e',
    '%41',
    '%zz',
    ' ',
    '\t',
    '"',
    '<',
    '>',
    '`',
    '{',
    '}',
    '|',
    '^',
    '[',
    ']',
    '\\',
    'é',
    '..',
    '/./',
    '/../',
    '/.',
    '.',
  ];
  const inputs: string[] = [];
  const part = (start: string) => {
    let text = start;
    for (let j = pick([0, 1, 2, 4]); j > 0; j--)
      text += pick([safe, safe, safe, tricky]) === tricky ? pick(tricky) : pick(safe);
    return text;
  };
  for (let i = 0; i < 30_000; i++) {
    const rest = `${part(pick(['/', '/', '']))}${pick(['', part('?')])}${pick(['', '', part('#')])}`;
    inputs.push(`${pick(schemes)}${pick(hosts)}${rest}`);
  }

  it('agrees with WHATWG parsing on every input', () => {
    let unchanged = 0;
    for (const input of inputs) {
      const general = whatwgNormalizeHttpUrl(input);
      expect(normalizeHttpUrl(input), input).toEqual(general);
      if (general.ok && general.href === input) unchanged += 1;
    }
    // The sample must exercise the fast path, not only the fallback.
    expect(unchanged).toBeGreaterThan(inputs.length / 20);
  });
});
