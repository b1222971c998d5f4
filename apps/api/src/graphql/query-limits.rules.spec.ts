import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { aliasLimitRule, depthLimitRule, QUERY_TOO_COMPLEX, QUERY_TOO_DEEP } from './query-limits.rules';

const schema = buildSchema(`
  type Site { id: ID!, builds: [Build!]! }
  type Build { id: ID!, site: Site! }
  type Query { site: Site }
`);
const depthErrors = (query: string, max: number) => validate(schema, parse(query), [depthLimitRule(max)]);

describe('depthLimitRule', () => {
  it('counts field levels, through fragments, and refuses past the limit', () => {
    expect(depthErrors('{ site { builds { site { id } } } }', 4)).toEqual([]);
    const [error] = depthErrors('{ site { builds { site { builds { id } } } } }', 4);
    expect(error?.message).toBe('query depth 5 exceeds the limit of 4');
    expect(error?.extensions.code).toBe(QUERY_TOO_DEEP);
    expect(
      depthErrors('{ site { ...S } } fragment S on Site { builds { ... on Build { site { builds { id } } } } }', 4),
    ).toHaveLength(1);
  });

  it('counts aliases, through every fragment spread, and refuses past the limit', () => {
    const aliases = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: site { id }`).join(' ');
    expect(validate(schema, parse(`{ ${aliases(30)} }`), [aliasLimitRule(30)])).toEqual([]);
    const [error] = validate(schema, parse(`{ ${aliases(31)} }`), [aliasLimitRule(30)]);
    expect(error?.extensions.code).toBe(QUERY_TOO_COMPLEX);
    expect(error?.message).toMatch(/^more than 30 aliased fields/);
    // Ten aliases in a fragment spread four times: forty.
    const spread = `{ site { ...F ...F ...F ...F } } fragment F on Site { ${Array.from({ length: 10 }, (_, i) => `b${i}: id`).join(' ')} }`;
    expect(validate(schema, parse(spread), [aliasLimitRule(30)])).toHaveLength(1);
  });

  it('ignores introspection and survives fragment cycles (reported by the standard rules)', () => {
    expect(depthErrors('{ __schema { types { fields { type { ofType { ofType { name } } } } } } }', 2)).toEqual([]);
    expect(() => depthErrors('{ site { ...A } } fragment A on Site { builds { site { ...A } } }', 10)).not.toThrow();
  });
});
