import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * The browser part of `make bench` (bench/browser.bench.ts), never part of `make test` or
 * `make e2e` (playwright.config.ts only looks in e2e/). One server, the real binary on a fresh
 * built-in database, talking to the OpenAI-wire test model (e2e/servers/openai-wire.mjs), so a
 * reply streams token by token; Debian's Chromium, as in the journeys.
 */
const port = Number(process.env.BENCH_BROWSER_PORT || process.env.E2E_PORT || '18180');
// Another build's binary (BENCH_BIN), for an A/B of two builds under the same bench.
const binary = process.env.BENCH_BIN || '../bin/percolate';
const wirePort = port + 1;

function freshDataDir(): string {
  // Workers load this file too; only the runner starts the server.
  if (process.env.TEST_WORKER_INDEX) return '';
  const dir = mkdtempSync(join(tmpdir(), 'percolate-bench-'));
  chmodSync(dir, 0o711);
  const data = join(dir, 'data');
  // e2e/support.ts reads the outbox and runs psql there.
  process.env.E2E_DATA_DIR = data;
  return data;
}

export default defineConfig({
  testDir: 'bench',
  testMatch: '*.bench.ts',
  workers: 1,
  retries: 0,
  reporter: 'list',
  timeout: 300_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    ...devices['Desktop Chrome'],
    // The figures are the page's and the server's, comparable with earlier runs: the app's
    // service worker (installed by signed-in pages) would answer later loads from its cache.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  webServer: [
    {
      command: `node e2e/servers/openai-wire.mjs ${wirePort}`,
      url: `http://127.0.0.1:${wirePort}/health`,
      timeout: 30_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `${binary} serve`,
      url: `http://127.0.0.1:${port}/api/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
      env: {
        PERCOLATE_ADDR: `127.0.0.1:${port}`,
        PERCOLATE_DATA_DIR: freshDataDir(),
        PERCOLATE_LOG_LEVEL: 'warn',
        PERCOLATE_LLM_BASE_URL: `http://127.0.0.1:${wirePort}/v1`,
        PERCOLATE_LLM_API_KEY: 'bench-key',
        PERCOLATE_LLM_MODEL: 'bench-model',
      },
    },
  ],
});
