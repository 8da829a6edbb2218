/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes dist/content-status.json, saying whether src/content/content.json
 * (the operator-edited team members and testimonials) still holds the shipped
 * samples. The Go server reads it at start-up and warns while it does.
 */
function contentStatus(): Plugin {
  return {
    name: 'percolate-content-status',
    apply: 'build',
    generateBundle() {
      const file = new URL('./src/content/content.json', import.meta.url);
      const { sample } = JSON.parse(readFileSync(file, 'utf8')) as { sample?: unknown };
      this.emitFile({
        type: 'asset',
        fileName: 'content-status.json',
        source: JSON.stringify({ sample: sample !== false }) + '\n',
      });
    },
  };
}

// The Go binary serves the API and the OIDC endpoints; in development Vite
// forwards those paths to it so the SPA can use same-origin relative URLs,
// exactly as it does when the built files are embedded in the binary.
const backend = process.env.PERCOLATE_BACKEND_URL || 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), contentStatus()],
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/api': { target: backend, changeOrigin: false },
      '/oauth2': { target: backend, changeOrigin: false },
    },
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    sourcemap: false,
    // The app reads the contract's limits from orval's zod output (src/api/gen/zod) but
    // validates nothing with zod: building a zod schema has no side effect, so calls on
    // `zod` are pure and the unused schemas, and zod with them, drop out of the bundle.
    rolldownOptions: { treeshake: { manualPureFunctions: ['zod'] } },
    // The backend serves dist/assets/* with immutable caching, so every asset
    // name must carry a content hash (Vite's default pattern does).
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test-utils/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    // Generous, for a loaded 2-core machine: a test waits for what the user sees, not a clock.
    testTimeout: 90_000,
  },
});
