// A small OpenAI-wire-compatible model for the journeys that need a configured model
// (Playwright starts it; see playwright.config.ts). It speaks the chat-completions API, streamed
// and not, and the moderation API, with scripted answers chosen by a marker in the user's last
// message:
//   [slow]     a reply of 40 words, one every 250 ms (about ten seconds: a page can leave and
//              come back while it is written)
//   [hostile]  markdown with raw HTML, an image and a javascript: link
//   [hundred]  a reply of 100 words, one every 20 ms (the browser bench streams it into a long chat)
//   otherwise  a short reflective reply
// Non-streamed requests (summaries, memory) get a JSON object that satisfies both.
import { createServer } from 'node:http';
import { HOSTILE } from './hostile.mjs';

const port = Number(process.argv[2] || process.env.PORT || 18093);

export const SLOW_WORDS = Array.from({ length: 40 }, (_, i) => `word${i + 1}`);
const HUNDRED_WORDS = Array.from({ length: 100 }, (_, i) => `token${i + 1}`);
const PLAIN = 'That sounds like a lot to hold. What feels heaviest right now?';

function lastUserText(body) {
  const msgs = Array.isArray(body.messages) ? body.messages : [];
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i].role === 'user') return String(msgs[i].content ?? '');
  return '';
}

function chunk(model, delta, finish) {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-e2e',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function stream(res, model, pieces, gap) {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  res.write(chunk(model, { role: 'assistant', content: '' }, null));
  for (const piece of pieces) {
    if (res.destroyed) return;
    res.write(chunk(model, { content: piece }, null));
    if (gap) await sleep(gap);
  }
  res.write(chunk(model, {}, 'stop'));
  res.end('data: [DONE]\n\n');
}

const server = createServer((req, res) => {
  let raw = '';
  req.on('data', (d) => (raw += d));
  req.on('end', async () => {
    const path = new URL(req.url, 'http://x').pathname;
    if (req.method === 'GET' && path === '/health') return res.end('ok');
    let body = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ error: { message: 'bad JSON', type: 'invalid_request_error' } }));
    }
    if (req.method === 'POST' && path === '/v1/moderations') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end(
        JSON.stringify({ id: 'modr-e2e', model: 'omni-moderation-latest', results: [{ flagged: false, categories: {}, category_scores: {} }] }),
      );
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      const model = body.model || 'e2e-model';
      const text = lastUserText(body);
      if (body.stream) {
        if (text.includes('[slow]')) return stream(res, model, SLOW_WORDS.map((w, i) => (i ? ` ${w}` : w)), 250);
        if (text.includes('[hostile]')) return stream(res, model, [HOSTILE], 0);
        if (text.includes('[hundred]')) return stream(res, model, HUNDRED_WORDS.map((w, i) => (i ? ` ${w}` : w)), 20);
        return stream(res, model, PLAIN.split(/(?= )/), 20);
      }
      const content = JSON.stringify({ summary: 'You talked through a busy week.', emotions: ['stress'], memories: [] });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end(
        JSON.stringify({
          id: 'chatcmpl-e2e',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
    }
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `unknown endpoint ${req.method} ${path}`, type: 'invalid_request_error' } }));
  });
});

server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
