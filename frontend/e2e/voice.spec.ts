import { expect, test, type Page } from '@playwright/test';
import { setRole, signIn, verifiedAccount } from './support';

/** A SpeechRecognition double the test speaks through. */
async function injectSpeech(page: Page) {
  await page.addInitScript(() => {
    class FakeRecognition {
      continuous = false;
      interimResults = false;
      lang = '';
      onresult: ((e: unknown) => void) | null = null;
      onerror: ((e: unknown) => void) | null = null;
      onend: (() => void) | null = null;
      start() {
        (globalThis as unknown as { __recognition: FakeRecognition }).__recognition = this;
      }
      stop() {}
      abort() {}
    }
    (globalThis as unknown as { SpeechRecognition: unknown }).SpeechRecognition = FakeRecognition;
  });
}

test('a BASIC user speaks; the message goes with 🎤 and the reply comes back with 🔊 and audio', async ({ page, request }) => {
  test.setTimeout(90_000);
  const email = await verifiedAccount(request, 'voice');
  setRole(email, 'BASIC');
  await injectSpeech(page);
  await signIn(page, email);
  await page.goto('/chat');

  await page.getByRole('switch', { name: /Voice mode/ }).check();
  await page.getByRole('combobox', { name: 'Voice' }).selectOption('nova');
  await page.getByRole('button', { name: 'Start recording' }).click();
  const lang = await page.evaluate(() => (globalThis as unknown as { __recognition: { lang: string } }).__recognition.lang);
  expect(lang).toBe('en-US');

  const reply = page.waitForResponse((r) => r.url().endsWith('/api/chat/voice'));
  await page.evaluate(() => {
    const rec = (globalThis as unknown as { __recognition: { onresult: (e: unknown) => void } }).__recognition;
    const result = Object.assign([{ transcript: 'I feel a little calmer tonight' }], { isFinal: true });
    rec.onresult({ resultIndex: 0, results: Object.assign([result], { length: 1 }) });
  });
  const body = (await (await reply).json()) as { success: boolean; audioData?: string };
  expect(body.success).toBe(true);
  // espeak-ng + lame are installed by .ci/run, so the server speaks: MP3 bytes.
  expect(Buffer.from(body.audioData ?? '', 'base64').length).toBeGreaterThan(1000);

  await expect(page.getByTestId('user-message').last()).toHaveText('🎤 I feel a little calmer tonight');
  await expect(page.getByTestId('ai-message').last()).toContainText('🔊', { timeout: 20_000 });
});

test('a free user who reaches for voice mode is sent to /about and sees the lock', async ({ page, request }) => {
  const email = await verifiedAccount(request, 'free-voice');
  await signIn(page, email);
  await page.goto('/chat');
  await expect(page.getByTestId('voice-locked').first()).toBeVisible();
  await page.getByRole('switch', { name: /Voice mode/ }).click({ force: true });
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByText('Voice conversations are part of the Basic and Premium bundles.')).toBeVisible();
});
