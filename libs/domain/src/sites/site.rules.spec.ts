import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain.errors';
import { validateRebuildCron } from './cron.rules';
import { validateRobotsTxt } from './robots.rules';
import { isAnnounceableHost, normalizeHostname } from './site.rules';

describe('normalizeHostname', () => {
  it('lowercases and punycodes', () => {
    expect(normalizeHostname('Shop.Example.COM')).toBe('shop.example.com');
    expect(normalizeHostname('bücher.example')).toBe('xn--bcher-kva.example');
    expect(normalizeHostname('demo.localhost')).toBe('demo.localhost');
  });

  it.each(['https://a.com', 'a.com/path', 'a.com:8080', 'nodot', '-a.com', '10.0.0.1', 'a..com', ''])('rejects %j', (input) => {
    expect(() => normalizeHostname(input)).toThrow(DomainError);
  });
});

describe('validateRebuildCron', () => {
  it('accepts a five-field expression and normalises spacing', () => {
    expect(validateRebuildCron(' 0  3 * * * ')).toBe('0 3 * * *');
  });

  it.each(['* * * * *', '*/2 * * * *', 'not cron', '0 3 * *', '0 0 3 * * *'])('rejects %j', (input) => {
    expect(() => validateRebuildCron(input)).toThrow(DomainError);
  });
});

describe('validateRobotsTxt', () => {
  it('accepts standard groups and comments, and normalises line endings', () => {
    expect(validateRobotsTxt('User-agent: *\r\nDisallow: /admin\n# note\n\nUser-agent: Googlebot\nAllow: /')).toBe('User-agent: *\nDisallow: /admin\n# note\n\nUser-agent: Googlebot\nAllow: /\n');
  });

  it('names the line at fault', () => {
    expect(() => validateRobotsTxt('User-agent: *\nDisalow /x')).toThrow(expect.objectContaining({ code: 'INVALID_ROBOTS_TXT', details: [expect.objectContaining({ line: 2 })] }));
  });

  it('refuses Host: unless asked for, and over-long files', () => {
    expect(() => validateRobotsTxt('Host: example.com')).toThrow(DomainError);
    expect(validateRobotsTxt('Host: example.com', { allowNonStandard: true })).toBe('Host: example.com\n');
    expect(() => validateRobotsTxt(`# ${'x'.repeat(600_000)}`)).toThrow(DomainError);
  });
});

describe('isAnnounceableHost', () => {
  it('announces public names only', () => {
    expect(isAnnounceableHost('shop.example.com')).toBe(true);
    for (const host of ['localhost', 'demo.localhost', 'a.test', 'x.invalid', 'printer.local', 'db.internal', '10.0.0.1']) expect(isAnnounceableHost(host), host).toBe(false);
  });
});
