-- The loc-hash index becomes a hash index: one bucket page per lookup or insert, however large
-- the site, where the unique btree (site_id, loc_hash) was descended twice per new URL, level by
-- random level, and cost more per URL as sites grew (docs/scaling.md). Hash indexes cannot be
-- unique: one row per loc and site is kept by its only writer, the ingest lib, under the site's
-- URL lock (as the absent foreign keys are).

-- CreateIndex
CREATE INDEX "urls_loc_hash_idx" ON "urls" USING HASH ("loc_hash");

-- DropIndex
DROP INDEX "urls_site_id_loc_hash_key";

-- The lookups' plans rest on loc_hash's statistics (distinct per row) now that no unique index
-- caps their estimates: have them before the first lookup, not at autovacuum's first pass.
ANALYZE "urls";
