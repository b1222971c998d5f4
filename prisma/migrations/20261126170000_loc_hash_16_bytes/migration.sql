-- Loc hashes become the first 16 bytes of sha256 (`locHash` in libs/domain), from 32: the
-- random-keyed unique index `urls (site_id, loc_hash)` that every new URL descends twice is 24%
-- smaller and stays a level shorter to about 2.5 million URLs a site (docs/scaling.md).
-- Rewrites every row of `urls` once: on a large table, run it in a quiet window and VACUUM after.
UPDATE "urls" SET "loc_hash" = substring("loc_hash" FROM 1 FOR 16) WHERE length("loc_hash") > 16;
UPDATE "pending_alternates" SET "href_hash" = substring("href_hash" FROM 1 FOR 16) WHERE length("href_hash") > 16;
REINDEX INDEX "urls_site_id_loc_hash_key";
