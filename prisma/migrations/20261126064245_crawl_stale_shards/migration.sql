-- AlterTable
ALTER TABLE "sites" ADD COLUMN     "stale_after_days" INTEGER;

-- CreateTable
CREATE TABLE "stale_shard_notices" (
    "site_id" UUID NOT NULL,
    "path" TEXT NOT NULL,
    "modified_at" TIMESTAMPTZ(3) NOT NULL,
    "notified_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stale_shard_notices_pkey" PRIMARY KEY ("site_id","path")
);

-- AddForeignKey
ALTER TABLE "stale_shard_notices" ADD CONSTRAINT "stale_shard_notices_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;
