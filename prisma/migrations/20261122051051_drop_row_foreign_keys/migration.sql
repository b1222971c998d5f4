-- DropForeignKey
ALTER TABLE "alternates" DROP CONSTRAINT "alternates_site_id_fkey";

-- DropForeignKey
ALTER TABLE "urls" DROP CONSTRAINT "urls_shard_id_fkey";

-- DropForeignKey
ALTER TABLE "urls" DROP CONSTRAINT "urls_site_id_fkey";
