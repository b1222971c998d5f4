import { describe, expect, it } from 'vitest';
import { normalizeHttpUrl, originOf } from './url.rules';

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
