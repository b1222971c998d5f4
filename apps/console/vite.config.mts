// The console builds to static files the API serves under /console (apps/api/src/console).
// `npm run build` runs this through scripts/build-console.js; `npx vite apps/console` serves it
// for development and proxies the API routes to API_URL (default http://127.0.0.1:3000).
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const api = process.env.API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  plugins: [react()],
  build: { outDir: '../../dist/console', emptyOutDir: true, target: 'es2022', sourcemap: false },
  server: { proxy: { '/v1': api, '/health': api } },
});
