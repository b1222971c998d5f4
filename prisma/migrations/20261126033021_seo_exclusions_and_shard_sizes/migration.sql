-- AlterTable
ALTER TABLE "sites" ADD COLUMN     "exclusion_rules" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "section_shard_sizes" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "shard_size" INTEGER;

-- AlterTable
ALTER TABLE "urls" ADD COLUMN     "excluded" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "urls_excluded_idx" ON "urls"("site_id") WHERE (excluded);
