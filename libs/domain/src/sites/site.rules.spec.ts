import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain.errors';
import { validateRebuildCron } from './cron.rules';
import { validateRobotsTxt } from './robots.rules';
import { isAnnounceableHost, normalizeHostname } from './site.rules';

describe('normalizeHostname', () => {
  it('lowercases, punycodes and drops the trailing dot, so one name has one form', () => {
    expect(normalizeHostname('Shop.Example.COM')).toBe('shop.example.com');
    expect(normalizeHostname('bücher.example.org')).toBe('xn--bcher-kva.example.org');
    expect(normalizeHostname('BÜCHER.Example.org.')).toBe('xn--bcher-kva.example.org');
    expect(normalizeHostname('xn--bcher-kva.example.org')).toBe('xn--bcher-kva.example.org');
    expect(normalizeHostname(' shop.example.com. ')).toBe('shop.example.com');
  });

  it.each([
    'https://a.com',
    'a.com/path',
    'a.com:8080',
    'a.com:80',
    'a.com:',
    'user@a.com',
    'nodot',
    '-a.com',
    'a..com',
    '.',
    '',
    '[::1]',
  ])('refuses %j as INVALID_HOSTNAME', (input) => {
    expect(() => normalizeHostname(input, { allowPrivate: true })).toThrow(
      expect.objectContaining({ code: 'INVALID_HOSTNAME' }),
    );
  });

  it.each([
    'localhost',
    'demo.localhost',
    'shop.test',
    'printer.local',
    'db.internal',
    'x.invalid',
    'a.example',
    'router.home.arpa',
    'fileserver.corp',
    'nas.lan',
    'router.home',
    'box.localdomain',
    'x.alt',
    '4.3.2.1.in-addr.arpa',
    '10.0.0.1',
    '127.0.0.1',
    'LOCALHOST.',
  ])('refuses %j as HOSTNAME_NOT_PUBLIC outside development, accepts it in development', (input) => {
    expect(() => normalizeHostname(input)).toThrow(
      expect.objectContaining({
        code: 'HOSTNAME_NOT_PUBLIC',
        details: [expect.objectContaining({ field: 'hostname' })],
      }),
    );
    expect(normalizeHostname(input, { allowPrivate: true })).toBe(input.toLowerCase().replace(/\.$/, ''));
  });

  it('throws DomainErrors only', () => {
    expect(() => normalizeHostname('bad host')).toThrow(DomainError);
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
    expect(validateRobotsTxt('User-agent: *\r\nDisallow: /admin\n# note\n\nUser-agent: Googlebot\nAllow: /')).toBe(
      'User-agent: *\nDisallow: /admin\n# note\n\nUser-agent: Googlebot\nAllow: /\n',
    );
  });

  it('names the line at fault', () => {
    expect(() => validateRobotsTxt('User-agent: *\nDisalow /x')).toThrow(
      expect.objectContaining({ code: 'INVALID_ROBOTS_TXT', details: [expect.objectContaining({ line: 2 })] }),
    );
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
    for (const host of [
      'localhost',
      'demo.localhost',
      'a.test',
      'x.invalid',
      'printer.local',
      'db.internal',
      '10.0.0.1',
    ])
      expect(isAnnounceableHost(host), host).toBe(false);
  });
});
