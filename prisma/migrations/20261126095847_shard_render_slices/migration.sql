-- AlterTable
ALTER TABLE "shard_renders" ADD COLUMN     "slices" JSONB;

-- CreateIndex
CREATE INDEX "shard_renders_shard_id_created_at_idx" ON "shard_renders"("shard_id", "created_at");
