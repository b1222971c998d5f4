// Generated from libs/client/openapi.json by `npm run client:generate`. Do not edit.

export interface paths {
    "/v1/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List tenants */
        get: operations["tenantAdmin.list"];
        put?: never;
        /** Create a tenant and its first API key */
        post: operations["tenants.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List API keys */
        get: operations["tenants.listKeys"];
        put?: never;
        /** Create an API key */
        post: operations["tenants.createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key */
        delete: operations["tenants.revokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenantId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a tenant */
        get: operations["tenantAdmin.get"];
        put?: never;
        post?: never;
        /** Delete a tenant */
        delete: operations["tenantAdmin.remove"];
        options?: never;
        head?: never;
        /** Change a tenant's name or quotas */
        patch: operations["tenantAdmin.update"];
        trace?: never;
    };
    "/v1/tenants/{tenantId}/suspend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Suspend a tenant */
        post: operations["tenantAdmin.suspend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenantId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume a suspended tenant */
        post: operations["tenantAdmin.resume"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/sites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the sites of every tenant for a hostname */
        get: operations["tenantAdmin.sitesByHostname"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read the audit log of operator actions */
        get: operations["tenantAdmin.auditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/operators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the people with a platform role */
        get: operations["operators.list"];
        /** Grant or withdraw a person's platform role (the admin key only) */
        put: operations["operators.set"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with an email and a password */
        post: operations["accounts.signIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read the signed-in account */
        get: operations["accounts.session"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sign-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out */
        post: operations["accounts.signOut"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sign-out-everywhere": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out on every device */
        post: operations["accounts.signOutEverywhere"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change your password (the current one again first) */
        post: operations["accounts.changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change your email (the current password again first) */
        post: operations["accounts.changeEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask for a password reset link */
        post: operations["accounts.requestReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/password-reset/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Choose a new password with a reset link */
        post: operations["accounts.confirmReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/accept-invitation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept an invitation */
        post: operations["accounts.acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the people of the tenant and their roles */
        get: operations["members.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/{personId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a person from the tenant */
        delete: operations["members.remove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List pending invitations */
        get: operations["members.listInvitations"];
        put?: never;
        /** Invite a person by email */
        post: operations["members.invite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenantId}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Invite a person to a tenant, as the platform operator (a first owner) */
        post: operations["members.inviteAsOperator"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a pending invitation */
        delete: operations["members.revokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sites/{siteId}/schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get the site's scheduled rebuild */
        get: operations["sites.schedule"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List sites */
        get: operations["sites.list"];
        put?: never;
        /** Create a site */
        post: operations["sites.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sites/{siteId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a site */
        get: operations["sites.get"];
        put?: never;
        post?: never;
        /** Delete a site with its URLs, builds and files */
        delete: operations["sites.remove"];
        options?: never;
        head?: never;
        /** Change a site's settings */
        patch: operations["sites.update"];
        trace?: never;
    };
    "/v1/sites/{siteId}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Verify */
        post: operations["sites.verify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sites/{siteId}/urls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List URLs by prefix, section or change time */
        get: operations["urls.list"];
        /** Upsert up to 10,000 URL entries */
        put: operations["urls.upsert"];
        post?: never;
        /** Delete URLs by loc */
        delete: operations["urls.delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sites/{siteId}/urls/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export the site's live URLs as NDJSON import lines */
        get: operations["urls.export"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sites/{siteId}/exclusions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The site's URL exclusion rules, with how many URLs each excludes */
        get: operations["exclusions.view"];
        /**
         * Replace the exclusion rules
         * @description URLs a rule matches stay stored (GET …/urls?excluded=true lists them) but leave every published file and every published hreflang link; removing the rule publishes them again. `prefix` matches the path's start, `glob` the whole path and query (`*` any run of characters), `query` a query parameter.
         */
        put: operations["exclusions.replace"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sites/{siteId}/conflicts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check every URL of the site against its robots.txt, its exclusions and the clock
         * @description ROBOTS_DISALLOWED: the URL is disallowed for Googlebot by the robots.txt the platform serves; LASTMOD_IN_FUTURE; HREFLANG_TO_EXCLUDED / HREFLANG_TO_DISALLOWED: an hreflang link to an excluded or disallowed page of the site. PUT …/urls returns the same codes as warnings for the entries it stores.
         */
        get: operations["conflicts.report"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sites/{siteId}/builds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the builds of a site, newest first */
        get: operations["builds.list"];
        put?: never;
        /** Queue a build of the site */
        post: operations["builds.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sites/{siteId}/builds/{buildId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a build with its stage timings */
        get: operations["builds.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sites/{siteId}/shards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the shards (sitemap files) of a site */
        get: operations["shards.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sites/{siteId}/crawls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What search engines read of a site, and when
         * @description Per published file, when each verified crawler (reverse DNS, forward-confirmed) last read it and which changed files they have not read since; fetches per day per crawler, verified and not; errors served to crawlers. Counted by the public server, written every CRAWL_FLUSH_MS.
         */
        get: operations["crawls.insight"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/crawls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every site's sitemap fetches per day and crawler, verified and not */
        get: operations["crawlsAdmin.totals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Validate a sitemap or sitemap index
         * @description Upload the document (application/xml, text/xml, or gzip; a text sitemap as application/octet-stream; at most 50 MiB), or send {"url", "follow"} as JSON to have it fetched. It is checked against the published XSDs and the protocol rules (50,000 entries, 50 MiB, one host and one scheme, the file's own on its own host, absolute <loc> under 2,048 characters, no nested index); a text sitemap (one URL a line, UTF-8) by the same rules. every problem names its file, line and rule. 200 whether or not the document is valid: see `valid`.
         */
        post: operations["validate.validate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sites/{siteId}/urls/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import URLs from an NDJSON or CSV upload
         * @description Any size, streamed; `Content-Encoding: gzip` (or deflate, br) accepted, and a gzip body is recognised without it. NDJSON (`application/x-ndjson`): one URL entry per line, as PUT …/urls takes them; blank lines are skipped. CSV (`text/csv`): a header row, then one entry per row. Columns, in any order, case-insensitive: `loc` (required), `lastmod`, `changefreq`, `priority`, `section`, `hreflang` (the URL's own language), `alternate:<hreflang>` (one per language: that variant's URL; with these columns each row states its whole cluster, so a row without any leaves its cluster) and `images` (image URLs separated by spaces). An empty cell is an absent field. Lines are numbered from 1, a CSV header being line 1. Invalid lines are rejected one by one (GET …/imports/{importId}/rejections); the valid ones are stored. `mode=replace` deletes the site's URLs absent from the upload, in one transaction, when and only when the import completes. One import runs per site at a time (409 IMPORT_RUNNING), and a tenant has at most IMPORT_UPLOADS_PER_TENANT uploads open at once (429 UPLOADS_BUSY).
         */
        post: operations["imports.upload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sites/{siteId}/imports/sitemaps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import URLs from an existing sitemap or robots.txt on the web */
        post: operations["imports.importSitemaps"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sites/{siteId}/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the imports of a site, newest first */
        get: operations["imports.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sites/{siteId}/imports/{importId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an import with its progress */
        get: operations["imports.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sites/{siteId}/imports/{importId}/rejections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the rejected lines of an import */
        get: operations["imports.rejections"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sites/{siteId}/imports/{importId}/warnings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Repairs made to stored lines
         * @description A sitemaps import keeps a page whose loc is good and repairs the rest (see docs/importing.md); each repair is listed here, with the code a rejection would have had.
         */
        get: operations["imports.warnings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List */
        get: operations["webhooks.list"];
        put?: never;
        /** Create */
        post: operations["webhooks.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhookId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get */
        get: operations["webhooks.get"];
        put?: never;
        post?: never;
        /** Remove */
        delete: operations["webhooks.remove"];
        options?: never;
        head?: never;
        /** Update */
        patch: operations["webhooks.update"];
        trace?: never;
    };
    "/v1/webhooks/{webhookId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Test */
        post: operations["webhooks.test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhookId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Deliveries */
        get: operations["webhooks.deliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhookId}/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Delivery */
        get: operations["webhooks.delivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Account: {
            person: {
                /** Format: uuid */
                id: string;
                email: string;
                name: string;
                /** @description operator: the operator view (/v1/admin, /v1/tenants) when acting in no tenant */
                platformRole: "operator" | null;
            };
            memberships: {
                /** Format: uuid */
                tenantId: string;
                tenantName: string;
                role: components["schemas"]["Role"];
                tenantSuspended: boolean;
            }[];
            /** @description send it as X-CSRF-Token with every write this session makes */
            csrfToken: string;
        };
        /** @description one member of an hreflang cluster */
        Alternate: {
            /** @description `en`, `en-GB`, `zh-Hant-TW` or `x-default` (case-insensitive) */
            hreflang: string;
            /** @description the page in that language; may be on another host: an absolute http(s) URL */
            href: string;
        };
        ApiKey: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description first characters of the key, to recognise it */
            prefix: string;
            scopes: components["schemas"]["Scope"][];
            /** Format: date-time */
            createdAt: string;
            revokedAt: string | null;
        };
        ApiKeyCreate: {
            name: string;
            /**
             * @description admin implies write and read; write implies read
             * @default [
             *       "read",
             *       "write"
             *     ]
             */
            scopes: components["schemas"]["Scope"][];
        };
        ApiKeyCreated: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description first characters of the key, to recognise it */
            prefix: string;
            scopes: components["schemas"]["Scope"][];
            /** Format: date-time */
            createdAt: string;
            revokedAt: string | null;
            /** @description the key; shown only here, stored as a hash */
            apiKey: string;
        };
        ApiKeyPage: {
            items: components["schemas"]["ApiKey"][];
            /** @description pass as `cursor` for the next page; null on the last */
            nextCursor: string | null;
        };
        Build: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            siteId: string;
            status: components["schemas"]["BuildStatus"];
            full: boolean;
            /** @description api | schedule | change */
            trigger: string;
            shardsRendered: number;
            shardsSkipped: number;
            urlCount: number;
            byteSize: number;
            /** @description stage durations in milliseconds */
            timings: unknown;
            /** @description IndexNow submissions after the publish: one entry per request (endpoint, status, url count, attempt); [] when nothing changed, null before the check */
            indexNow: unknown;
            error: string | null;
            /** Format: date-time */
            createdAt: string;
            startedAt: string | null;
            finishedAt: string | null;
        };
        BuildCreate: {
            /**
             * @description re-render every shard, not only dirty ones
             * @default false
             */
            full: boolean;
        };
        BuildPage: {
            items: components["schemas"]["Build"][];
            /** @description pass as `cursor` for the next page; null on the last */
            nextCursor: string | null;
        };
        BuildQueued: {
            /** Format: uuid */
            buildId: string;
            status: components["schemas"]["BuildStatus"];
        };
        /** @enum {string} */
        BuildStatus: "queued" | "running" | "published" | "failed";
        /** @description the site's live URLs against its own robots.txt (Googlebot), its exclusions and the clock: what to check before a launch */
        ConflictReport: {
            checkedUrls: number;
            /** @description conflicts per code, over every live URL */
            counts: {
                ROBOTS_DISALLOWED: number;
                LASTMOD_IN_FUTURE: number;
                HREFLANG_TO_EXCLUDED: number;
                HREFLANG_TO_DISALLOWED: number;
            };
            total: number;
            conflicts: components["schemas"]["UrlConflict"][];
            /** @description more conflicts than listed */
            truncated: boolean;
        };
        CrawlInsight: {
            /** Format: uuid */
            siteId: string;
            /** @description verified crawlers (forward-confirmed reverse DNS) that have read the index */
            crawlers: {
                /** @enum {string} */
                crawler: "googlebot" | "bingbot" | "yandexbot" | "applebot" | "duckduckbot" | "baiduspider" | "petalbot" | "other";
                /**
                 * Format: date-time
                 * @description its first verified read of the index
                 */
                firstReadAt: string;
                /**
                 * Format: date-time
                 * @description its last verified read of the index
                 */
                lastReadAt: string;
            }[];
            /** @description the published files, the index first */
            files: {
                path: string;
                /** @enum {string} */
                kind: "index" | "shard" | "text";
                /** @description when the bytes at this path last changed */
                modifiedAt: string | null;
                reads: {
                    /** @enum {string} */
                    crawler: "googlebot" | "bingbot" | "yandexbot" | "applebot" | "duckduckbot" | "baiduspider" | "petalbot" | "other";
                    /** Format: date-time */
                    lastReadAt: string;
                    /** @description read (200 or 304) since the file last changed */
                    readSinceChange: boolean;
                }[];
                /** @description crawlers that read the index but not this file since it changed */
                waitingFor: ("googlebot" | "bingbot" | "yandexbot" | "applebot" | "duckduckbot" | "baiduspider" | "petalbot" | "other")[];
            }[];
            lastChange: {
                /**
                 * Format: date-time
                 * @description when the index's bytes last changed (a publish that changed something)
                 */
                at: string;
                firstVerifiedReadAt: string | null;
                crawler: ("googlebot" | "bingbot" | "yandexbot" | "applebot" | "duckduckbot" | "baiduspider" | "petalbot" | "other") | null;
                /** @description from the change to the first verified read of the index */
                delaySeconds: number | null;
            } | null;
            days: {
                /** @description UTC date, YYYY-MM-DD */
                day: string;
                /** @enum {string} */
                crawler: "googlebot" | "bingbot" | "yandexbot" | "applebot" | "duckduckbot" | "baiduspider" | "petalbot" | "other";
                verified: boolean;
                fetches: number;
                /** @description of which answered 304 */
                notModified: number;
                bytes: number;
            }[];
            /** @description 4xx and 5xx answers to crawlers (old file names, failures), newest first */
            errors: {
                path: string;
                status: number;
                /** @enum {string} */
                crawler: "googlebot" | "bingbot" | "yandexbot" | "applebot" | "duckduckbot" | "baiduspider" | "petalbot" | "other";
                verified: boolean;
                fetches: number;
                /** Format: date-time */
                lastAt: string;
            }[];
        };
        CrawlTotals: {
            days: {
                /** @description UTC date, YYYY-MM-DD */
                day: string;
                /** @enum {string} */
                crawler: "googlebot" | "bingbot" | "yandexbot" | "applebot" | "duckduckbot" | "baiduspider" | "petalbot" | "other";
                verified: boolean;
                fetches: number;
                notModified: number;
                bytes: number;
                /** @description sites fetched */
                sites: number;
            }[];
        };
        EmailChange: {
            /** @description the password in use now: a change asks for it again */
            currentPassword: string;
            /** @description compared trimmed and lowercase */
            email: string;
        };
        /** @description the one error shape of every route */
        Error: {
            error: {
                /** @description stable: SITE_NOT_FOUND, VALIDATION_FAILED, … */
                code: string;
                message: string;
                details: components["schemas"]["ErrorDetail"][];
            };
        };
        ErrorDetail: {
            /** @description the input field at fault: `hostname`, `videos[0].duration` */
            field?: string;
            /** @description the entry of a list body */
            index?: number;
            /** @description the line of an uploaded file */
            line?: number;
            code?: string;
            message: string;
        };
        /** @description matched against each URL's loc */
        ExclusionRule: {
            /** @constant */
            kind: "prefix";
            /** @description a path start: `/cart/` */
            path: string;
        } | {
            /** @constant */
            kind: "glob";
            /** @description the whole path and query, `*` any run of characters: `/cart/*`, `/*?sessionid=*` */
            pattern: string;
        } | {
            /** @constant */
            kind: "query";
            /** @description a query parameter, with or without a value: `sessionid` */
            param: string;
        };
        ExclusionRulesInput: {
            /** @description replaces the whole set; [] clears it */
            rules: components["schemas"]["ExclusionRule"][];
        };
        Exclusions: {
            rules: {
                rule: components["schemas"]["ExclusionRule"];
                /** @description live URLs the rule matches now */
                excludedUrls: number;
            }[];
            /** @description live URLs the client flagged `excluded: true` */
            flaggedUrls: number;
        };
        ExclusionsChange: {
            rules: {
                rule: components["schemas"]["ExclusionRule"];
                /** @description live URLs the rule matches now */
                excludedUrls: number;
            }[];
            /** @description live URLs the client flagged `excluded: true` */
            flaggedUrls: number;
            changed: {
                /** @description live URLs that left or re-entered the published files */
                urls: number;
                /** @description shards to re-render: theirs and their hreflang peers */
                shards: number;
            };
        };
        /** @description an image on the page (Google image sitemap) */
        Image: {
            /** @description the image; may be on a CDN host: an absolute http(s) URL */
            loc: string;
            /**
             * @deprecated
             * @description retired by Google: accepted with a warning, not written
             */
            caption?: unknown;
            /**
             * @deprecated
             * @description retired by Google: accepted with a warning, not written
             */
            title?: unknown;
            /**
             * @deprecated
             * @description retired by Google: accepted with a warning, not written
             */
            geoLocation?: unknown;
            /**
             * @deprecated
             * @description retired by Google: accepted with a warning, not written
             */
            license?: unknown;
        };
        Import: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            siteId: string;
            /** @enum {string} */
            source: "upload" | "sitemaps";
            /** @enum {string} */
            format: "ndjson" | "csv" | "sitemap";
            /** @enum {string} */
            mode: "upsert" | "replace";
            status: components["schemas"]["ImportStatus"];
            sourceUrl: string | null;
            /** @description lines (or sitemap entries) read so far */
            linesRead: number;
            /** @description valid lines stored (changed or already equal) */
            stored: number;
            /** @description lines rejected; see …/rejections */
            rejected: number;
            /** @description repairs made to stored lines (sitemaps imports); see …/warnings */
            warnings: number;
            /** @description URLs whose sitemap content changed */
            changed: number;
            /** @description URLs a completed replace deleted */
            deleted: number;
            error: string | null;
            /** Format: date-time */
            createdAt: string;
            startedAt: string | null;
            finishedAt: string | null;
        };
        ImportPage: {
            items: components["schemas"]["Import"][];
            /** @description pass as `cursor` for the next page; null on the last */
            nextCursor: string | null;
        };
        ImportRejection: {
            /** @description 1-based line of the upload (a CSV header is line 1); sitemaps: the entry in its file, 0 for a whole file */
            line: number;
            code: string;
            field: string;
            reason: string;
            /** @description sitemaps: the file */
            source: string | null;
        };
        ImportRejectionPage: {
            items: components["schemas"]["ImportRejection"][];
            /** @description pass as `cursor` for the next page; null on the last */
            nextCursor: string | null;
        };
        ImportResult: {
            /** Format: uuid */
            importId: string;
            status: components["schemas"]["ImportStatus"];
            /** @enum {string} */
            mode: "upsert" | "replace";
            linesRead: number;
            stored: number;
            rejected: number;
            warnings: number;
            changed: number;
            deleted: number;
        };
        ImportsImportSitemapsResponse: {
            /** Format: uuid */
            importId: string;
            status: components["schemas"]["ImportStatus"];
        };
        /** @enum {string} */
        ImportStatus: "queued" | "running" | "completed" | "failed";
        ImportsWarningsResponse: {
            items: {
                /** @description 1-based line of the upload (a CSV header is line 1); sitemaps: the entry in its file, 0 for a whole file */
                line: number;
                code: string;
                field: string;
                /** @description what the line said, and what was kept */
                reason: string;
                /** @description sitemaps: the file */
                source: string | null;
            }[];
            /** @description pass as `cursor` for the next page; null on the last */
            nextCursor: string | null;
        };
        Invitation: {
            /** Format: uuid */
            id: string;
            email: string;
            role: components["schemas"]["Role"];
            /** @description person:<id> or key:<id> */
            invitedBy: string;
            /** Format: date-time */
            expiresAt: string;
            /** Format: date-time */
            createdAt: string;
            /** @description the delivery of the invitation email */
            mail: {
                /**
                 * @description queued: the worker will send it; retrying: the SMTP server refused, tried again with backoff; sent; failed: every attempt refused
                 * @enum {string}
                 */
                status: "queued" | "retrying" | "sent" | "failed";
                /** @description the SMTP server's last refusal */
                error: string | null;
            };
        };
        InvitationAccept: {
            /** @description from the emailed link */
            token: string;
            /** @description a new account’s display name */
            name?: string;
            /** @description a new account’s password (10 to 256 characters), or the existing account’s */
            password: string;
        };
        InvitationCreate: {
            /** @description compared trimmed and lowercase */
            email: string;
            /** @default viewer */
            role: components["schemas"]["Role"];
        };
        InvitationList: {
            items: components["schemas"]["Invitation"][];
        };
        Member: {
            /** Format: uuid */
            personId: string;
            email: string;
            name: string;
            role: components["schemas"]["Role"];
            /** Format: date-time */
            createdAt: string;
        };
        MemberList: {
            items: components["schemas"]["Member"][];
        };
        /** @description a Google News article */
        News: {
            publicationName: string;
            /** @description ISO 639 code; zh-cn or zh-tw for Chinese */
            publicationLanguage: string;
            /** @description W3C datetime: YYYY-MM-DD, or YYYY-MM-DDThh:mm[:ss[.s]] with Z or ±hh:mm; at least a full date */
            publicationDate: string;
            title: string;
            /**
             * @deprecated
             * @description retired by Google: accepted with a warning, not written
             */
            keywords?: unknown;
            /**
             * @deprecated
             * @description retired by Google: accepted with a warning, not written
             */
            genres?: unknown;
            /**
             * @deprecated
             * @description retired by Google: accepted with a warning, not written
             */
            stockTickers?: unknown;
            /**
             * @deprecated
             * @description retired by Google: accepted with a warning, not written
             */
            access?: unknown;
        };
        OperatorsListResponse: {
            items: {
                /** Format: uuid */
                id: string;
                email: string;
                name: string;
                platformRole: "operator" | null;
            }[];
        };
        OperatorsSetBody: {
            /** @description an existing person (they accepted an invitation first) */
            email: string;
            /** @description operator; null withdraws it */
            platformRole: "operator" | null;
        };
        OperatorsSetResponse: {
            /** Format: uuid */
            id: string;
            email: string;
            name: string;
            platformRole: "operator" | null;
        };
        PasswordChange: {
            /** @description the password in use now: a change asks for it again */
            currentPassword: string;
            /** @description 10 to 256 characters */
            newPassword: string;
        };
        PasswordResetConfirm: {
            /** @description from the emailed link */
            token: string;
            /** @description 10 to 256 characters */
            password: string;
        };
        PasswordResetRequest: {
            /** @description compared trimmed and lowercase */
            email: string;
        };
        /** @enum {string} */
        Role: "owner" | "admin" | "editor" | "viewer";
        /** @enum {string} */
        Scope: "read" | "write" | "admin";
        SectionShardSize: {
            /** @description "" is the default section */
            section: string;
            shardSize: number;
        };
        Shard: {
            /** @description bigint as a string */
            id: string;
            section: string | null;
            ordinal: number;
            /** @description the shard's file on the site's host; a shard keeps it for life */
            path: string;
            urlCount: number;
            /** @description uncompressed bytes of its URL entries */
            byteSize: number;
            /** @description changed since it was last rendered */
            dirty: boolean;
            /** Format: date-time */
            createdAt: string;
        };
        ShardPage: {
            items: components["schemas"]["Shard"][];
            /** @description pass as `cursor` for the next page; null on the last */
            nextCursor: string | null;
        };
        SignedOut: {
            sessionsEnded: number;
        };
        SignIn: {
            /** @description compared trimmed and lowercase */
            email: string;
            password: string;
        };
        Site: {
            /** Format: uuid */
            id: string;
            hostname: string;
            scheme: string;
            defaultChangefreq: string | null;
            defaultPriority: number | null;
            rebuildCron: string | null;
            robotsTxt: string | null;
            cacheMaxAge: number;
            textSitemap: boolean;
            xslStylesheet: boolean;
            shardSize: number | null;
            sectionShardSizes: components["schemas"]["SectionShardSize"][];
            staleAfterDays: number | null;
            indexNowKey: string;
            sitemapUrl: string;
            /** @description for sites that keep their own robots.txt: the line that authorises the platform-hosted index */
            crossSubmitRobotsLine: string | null;
            verification: {
                /**
                 * @description pending: not served until the hostname is proven; verified: served; taken: another account verified the hostname first
                 * @enum {string}
                 */
                status: "pending" | "verified" | "taken";
                /** @description publish it as the TXT record or the file below */
                token: string;
                dnsRecord: {
                    /** @constant */
                    type: "TXT";
                    name: string;
                    value: string;
                };
                /** @description or serve the token in this file (http or https) */
                fileUrl: string;
                verifiedAt: string | null;
                /** @description last check */
                checkedAt: string | null;
                /** @description next scheduled check; null: none (taken, or verified without proof in development mode) */
                nextCheckAt: string | null;
                /** @description why the last check failed (PROOF_NOT_FOUND, VERIFICATION_LOST, HOSTNAME_VERIFIED_ELSEWHERE) */
                error: {
                    code: string;
                    message: string;
                } | null;
            };
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        SiteCreate: {
            hostname: string;
            /** @enum {string} */
            scheme?: "http" | "https";
            defaultChangefreq?: ("always" | "hourly" | "daily" | "weekly" | "monthly" | "yearly" | "never") | null;
            defaultPriority?: number | null;
            /** @description 5-field cron (UTC) for a scheduled full rebuild; null: none */
            rebuildCron?: string | null;
            /** @description the site's own robots.txt rules; the platform appends its Sitemap: lines */
            robotsTxt?: string | null;
            /** @description allow lines only some engines read (Host:, Clean-param:) */
            robotsTxtNonStandard?: boolean;
            cacheMaxAge?: number;
            /** @description also publish /sitemap.txt */
            textSitemap?: boolean;
            /** @description the index and shards name /sitemap.xsl, so a browser shows them as a sortable table */
            xslStylesheet?: boolean;
            /** @description URLs per sitemap file for new shards; null: 50,000. Files already published keep their URLs */
            shardSize?: number | null;
            /** @description URLs per file by section, over shardSize; replaces the whole list */
            sectionShardSizes?: components["schemas"]["SectionShardSize"][];
            /** @description send sitemap.stale for a changed shard no verified crawler read within this many days; null: never */
            staleAfterDays?: number | null;
        };
        SitemapImportCreate: {
            /**
             * Format: uri
             * @description a robots.txt, sitemap index or sitemap URL
             */
            url: string;
        };
        SitePage: {
            items: components["schemas"]["Site"][];
            /** @description pass as `cursor` for the next page; null on the last */
            nextCursor: string | null;
        };
        SiteSchedule: {
            rebuildCron: string | null;
            nextRunAt: string | null;
        };
        SiteUpdate: {
            hostname?: string;
            /** @enum {string} */
            scheme?: "http" | "https";
            defaultChangefreq?: ("always" | "hourly" | "daily" | "weekly" | "monthly" | "yearly" | "never") | null;
            defaultPriority?: number | null;
            /** @description 5-field cron (UTC) for a scheduled full rebuild; null: none */
            rebuildCron?: string | null;
            /** @description the site's own robots.txt rules; the platform appends its Sitemap: lines */
            robotsTxt?: string | null;
            /** @description allow lines only some engines read (Host:, Clean-param:) */
            robotsTxtNonStandard?: boolean;
            cacheMaxAge?: number;
            /** @description also publish /sitemap.txt */
            textSitemap?: boolean;
            /** @description the index and shards name /sitemap.xsl, so a browser shows them as a sortable table */
            xslStylesheet?: boolean;
            /** @description URLs per sitemap file for new shards; null: 50,000. Files already published keep their URLs */
            shardSize?: number | null;
            /** @description URLs per file by section, over shardSize; replaces the whole list */
            sectionShardSizes?: components["schemas"]["SectionShardSize"][];
            /** @description send sitemap.stale for a changed shard no verified crawler read within this many days; null: never */
            staleAfterDays?: number | null;
        };
        TenantAdminAuditLogResponse: {
            items: {
                id: string;
                /** @description platform: the ADMIN_API_KEY */
                actor: string;
                actorIp: string | null;
                /** @description tenant.create, tenant.update, tenant.suspend, tenant.resume, tenant.delete */
                action: string;
                targetType: string;
                targetId: string;
                before: {
                    [key: string]: unknown;
                } | null;
                after: {
                    [key: string]: unknown;
                } | null;
                /** Format: date-time */
                createdAt: string;
            }[];
            /** @description pass as `cursor` for the next page; null on the last */
            nextCursor: string | null;
        };
        TenantAdminGetResponse: {
            /** Format: uuid */
            id: string;
            name: string;
            maxSites: number | null;
            maxUrls: number | null;
            /** @description set while suspended: its keys answer 401 TENANT_SUSPENDED, its sites are not served, no builds run */
            suspendedAt: string | null;
            suspendedReason: string | null;
            /** Format: date-time */
            createdAt: string;
            siteCount: number;
        };
        TenantAdminListResponse: {
            items: {
                /** Format: uuid */
                id: string;
                name: string;
                maxSites: number | null;
                maxUrls: number | null;
                /** @description set while suspended: its keys answer 401 TENANT_SUSPENDED, its sites are not served, no builds run */
                suspendedAt: string | null;
                suspendedReason: string | null;
                /** Format: date-time */
                createdAt: string;
                siteCount: number;
            }[];
            /** @description pass as `cursor` for the next page; null on the last */
            nextCursor: string | null;
        };
        TenantAdminResumeResponse: {
            /** Format: uuid */
            id: string;
            name: string;
            maxSites: number | null;
            maxUrls: number | null;
            /** @description set while suspended: its keys answer 401 TENANT_SUSPENDED, its sites are not served, no builds run */
            suspendedAt: string | null;
            suspendedReason: string | null;
            /** Format: date-time */
            createdAt: string;
            siteCount: number;
        };
        TenantAdminSitesByHostnameResponse: {
            hostname: string;
            /** @description the verified site first, then claims oldest first */
            items: {
                /** Format: uuid */
                siteId: string;
                /** Format: uuid */
                tenantId: string;
                tenantName: string;
                hostname: string;
                /** @enum {string} */
                status: "pending" | "verified" | "taken";
                verifiedAt: string | null;
                /** Format: date-time */
                createdAt: string;
            }[];
        };
        TenantAdminSuspendBody: {
            reason?: string;
        };
        TenantAdminSuspendResponse: {
            /** Format: uuid */
            id: string;
            name: string;
            maxSites: number | null;
            maxUrls: number | null;
            /** @description set while suspended: its keys answer 401 TENANT_SUSPENDED, its sites are not served, no builds run */
            suspendedAt: string | null;
            suspendedReason: string | null;
            /** Format: date-time */
            createdAt: string;
            siteCount: number;
        };
        TenantAdminUpdateBody: {
            name?: string;
            /** @description quota; null: unlimited */
            maxSites?: number | null;
            /** @description quota of live URLs across all sites; null: unlimited */
            maxUrls?: number | null;
        };
        TenantAdminUpdateResponse: {
            /** Format: uuid */
            id: string;
            name: string;
            maxSites: number | null;
            maxUrls: number | null;
            /** @description set while suspended: its keys answer 401 TENANT_SUSPENDED, its sites are not served, no builds run */
            suspendedAt: string | null;
            suspendedReason: string | null;
            /** Format: date-time */
            createdAt: string;
            siteCount: number;
        };
        TenantCreate: {
            name: string;
            /** @description quota; null or absent: unlimited */
            maxSites?: number | null;
            /** @description quota of live URLs across all sites; null or absent: unlimited */
            maxUrls?: number | null;
        };
        TenantCreated: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description its first key (admin scope); shown only here */
            apiKey: string;
        };
        /** @description a URL as stored: normalized, as it is published */
        Url: {
            loc: string;
            section: string | null;
            lastmod: string | null;
            changefreq: string | null;
            priority: number | null;
            /** @description the whole hreflang cluster, this URL included */
            alternates: components["schemas"]["Alternate"][];
            images: components["schemas"]["Image"][];
            videos: components["schemas"]["Video"][];
            news: components["schemas"]["News"] | null;
            /** @description kept out of every published file: flagged `excluded`, or matched by one of the site's exclusion rules */
            excluded: boolean;
            /** Format: date-time */
            updatedAt: string;
        };
        UrlConflict: {
            loc: string;
            code: components["schemas"]["UrlConflictCode"];
            /** @description `loc`, `lastmod` or `alternates[i].href` */
            field: string;
            message: string;
        };
        /** @enum {string} */
        UrlConflictCode: "ROBOTS_DISALLOWED" | "LASTMOD_IN_FUTURE" | "HREFLANG_TO_EXCLUDED" | "HREFLANG_TO_DISALLOWED";
        UrlDelete: {
            locs: string[];
        };
        UrlDeleteResult: {
            deleted: number;
            notFound: string[];
        };
        UrlEntry: {
            /** @description absolute URL on the site's scheme and host */
            loc: string;
            /** @description W3C datetime: YYYY-MM-DD, or YYYY-MM-DDThh:mm[:ss[.s]] with Z or ±hh:mm; when absent, none is written until the platform sees the content change, then that moment */
            lastmod?: string;
            /**
             * @description case-insensitive
             * @enum {string}
             */
            changefreq?: "always" | "hourly" | "daily" | "weekly" | "monthly" | "yearly" | "never";
            /** @description kept to three decimals (0.55 stays 0.55) */
            priority?: number;
            /** @description groups URLs into their own sitemap files */
            section?: string;
            /** @description the hreflang cluster; [] leaves it */
            alternates?: components["schemas"]["Alternate"][];
            images?: components["schemas"]["Image"][];
            videos?: components["schemas"]["Video"][];
            news?: components["schemas"]["News"];
            /** @description this URL's own language in its cluster */
            hreflang?: string;
            /** @description true: stored, but in no published file and no hreflang link; false: published again; absent: left */
            excluded?: boolean;
        };
        UrlEntryProblem: {
            index: number;
            loc?: string;
            field: string;
            code: string;
            message: string;
        };
        UrlPage: {
            items: components["schemas"]["Url"][];
            /** @description pass as `cursor` for the next page; null on the last */
            nextCursor: string | null;
        };
        UrlUpsertResult: {
            /** @description valid entries stored (changed or already equal) */
            upserted: number;
            /** @description URLs whose sitemap content changed */
            changed: number;
            errors: components["schemas"]["UrlEntryProblem"][];
            warnings: components["schemas"]["UrlEntryProblem"][];
        };
        Validation: {
            /** @description no problem in any file */
            valid: boolean;
            files: components["schemas"]["ValidationFile"][];
        };
        ValidationFile: {
            /** @description the URL, or "upload" */
            file: string;
            kind: ("urlset" | "sitemapindex" | "text") | null;
            entries: number;
            /** @description uncompressed */
            bytes: number;
            problems: components["schemas"]["ValidationProblem"][];
        };
        ValidationProblem: {
            file: string;
            line?: number;
            /** @enum {string} */
            rule: "not-a-sitemap" | "text-encoding" | "gzip" | "xsd" | "max-urls" | "max-bytes" | "loc-length" | "loc-absolute" | "one-host" | "one-scheme" | "index-nested" | "fetch";
            message: string;
        };
        ValidationRequest: {
            /**
             * Format: uri
             * @description a sitemap or sitemap index to fetch (public addresses only, as the import)
             */
            url: string;
            /**
             * @description an index: also fetch and check every sitemap it lists
             * @default false
             */
            follow: boolean;
        };
        /** @description a video on the page (Google video sitemap) */
        Video: {
            /** @description the thumbnail: an absolute http(s) URL */
            thumbnailLoc: string;
            title: string;
            description: string;
            /** @description contentLoc or playerLoc is required; neither may be the page itself */
            contentLoc?: string;
            /** @description the player: an absolute http(s) URL */
            playerLoc?: string;
            /** @description seconds */
            duration?: number;
            /** @description W3C datetime: YYYY-MM-DD, or YYYY-MM-DDThh:mm[:ss[.s]] with Z or ±hh:mm */
            expirationDate?: string;
            rating?: number;
            viewCount?: number;
            /** @description W3C datetime: YYYY-MM-DD, or YYYY-MM-DDThh:mm[:ss[.s]] with Z or ±hh:mm */
            publicationDate?: string;
            familyFriendly?: boolean;
            restriction?: components["schemas"]["VideoRestriction"];
            platform?: components["schemas"]["VideoPlatform"];
            requiresSubscription?: boolean;
            uploader?: components["schemas"]["VideoUploader"];
            live?: boolean;
            tags?: string[];
            /**
             * @deprecated
             * @description retired by Google: accepted with a warning, not written
             */
            category?: unknown;
            /**
             * @deprecated
             * @description retired by Google: accepted with a warning, not written
             */
            galleryLoc?: unknown;
            /**
             * @deprecated
             * @description retired by Google: accepted with a warning, not written
             */
            price?: unknown;
            /**
             * @deprecated
             * @description retired by Google: accepted with a warning, not written
             */
            tvshow?: unknown;
            /**
             * @deprecated
             * @description retired by Google: accepted with a warning, not written
             */
            allowEmbed?: unknown;
            /**
             * @deprecated
             * @description retired by Google: accepted with a warning, not written
             */
            autoplay?: unknown;
        };
        VideoPlatform: {
            /**
             * @description case-insensitive
             * @enum {string}
             */
            relationship: "allow" | "deny";
            /** @description case-insensitive */
            platforms: ("web" | "mobile" | "tv")[];
        };
        VideoRestriction: {
            /**
             * @description case-insensitive
             * @enum {string}
             */
            relationship: "allow" | "deny";
            countries: string[];
        };
        VideoUploader: {
            name: string;
            /** @description the uploader's page: an absolute http(s) URL */
            info?: string;
        };
        WebhooksCreateBody: {
            /**
             * Format: uri
             * @description where events are POSTed (http or https)
             */
            url: string;
            /** @description events to deliver: build.published, build.failed, import.finished, site.verified, site.verification_lost, sitemap.first_crawl, sitemap.stale */
            eventTypes: ("build.published" | "build.failed" | "import.finished" | "site.verified" | "site.verification_lost" | "sitemap.first_crawl" | "sitemap.stale")[];
            /** @description `whsec_` + base64 of 24–64 random bytes; generated when omitted */
            secret?: string;
            enabled?: boolean;
        };
        WebhooksCreateResponse: {
            /** Format: uuid */
            id: string;
            url: string;
            eventTypes: string[];
            enabled: boolean;
            /** @description deliveries that failed for good in a row */
            consecutiveFailures: number;
            disabledAt: string | null;
            /** @description failures: disabled by the platform after sustained failure; gone: the endpoint answered 410 */
            disabledReason: ("owner" | "failures" | "gone") | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description the signing secret; shown only in this answer, and absent from an Idempotency-Key replay */
            secret?: string;
        };
        WebhooksDeliveriesResponse: {
            items: {
                /** Format: uuid */
                id: string;
                /** Format: uuid */
                webhookId: string;
                /** @description the webhook-id header: the same for every attempt */
                eventId: string;
                eventType: string;
                /** @enum {string} */
                status: "pending" | "succeeded" | "failed";
                attempts: number;
                /** @description the last attempt's HTTP status; null: no answer */
                responseStatus: number | null;
                /** @description the last attempt's duration */
                latencyMs: number | null;
                error: string | null;
                /** Format: date-time */
                createdAt: string;
                lastAttemptAt: string | null;
                finishedAt: string | null;
                /** @description the body as signed and sent */
                event: {
                    id: string;
                    /** @constant */
                    type: "build.published";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** Format: uuid */
                        siteId: string;
                        /** Format: uuid */
                        buildId: string;
                        /** @enum {string} */
                        status: "published" | "failed";
                        error: string | null;
                    };
                } | {
                    id: string;
                    /** @constant */
                    type: "build.failed";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** Format: uuid */
                        siteId: string;
                        /** Format: uuid */
                        buildId: string;
                        /** @enum {string} */
                        status: "published" | "failed";
                        error: string | null;
                    };
                } | {
                    id: string;
                    /** @constant */
                    type: "import.finished";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** Format: uuid */
                        siteId: string;
                        /** Format: uuid */
                        importId: string;
                        /** @enum {string} */
                        source: "upload" | "sitemaps";
                        /** @enum {string} */
                        status: "completed" | "failed";
                        stored: number;
                        rejected: number;
                        changed: number;
                        deleted: number;
                        error: string | null;
                    };
                } | {
                    id: string;
                    /** @constant */
                    type: "site.verified";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** Format: uuid */
                        siteId: string;
                        hostname: string;
                        reason: string | null;
                    };
                } | {
                    id: string;
                    /** @constant */
                    type: "site.verification_lost";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** Format: uuid */
                        siteId: string;
                        hostname: string;
                        reason: string | null;
                    };
                } | {
                    id: string;
                    /** @constant */
                    type: "sitemap.first_crawl";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** Format: uuid */
                        siteId: string;
                        crawler: string;
                        path: string;
                        /** Format: date-time */
                        readAt: string;
                    };
                } | {
                    id: string;
                    /** @constant */
                    type: "sitemap.stale";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** Format: uuid */
                        siteId: string;
                        path: string;
                        /** Format: date-time */
                        modifiedAt: string;
                        lastReadAt: string | null;
                        staleAfterDays: number;
                    };
                } | {
                    id: string;
                    /** @constant */
                    type: "webhook.test";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** Format: uuid */
                        endpointId: string;
                        message: string;
                    };
                };
            }[];
            /** @description pass as `cursor` for the next page; null on the last */
            nextCursor: string | null;
        };
        WebhooksDeliveryResponse: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            webhookId: string;
            /** @description the webhook-id header: the same for every attempt */
            eventId: string;
            eventType: string;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
            attempts: number;
            /** @description the last attempt's HTTP status; null: no answer */
            responseStatus: number | null;
            /** @description the last attempt's duration */
            latencyMs: number | null;
            error: string | null;
            /** Format: date-time */
            createdAt: string;
            lastAttemptAt: string | null;
            finishedAt: string | null;
            /** @description the body as signed and sent */
            event: {
                id: string;
                /** @constant */
                type: "build.published";
                /** Format: date-time */
                timestamp: string;
                data: {
                    /** Format: uuid */
                    siteId: string;
                    /** Format: uuid */
                    buildId: string;
                    /** @enum {string} */
                    status: "published" | "failed";
                    error: string | null;
                };
            } | {
                id: string;
                /** @constant */
                type: "build.failed";
                /** Format: date-time */
                timestamp: string;
                data: {
                    /** Format: uuid */
                    siteId: string;
                    /** Format: uuid */
                    buildId: string;
                    /** @enum {string} */
                    status: "published" | "failed";
                    error: string | null;
                };
            } | {
                id: string;
                /** @constant */
                type: "import.finished";
                /** Format: date-time */
                timestamp: string;
                data: {
                    /** Format: uuid */
                    siteId: string;
                    /** Format: uuid */
                    importId: string;
                    /** @enum {string} */
                    source: "upload" | "sitemaps";
                    /** @enum {string} */
                    status: "completed" | "failed";
                    stored: number;
                    rejected: number;
                    changed: number;
                    deleted: number;
                    error: string | null;
                };
            } | {
                id: string;
                /** @constant */
                type: "site.verified";
                /** Format: date-time */
                timestamp: string;
                data: {
                    /** Format: uuid */
                    siteId: string;
                    hostname: string;
                    reason: string | null;
                };
            } | {
                id: string;
                /** @constant */
                type: "site.verification_lost";
                /** Format: date-time */
                timestamp: string;
                data: {
                    /** Format: uuid */
                    siteId: string;
                    hostname: string;
                    reason: string | null;
                };
            } | {
                id: string;
                /** @constant */
                type: "sitemap.first_crawl";
                /** Format: date-time */
                timestamp: string;
                data: {
                    /** Format: uuid */
                    siteId: string;
                    crawler: string;
                    path: string;
                    /** Format: date-time */
                    readAt: string;
                };
            } | {
                id: string;
                /** @constant */
                type: "sitemap.stale";
                /** Format: date-time */
                timestamp: string;
                data: {
                    /** Format: uuid */
                    siteId: string;
                    path: string;
                    /** Format: date-time */
                    modifiedAt: string;
                    lastReadAt: string | null;
                    staleAfterDays: number;
                };
            } | {
                id: string;
                /** @constant */
                type: "webhook.test";
                /** Format: date-time */
                timestamp: string;
                data: {
                    /** Format: uuid */
                    endpointId: string;
                    message: string;
                };
            };
        };
        WebhooksGetResponse: {
            /** Format: uuid */
            id: string;
            url: string;
            eventTypes: string[];
            enabled: boolean;
            /** @description deliveries that failed for good in a row */
            consecutiveFailures: number;
            disabledAt: string | null;
            /** @description failures: disabled by the platform after sustained failure; gone: the endpoint answered 410 */
            disabledReason: ("owner" | "failures" | "gone") | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        WebhooksListResponse: {
            items: {
                /** Format: uuid */
                id: string;
                url: string;
                eventTypes: string[];
                enabled: boolean;
                /** @description deliveries that failed for good in a row */
                consecutiveFailures: number;
                disabledAt: string | null;
                /** @description failures: disabled by the platform after sustained failure; gone: the endpoint answered 410 */
                disabledReason: ("owner" | "failures" | "gone") | null;
                /** Format: date-time */
                createdAt: string;
                /** Format: date-time */
                updatedAt: string;
            }[];
            /** @description pass as `cursor` for the next page; null on the last */
            nextCursor: string | null;
        };
        WebhooksTestResponse: {
            /** Format: uuid */
            id: string;
            /** @description the webhook-id header: the same for every attempt */
            eventId: string;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
        };
        WebhooksUpdateBody: {
            /**
             * Format: uri
             * @description where events are POSTed (http or https)
             */
            url?: string;
            /** @description events to deliver: build.published, build.failed, import.finished, site.verified, site.verification_lost, sitemap.first_crawl, sitemap.stale */
            eventTypes?: ("build.published" | "build.failed" | "import.finished" | "site.verified" | "site.verification_lost" | "sitemap.first_crawl" | "sitemap.stale")[];
            /** @description `whsec_` + base64 of 24–64 random bytes; generated when omitted */
            secret?: string;
            /** @description true re-enables an endpoint the platform disabled, clearing its failure count */
            enabled?: boolean;
        };
        WebhooksUpdateResponse: {
            /** Format: uuid */
            id: string;
            url: string;
            eventTypes: string[];
            enabled: boolean;
            /** @description deliveries that failed for good in a row */
            consecutiveFailures: number;
            disabledAt: string | null;
            /** @description failures: disabled by the platform after sustained failure; gone: the endpoint answered 410 */
            disabledReason: ("owner" | "failures" | "gone") | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    "tenantAdmin.list": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                /** @description only suspended (true) or active (false) tenants */
                suspended?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantAdminListResponse"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "tenants.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TenantCreate"];
            };
        };
        responses: {
            /** @description created, with its first key; platform key only */
            201: {
                headers: {
                    /** @description the path of what was created */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantCreated"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "tenants.listKeys": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyPage"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "tenants.createKey": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApiKeyCreate"];
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    /** @description the path of what was created */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyCreated"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "tenants.revokeKey": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked: the key answers 401 from now on */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "tenantAdmin.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantAdminGetResponse"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "tenantAdmin.remove": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted, with its keys, sites, URLs, builds and files */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "tenantAdmin.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TenantAdminUpdateBody"];
            };
        };
        responses: {
            /** @description changed; the quotas apply from the next request */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantAdminUpdateResponse"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "tenantAdmin.suspend": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TenantAdminSuspendBody"];
            };
        };
        responses: {
            /** @description suspended at once: its keys answer 401 TENANT_SUSPENDED, its sites 404, no builds run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantAdminSuspendResponse"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "tenantAdmin.resume": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description active again: keys, sites and builds as before */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantAdminResumeResponse"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "tenantAdmin.sitesByHostname": {
        parameters: {
            query: {
                /** @description any spelling: it is normalised as a site hostname is */
                hostname: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantAdminSitesByHostnameResponse"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "tenantAdmin.auditLog": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                /** @description one object's entries, e.g. a tenant id */
                targetId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantAdminAuditLogResponse"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "operators.list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description by email */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperatorsListResponse"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "operators.set": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OperatorsSetBody"];
            };
        };
        responses: {
            /** @description set; their sessions have it from their next request */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperatorsSetResponse"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "accounts.signIn": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignIn"];
            };
        };
        responses: {
            /** @description signed in: the session cookie is set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "accounts.session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the signed-in person, their tenants and roles */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "accounts.signOut": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description this session ended; the cookie is cleared */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedOut"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "accounts.signOutEverywhere": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description every session of this person ended */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedOut"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "accounts.changePassword": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordChange"];
            };
        };
        responses: {
            /** @description changed; every other session of this person ended, this one stays */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedOut"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "accounts.changeEmail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailChange"];
            };
        };
        responses: {
            /** @description changed: you sign in with the new email from now on */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict (HOSTNAME_TAKEN) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "accounts.requestReset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordResetRequest"];
            };
        };
        responses: {
            /** @description if the email has an account, a reset link is on its way (the answer is the same if not) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a service the API depends on is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "accounts.confirmReset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordResetConfirm"];
            };
        };
        responses: {
            /** @description the password is changed and every session ended */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "accounts.acceptInvitation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitationAccept"];
            };
        };
        responses: {
            /** @description a member now, and signed in: the session cookie is set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "members.list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberList"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "members.remove": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                personId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description removed: the person no longer reaches the tenant */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict (HOSTNAME_TAKEN) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "members.listInvitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description pending invitations, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationList"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "members.invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitationCreate"];
            };
        };
        responses: {
            /** @description stored; its email is queued (see mail.status) */
            201: {
                headers: {
                    /** @description the path of what was created */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invitation"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a service the API depends on is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "members.inviteAsOperator": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitationCreate"];
            };
        };
        responses: {
            /** @description stored; its email is queued (see mail.status) */
            201: {
                headers: {
                    /** @description the path of what was created */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invitation"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a service the API depends on is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "members.revokeInvitation": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked: its link no longer works */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "sites.schedule": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SiteSchedule"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "sites.list": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SitePage"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "sites.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description a retry with the same key and request gets the first answer again (Idempotent-Replayed: true); keys are per tenant */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SiteCreate"];
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    /** @description the path of what was created */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Site"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description conflict (HOSTNAME_TAKEN)
             *
             *     the first request with this Idempotency-Key is still running (IDEMPOTENCY_KEY_IN_USE)
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Idempotency-Key was used with another request (IDEMPOTENCY_KEY_REUSED) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "sites.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Site"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "sites.remove": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted, with its URLs, builds and files */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "sites.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SiteUpdate"];
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Site"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict (HOSTNAME_TAKEN) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "sites.verify": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a check of the hostname proof is queued; poll the site for verification.status */
            202: {
                headers: {
                    /** @description the path of what was created */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Site"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "urls.list": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                /** @description only URLs whose loc starts with this */
                prefix?: string;
                /** @description only this section ("" is the default section) */
                section?: string;
                /** @description only URLs changed at or after this instant */
                changedSince?: string;
                /** @description only URLs kept out of the published files, by their flag or the site's rules (true), or only published ones (false) */
                excluded?: "true" | "false";
            };
            header?: never;
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UrlPage"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "urls.upsert": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        /** @description up to 10,000 entries; each is validated on its own */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UrlEntry"][];
            };
        };
        responses: {
            /** @description valid entries stored; invalid ones listed in errors by index */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UrlUpsertResult"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request too large (PAYLOAD_TOO_LARGE, TOO_MANY_ENTRIES) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "urls.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UrlDelete"];
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UrlDeleteResult"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "urls.export": {
        parameters: {
            query?: {
                /** @description only URLs changed at or after this instant */
                changedSince?: string;
            };
            header?: never;
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description one URL entry a line, in the shape POST …/urls/import reads: an export imported into another site publishes the same files */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "exclusions.view": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Exclusions"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "exclusions.replace": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExclusionRulesInput"];
            };
        };
        responses: {
            /** @description the rules stored; the shards whose files change are rebuilt */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExclusionsChange"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "conflicts.report": {
        parameters: {
            query?: {
                /** @description conflicts listed at most (all are counted) */
                limit?: number;
            };
            header?: never;
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConflictReport"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "builds.list": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BuildPage"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "builds.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description a retry with the same key and request gets the first answer again (Idempotent-Replayed: true); keys are per tenant */
                "Idempotency-Key"?: string;
            };
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BuildCreate"];
            };
        };
        responses: {
            /** @description queued; poll GET …/builds/{buildId} */
            202: {
                headers: {
                    /** @description the path of what was created */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BuildQueued"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the first request with this Idempotency-Key is still running (IDEMPOTENCY_KEY_IN_USE) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Idempotency-Key was used with another request (IDEMPOTENCY_KEY_REUSED) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "builds.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                siteId: string;
                buildId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Build"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "shards.list": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShardPage"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "crawls.insight": {
        parameters: {
            query?: {
                /** @description days of counts and errors, up to today */
                days?: number;
            };
            header?: never;
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CrawlInsight"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "crawlsAdmin.totals": {
        parameters: {
            query?: {
                /** @description days of counts and errors, up to today */
                days?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CrawlTotals"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "validate.validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description the sitemap itself, or where to fetch it */
        requestBody: {
            content: {
                "application/json": components["schemas"]["ValidationRequest"];
                "application/xml": string;
                "text/xml": string;
                "application/gzip": string;
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Validation"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request too large (PAYLOAD_TOO_LARGE, TOO_MANY_ENTRIES) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "imports.upload": {
        parameters: {
            query?: {
                /** @description replace: URLs absent from the upload are deleted when it completes */
                mode?: "upsert" | "replace";
                /** @description default: from Content-Type (application/x-ndjson, text/csv) */
                format?: "ndjson" | "csv";
            };
            header?: {
                /** @description a retry with the same key and request gets the first answer again (Idempotent-Replayed: true); keys are per tenant */
                "Idempotency-Key"?: string;
            };
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        /** @description one URL entry per line (NDJSON) or row (CSV), optionally gzipped */
        requestBody: {
            content: {
                "application/x-ndjson": string;
                "text/csv": string;
                "application/gzip": string;
            };
        };
        responses: {
            /** @description the import completed; rejected lines are listed at …/imports/{importId}/rejections */
            201: {
                headers: {
                    /** @description the path of what was created */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportResult"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description conflict (HOSTNAME_TAKEN)
             *
             *     the first request with this Idempotency-Key is still running (IDEMPOTENCY_KEY_IN_USE)
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Idempotency-Key was used with another request (IDEMPOTENCY_KEY_REUSED) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "imports.importSitemaps": {
        parameters: {
            query?: never;
            header?: {
                /** @description a retry with the same key and request gets the first answer again (Idempotent-Replayed: true); keys are per tenant */
                "Idempotency-Key"?: string;
            };
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SitemapImportCreate"];
            };
        };
        responses: {
            /** @description queued; poll GET …/imports/{importId} */
            202: {
                headers: {
                    /** @description the path of what was created */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportsImportSitemapsResponse"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the first request with this Idempotency-Key is still running (IDEMPOTENCY_KEY_IN_USE) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Idempotency-Key was used with another request (IDEMPOTENCY_KEY_REUSED) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "imports.list": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                siteId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportPage"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "imports.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                siteId: string;
                importId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Import"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "imports.rejections": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                siteId: string;
                importId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description in the order they were found */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportRejectionPage"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "imports.warnings": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                siteId: string;
                importId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description in the order they were found */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportsWarningsResponse"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "webhooks.list": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhooksListResponse"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "webhooks.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description a retry with the same key and request gets the first answer again (Idempotent-Replayed: true); keys are per tenant */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhooksCreateBody"];
            };
        };
        responses: {
            /** @description created; the secret is shown only here (not in an Idempotency-Key replay: set a new one with PATCH if it was lost) */
            201: {
                headers: {
                    /** @description the path of what was created */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhooksCreateResponse"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the first request with this Idempotency-Key is still running (IDEMPOTENCY_KEY_IN_USE) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Idempotency-Key was used with another request (IDEMPOTENCY_KEY_REUSED) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "webhooks.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhooksGetResponse"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "webhooks.remove": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted, with its delivery log */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "webhooks.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhooksUpdateBody"];
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhooksUpdateResponse"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "webhooks.test": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a webhook.test event is queued for the endpoint, even a disabled one */
            202: {
                headers: {
                    /** @description the path of what was created */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhooksTestResponse"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "webhooks.deliveries": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhooksDeliveriesResponse"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "webhooks.delivery": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhookId: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhooksDeliveryResponse"];
                };
            };
            /** @description invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limit exceeded; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unexpected server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
