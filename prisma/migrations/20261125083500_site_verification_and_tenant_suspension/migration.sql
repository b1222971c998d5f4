-- DropIndex
DROP INDEX "sites_hostname_key";

-- DropIndex
DROP INDEX "sites_tenant_id_idx";

-- AlterTable
ALTER TABLE "sites" ADD COLUMN     "verification_checked_at" TIMESTAMPTZ(3),
ADD COLUMN     "verification_due_at" TIMESTAMPTZ(3),
ADD COLUMN     "verification_error" TEXT,
ADD COLUMN     "verification_error_code" TEXT,
ADD COLUMN     "verification_failing_since" TIMESTAMPTZ(3),
ADD COLUMN     "verification_failures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "verification_status" TEXT NOT NULL DEFAULT 'verified',
ADD COLUMN     "verification_token" TEXT NOT NULL DEFAULT replace((gen_random_uuid())::text, '-'::text, ''::text),
ADD COLUMN     "verified_at" TIMESTAMPTZ(3);

-- Sites that exist already were registered before proofs existed: they stay verified (and served),
-- without scheduled re-checks. New sites start pending.
ALTER TABLE "sites" ALTER COLUMN "verification_status" SET DEFAULT 'pending';

-- AlterTable
ALTER TABLE "tenants" ADD COLUMN     "suspended_at" TIMESTAMPTZ(3),
ADD COLUMN     "suspended_reason" TEXT;

-- CreateTable
CREATE TABLE "audit_entries" (
    "id" BIGSERIAL NOT NULL,
    "actor" TEXT NOT NULL,
    "actor_ip" TEXT,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_entries_target_id_id_idx" ON "audit_entries"("target_id", "id");

-- CreateIndex
CREATE INDEX "sites_hostname_idx" ON "sites"("hostname");

-- CreateIndex
CREATE INDEX "sites_verification_due_at_idx" ON "sites"("verification_due_at");

-- CreateIndex
CREATE UNIQUE INDEX "sites_tenant_id_hostname_key" ON "sites"("tenant_id", "hostname");

-- CreateIndex
CREATE UNIQUE INDEX "sites_verified_hostname_key" ON "sites"("hostname") WHERE (verification_status = 'verified'::text);
