import { describe, expect, it } from 'vitest';
import { normalizeHostname, parseRequestPath, resolveTarget } from './request-target';

describe('request target', () => {
  it('normalises Host to a lowercase hostname without port or trailing dot', () => {
    expect(normalizeHostname('WWW.Example.com:8080')).toBe('www.example.com');
    expect(normalizeHostname('example.com.')).toBe('example.com');
    for (const bad of [undefined, '', 'a b', 'exa/mple.com', '-x.com', 'x..com', '[::1]:80', 'ex%41.com']) {
      expect([bad, normalizeHostname(bad)]).toEqual([bad, null]);
    }
  });

  it('decodes plain paths and refuses traversal, encoded separators and control characters', () => {
    expect(parseRequestPath('/sitemaps/sitemap-1.xml.gz?x=1')).toBe('sitemaps/sitemap-1.xml.gz');
    expect(parseRequestPath('/caf%C3%A9.xml')).toBe('café.xml');
    for (const bad of ['/../x', '/a/%2e%2e/x', '/a/./x', '/a%2fb', '/a%5Cb', '/a\\b', '/x%00', '/%ff', 'x', '/a/..']) {
      expect([bad, parseRequestPath(bad)]).toEqual([bad, null]);
    }
  });

  it('routes by Host, and by /s/<hostname>/ on the platform host only', () => {
    expect(resolveTarget('example.com', '/sitemap.xml', null)).toEqual({
      hostname: 'example.com',
      path: 'sitemap.xml',
    });
    expect(resolveTarget('platform.test', '/s/Example.com/sitemap.xml', 'platform.test')).toEqual({
      hostname: 'example.com',
      path: 'sitemap.xml',
    });
    expect(resolveTarget('example.com', '/s/other.com/sitemap.xml', 'platform.test')).toEqual({
      hostname: 'example.com',
      path: 's/other.com/sitemap.xml',
    });
    expect(resolveTarget('platform.test', '/sitemap.xml', 'platform.test')).toBeNull();
    expect(resolveTarget(undefined, '/sitemap.xml', null)).toBeNull();
    expect(resolveTarget('example.com', '/s/%2e%2e/x', 'platform.test')).toBe('bad-request');
  });
});
