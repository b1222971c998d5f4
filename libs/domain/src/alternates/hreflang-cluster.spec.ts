import { describe, expect, it } from 'vitest';
import { clusterOf, declareCluster } from './hreflang-cluster';

const en = 'https://a.com/en';
const de = 'https://a.com/de';

describe('declareCluster', () => {
  it('adds the URL itself when only its own code is given', () => {
    const result = declareCluster(en, 'en', [{ hreflang: 'de', href: de }]);
    expect(result.ok && result.cluster.members).toEqual([
      { hreflang: 'de', href: de },
      { hreflang: 'en', href: en },
    ]);
  });

  it('gives the same members to the same cluster declared from either side', () => {
    const fromEn = declareCluster(en, undefined, [
      { hreflang: 'en', href: en },
      { hreflang: 'de', href: de },
    ]);
    const fromDe = declareCluster(de, 'de', [{ hreflang: 'en', href: en }]);
    expect(fromEn.ok && fromEn.cluster.members).toEqual(fromDe.ok && fromDe.cluster.members);
  });

  it('allows x-default to name a page that also has a language', () => {
    const result = declareCluster(en, undefined, [
      { hreflang: 'en', href: en },
      { hreflang: 'x-default', href: en },
      { hreflang: 'de', href: de },
    ]);
    expect(result.ok).toBe(true);
  });

  it('rejects a missing own code, a conflicting one, and two URLs for one code', () => {
    expect(declareCluster(en, undefined, [{ hreflang: 'de', href: de }])).toMatchObject({
      ok: false,
      code: 'HREFLANG_SELF_MISSING',
      field: 'hreflang',
    });
    expect(declareCluster(en, 'fr', [{ hreflang: 'en', href: en }])).toMatchObject({
      ok: false,
      code: 'HREFLANG_CONFLICT',
    });
    expect(declareCluster(en, 'de', [{ hreflang: 'de', href: de }])).toMatchObject({
      ok: false,
      code: 'DUPLICATE_HREFLANG',
    });
  });

  it('orders members canonically', () => {
    expect(
      clusterOf([
        { hreflang: 'fr', href: 'x' },
        { hreflang: 'de', href: 'y' },
      ]).members.map((m) => m.hreflang),
    ).toEqual(['de', 'fr']);
  });
});

describe('cluster order and duplicates at every size', () => {
  // Small clusters take a pairwise path, large ones a Set and Array#sort: both must agree with
  // the plain definitions.
  const codes = [
    'x-default',
    'en',
    'de',
    'fr',
    'es',
    'it',
    'nl',
    'pt',
    'pl',
    'sv',
    'da',
    'fi',
    'nb',
    'cs',
    'hu',
    'ro',
    'el',
    'bg',
    'hr',
    'sk',
    'sl',
    'et',
    'lv',
    'lt',
  ];
  for (const size of [1, 2, 3, 15, 16, 17, 24]) {
    it(`orders ${size} members by code and finds the first repeated code`, () => {
      const members = codes.slice(0, size).map((code, i) => ({ hreflang: code, href: `https://a.com/${i}` }));
      const shuffled = [...members].reverse();
      expect(clusterOf(shuffled).members).toEqual([...members].sort((a, b) => (a.hreflang < b.hreflang ? -1 : 1)));
      const self = shuffled[0] as { hreflang: string; href: string };
      const declared = declareCluster(self.href, undefined, shuffled);
      expect(declared.ok && declared.cluster.members.map((m) => m.hreflang)).toEqual([...codes.slice(0, size)].sort());
      if (size > 1) {
        // A repeat of the code at position 1, placed last: reported at the repeat's position.
        const repeated = declareCluster(self.href, undefined, [
          ...shuffled,
          { hreflang: (shuffled[1] as { hreflang: string }).hreflang, href: 'https://a.com/again' },
        ]);
        expect(repeated).toMatchObject({
          ok: false,
          code: 'DUPLICATE_HREFLANG',
          field: `alternates[${size}].hreflang`,
        });
      }
    });
  }
});
