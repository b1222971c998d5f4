-- AlterTable
ALTER TABLE "people" ADD COLUMN     "platform_role" TEXT;
