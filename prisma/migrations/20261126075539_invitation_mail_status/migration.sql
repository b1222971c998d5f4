-- AlterTable
ALTER TABLE "invitations" ADD COLUMN     "mail_error" TEXT,
ADD COLUMN     "mail_status" TEXT NOT NULL DEFAULT 'queued';

-- AlterTable
ALTER TABLE "password_resets" ADD COLUMN     "mailed_at" TIMESTAMPTZ(3);

-- Invitations and resets made before the mail queue were mailed in their request.
UPDATE "invitations" SET "mail_status" = 'sent';
UPDATE "password_resets" SET "mailed_at" = "created_at";
