// The commonest imperfect hreflang markup on the web: pages that link each other (en ↔ fr) but
// not themselves. Each page's own language is then known only from the links of the pages that
// name it. A sitemaps import holds such pages back until every file is read, noting on the way
// the code every page of the import gives every URL; then each held page gets its own language
// from those names (mutual naming included) and declares its cluster with it. A page no page
// names keeps today's treatment: no cluster of its own, the links of the pages that list it.
import { normalizeHreflang, normalizeHttpUrl } from '@sitemaps/sitemap-xml';
import type { ImportIssue } from '../imports/import.types';

/** A mapped sitemap entry as the importer pushes it. */
export interface InferenceItem {
  line: number;
  entry: Record<string, unknown>;
  source?: string;
  warnings?: ImportIssue[];
}

export interface InferenceLimits {
  /** Pages held back per import: beyond, they are stored at once as before. */
  maxHeld: number;
  /** URLs whose names are kept per import. */
  maxNamed: number;
}

export const DEFAULT_INFERENCE_LIMITS: InferenceLimits = { maxHeld: 50_000, maxNamed: 250_000 };

/** Two pages name a URL with different languages: it gets none. */
const CONFLICT = '';

export class HreflangInference {
  private readonly held: { item: InferenceItem; loc: string }[] = [];
  /** Normalized URL → the code the import's pages give it (x-default only when no other). */
  private readonly names = new Map<string, string>();

  constructor(private readonly limits: InferenceLimits = DEFAULT_INFERENCE_LIMITS) {}

  /** Notes the names `item` gives; true when it is held back (its own language is missing). */
  hold(item: InferenceItem): boolean {
    const links = item.entry.alternates;
    if (!Array.isArray(links) || links.length === 0 || typeof item.entry.loc !== 'string') return false;
    const loc = normalizeHttpUrl(item.entry.loc.trim());
    if (!loc.ok) return false;
    let self = false;
    for (const link of links as { hreflang?: unknown; href?: unknown }[]) {
      if (typeof link.href !== 'string' || typeof link.hreflang !== 'string') continue;
      const href = normalizeHttpUrl(link.href.trim());
      const code = normalizeHreflang(link.hreflang.trim());
      if (!href.ok || code === undefined) continue;
      if (href.href === loc.href) self = true;
      this.name(href.href, code);
    }
    if (self || this.held.length >= this.limits.maxHeld) return false;
    this.held.push({ item, loc: loc.href });
    return true;
  }

  /** The held pages, each with its own language (`hreflang`) when the import's pages name it. */
  release(): InferenceItem[] {
    const out = this.held.map(({ item, loc }) => {
      const code = this.names.get(loc);
      if (code === undefined || code === CONFLICT) return item;
      const warning: ImportIssue = {
        code: 'HREFLANG_SELF_MISSING',
        field: 'alternates',
        message: `the page is not among its own hreflang links: its language, "${code}", is the one the pages of the import that list it give it; the page kept`,
      };
      return { ...item, entry: { ...item.entry, hreflang: code }, warnings: [...(item.warnings ?? []), warning] };
    });
    this.held.length = 0;
    this.names.clear();
    return out;
  }

  private name(href: string, code: string): void {
    const known = this.names.get(href);
    if (known === undefined) {
      if (this.names.size < this.limits.maxNamed) this.names.set(href, code);
    } else if (known !== code && known !== CONFLICT && code !== 'x-default') {
      // A page's x-default is named besides its language: the language wins.
      this.names.set(href, known === 'x-default' ? code : CONFLICT);
    }
  }
}
