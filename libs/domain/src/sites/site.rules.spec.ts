import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain.errors';
import { normalizeHostname } from './site.rules';

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
