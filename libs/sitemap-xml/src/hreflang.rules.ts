import { ISO_15924, ISO_3166_1_ALPHA_2, ISO_639_1, ISO_639_2 } from './iso-codes.data';
import type { RuleViolation } from './sitemap-xml.types';
import { normalizeHttpUrl } from './url.rules';

// Google reads hreflang as ISO 639-1 language, optional ISO 15924 script, optional
// ISO 3166-1 alpha-2 region, or `x-default`. Anything else (`en-UK`, `es-419`, `iw`, `EN_gb`)
// is ignored by Google, which silently breaks the cluster, so it is rejected here.

/** Codes seen, canonical or not (null): a catalogue repeats a handful of codes millions of times. */
const seenCodes = new Map<string, string | null>();
const MAX_SEEN_CODES = 4_096;

/** Canonical form (`en`, `en-GB`, `zh-Hant`, `zh-Hant-TW`, `x-default`) or undefined. */
export function normalizeHreflang(code: string): string | undefined {
  const seen = seenCodes.get(code);
  if (seen !== undefined) return seen ?? undefined;
  const normalized = canonicalHreflang(code);
  if (seenCodes.size < MAX_SEEN_CODES) seenCodes.set(code, normalized ?? null);
  return normalized;
}

function canonicalHreflang(code: string): string | undefined {
  const lower = code.toLowerCase();
  if (lower === 'x-default') return lower;
  const parts = lower.split('-');
  if (parts.length > 3) return undefined;
  const [language, second, third] = parts;
  if (language === undefined || language.length !== 2 || !ISO_639_1.has(language)) return undefined;
  if (second === undefined) return language;
  if (second.length === 2) {
    const region = second.toUpperCase();
    return third === undefined && ISO_3166_1_ALPHA_2.has(region) ? `${language}-${region}` : undefined;
  }
  if (second.length !== 4) return undefined;
  const script = second[0]!.toUpperCase() + second.slice(1);
  if (!ISO_15924.has(script)) return undefined;
  if (third === undefined) return `${language}-${script}`;
  const region = third.toUpperCase();
  return third.length === 2 && ISO_3166_1_ALPHA_2.has(region) ? `${language}-${script}-${region}` : undefined;
}

/**
 * `<news:language>`: an ISO 639 code, two letters (639-1) or three (639-2), lower case, or
 * `zh-cn` / `zh-tw`, the only regional forms Google News takes (and the only ones
 * sitemap-news.xsd allows).
 */
export function normalizeNewsLanguage(code: string): string | undefined {
  const lower = code.toLowerCase();
  if (lower === 'zh-cn' || lower === 'zh-tw') return lower;
  if (lower.length === 2) return ISO_639_1.has(lower) ? lower : undefined;
  if (lower.length === 3) return ISO_639_2.has(lower) ? lower : undefined;
  return undefined;
}

/** ISO 3166-1 alpha-2, upper case, or undefined. */
export function normalizeCountryCode(code: string): string | undefined {
  const upper = code.toUpperCase();
  return upper.length === 2 && ISO_3166_1_ALPHA_2.has(upper) ? upper : undefined;
}

export interface HreflangMember {
  hreflang: string;
  href: string;
}

/**
 * Checks a set of alternates that will be written together (one `<url>`'s links, or a whole
 * cluster the domain assembled): every code valid, no code twice, no href twice. Codes and
 * hrefs are compared in canonical form, so `en-gb`/`en-GB` and `HTTPS://A.com/x`/`https://a.com/x`
 * are duplicates. Does not add or require the self-reference; that is the domain's call.
 */
export function validateHreflangCluster(
  members: readonly HreflangMember[],
  fieldPrefix = 'alternates',
): RuleViolation[] {
  return clusterViolations(
    members.map((member, index) => {
      const normalized = normalizeHttpUrl(member.href);
      return { hreflang: member.hreflang, href: normalized.ok ? normalized.href : member.href, index };
    }),
    fieldPrefix,
  );
}

/**
 * As validateHreflangCluster, for members that keep their index in a larger input list and whose
 * hrefs are already normalized (where they could be). Runs for every URL of a bulk import, so it
 * builds field names only for what it reports, and compares a small cluster pairwise instead of
 * filling maps (a large one gets maps: pairwise would be quadratic for every URL of it).
 */
export function clusterViolations(
  members: readonly (HreflangMember & { index: number })[],
  fieldPrefix: string,
): RuleViolation[] {
  if (members.length <= 16) return smallClusterViolations(members, fieldPrefix);
  const violations: RuleViolation[] = [];
  const firstCode = firstPositions();
  const firstHref = firstPositions();
  for (let i = 0; i < members.length; i++) {
    const member = members[i] as HreflangMember & { index: number };
    const code = normalizeHreflang(member.hreflang);
    if (code === undefined) {
      violations.push({
        field: `${fieldPrefix}[${member.index}].hreflang`,
        code: 'INVALID_HREFLANG',
        message: `"${member.hreflang}" is not x-default or an ISO 639-1 language with optional ISO 15924 script and ISO 3166-1 alpha-2 region`,
      });
    } else {
      const first = firstCode(code, i);
      if (first < i) {
        violations.push({
          field: `${fieldPrefix}[${member.index}].hreflang`,
          code: 'DUPLICATE_HREFLANG',
          message: `hreflang "${code}" is already used by ${fieldPrefix}[${(members[first] as { index: number }).index}]`,
        });
      }
    }
    // x-default may name a page that also has a language (Google's own examples do); any
    // other page listed under two codes is ambiguous.
    if (code === 'x-default') continue;
    const first = firstHref(member.href, i);
    if (first < i) {
      violations.push({
        field: `${fieldPrefix}[${member.index}].href`,
        code: 'DUPLICATE_ALTERNATE',
        message: `href is already listed by ${fieldPrefix}[${(members[first] as { index: number }).index}]`,
      });
    }
  }
  return violations;
}

/**
 * clusterViolations for a cluster of up to 16: pairwise, with no closure or list but the codes
 * (the common cluster of a few languages runs this for every URL of an import).
 */
function smallClusterViolations(
  members: readonly (HreflangMember & { index: number })[],
  fieldPrefix: string,
): RuleViolation[] {
  const violations: RuleViolation[] = [];
  const codes: (string | undefined)[] = new Array<string | undefined>(members.length);
  for (let i = 0; i < members.length; i++) {
    const member = members[i] as HreflangMember & { index: number };
    const code = normalizeHreflang(member.hreflang);
    codes[i] = code;
    if (code === undefined) {
      violations.push({
        field: `${fieldPrefix}[${member.index}].hreflang`,
        code: 'INVALID_HREFLANG',
        message: `"${member.hreflang}" is not x-default or an ISO 639-1 language with optional ISO 15924 script and ISO 3166-1 alpha-2 region`,
      });
    } else {
      for (let j = 0; j < i; j++) {
        if (codes[j] !== code) continue;
        violations.push({
          field: `${fieldPrefix}[${member.index}].hreflang`,
          code: 'DUPLICATE_HREFLANG',
          message: `hreflang "${code}" is already used by ${fieldPrefix}[${(members[j] as { index: number }).index}]`,
        });
        break;
      }
    }
    if (code === 'x-default') continue;
    // The first earlier member with this href that is not the x-default (those are not recorded).
    for (let j = 0; j < i; j++) {
      if (codes[j] === 'x-default' || (members[j] as HreflangMember).href !== member.href) continue;
      violations.push({
        field: `${fieldPrefix}[${member.index}].href`,
        code: 'DUPLICATE_ALTERNATE',
        message: `href is already listed by ${fieldPrefix}[${(members[j] as { index: number }).index}]`,
      });
      break;
    }
  }
  return violations;
}

/**
 * Records values in the order they come, each at its position, and answers where a value was
 * first recorded (the position itself if it is new). For clusters above 16 members (smaller
 * ones compare pairwise, smallClusterViolations).
 */
function firstPositions(): (value: string, position: number) => number {
  const seen = new Map<string, number>();
  return (value, position) => {
    const first = seen.get(value);
    if (first !== undefined) return first;
    seen.set(value, position);
    return position;
  };
}
