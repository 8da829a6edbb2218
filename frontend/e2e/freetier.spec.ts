import { expect, test, type Page } from '@playwright/test';
import { openNewChat, sql } from './support';

/**
 * The free tier lets a conversation finish (issue 36, item 3), on a phone (390 × 844): forty
 * exchanges of a student's usual length do not end a free session, the chat says in words how
 * many messages are left before its end (the spec's token counter stays), and the end offers a
 * new session that picks up the thread.
 */
test.use({ viewport: { width: 390, height: 844 } });

/** A student's side of a conversation: one or two sentences each, as typed on a phone. */
const STUDENT = [
  "hey, it's been a long week honestly",
  'I have two midterms on Thursday and I have barely started revising for either.',
  'stats and organic chem. chem is the scary one',
  'I think I just freeze when I open the textbook, like my brain goes blank.',
  'yeah maybe. my roommate studies with music on but that does not work for me',
  'I tried the library yesterday but it was packed and loud.',
  "I guess I could try the quiet floor, I didn't know there was one until today",
  'sleep has been bad too, I keep waking up at like 4am thinking about grades',
  'My mum keeps asking how uni is going and I just say fine.',
  "because I don't want her to worry, she's got enough going on at home",
  'my little brother is sick a lot and she works nights',
  "I miss them though. it's weird being three hours away",
  'Calling is hard because our schedules never line up.',
  'maybe sunday mornings could work, she is usually off then',
  'ok that actually feels doable. I will text her tonight to ask',
  'Back to the exams, I made a plan last week but I already fell behind on it.',
  'it was way too ambitious, like six hours a day on top of lectures',
  'Two hours a day sounds more realistic if I am honest.',
  'maybe one hour of chem in the morning when my head is clearer',
  "and stats after dinner, it's more like puzzles so I don't mind it as much",
  'My friend Sam offered to quiz me on reactions, I keep putting it off.',
  "I think I'm embarrassed about how little I know right now",
  'yeah she probably would not judge me, she is pretty chill',
  'I will message her after this and see if Wednesday works.',
  'Food is another thing, I have been living on toast and instant noodles.',
  'the dining hall closes early and I always miss it',
  'I could cook rice and eggs on sunday for a few days I suppose',
  "that's cheap too which helps, money is tight this month",
  'I picked up two extra shifts at the cafe which did not help my revision.',
  'I needed the money for rent though, no way around it',
  'Saying no to my manager feels impossible, she is always short staffed.',
  'maybe I could ask for just one fewer shift during exam weeks',
  "that's fair, she did say to tell her if uni gets too much",
  'Honestly talking this through makes it feel less like a giant blob.',
  "it's more like four or five smaller things now",
  'chem plan, call mum, quiz with Sam, food on sunday, one less shift',
  'I think the shift one is the one I am most nervous about.',
  'maybe I will write down what I want to say before I ask her',
  'ok. I feel a bit calmer than when I started, thanks for listening',
  'one more thing, how do I stop checking my phone every five minutes while I study?',
  'putting it in another room could work, my desk is right by the door',
];

const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });

/**
 * A student takes longer to type one or two sentences than the burst limit (20 sends a minute)
 * lets a journey wait: the typing is stood in for by forgetting this minute's count of sends
 * (this server runs these journeys alone).
 */
function typing() {
  sql("DELETE FROM rate_limits WHERE key LIKE 'chat\\_send:%'");
}

/**
 * Sends one message as a student would and waits until its reply has finished: the token
 * counter moved on (the server answered) and Send is back (or, with mayEnd, the session ended).
 */
async function exchange(page: Page, text: string, mayEnd = false) {
  typing();
  const counter = page.getByLabel('Tokens used');
  const before = await counter.textContent();
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await expect(page.getByTestId('user-message').last()).toContainText(text);
  await expect(counter).not.toHaveText(before ?? '', { timeout: 30_000 });
  const sendBack = page.getByRole('button', { name: 'Send', disabled: false });
  // Near the limit the reply may be the session's last: then the new session is offered instead.
  const done = mayEnd ? sendBack.or(page.getByRole('link', { name: 'Continue in a new session' })) : sendBack;
  await expect(done.first()).toBeVisible({ timeout: 30_000 });
}

/** The session the chat page shows (its address), and what the server has it at. */
function storedSession(page: Page): { id: string; used: number; limit: number; status: string } {
  const id = new URL(page.url()).pathname.split('/').pop()!;
  const [used, limit, status] = sql(`SELECT tokens_used, token_limit, status FROM chat_sessions WHERE id = '${id}'`).trim().split('|');
  return { id, used: Number(used), limit: Number(limit), status };
}

test('a free session holds a conversation of 40 exchanges and still sends after the 40th reply', async ({ page, request }) => {
  test.setTimeout(240_000);
  await openNewChat(page, request, 'freetier-forty');
  expect(storedSession(page).limit).toBeGreaterThan(0);

  for (const text of STUDENT.slice(0, 40)) {
    await exchange(page, text);
    // Never ended on the way.
    await expect(page.getByText(/^Session ended:/)).toHaveCount(0);
  }
  const after40 = storedSession(page);
  expect(after40.status).toBe('ACTIVE');
  test.info().annotations.push({ type: 'tokens after 40 exchanges', description: `${after40.used} / ${after40.limit}` });

  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'End Session' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Continue in a new session' })).toHaveCount(0);
  await expect(page.getByLabel('Tokens used')).toHaveText(`${after40.used} / ${after40.limit}`);

  // The composer still sends: a 41st message gets its reply in the same session.
  const url = page.url();
  await exchange(page, STUDENT[40]);
  await expect(page).toHaveURL(url);
  await expect(page.getByText(/^Session ended:/)).toHaveCount(0);
  expect(storedSession(page).status).toBe('ACTIVE');
});

test('near its limit a free session says how many messages are left, then ends offering a new session on the same thread', async ({ page, request }) => {
  test.setTimeout(120_000);
  await openNewChat(page, request, 'freetier-end');
  const opened = storedSession(page);
  await exchange(page, STUDENT[1]);
  await exchange(page, STUDENT[2]);

  // What a real exchange costs here; then the rest of a long conversation is seeded after
  // these two, at that cost, until about three exchanges are left.
  const start = storedSession(page);
  const perExchange = Math.ceil((start.used - opened.used) / 2);
  const earlier = Math.floor((start.limit - start.used) / perExchange) - 3;
  expect(earlier).toBeGreaterThan(0);
  const userShare = Math.ceil(perExchange / 3);
  sql(`INSERT INTO messages (session_id, user_id, role, content, token_count, created_at)
       SELECT s.id, s.user_id, CASE WHEN g % 2 = 0 THEN 'assistant' ELSE 'user' END,
              CASE WHEN g % 2 = 0 THEN 'That sounds like a lot to carry. What helped last time?'
                   ELSE 'Earlier I said this week was heavy, with exams and shifts.' END,
              CASE WHEN g % 2 = 0 THEN ${perExchange - userShare} ELSE ${userShare} END,
              (SELECT max(created_at) FROM messages WHERE session_id = s.id) + g * interval '1 microsecond'
       FROM generate_series(1, ${2 * earlier}) g, chat_sessions s WHERE s.id = '${start.id}'`);
  sql(`UPDATE chat_sessions SET tokens_used = tokens_used + ${earlier * perExchange} WHERE id = '${start.id}'`);
  const seeded = storedSession(page);

  await page.reload();
  const counter = page.getByLabel('Tokens used');
  await expect(counter).toHaveText(`${seeded.used} / ${seeded.limit}`);
  const notice = page.getByTestId('messages-left');
  await expect(notice).toHaveText(
    /^(About [1-5] messages? left in this session\. After that you can start a new one that picks up where you left off\.|This session is about to reach its limit\. You can start a new session that picks up where you left off\.)$/,
  );
  await expect(notice).toHaveAttribute('role', 'status');
  test.info().annotations.push({ type: 'notice at the seeded point', description: `${seeded.used} / ${seeded.limit}: ${await notice.textContent()}` });

  // Talk on until the server ends the session at its limit; the notice and the counter say so on the way.
  let sent = 0;
  while (storedSession(page).status === 'ACTIVE') {
    expect(sent).toBeLessThan(10);
    await exchange(page, STUDENT[3 + sent], true);
    sent += 1;
    if (storedSession(page).status === 'ACTIVE') await expect(notice).toBeVisible();
  }
  test.info().annotations.push({ type: 'exchanges after the notice', description: String(sent) });

  // The end: said in words, the counter stays, and a new session that continues the thread is offered.
  const ended = storedSession(page);
  await expect(page.getByText(/^Session ended: .*A summary has been generated for your records\.$/)).toBeVisible();
  await expect(counter).toHaveText(`${ended.used} / ${ended.limit}`);
  await expect(notice).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'End Session' })).toHaveCount(0);
  const title = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
  await page.getByRole('link', { name: 'Continue in a new session' }).click();
  await expect(page.getByText(`Last time we were talking about "${title}". Would you like to pick up where we left off?`)).toBeVisible();
  await expect(composer(page)).toBeEnabled();
  await exchange(page, 'yes please, I want to keep going with the exam plan');
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  expect(storedSession(page).id).not.toBe(ended.id);
  expect(storedSession(page).status).toBe('ACTIVE');
});
