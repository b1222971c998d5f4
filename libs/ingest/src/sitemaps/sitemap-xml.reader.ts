// Sitemap XML read with sax, into raw strings: each field exactly as the file spells it (text
// trimmed), for the entry mapper to read leniently and report on. Elements are matched by local
// name within their parent, whatever the prefix (files declare their namespaces every which way).
// Not well-formed XML ends the file at the first error, with its line and column; the entries
// completed before it are kept. Entities other than XML's five are refused (no DTD is read), so
// neither XXE nor entity expansion can happen.
import { StringDecoder } from 'node:string_decoder';
import sax from 'sax';

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

export interface XmlPosition {
  line: number;
  column: number;
  message: string;
}

/** A field's text is kept up to this many characters: every field's limit is far below it, so a cut value stays invalid. */
const MAX_TEXT = 10_000;

type Item<K> = K extends 'urlset' ? RawSitemapUrl : string;

/** Reads `<url>` entries (urlset) or `<sitemap>` locs (sitemapindex) as the bytes arrive. */
export class SitemapXmlReader<K extends 'urlset' | 'sitemapindex'> {
  private readonly parser = sax.parser(true, {
    trim: false,
    normalize: false,
    position: true,
    strictEntities: true,
  } as sax.SAXOptions);
  private readonly decoder = new StringDecoder('utf8');
  private readonly path: string[] = [];
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

  constructor(readonly kind: K) {
    this.parser.onerror = (error) => {
      this.error ??= {
        line: this.parser.line + 1,
        column: this.parser.column + 1,
        message: error.message.split('\n')[0] ?? error.message,
      };
    };
    // sax goes on after an error within the chunk it was given: nothing after it counts.
    this.parser.onopentag = (node) =>
      void (this.error ?? this.open(localName(node.name), node.attributes as Record<string, string>));
    this.parser.onclosetag = (name) => void (this.error ?? this.close(localName(name)));
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

/** Every item of a sitemap XML stream; `error()` tells, once read, where the file stopped being XML. */
export function readSitemapXml<K extends 'urlset' | 'sitemapindex'>(kind: K, source: AsyncIterable<Buffer | string>) {
  const reader = new SitemapXmlReader(kind);
  const items = (async function* () {
    for await (const chunk of source) {
      yield* reader.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      if (reader.error) break;
    }
    yield* reader.end();
  })();
  return { items, error: () => reader.error };
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
