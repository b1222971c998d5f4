-- AlterTable
ALTER TABLE "manifests" ADD COLUMN     "redirects" JSONB NOT NULL DEFAULT '{}';
