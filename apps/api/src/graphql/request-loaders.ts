// By-id lookups of one GraphQL request become one query: `a: site(id: 1) b: site(id: 2)` asks the
// database once. One DataLoader per request and kind, dropped with the request.
import DataLoader from 'dataloader';

const loaders = new WeakMap<object, Map<string, DataLoader<unknown, unknown>>>();

export function requestLoader<K, V>(
  request: object,
  kind: string,
  batch: (keys: readonly K[]) => Promise<(V | Error)[]>,
): DataLoader<K, V> {
  let byKind = loaders.get(request);
  if (!byKind) loaders.set(request, (byKind = new Map()));
  let loader = byKind.get(kind) as DataLoader<K, V> | undefined;
  if (!loader) byKind.set(kind, (loader = new DataLoader<K, V>(batch)));
  return loader;
}
