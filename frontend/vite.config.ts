/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import type { ChunkingContext } from 'rolldown';
import { VitePWA } from 'vite-plugin-pwa';

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

/**
 * The installable app (issue 31 §4): the web app manifest, and the service worker built from
 * src/sw/sw.ts with the list of files to precache. The page registers the worker itself
 * (src/pwa/serviceWorker.ts), so nothing is injected into index.html but the manifest link.
 * The icons are drawn from the logo by scripts/make-icons.mjs.
 */
function installableApp() {
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src/sw',
    filename: 'sw.ts',
    injectRegister: false,
    registerType: 'prompt',
    includeManifestIcons: true,
    manifest: {
      id: '/',
      name: 'Percolate',
      short_name: 'Percolate',
      description: 'Percolate: a calm AI companion for reflective conversations and journaling.',
      lang: 'en',
      start_url: '/dashboard',
      scope: '/',
      display: 'standalone',
      // brand.md: the light background (cream) for both, so the title bar and the splash
      // screen run into the page; index.html sets espresso for the dark scheme.
      theme_color: '#FBF6EF',
      background_color: '#FBF6EF',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
        { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    injectManifest: {
      // A classic script, which every browser with service workers runs.
      rollupFormat: 'iife',
      // The shell: the page, every hashed script and style sheet, the logo and the icons.
      // Of the fonts only the Latin subsets the pages' text needs (the others are many, and a
      // browser fetches them only for text in those scripts). content-status.json is the
      // server's, and the team pictures are samples an operator replaces.
      globPatterns: ['index.html', 'assets/*.{js,css,svg}', 'assets/*-latin-*.woff2', 'favicon.svg', 'icons/apple-touch-icon.png'],
      globIgnores: ['assets/*-latin-ext-*.woff2'],
    },
  });
}

/**
 * The code the signed-in screens share, in one chunk (issue 36, item 9). Left to itself the
 * bundler splits it by which pages use each module: about 35 small files for the dashboard. A
 * phone's browser fetches six at a time from one server (HTTP/1.1), so on Slow 4G each six cost
 * another half-second round trip. What the entry and the landing page use stays where it was, so
 * that the signed-out landing page downloads nothing more; a module only one page uses stays in
 * that page's chunk.
 *
 * What the landing page uses is found from its modules' imports. A library's index (Mantine's,
 * the icons', React Query's: modules of imports and exports only) imports all of the library, of which a page uses a few names: through an index only
 * the modules of the names imported are followed.
 */
function signedInChunk() {
  let landing: Set<string> | undefined;
  const early = fileURLToPath(new URL('./src/api/early.ts', import.meta.url));
  const named = /(?:import|export)\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g;
  const names = (list: string, side: 0 | 1) => list.split(',').map((n) => n.trim().split(/\s+as\s+/)[side] ?? '');
  const reexportsOnly = (code: string) =>
    code
      .replace(/\/\*[\s\S]*?\*\/|\/\/.*/g, '')
      .replace(/(?:import|export)\s[^;]*;/g, '')
      .trim() === '';
  const follow = (ctx: ChunkingContext, id: string): string[] => {
    const info = ctx.getModuleInfo(id);
    if (!info) return [];
    const out: string[] = [];
    for (const dep of info.importedIds) {
      const index = ctx.getModuleInfo(dep);
      if (!index?.code || !dep.includes('node_modules') || !reexportsOnly(index.code)) {
        out.push(dep);
        continue;
      }
      // The names this module imports from that index, and the index's module for each.
      const wanted = new Set<string>();
      for (const [, list, from] of (info.code ?? '').matchAll(named)) {
        if (!from.startsWith('.') && dep.includes(`/node_modules/${from}/`)) names(list, 0).forEach((n) => wanted.add(n));
      }
      for (const [, list, from] of index.code.matchAll(named)) {
        if (names(list, 1).some((n) => wanted.has(n)) || names(list, 0).some((n) => wanted.has(n))) {
          out.push(fileURLToPath(new URL(from, `file://${dep}`)));
        }
      }
    }
    return out;
  };
  return (id: string, ctx: ChunkingContext) => {
    if (!landing) {
      landing = new Set();
      const todo = ['./src/main.tsx', './src/pages/Landing/LandingPage.tsx'].map((f) => fileURLToPath(new URL(f, import.meta.url)));
      for (let m = todo.pop(); m !== undefined; m = todo.pop()) {
        if (landing.has(m)) continue;
        landing.add(m);
        todo.push(...follow(ctx, m));
      }
    }
    // The early requests go out before the shared chunk has arrived.
    return landing.has(id) || id === early ? null : 'app';
  };
}

// The Go binary serves the API and the OIDC endpoints; in development Vite
// forwards those paths to it so the SPA can use same-origin relative URLs,
// exactly as it does when the built files are embedded in the binary.
const backend = process.env.PERCOLATE_BACKEND_URL || 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), contentStatus(), installableApp()],
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
    // Every browser we serve preloads modules itself (Chromium, Firefox 115, Safari 17); an older
    // Safari only fetches the entry's two chunks when the entry asks instead of with it, and
    // nobody downloads Vite's polyfill for that (about 0.4 kB gzipped in the landing page's budget).
    modulePreload: { polyfill: false },
    // The app reads the contract's limits from orval's zod output (src/api/gen/zod) but
    // validates nothing with zod: building a zod schema has no side effect, so calls on
    // `zod` are pure and the unused schemas, and zod with them, drop out of the bundle.
    rolldownOptions: {
      treeshake: { manualPureFunctions: ['zod'] },
      output: { codeSplitting: { groups: [{ name: signedInChunk(), minShareCount: 2, includeDependenciesRecursively: false }] } },
    },
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
