-- CreateTable
CREATE TABLE "crawl_fetches" (
    "site_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "path" TEXT NOT NULL,
    "crawler" TEXT NOT NULL,
    "verified" BOOLEAN NOT NULL,
    "status" INTEGER NOT NULL,
    "fetches" INTEGER NOT NULL,
    "bytes" BIGINT NOT NULL,
    "first_at" TIMESTAMPTZ(3) NOT NULL,
    "last_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "crawl_fetches_pkey" PRIMARY KEY ("site_id","hour","path","crawler","verified","status")
);

-- CreateTable
CREATE TABLE "crawl_reads" (
    "site_id" UUID NOT NULL,
    "path" TEXT NOT NULL,
    "crawler" TEXT NOT NULL,
    "first_at" TIMESTAMPTZ(3) NOT NULL,
    "last_at" TIMESTAMPTZ(3) NOT NULL,
    "notified_at" TIMESTAMPTZ(3),

    CONSTRAINT "crawl_reads_pkey" PRIMARY KEY ("site_id","path","crawler")
);

-- CreateIndex
CREATE INDEX "crawl_fetches_hour_idx" ON "crawl_fetches"("hour");

-- CreateIndex
CREATE INDEX "crawl_reads_path_notified_at_idx" ON "crawl_reads"("path", "notified_at");

-- AddForeignKey
ALTER TABLE "crawl_fetches" ADD CONSTRAINT "crawl_fetches_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crawl_reads" ADD CONSTRAINT "crawl_reads_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;
