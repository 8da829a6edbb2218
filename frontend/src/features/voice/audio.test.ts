import { describe, expect, it } from 'vitest';
import { toAudioBlob } from './audio';

async function bytesOf(b: Blob) {
  return Array.from(new Uint8Array(await b.arrayBuffer()));
}

describe('toAudioBlob', () => {
  it('plays base64, data URLs and binary alike as audio/mpeg', async () => {
    const raw = [0x49, 0x44, 0x33, 0x04];
    for (const input of ['SUQzBA==', 'data:audio/mpeg;base64,SUQzBA==', new Uint8Array(raw).buffer, new Blob([new Uint8Array(raw)])]) {
      const blob = toAudioBlob(input);
      expect(blob.type).toBe('audio/mpeg');
      expect(await bytesOf(blob)).toEqual(raw);
    }
  });
});
