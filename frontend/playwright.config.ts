import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests against the real binary (`make e2e` builds bin/percolate
 * first). Playwright starts it on a fresh data dir, so every run has a new
 * built-in PostgreSQL database, and stops it with SIGTERM afterwards. Set
 * E2E_BASE_URL to test a server that is already running instead.
 * Browsers cannot be downloaded here, so Debian's Chromium is used (never
 * run `npx playwright install`).
 */
const external = process.env.E2E_BASE_URL;
const port = process.env.E2E_PORT || '18080';
const baseURL = external || `http://127.0.0.1:${port}`;

function freshDataDir(): string {
  // Workers load this file too; only the runner starts the server.
  if (process.env.TEST_WORKER_INDEX) return '';
  const dir = mkdtempSync(join(tmpdir(), 'percolate-e2e-'));
  // Run as root, the built-in PostgreSQL runs as the postgres user, which must
  // be able to pass through this directory (not list it).
  chmodSync(dir, 0o711);
  const data = join(dir, 'data');
  // Workers inherit this: journeys read the dev outbox and run operator commands there.
  process.env.E2E_DATA_DIR = data;
  return data;
}

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  workers: 1,
  retries: 0,
  reporter: 'list',
  timeout: 30_000,
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--headless',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
      },
    },
  ],
  webServer: external
    ? undefined
    : {
        command: '../bin/percolate serve',
        url: `${baseURL}/api/health`,
        timeout: 60_000,
        reuseExistingServer: false,
        stdout: 'ignore',
        stderr: 'pipe',
        gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
        env: {
          PERCOLATE_ADDR: `127.0.0.1:${port}`,
          PERCOLATE_DATA_DIR: freshDataDir(),
          PERCOLATE_LOG_LEVEL: 'warn',
        },
      },
});
