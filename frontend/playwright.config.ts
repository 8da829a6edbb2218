import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
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

/** Stripe's own API double, for checkout in the billing journey; the Go tests install it. */
const stripeMockPort = String(Number(port) + 1);
function stripeMock(): string {
  if (process.env.TEST_WORKER_INDEX) return '';
  const gopath = execFileSync('go', ['env', 'GOPATH'], { encoding: 'utf8' }).trim();
  const bin = join(gopath, 'bin', 'stripe-mock');
  if (!existsSync(bin)) {
    execFileSync('go', ['install', 'github.com/stripe/stripe-mock@v0.203.0'], {
      env: { ...process.env, GOFLAGS: '' },
      stdio: 'inherit',
    });
  }
  return bin;
}

/**
 * Every journey signs up from the same loopback address, so the per-address limits of a real
 * deployment (20 registrations and 20 account mails an hour) would refuse the later ones; the
 * per-account and per-e-mail limits stay as they are.
 */
const E2E_AUTH_LIMITS = 'register_per_address=1000,mail_per_address=1000';

/** The webhook signing secret the billing journey signs its events with. */
export const E2E_WEBHOOK_SECRET = 'whsec_e2e_journey';
/** The mailbox the server is configured with; the pages must name it. */
export const E2E_SUPPORT_EMAIL = 'care@percolate-e2e.example';

function freshDataDir(variable = 'E2E_DATA_DIR'): string {
  // Workers load this file too; only the runner starts the server.
  if (process.env.TEST_WORKER_INDEX) return '';
  const dir = mkdtempSync(join(tmpdir(), 'percolate-e2e-'));
  // Run as root, the built-in PostgreSQL runs as the postgres user, which must
  // be able to pass through this directory (not list it).
  chmodSync(dir, 0o711);
  const data = join(dir, 'data');
  // Workers inherit this: journeys read the dev outbox and run operator commands there.
  process.env[variable] = data;
  return data;
}

/**
 * A second server for the journeys that need a configured model (e2e/model.spec.ts): the
 * same binary on its own data dir, talking to an OpenAI-wire-compatible model Playwright also
 * starts (e2e/servers/openai-wire.mjs), whose answers the journeys choose.
 */
const modelWirePort = Number(port) + 3;
const modelPort = Number(port) + 4;
export const E2E_MODEL_URL = external ? '' : `http://127.0.0.1:${modelPort}`;
process.env.E2E_MODEL_URL = E2E_MODEL_URL;

/** The real binary on a fresh built-in database (its data dir in `dataDirVariable`), stopped with SIGTERM. */
function percolateServer(serverPort: number, dataDirVariable: string, env: Record<string, string>) {
  return {
    command: '../bin/percolate serve',
    url: `http://127.0.0.1:${serverPort}/api/health`,
    timeout: 60_000,
    reuseExistingServer: false,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 15_000 },
    env: {
      PERCOLATE_ADDR: `127.0.0.1:${serverPort}`,
      PERCOLATE_DATA_DIR: freshDataDir(dataDirVariable),
      PERCOLATE_LOG_LEVEL: 'warn',
      PERCOLATE_AUTH_LIMITS: E2E_AUTH_LIMITS,
      ...env,
    },
  };
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
    // The signed-in pages install the app's service worker, which would then answer these
    // journeys' page loads from its cache and fetch the whole shell in every new context.
    // Only e2e/pwa.spec.ts, which tests it, lets it run.
    serviceWorkers: 'block',
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
    : [
        {
          command: `${stripeMock()} -http-addr 127.0.0.1:${stripeMockPort} -https-addr 127.0.0.1:${Number(port) + 2}`,
          port: Number(stripeMockPort),
          timeout: 60_000,
          reuseExistingServer: false,
          stdout: 'ignore',
          stderr: 'ignore',
        },
        percolateServer(Number(port), 'E2E_DATA_DIR', {
          PERCOLATE_SUPPORT_EMAIL: E2E_SUPPORT_EMAIL,
          PERCOLATE_STRIPE_SECRET_KEY: 'sk_test_e2e',
          PERCOLATE_STRIPE_WEBHOOK_SECRET: E2E_WEBHOOK_SECRET,
          PERCOLATE_STRIPE_PRICE_BASIC: 'price_basic_e2e',
          PERCOLATE_STRIPE_PRICE_PREMIUM: 'price_premium_e2e',
          PERCOLATE_STRIPE_API_URL: `http://127.0.0.1:${stripeMockPort}`,
        }),
        {
          command: `node e2e/servers/openai-wire.mjs ${modelWirePort}`,
          url: `http://127.0.0.1:${modelWirePort}/health`,
          timeout: 30_000,
          reuseExistingServer: false,
          stdout: 'ignore',
          stderr: 'pipe',
        },
        percolateServer(modelPort, 'E2E_MODEL_DATA_DIR', {
          PERCOLATE_LLM_BASE_URL: `http://127.0.0.1:${modelWirePort}/v1`,
          PERCOLATE_LLM_API_KEY: 'e2e-key',
          PERCOLATE_LLM_MODEL: 'e2e-model',
        }),
      ],
});
