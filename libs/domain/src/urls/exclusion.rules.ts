// A site's URL exclusion rules (next-sitemap's `exclude`, Yoast's exclusions): URLs they match
// stay stored, with their data, but are in no published file and no published hreflang link.
//
// A rule is matched against a URL's loc. Each compiles to one regular expression that means the
// same in JavaScript and in PostgreSQL's `~` (an advanced regular expression): only `^`, `$`,
// `.*`, `[^?#]*`, `(…|…)` and backslash escapes of punctuation are used, so the database decides
// which URLs a rule excludes (renders, counts, listings) and the API can say the same of one URL.

import { invalid, type ErrorDetail } from '../domain.errors';

export type ExclusionRule =
  /** Every URL whose path (and query) starts with `path`: `/cart/`. */
  | { kind: 'prefix'; path: string }
  /** A path (and query) matched whole, `*` any run of characters: `/cart/*`, `/*?sessionid=*`. */
  | { kind: 'glob'; pattern: string }
  /** Every URL whose query has the parameter, with or without a value: `sessionid`. */
  | { kind: 'query'; param: string };

export const MAX_EXCLUSION_RULES = 100;
const MAX_RULE_LENGTH = 500;
const QUERY_PARAM = /^[A-Za-z0-9._~%+-]+$/;

/** Everything before the path: `https://host[:port]`. Locs are absolute and normalized. */
const ORIGIN = '^[a-z][a-z0-9+.-]*://[^/?#]*';

/** Escapes a literal for both dialects: punctuation with a backslash, nothing else. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/#&=-]/g, (char) => `\\${char}`);
}

/** The rule as a regular expression over the whole loc, the same in JavaScript and PostgreSQL. */
export function exclusionPattern(rule: ExclusionRule): string {
  switch (rule.kind) {
    case 'prefix':
      return `${ORIGIN}${literal(rule.path)}`;
    case 'glob':
      return `${ORIGIN}${rule.pattern.split('*').map(literal).join('.*')}$`;
    case 'query':
      return `^[^?#]*\\?([^#]*&)?${literal(rule.param)}(=|&|#|$)`;
  }
}

export function exclusionPatterns(rules: readonly ExclusionRule[]): string[] {
  return rules.map(exclusionPattern);
}

/** Which of `rules` exclude `loc` (their indexes); none when it is published. */
export function matchingExclusions(loc: string, rules: readonly ExclusionRule[]): number[] {
  const matches: number[] = [];
  rules.forEach((rule, index) => {
    if (new RegExp(exclusionPattern(rule)).test(loc)) matches.push(index);
  });
  return matches;
}

/** A rule as a person reads it: `prefix /cart/`, `glob /*?sessionid=*`, `query sessionid`. */
export function describeExclusion(rule: ExclusionRule): string {
  return rule.kind === 'query'
    ? `query ${rule.param}`
    : rule.kind === 'prefix'
      ? `prefix ${rule.path}`
      : `glob ${rule.pattern}`;
}

/**
 * The rules as a client sends them, checked and in their stored form; a rule twice is kept once.
 * Throws INVALID_EXCLUSION_RULE naming each rule at fault (`rules[2].path`).
 */
export function validateExclusionRules(input: unknown): ExclusionRule[] {
  if (!Array.isArray(input))
    throw invalid('INVALID_EXCLUSION_RULE', 'rules must be an array', [
      { field: 'rules', message: 'expected an array' },
    ]);
  if (input.length > MAX_EXCLUSION_RULES)
    throw invalid('INVALID_EXCLUSION_RULE', `at most ${MAX_EXCLUSION_RULES} exclusion rules per site`, [
      { field: 'rules', message: `${input.length} rules` },
    ]);
  const details: ErrorDetail[] = [];
  const rules: ExclusionRule[] = [];
  const seen = new Set<string>();
  input.forEach((raw: unknown, index) => {
    const field = `rules[${index}]`;
    const rule = parseRule(raw, field, details);
    if (!rule) return;
    const key = describeExclusion(rule);
    if (seen.has(key)) return;
    seen.add(key);
    rules.push(rule);
  });
  if (details.length > 0) throw invalid('INVALID_EXCLUSION_RULE', 'some exclusion rules are invalid', details);
  return rules;
}

function parseRule(raw: unknown, field: string, details: ErrorDetail[]): ExclusionRule | undefined {
  const fail = (at: string, message: string) => {
    details.push({ field: at, code: 'INVALID_EXCLUSION_RULE', message });
    return undefined;
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail(field, 'expected an object');
  const record = raw as Record<string, unknown>;
  const keys = Object.keys(record).filter((key) => key !== 'kind');
  const text = (key: string): string | undefined => {
    const value = record[key];
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_RULE_LENGTH) {
      fail(`${field}.${key}`, `expected a string of 1-${MAX_RULE_LENGTH} characters`);
      return undefined;
    }
    // eslint-disable-next-line no-control-regex -- control characters are what it refuses
    if (/[\s\u0000-\u001f\u007f]/.test(value)) {
      fail(`${field}.${key}`, 'no spaces or control characters: locs are stored percent-encoded');
      return undefined;
    }
    return value;
  };
  const only = (key: string) => {
    const extra = keys.find((other) => other !== key);
    return extra === undefined
      ? true
      : (fail(`${field}.${extra}`, `a ${String(record.kind)} rule has no ${extra}`), false);
  };
  switch (record.kind) {
    case 'prefix': {
      const path = text('path');
      if (path === undefined || !only('path')) return undefined;
      if (!path.startsWith('/')) return fail(`${field}.path`, 'a path starts with /');
      return { kind: 'prefix', path };
    }
    case 'glob': {
      const pattern = text('pattern');
      if (pattern === undefined || !only('pattern')) return undefined;
      if (!pattern.startsWith('/') && !pattern.startsWith('*'))
        return fail(`${field}.pattern`, 'a pattern starts with / or *');
      return { kind: 'glob', pattern: pattern.replace(/\*+/g, '*') };
    }
    case 'query': {
      const param = text('param');
      if (param === undefined || !only('param')) return undefined;
      if (!QUERY_PARAM.test(param)) return fail(`${field}.param`, 'a query parameter name, as it appears in the URL');
      return { kind: 'query', param };
    }
    default:
      return fail(`${field}.kind`, 'kind is one of prefix, glob, query');
  }
}
