import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The data dir of the server Playwright started (set in playwright.config.ts). */
function dataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: these journeys need the server Playwright starts');
  return dir;
}

/** Decodes a quoted-printable body (the dev outbox writes mail as a relay would receive it). */
function decodeQuotedPrintable(s: string): string {
  return s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * Waits for the newest mail to `to` in the dev outbox and returns the first link in it whose
 * path starts with `pathPrefix` (for example '/email-verified').
 */
export async function mailLink(to: string, pathPrefix: string, after = 0): Promise<string> {
  const outbox = join(dataDir(), 'outbox');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    let files: string[] = [];
    try {
      files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
    } catch {
      // not created yet
    }
    const candidates = files
      .map((f) => join(outbox, f))
      .filter((f) => statSync(f).mtimeMs >= after)
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    for (const file of candidates) {
      const raw = readFileSync(file, 'utf8');
      const headerEnd = raw.search(/\r?\n\r?\n/);
      const headers = raw.slice(0, headerEnd);
      if (!new RegExp(`^To:.*${to.replace(/[.+]/g, '\\$&')}`, 'im').test(headers)) continue;
      const body = decodeQuotedPrintable(raw.slice(headerEnd));
      const match = body.match(new RegExp(`https?://[^\\s"<>]*${pathPrefix}[^\\s"<>]*`));
      if (match) return new URL(match[0]).pathname + new URL(match[0]).search;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${to} with a ${pathPrefix} link`);
}

/** Runs `percolate users set-role` against the running server's database. */
export function setRole(email: string, role: 'USER' | 'BASIC' | 'PREMIUM' | 'ADMIN'): void {
  execFileSync(fileURLToPath(new URL('../../bin/percolate', import.meta.url)), ['users', 'set-role', email, role], {
    env: { ...process.env, PERCOLATE_DATA_DIR: dataDir(), PERCOLATE_LOG_LEVEL: 'error' },
    stdio: 'pipe',
  });
}

/** A fresh address for each run. */
export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}
