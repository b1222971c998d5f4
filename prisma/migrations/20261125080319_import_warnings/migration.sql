-- AlterTable
ALTER TABLE "imports" ADD COLUMN     "warnings" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "import_warnings" (
    "id" BIGSERIAL NOT NULL,
    "import_id" UUID NOT NULL,
    "line" INTEGER NOT NULL,
    "code" TEXT NOT NULL,
    "field" TEXT NOT NULL DEFAULT '',
    "reason" TEXT NOT NULL,
    "source" TEXT,

    CONSTRAINT "import_warnings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "import_warnings_import_id_id_idx" ON "import_warnings"("import_id", "id");

-- AddForeignKey
ALTER TABLE "import_warnings" ADD CONSTRAINT "import_warnings_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "imports"("id") ON DELETE CASCADE ON UPDATE CASCADE;
