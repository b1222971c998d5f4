// What a tenant sees of the crawlers: per published file, when each verified crawler last read it,
// and whether it has been read since its bytes last changed ("waiting for Googlebot").
import { INDEX_PATH } from '../shards/shard-naming';
import type { ManifestFiles } from '../builds/manifest-merge';

/** A verified crawler's first and last read of one file (2xx or 304). */
export interface FileRead {
  path: string;
  crawler: string;
  firstAt: Date;
  lastAt: Date;
}

export interface CrawledFileView {
  path: string;
  kind: 'index' | 'shard' | 'text';
  /** When the bytes at this path last changed; null for manifests published before it was recorded. */
  modifiedAt: Date | null;
  reads: { crawler: string; lastReadAt: Date; readSinceChange: boolean }[];
  /** Verified crawlers that read the site's index but not this file since it changed. */
  waitingFor: string[];
}

export interface CrawlerView {
  crawler: string;
  /** Its first and last verified read of the index. */
  firstReadAt: Date;
  lastReadAt: Date;
}

/** Published files with their reads, in path order (the index first). */
export function crawledFiles(
  files: ManifestFiles,
  reads: FileRead[],
): { crawlers: CrawlerView[]; files: CrawledFileView[] } {
  const byPath = new Map<string, FileRead[]>();
  for (const read of reads) byPath.set(read.path, [...(byPath.get(read.path) ?? []), read]);
  const crawlers = (byPath.get(INDEX_PATH) ?? []).map((read) => ({
    crawler: read.crawler,
    firstReadAt: read.firstAt,
    lastReadAt: read.lastAt,
  }));
  const views = Object.entries(files)
    .sort(([a], [b]) => (a === INDEX_PATH ? -1 : b === INDEX_PATH ? 1 : a.localeCompare(b, 'en', { numeric: true })))
    .map(([path, file]): CrawledFileView => {
      const modifiedAt = file.modifiedAt ? new Date(file.modifiedAt) : null;
      const fileReads = (byPath.get(path) ?? []).map((read) => ({
        crawler: read.crawler,
        lastReadAt: read.lastAt,
        readSinceChange: modifiedAt === null || read.lastAt >= modifiedAt,
      }));
      const current = new Set(fileReads.filter((read) => read.readSinceChange).map((read) => read.crawler));
      return {
        path,
        kind: file.kind,
        modifiedAt,
        reads: fileReads,
        waitingFor: crawlers.map((c) => c.crawler).filter((crawler) => !current.has(crawler)),
      };
    });
  return { crawlers, files: views };
}
