import { describe, expect, it } from 'vitest';
import { normalizeHostname, parseRequestPath, resolveTarget, splitAbsoluteForm } from './request-target';

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

  it('takes the host of an absolute-form target instead of Host (RFC 9112 §3.2.2)', () => {
    expect(resolveTarget('ignored.example', 'http://Example.com:8080/sitemap.xml?x=1', null)).toEqual({
      hostname: 'example.com',
      path: 'sitemap.xml',
    });
    expect(resolveTarget(undefined, 'HTTPS://example.com/sitemaps/a.xml.gz', null)).toEqual({
      hostname: 'example.com',
      path: 'sitemaps/a.xml.gz',
    });
    expect(resolveTarget('example.com', 'http://platform.test/s/other.com/sitemap.xml', 'platform.test')).toEqual({
      hostname: 'other.com',
      path: 'sitemap.xml',
    });
    expect(splitAbsoluteForm('http://example.com')).toEqual({ authority: 'example.com', path: '/' });
    expect(splitAbsoluteForm('http://example.com?x')).toEqual({ authority: 'example.com', path: '/?x' });
    // A well-formed authority that cannot be a site's hostname names nothing served, as such a Host does.
    expect(resolveTarget('example.com', 'http://[::1]:80/sitemap.xml', null)).toBeNull();
  });

  it('refuses an absolute-form target with another scheme, a bad authority or a bad path', () => {
    for (const bad of [
      'ftp://example.com/sitemap.xml',
      'http:///sitemap.xml',
      'http://user@example.com/sitemap.xml',
      'http://exa mple.com/sitemap.xml',
      'http://example.com:x/sitemap.xml',
      'http://example.com#top',
      'http://example.com/../sitemap.xml',
      'http:/example.com/sitemap.xml',
      'example.com/sitemap.xml',
      '*',
    ]) {
      expect([bad, resolveTarget('example.com', bad, null)]).toEqual([bad, 'bad-request']);
    }
  });
});
