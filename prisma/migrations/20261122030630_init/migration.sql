-- CreateTable
CREATE TABLE "tenants" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "max_sites" INTEGER,
    "max_urls" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" BYTEA NOT NULL,
    "scopes" TEXT[],
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sites" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "hostname" TEXT NOT NULL,
    "scheme" TEXT NOT NULL DEFAULT 'https',
    "default_changefreq" TEXT,
    "default_priority" REAL,
    "rebuild_cron" TEXT,
    "robots_txt" TEXT,
    "indexnow_key" TEXT NOT NULL,
    "cache_max_age" INTEGER NOT NULL DEFAULT 300,
    "text_sitemap" BOOLEAN NOT NULL DEFAULT false,
    "indexnow_cursor" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "urls" (
    "id" BIGSERIAL NOT NULL,
    "site_id" UUID NOT NULL,
    "loc_hash" BYTEA NOT NULL,
    "loc" TEXT NOT NULL,
    "section" TEXT NOT NULL DEFAULT '',
    "shard_id" BIGINT,
    "lastmod" TEXT,
    "lastmod_at" TIMESTAMPTZ(3),
    "lastmod_given" BOOLEAN NOT NULL DEFAULT false,
    "changefreq" TEXT,
    "priority" REAL,
    "images" JSONB,
    "videos" JSONB,
    "news" JSONB,
    "news_until" TIMESTAMPTZ(3),
    "content_hash" BYTEA NOT NULL,
    "fragment" TEXT NOT NULL,
    "fragment_size" INTEGER NOT NULL,
    "ns_mask" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "urls_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alternates" (
    "site_id" UUID NOT NULL,
    "cluster_key" BYTEA NOT NULL,
    "href_hash" BYTEA NOT NULL,
    "href" TEXT NOT NULL,
    "hreflang" TEXT NOT NULL,

    CONSTRAINT "alternates_pkey" PRIMARY KEY ("site_id","href_hash","hreflang")
);

-- CreateTable
CREATE TABLE "shards" (
    "id" BIGSERIAL NOT NULL,
    "site_id" UUID NOT NULL,
    "section" TEXT NOT NULL DEFAULT '',
    "ordinal" INTEGER NOT NULL,
    "url_count" INTEGER NOT NULL DEFAULT 0,
    "byte_size" INTEGER NOT NULL DEFAULT 0,
    "dirty" BOOLEAN NOT NULL DEFAULT true,
    "change_seq" BIGINT NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shards_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "builds" (
    "id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "full" BOOLEAN NOT NULL DEFAULT false,
    "trigger" TEXT NOT NULL DEFAULT 'api',
    "shards_rendered" INTEGER NOT NULL DEFAULT 0,
    "shards_skipped" INTEGER NOT NULL DEFAULT 0,
    "url_count" INTEGER NOT NULL DEFAULT 0,
    "byte_size" BIGINT NOT NULL DEFAULT 0,
    "timings" JSONB,
    "indexnow" JSONB,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "builds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shard_renders" (
    "build_id" UUID NOT NULL,
    "shard_id" BIGINT NOT NULL,
    "change_seq" BIGINT NOT NULL,
    "files" JSONB NOT NULL,
    "url_count" INTEGER NOT NULL,
    "timings" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shard_renders_pkey" PRIMARY KEY ("build_id","shard_id")
);

-- CreateTable
CREATE TABLE "manifests" (
    "site_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "build_id" UUID NOT NULL,
    "files" JSONB NOT NULL,
    "shards" JSONB NOT NULL DEFAULT '{}',
    "published_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "manifests_pkey" PRIMARY KEY ("site_id")
);

-- CreateTable
CREATE TABLE "blobs" (
    "site_id" UUID NOT NULL,
    "sha256" TEXT NOT NULL,
    "body" BYTEA,
    "gzip_size" INTEGER NOT NULL,
    "byte_size" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "released_at" TIMESTAMPTZ(3),

    CONSTRAINT "blobs_pkey" PRIMARY KEY ("site_id","sha256")
);

-- CreateTable
CREATE TABLE "imports" (
    "id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "source" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "mode" TEXT NOT NULL DEFAULT 'upsert',
    "status" TEXT NOT NULL DEFAULT 'running',
    "source_url" TEXT,
    "lines_read" INTEGER NOT NULL DEFAULT 0,
    "stored" INTEGER NOT NULL DEFAULT 0,
    "rejected" INTEGER NOT NULL DEFAULT 0,
    "changed" INTEGER NOT NULL DEFAULT 0,
    "deleted" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "heartbeat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "imports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "import_rejections" (
    "id" BIGSERIAL NOT NULL,
    "import_id" UUID NOT NULL,
    "line" INTEGER NOT NULL,
    "code" TEXT NOT NULL,
    "field" TEXT NOT NULL DEFAULT '',
    "reason" TEXT NOT NULL,
    "source" TEXT,

    CONSTRAINT "import_rejections_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_tenant_id_idx" ON "api_keys"("tenant_id");

-- CreateIndex
CREATE UNIQUE INDEX "sites_hostname_key" ON "sites"("hostname");

-- CreateIndex
CREATE INDEX "sites_tenant_id_idx" ON "sites"("tenant_id");

-- CreateIndex
CREATE INDEX "urls_shard_id_id_idx" ON "urls"("shard_id", "id");

-- CreateIndex
CREATE INDEX "urls_site_id_updated_at_idx" ON "urls"("site_id", "updated_at");

-- CreateIndex
CREATE INDEX "urls_news_until_idx" ON "urls"("news_until");

-- CreateIndex
CREATE UNIQUE INDEX "urls_site_id_loc_hash_key" ON "urls"("site_id", "loc_hash");

-- CreateIndex
CREATE INDEX "alternates_site_id_cluster_key_idx" ON "alternates"("site_id", "cluster_key");

-- CreateIndex
CREATE INDEX "shards_site_id_dirty_idx" ON "shards"("site_id", "dirty");

-- CreateIndex
CREATE UNIQUE INDEX "shards_site_id_section_ordinal_key" ON "shards"("site_id", "section", "ordinal");

-- CreateIndex
CREATE INDEX "builds_site_id_created_at_idx" ON "builds"("site_id", "created_at");

-- CreateIndex
CREATE INDEX "imports_site_id_created_at_idx" ON "imports"("site_id", "created_at");

-- CreateIndex
CREATE INDEX "imports_status_idx" ON "imports"("status");

-- CreateIndex
CREATE INDEX "import_rejections_import_id_id_idx" ON "import_rejections"("import_id", "id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sites" ADD CONSTRAINT "sites_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "urls" ADD CONSTRAINT "urls_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "urls" ADD CONSTRAINT "urls_shard_id_fkey" FOREIGN KEY ("shard_id") REFERENCES "shards"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alternates" ADD CONSTRAINT "alternates_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shards" ADD CONSTRAINT "shards_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "builds" ADD CONSTRAINT "builds_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shard_renders" ADD CONSTRAINT "shard_renders_build_id_fkey" FOREIGN KEY ("build_id") REFERENCES "builds"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "manifests" ADD CONSTRAINT "manifests_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "blobs" ADD CONSTRAINT "blobs_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "imports" ADD CONSTRAINT "imports_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import_rejections" ADD CONSTRAINT "import_rejections_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "imports"("id") ON DELETE CASCADE ON UPDATE CASCADE;
