-- AlterTable
ALTER TABLE "sites" ADD COLUMN     "xsl_stylesheet" BOOLEAN NOT NULL DEFAULT false;
