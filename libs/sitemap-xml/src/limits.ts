// The protocol's and Google's numeric limits, in one place so the shard planner and the
// writers agree on them.

/** URLs per sitemap file (sitemaps.org). */
export const MAX_URLS_PER_FILE = 50_000;
/** Uncompressed bytes per sitemap file, header and footer included (50 MiB). */
export const MAX_BYTES_PER_FILE = 52_428_800;
/** `<sitemap>` entries per index file. */
export const MAX_INDEX_ENTRIES = 50_000;
/** A URL must be *under* 2,048 characters, measured after IRI→URI normalization. */
export const MAX_URL_LENGTH = 2_047;
/** sitemap.xsd gives `<loc>` a minLength of 12 (`http://a.bc/`). */
export const MIN_LOC_LENGTH = 12;
/**
 * Decimals a `<priority>` keeps (ours: the schema's xsd:decimal sets none). Three keep every
 * value a site plausibly sends (0.55, 0.125) and are exact in the float4 column.
 */
export const PRIORITY_DECIMALS = 3;
/**
 * Members of one hreflang cluster (ours, not Google's: it sets none). Every member's <url> lists
 * every member, so a cluster of n writes n² links: 256 languages and regions is more than any
 * site publishes, and 65,536 links; 1,000 members would be a million.
 */
export const MAX_CLUSTER_SIZE = 256;
/** `<image:image>` per `<url>` (Google). */
export const MAX_IMAGES_PER_URL = 1_000;
/** video:title maxLength in sitemap-video.xsd. */
export const MAX_VIDEO_TITLE_LENGTH = 100;
export const MAX_VIDEO_DESCRIPTION_LENGTH = 2_048;
export const MIN_VIDEO_DURATION = 1;
export const MAX_VIDEO_DURATION = 28_800;
export const MAX_VIDEO_RATING = 5;
export const MAX_VIDEO_TAGS = 32;
export const MAX_VIDEO_UPLOADER_LENGTH = 255;
