import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain.errors';
import { exclusionPattern, matchingExclusions, validateExclusionRules, type ExclusionRule } from './exclusion.rules';

const loc = (path: string) => `https://shop.example.com${path}`;
const excludes = (rule: ExclusionRule, path: string) => matchingExclusions(loc(path), [rule]).length === 1;

describe('exclusion rules', () => {
  it('a prefix excludes the paths that start with it, and only those', () => {
    const rule: ExclusionRule = { kind: 'prefix', path: '/cart/' };
    expect(excludes(rule, '/cart/')).toBe(true);
    expect(excludes(rule, '/cart/items?id=1')).toBe(true);
    expect(excludes(rule, '/cart')).toBe(false);
    expect(excludes(rule, '/shop/cart/')).toBe(false);
    expect(excludes(rule, '/?next=/cart/')).toBe(false);
  });

  it('a glob matches the whole path and query, * any run of characters, ? a literal', () => {
    const cart: ExclusionRule = { kind: 'glob', pattern: '/cart/*' };
    expect(excludes(cart, '/cart/1')).toBe(true);
    expect(excludes(cart, '/cart/a/b?c=d')).toBe(true);
    expect(excludes(cart, '/carts/1')).toBe(false);
    const session: ExclusionRule = { kind: 'glob', pattern: '/*?sessionid=*' };
    expect(excludes(session, '/p/1?sessionid=abc')).toBe(true);
    expect(excludes(session, '/p/1?x=1&sessionid=abc')).toBe(false);
    expect(excludes(session, '/p/1')).toBe(false);
    const dotted: ExclusionRule = { kind: 'glob', pattern: '/*.pdf' };
    expect(excludes(dotted, '/docs/a.pdf')).toBe(true);
    expect(excludes(dotted, '/docs/apdf')).toBe(false);
    expect(excludes(dotted, '/docs/a.pdf?v=2')).toBe(false);
  });

  it('a query parameter rule finds the parameter anywhere in the query, with or without a value', () => {
    const rule: ExclusionRule = { kind: 'query', param: 'sessionid' };
    expect(excludes(rule, '/p?sessionid=1')).toBe(true);
    expect(excludes(rule, '/p?a=1&sessionid=1&b=2')).toBe(true);
    expect(excludes(rule, '/p?sessionid')).toBe(true);
    expect(excludes(rule, '/p?xsessionid=1')).toBe(false);
    expect(excludes(rule, '/sessionid=1')).toBe(false);
    expect(excludes(rule, '/p?a=sessionid')).toBe(false);
  });

  it('escapes every character a regular expression would read', () => {
    expect(exclusionPattern({ kind: 'prefix', path: '/a.b(c)[d]+e$' })).toBe(
      '^[a-z][a-z0-9+.-]*://[^/?#]*\\/a\\.b\\(c\\)\\[d\\]\\+e\\$',
    );
    expect(excludes({ kind: 'prefix', path: '/a.b(c)' }, '/a.b(c)/d')).toBe(true);
    expect(excludes({ kind: 'prefix', path: '/a.b' }, '/aXb')).toBe(false);
  });

  it('validates rules, naming each one at fault, and keeps a repeated rule once', () => {
    expect(
      validateExclusionRules([
        { kind: 'prefix', path: '/cart/' },
        { kind: 'glob', pattern: '/a/**' },
        { kind: 'prefix', path: '/cart/' },
      ]),
    ).toEqual([
      { kind: 'prefix', path: '/cart/' },
      { kind: 'glob', pattern: '/a/*' },
    ]);
    const error = (() => {
      try {
        validateExclusionRules([
          { kind: 'prefix', path: 'cart' },
          { kind: 'regex', pattern: '.*' },
          { kind: 'query', param: 'a b' },
          { kind: 'glob', pattern: '/x', path: '/y' },
        ]);
      } catch (caught) {
        return caught as DomainError;
      }
      throw new Error('expected a DomainError');
    })();
    expect(error.code).toBe('INVALID_EXCLUSION_RULE');
    expect(error.details.map((detail) => detail.field)).toEqual([
      'rules[0].path',
      'rules[1].kind',
      'rules[2].param',
      'rules[3].path',
    ]);
  });
});
