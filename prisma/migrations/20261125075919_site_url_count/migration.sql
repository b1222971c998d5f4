-- The tenant URL quota adds up a counter per site, kept by every write in its own transaction,
-- instead of counting all the tenant's live URLs on every write. Its initial value is the live
-- count at the time of the migration (the statement runs in the migration's transaction, so a
-- write cannot slip between the column and its value).

-- AlterTable
ALTER TABLE "sites" ADD COLUMN     "url_count" INTEGER NOT NULL DEFAULT 0;

-- Backfill
UPDATE "sites" s SET "url_count" = c."n"
  FROM (SELECT "site_id", count(*)::int AS "n" FROM "urls" WHERE "deleted_at" IS NULL GROUP BY "site_id") AS c
 WHERE s."id" = c."site_id";
