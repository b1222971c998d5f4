-- hreflang links move into the URL row (one row per URL with its cluster), and memberships of pages
-- not stored yet go to pending_alternates. Links on other hosts are no longer tracked one by one.

-- AlterTable
ALTER TABLE "urls" ADD COLUMN     "alternates" JSON;

-- CreateTable
CREATE TABLE "pending_alternates" (
    "site_id" UUID NOT NULL,
    "href_hash" BYTEA NOT NULL,
    "href" TEXT NOT NULL,
    "links" JSON NOT NULL,

    CONSTRAINT "pending_alternates_pkey" PRIMARY KEY ("site_id","href_hash")
);

-- Carry the clusters over. The cluster of an href is the one it has a language in (its
-- x-default membership only when it has no language). A cluster of one gives no links. Links
-- are in canonical order (by code), as the ingest writes them.
CREATE TEMP TABLE "migrated_clusters" AS
  SELECT "site_id", "cluster_key", count(*) AS "n",
         json_agg(json_build_object('hreflang', "hreflang", 'href', "href") ORDER BY "hreflang" COLLATE "C") AS "links"
    FROM "alternates" GROUP BY "site_id", "cluster_key";
CREATE TEMP TABLE "migrated_members" AS
  SELECT DISTINCT ON ("site_id", "href_hash") "site_id", "href_hash", "href", "cluster_key"
    FROM "alternates" ORDER BY "site_id", "href_hash", ("hreflang" = 'x-default'), "hreflang";

UPDATE "urls" u SET "alternates" = c."links"
  FROM "migrated_members" m JOIN "migrated_clusters" c ON c."site_id" = m."site_id" AND c."cluster_key" = m."cluster_key"
 WHERE u."site_id" = m."site_id" AND u."loc_hash" = m."href_hash" AND u."deleted_at" IS NULL AND c."n" > 1;

INSERT INTO "pending_alternates" ("site_id", "href_hash", "href", "links")
SELECT m."site_id", m."href_hash", m."href", c."links"
  FROM "migrated_members" m
  JOIN "migrated_clusters" c ON c."site_id" = m."site_id" AND c."cluster_key" = m."cluster_key"
  JOIN "sites" s ON s."id" = m."site_id"
 WHERE c."n" > 1 AND starts_with(m."href", s."scheme" || '://' || s."hostname" || '/')
   AND NOT EXISTS (SELECT 1 FROM "urls" u WHERE u."site_id" = m."site_id" AND u."loc_hash" = m."href_hash" AND u."deleted_at" IS NULL);

DROP TABLE "migrated_members";
DROP TABLE "migrated_clusters";

-- DropTable
DROP TABLE "alternates";
