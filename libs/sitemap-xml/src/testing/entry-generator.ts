// Seeded generator of raw URL entries for the differential and round-trip tests: every
// extension and optional field, and strings built to break writers (the five XML specials,
// `]]>`, entity look-alikes, non-ASCII, emoji and ZWJ sequences, combining marks, tabs and
// line breaks, astral-plane characters, long values). All entries are meant to be valid
// input; the tests check that they normalize.

export interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/** mulberry32: small, fast, and the same sequence on every run. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
  };
}

const TEXT_PIECES = [
  '&',
  "'",
  '"',
  '<',
  '>',
  ']]>',
  '&amp;',
  '&#x26;',
  '&lt;b&gt;',
  '<![CDATA[x]]>',
  '<!-- c -->',
  'é',
  'ß',
  'Ω',
  '中文',
  'عربى',
  'עברית',
  'a\u0301',
  '\u200d',
  '😀',
  '👩‍👩‍👧',
  '\u{1F1FA}\u{1F1F8}',
  '\u{10FFFF}',
  '\uFFFD',
  '\u007F',
  '\u0085',
  '\u00A0',
  '\u2028',
  '\t',
  '\n',
  '\r\n',
  '\r',
  ' ',
  'plain',
  'words',
  'Video',
  'title',
  '%41',
  '\\',
  '{x}',
  '$1',
  'null',
] as const;

export function hostileText(rng: Rng, maxLength: number): string {
  const target = rng.int(1, maxLength);
  let text = rng.pick(['a', 'Z', '&', '<', '😀', 'é', '"']);
  while (text.length < target) text += rng.pick(TEXT_PIECES);
  text = cut(text, maxLength);
  return text.trim() === '' ? 'x' : text;
}

/** At most `maxLength` UTF-16 units, without splitting a surrogate pair. */
function cut(text: string, maxLength: number): string {
  let out = text.slice(0, maxLength);
  if (/[\uD800-\uDBFF]$/.test(out)) out = out.slice(0, -1);
  return out;
}

const PATH_PIECES = [
  'shop',
  'product',
  'ü',
  'straße',
  '中文',
  '😀',
  ' ',
  "'",
  '&',
  '"',
  '<',
  '>',
  '%20',
  '%zz',
  '%E2%82%AC',
  '[',
  ']',
  '|',
  '^',
  '`',
  '{',
  '}',
  '~',
  '!',
  '$',
  '(',
  ')',
  '*',
  '+',
  ',',
  ';',
  '=',
  ':',
  '@',
  '-',
  '.',
] as const;

export function hostilePath(rng: Rng, maxLength = 120): string {
  const segments = rng.int(1, 4);
  let path = '';
  for (let s = 0; s < segments; s++) {
    path += '/';
    const pieces = rng.int(1, 5);
    for (let p = 0; p < pieces; p++) path += rng.pick(PATH_PIECES);
  }
  if (rng.chance(0.5)) path += `?q=${rng.pick(['a&b', "it's", '<x>', 'ü', '😀', '"q"', 'a b'])}&n=${rng.int(0, 999)}`;
  if (rng.chance(0.2)) path += `#${rng.pick(['top', 'ä', 'x y'])}`;
  return cut(path, maxLength);
}

const OTHER_HOSTS = [
  'https://shop.example.co.uk',
  'https://shop.example.de',
  'https://bücher.example',
  'http://例え.jp',
  'https://EXAMPLE.fr:8443',
  'https://cdn.example.com',
] as const;

const HREFLANGS = [
  'en',
  'en-GB',
  'EN-us',
  'de-DE',
  'fr',
  'fr-CA',
  'zh-Hant-TW',
  'zh-hans',
  'pt-BR',
  'es-MX',
  'ja',
  'sr-Latn',
  'x-default',
  'X-Default',
  'nb-NO',
  'ar-EG',
  'he',
  'ko-KR',
] as const;

function lastmod(rng: Rng): string {
  const year = rng.int(1995, 2030);
  const month = String(rng.int(1, 12)).padStart(2, '0');
  const day = String(rng.int(1, 28)).padStart(2, '0');
  const date = `${year}-${month}-${day}`;
  const hh = String(rng.int(0, 23)).padStart(2, '0');
  const mm = String(rng.int(0, 59)).padStart(2, '0');
  const ss = String(rng.int(0, 59)).padStart(2, '0');
  switch (rng.int(0, 4)) {
    case 0:
      return date;
    case 1:
      return `${date}T${hh}:${mm}Z`;
    case 2:
      return `${date}T${hh}:${mm}:${ss}+05:30`;
    case 3:
      return `${date}T${hh}:${mm}:${ss}.${rng.int(0, 999999)}-08:00`;
    default:
      return `${date}T${hh}:${mm}:${ss}Z`;
  }
}

export interface RawEntry {
  [key: string]: unknown;
}

/** One raw entry with a random subset of every feature. */
export function generateRawEntry(rng: Rng, origin: string, index: number): RawEntry {
  const loc = `${origin}/p${index}${hostilePath(rng)}`;
  const entry: RawEntry = { loc };
  if (rng.chance(0.7)) entry.lastmod = lastmod(rng);
  if (rng.chance(0.4))
    entry.changefreq = rng.pick(['always', 'hourly', 'Daily', 'weekly', 'monthly', 'yearly', 'never']);
  if (rng.chance(0.4)) entry.priority = rng.int(0, 100) / 100;
  if (rng.chance(0.6)) {
    const count = rng.int(1, 8);
    const used = new Set<string>();
    const alternates: { hreflang: string; href: string }[] = [];
    for (let i = 0; i < count; i++) {
      const code = rng.pick(HREFLANGS);
      if (used.has(code.toLowerCase())) continue;
      used.add(code.toLowerCase());
      alternates.push({
        hreflang: code,
        href: `${rng.pick(OTHER_HOSTS)}/${code}/alt-${index}-${i}${hostilePath(rng, 60)}`,
      });
    }
    entry.alternates = alternates;
  }
  if (rng.chance(0.4)) {
    entry.images = Array.from({ length: rng.int(1, 6) }, (_, i) => ({
      loc: `https://cdn.example.com/img/${index}/${i}${hostilePath(rng, 40)}.jpg`,
    }));
  }
  if (rng.chance(0.35)) {
    entry.videos = Array.from({ length: rng.int(1, 2) }, (_, i) => generateVideo(rng, index, i));
  }
  if (rng.chance(0.25)) {
    entry.news = {
      publicationName: hostileText(rng, 60),
      publicationLanguage: rng.pick(['en', 'DE', 'zh-cn', 'zh-TW', 'fra', 'haw', 'ja']),
      publicationDate: lastmod(rng),
      title: hostileText(rng, 180),
    };
  }
  return entry;
}

function generateVideo(rng: Rng, index: number, i: number): RawEntry {
  const video: RawEntry = {
    thumbnailLoc: `https://cdn.example.com/thumb/${index}-${i}${hostilePath(rng, 40)}.jpg`,
    title: hostileText(rng, 100),
    description: hostileText(rng, rng.chance(0.1) ? 2048 : 300),
  };
  const which = rng.int(0, 2);
  if (which !== 1) video.contentLoc = `https://cdn.example.com/video/${index}-${i}${hostilePath(rng, 40)}.mp4`;
  if (which !== 0) video.playerLoc = `https://player.example.com/embed?v=${index}-${i}&autoplay=1`;
  if (rng.chance(0.6)) video.duration = rng.int(1, 28_800);
  if (rng.chance(0.3)) video.expirationDate = lastmod(rng);
  if (rng.chance(0.5)) video.rating = rng.int(0, 500) / 100;
  if (rng.chance(0.5)) video.viewCount = rng.int(0, 2_000_000_000);
  if (rng.chance(0.5)) video.publicationDate = lastmod(rng);
  if (rng.chance(0.5)) video.familyFriendly = rng.chance(0.5);
  if (rng.chance(0.3)) {
    video.restriction = {
      relationship: rng.pick(['allow', 'deny', 'ALLOW']),
      countries: Array.from({ length: rng.int(1, 5) }, () => rng.pick(['US', 'ca', 'GB', 'DE', 'fr', 'JP', 'BR'])),
    };
  }
  if (rng.chance(0.3)) {
    video.platform = {
      relationship: rng.pick(['allow', 'deny']),
      platforms: Array.from({ length: rng.int(1, 3) }, () => rng.pick(['web', 'mobile', 'TV'])),
    };
  }
  if (rng.chance(0.4)) video.requiresSubscription = rng.chance(0.5);
  if (rng.chance(0.4)) {
    video.uploader = rng.chance(0.5)
      ? { name: hostileText(rng, 255) }
      : { name: hostileText(rng, 40), info: `https://shop.example.com/users/${index}${hostilePath(rng, 30)}` };
  }
  if (rng.chance(0.4)) video.live = rng.chance(0.5);
  if (rng.chance(0.5)) video.tags = Array.from({ length: rng.int(1, 32) }, () => hostileText(rng, 30));
  return video;
}
