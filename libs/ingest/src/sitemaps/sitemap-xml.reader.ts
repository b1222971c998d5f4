// Sitemap XML read with sax, into raw strings: each field exactly as the file spells it (text
// trimmed), for the entry mapper to read leniently and report on. Elements are matched by local
// name within their parent, whatever the prefix (files declare their namespaces every which way).
// Not well-formed XML ends the file at the first error, with its line and column; the entries
// completed before it are kept. Entities other than XML's five are refused (no DTD is read), so
// neither XXE nor entity expansion can happen.
import sax from 'sax';
import { xmlTextDecoder } from './xml-encoding';

export interface RawLink {
  rel?: string;
  hreflang?: string;
  href?: string;
}

export interface RawVideo {
  /** Text of each child element by local name (thumbnail_loc, title, family_friendly, …). */
  fields: Record<string, string>;
  tags: string[];
  /** Attributes of restriction, platform and uploader. */
  restrictionRelationship?: string;
  platformRelationship?: string;
  uploaderInfo?: string;
}

export interface RawNews {
  name?: string;
  language?: string;
  publicationDate?: string;
  title?: string;
}

export interface RawSitemapUrl {
  loc?: string;
  lastmod?: string;
  changefreq?: string;
  priority?: string;
  links: RawLink[];
  images: { loc?: string }[];
  videos: RawVideo[];
  news?: RawNews;
}

/** An element of the file's own (sitemap) namespace where the protocol has none: the XSD refuses it. */
export interface UnknownElement {
  name: string;
  parent: string;
  /** Where it first appears. */
  line: number;
}

export interface XmlPosition {
  line: number;
  column: number;
  message: string;
}

/** A field's text is kept up to this many characters: every field's limit is far below it, so a cut value stays invalid. */
const MAX_TEXT = 10_000;
/** Distinct unknown elements reported per file. */
const MAX_UNKNOWN = 100;

/** The sitemap namespace's elements, by parent: anything else in that namespace is unknown. */
const KNOWN_CHILDREN: Record<string, ReadonlySet<string>> = {
  urlset: new Set(['url']),
  url: new Set(['loc', 'lastmod', 'changefreq', 'priority']),
  sitemapindex: new Set(['sitemap']),
  sitemap: new Set(['loc', 'lastmod']),
};

type Item<K> = K extends 'urlset' ? RawSitemapUrl : string;

/** Reads `<url>` entries (urlset) or `<sitemap>` locs (sitemapindex) as the bytes arrive. */
export class SitemapXmlReader<K extends 'urlset' | 'sitemapindex'> {
  private readonly parser = sax.parser(true, {
    trim: false,
    normalize: false,
    position: true,
    strictEntities: true,
  } as sax.SAXOptions);
  private readonly decoder: { write(chunk: Uint8Array): string; end(): string };
  private readonly path: string[] = [];
  /** Per open element, the URI its prefix-less (or root-prefixed) names are in: namespaces nest. */
  private readonly rootUris: string[] = [];
  private root: { prefix: string; uri: string } | undefined;
  private readonly unknownSeen = new Set<string>();
  /** Unknown elements in the sitemap namespace not taken yet (`takeUnknown`). */
  private unknown: UnknownElement[] = [];
  private out: Item<K>[] = [];
  private text = '';
  private started = false;
  private url: RawSitemapUrl | undefined;
  private video: RawVideo | undefined;
  private image: { loc?: string } | undefined;
  private indexLoc: string | undefined;
  private inIndexEntry = false;
  /** The first well-formedness error: nothing after it is read. */
  error: XmlPosition | undefined;

  /** `encoding`: the WHATWG name sniffed from the file (sniffXmlEncoding). */
  constructor(
    readonly kind: K,
    encoding = 'utf-8',
  ) {
    this.decoder = xmlTextDecoder(encoding);
    this.parser.onerror = (error) => {
      this.error ??= {
        line: this.parser.line + 1,
        column: this.parser.column + 1,
        message: error.message.split('\n')[0] ?? error.message,
      };
    };
    // sax goes on after an error within the chunk it was given: nothing after it counts.
    this.parser.onopentag = (node) => {
      if (this.error) return;
      const attributes = node.attributes as Record<string, string>;
      this.checkNamespace(node.name, attributes);
      this.open(localName(node.name), attributes);
    };
    this.parser.onclosetag = (name) => {
      if (this.error) return;
      this.rootUris.pop();
      this.close(localName(name));
    };
    this.parser.ontext = (text) => void (this.error ?? this.append(text));
    this.parser.oncdata = (text) => void (this.error ?? this.append(text));
  }

  /** The items completed by this chunk. */
  write(chunk: Buffer): Item<K>[] {
    if (this.error) return [];
    let text = this.decoder.write(chunk);
    if (!this.started && text.length > 0) {
      this.started = true;
      // A UTF-8 byte order mark is no part of the document.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text.length > 0) this.parser.write(text);
    return this.take();
  }

  /** What is left; a file cut short is an error at its end. */
  end(): Item<K>[] {
    if (!this.error) {
      const rest = this.decoder.end();
      if (rest) this.parser.write(rest);
      if (!this.error) this.parser.close();
    }
    return this.take();
  }

  /** Unknown elements of the sitemap namespace met since the last call. */
  takeUnknown(): UnknownElement[] {
    const unknown = this.unknown;
    if (unknown.length > 0) this.unknown = [];
    return unknown;
  }

  /**
   * Notes an element in the root's namespace where the protocol names none. Only the levels the
   * protocol defines are checked (the root's children and theirs); extensions are in other namespaces.
   */
  private checkNamespace(qname: string, attributes: Record<string, string>): void {
    const colon = qname.indexOf(':');
    const prefix = colon === -1 ? '' : qname.slice(0, colon);
    if (this.root === undefined) {
      const uri = attributes[prefix === '' ? 'xmlns' : `xmlns:${prefix}`] ?? '';
      this.root = { prefix, uri };
      this.rootUris.push(uri);
      return;
    }
    const declared = attributes[this.root.prefix === '' ? 'xmlns' : `xmlns:${this.root.prefix}`];
    const uri = declared ?? this.rootUris[this.rootUris.length - 1] ?? '';
    this.rootUris.push(uri);
    const depth = this.path.length;
    if (depth > 2 || prefix !== this.root.prefix || uri !== this.root.uri) return;
    const parent = this.path[depth - 1] as string;
    const name = colon === -1 ? qname : qname.slice(colon + 1);
    if (KNOWN_CHILDREN[parent]?.has(name) !== false) return;
    const key = `${parent}/${name}`;
    if (this.unknownSeen.has(key) || this.unknownSeen.size >= MAX_UNKNOWN) return;
    this.unknownSeen.add(key);
    this.unknown.push({ name, parent, line: this.parser.line + 1 });
  }

  private take(): Item<K>[] {
    const items = this.out;
    this.out = [];
    return items;
  }

  private append(text: string): void {
    if (this.text.length < MAX_TEXT) this.text += text.slice(0, MAX_TEXT - this.text.length);
  }

  private open(name: string, attributes: Record<string, string>): void {
    this.text = '';
    const parent = this.path[this.path.length - 1];
    this.path.push(name);
    if (this.kind === 'sitemapindex') {
      if (name === 'sitemap' && parent === 'sitemapindex') this.inIndexEntry = true;
      return;
    }
    if (name === 'url' && parent === 'urlset') this.url = { links: [], images: [], videos: [] };
    if (!this.url) return;
    if (name === 'link' && parent === 'url') this.url.links.push(linkOf(attributes));
    else if (name === 'image' && parent === 'url') this.url.images.push((this.image = {}));
    else if (name === 'video' && parent === 'url') this.url.videos.push((this.video = { fields: {}, tags: [] }));
    else if (name === 'news' && parent === 'url') this.url.news ??= {};
    else if (this.video && parent === 'video') {
      const relationship = attribute(attributes, 'relationship');
      if (name === 'restriction' && relationship !== undefined) this.video.restrictionRelationship = relationship;
      if (name === 'platform' && relationship !== undefined) this.video.platformRelationship = relationship;
      const info = attribute(attributes, 'info');
      if (name === 'uploader' && info !== undefined) this.video.uploaderInfo = info;
    }
  }

  private close(name: string): void {
    this.path.pop();
    const parent = this.path[this.path.length - 1];
    const text = this.text.trim();
    this.text = '';
    if (this.kind === 'sitemapindex') {
      if (name === 'loc' && parent === 'sitemap' && this.inIndexEntry) this.indexLoc = text;
      else if (name === 'sitemap' && parent === 'sitemapindex') {
        if (this.indexLoc) this.out.push(this.indexLoc as Item<K>);
        this.indexLoc = undefined;
        this.inIndexEntry = false;
      }
      return;
    }
    const url = this.url;
    if (!url) return;
    if (parent === 'url') {
      if (name === 'loc' || name === 'lastmod' || name === 'changefreq' || name === 'priority') url[name] = text;
      else if (name === 'image') this.image = undefined;
      else if (name === 'video') this.video = undefined;
    } else if (parent === 'urlset' && name === 'url') {
      this.out.push(url as Item<K>);
      this.url = undefined;
    } else if (parent === 'image' && name === 'loc' && this.image) this.image.loc = text;
    else if (parent === 'video' && this.video) {
      if (name === 'tag') this.video.tags.push(text);
      else this.video.fields[name] = text;
    } else if (url.news && (parent === 'news' || parent === 'publication')) {
      if (name === 'name' && parent === 'publication') url.news.name = text;
      else if (name === 'language' && parent === 'publication') url.news.language = text;
      else if (name === 'publication_date') url.news.publicationDate = text;
      else if (name === 'title') url.news.title = text;
    }
  }
}

/**
 * Every item of a sitemap XML stream; `error()` tells, once read, where the file stopped being
 * XML, and `unknown()` the elements of the sitemap namespace the protocol does not define.
 */
export function readSitemapXml<K extends 'urlset' | 'sitemapindex'>(
  kind: K,
  source: AsyncIterable<Buffer | string>,
  encoding = 'utf-8',
) {
  const reader = new SitemapXmlReader(kind, encoding);
  const items = (async function* () {
    for await (const chunk of source) {
      yield* reader.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      if (reader.error) break;
    }
    yield* reader.end();
  })();
  return { items, error: () => reader.error, unknown: () => reader.takeUnknown() };
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/** An attribute by name, in any case (xhtml:link is written HREFLANG= and Rel= too). */
function attribute(attributes: Record<string, string>, name: string): string | undefined {
  if (attributes[name] !== undefined) return attributes[name];
  for (const key of Object.keys(attributes)) if (localName(key).toLowerCase() === name) return attributes[key];
  return undefined;
}

function linkOf(attributes: Record<string, string>): RawLink {
  const link: RawLink = {};
  const rel = attribute(attributes, 'rel');
  const hreflang = attribute(attributes, 'hreflang');
  const href = attribute(attributes, 'href');
  if (rel !== undefined) link.rel = rel;
  if (hreflang !== undefined) link.hreflang = hreflang;
  if (href !== undefined) link.href = href;
  return link;
}
