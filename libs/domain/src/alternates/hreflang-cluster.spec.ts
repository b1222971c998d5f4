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
    const fromEn = declareCluster(en, undefined, [{ hreflang: 'en', href: en }, { hreflang: 'de', href: de }]);
    const fromDe = declareCluster(de, 'de', [{ hreflang: 'en', href: en }]);
    expect(fromEn.ok && fromEn.cluster.members).toEqual(fromDe.ok && fromDe.cluster.members);
  });

  it('allows x-default to name a page that also has a language', () => {
    const result = declareCluster(en, undefined, [{ hreflang: 'en', href: en }, { hreflang: 'x-default', href: en }, { hreflang: 'de', href: de }]);
    expect(result.ok).toBe(true);
  });

  it('rejects a missing own code, a conflicting one, and two URLs for one code', () => {
    expect(declareCluster(en, undefined, [{ hreflang: 'de', href: de }])).toMatchObject({ ok: false, code: 'HREFLANG_SELF_MISSING', field: 'hreflang' });
    expect(declareCluster(en, 'fr', [{ hreflang: 'en', href: en }])).toMatchObject({ ok: false, code: 'HREFLANG_CONFLICT' });
    expect(declareCluster(en, 'de', [{ hreflang: 'de', href: de }])).toMatchObject({ ok: false, code: 'DUPLICATE_HREFLANG' });
  });

  it('orders members canonically', () => {
    expect(clusterOf([{ hreflang: 'fr', href: 'x' }, { hreflang: 'de', href: 'y' }]).members.map((m) => m.hreflang)).toEqual(['de', 'fr']);
  });
});
