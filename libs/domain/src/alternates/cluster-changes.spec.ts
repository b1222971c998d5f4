import { describe, expect, it } from 'vitest';
import { locHash } from '../urls/url-content';
import { ClusterChanges, sameLinks, type Links } from './cluster-changes';
import { clusterOf } from './hreflang-cluster';

const own = (path: string) => `https://a.example${path}`;
const page = (path: string) => {
  const hash = locHash(own(path));
  return { hash, hex: hash.toString('hex'), url: { loc: own(path) } };
};
const cluster = (members: Record<string, string>): Links =>
  clusterOf(
    Object.entries(members).map(([hreflang, href]) => ({ hreflang, href: href.startsWith('/') ? own(href) : href })),
  ).members;
const hrefs = (links: Links | undefined) =>
  links?.map((link) => `${link.hreflang}=${link.href.replace('https://a.example', '')}`);

describe('ClusterChanges', () => {
  const changes = () => new ClusterChanges('https://a.example/');

  it('claims only the pages of the site among the members', () => {
    const plan = changes();
    plan.join(cluster({ en: '/en', de: '/de', fr: 'https://a.fr/' }), page('/en'));
    expect([...plan.touched()].map((claim) => claim.href).sort()).toEqual([own('/de'), own('/en')]);
  });

  it('gives every member the whole cluster, and no links to a cluster of one', () => {
    const plan = changes();
    const links = cluster({ en: '/en', de: '/de' });
    plan.join(links, page('/en'));
    plan.join(cluster({ en: '/solo' }), page('/solo'));
    expect(plan.linksOf(page('/de').hex)).toBe(links);
    expect(plan.linksOf(page('/solo').hex)).toBeUndefined();
  });

  it('lets a later declaration take a page, and shrinks the cluster it left', () => {
    const plan = changes();
    plan.join(cluster({ en: '/a', de: '/b' }), page('/a'));
    plan.join(cluster({ fr: '/c', en: '/a' }), page('/c'));
    expect(hrefs(plan.linksOf(page('/a').hex))).toEqual(['en=/a', 'fr=/c']);
    // /b was listed only by the declaration /c replaced: a cluster of one is no cluster.
    expect(plan.linksOf(page('/b').hex)).toBeUndefined();
  });

  it('keeps what is left of a stored cluster for its other pages when one leaves', () => {
    const plan = changes();
    const stored = cluster({ en: '/en', de: '/de', fr: '/fr' });
    plan.leave(page('/en').hash, page('/en').hex, own('/en'));
    plan.setStored(page('/en').hex, stored);
    const remainders = plan.remainders();
    expect([...remainders.values()].map((r) => r.href).sort()).toEqual([own('/de'), own('/fr')]);
    plan.setStored(page('/de').hex, stored);
    plan.setStored(page('/fr').hex, stored);
    expect(hrefs(plan.linksOf(page('/de').hex))).toEqual(['de=/de', 'fr=/fr']);
    expect(plan.linksOf(page('/en').hex)).toBeUndefined();
  });

  it('drops a deleted page from its cluster, down to no links when one page is left', () => {
    const plan = changes();
    const stored = cluster({ en: '/en', de: '/de' });
    plan.depart(page('/de').hash, page('/de').hex, own('/de'), stored);
    expect([...plan.remainders().keys()]).toEqual([page('/en').hex]);
    plan.setStored(page('/en').hex, stored);
    expect(plan.linksOf(page('/en').hex)).toBeUndefined();
  });

  it('leaves alone a page whose stored links are not the cluster that named it', () => {
    const plan = changes();
    plan.depart(page('/de').hash, page('/de').hex, own('/de'), cluster({ en: '/en', de: '/de', fr: '/fr' }));
    plan.remainders();
    const elsewhere = cluster({ en: '/en', it: '/it' });
    plan.setStored(page('/en').hex, elsewhere);
    expect(plan.linksOf(page('/en').hex)).toEqual(elsewhere);
  });

  it('changes nothing for a cluster declared again as stored', () => {
    const plan = changes();
    const stored = cluster({ en: '/en', de: '/de' });
    plan.join(cluster({ en: '/en', de: '/de' }), page('/en'));
    plan.setStored(page('/en').hex, stored);
    plan.setStored(page('/de').hex, stored);
    expect(plan.remainders().size).toBe(0);
    expect(sameLinks(plan.linksOf(page('/de').hex), stored)).toBe(true);
  });

  it('lets two clusters name the same page on another host', () => {
    const plan = changes();
    plan.join(cluster({ en: '/a', fr: 'https://a.fr/x' }), page('/a'));
    plan.join(cluster({ en: '/b', fr: 'https://a.fr/x' }), page('/b'));
    expect(hrefs(plan.linksOf(page('/a').hex))).toEqual(['en=/a', 'fr=https://a.fr/x']);
    expect(hrefs(plan.linksOf(page('/b').hex))).toEqual(['en=/b', 'fr=https://a.fr/x']);
  });
});
