import {
  BAND,
  BEAN_COUNT,
  MAX_OPACITY,
  MAX_SIZE,
  MIN_OPACITY,
  MIN_SIZE,
  MIN_SPACING,
  NOMINAL_HEIGHT,
  NOMINAL_WIDTH,
  scatterBeans,
} from './beans';

/** A repeatable pseudo-random sequence, so failures can be replayed. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1664525 + 1013904223) % 4294967296;
    return s / 4294967296;
  };
}

describe('scatterBeans', () => {
  it.each([1, 2, 3, 42, 1234])('places 30 beans of the spec sizes and opacities in the margins (seed %i)', (seed) => {
    const beans = scatterBeans(BEAN_COUNT, seeded(seed));

    expect(beans).toHaveLength(30);
    for (const b of beans) {
      expect(b.size).toBeGreaterThanOrEqual(MIN_SIZE);
      expect(b.size).toBeLessThanOrEqual(MAX_SIZE);
      expect(b.opacity).toBeGreaterThanOrEqual(MIN_OPACITY);
      expect(b.opacity).toBeLessThanOrEqual(MAX_OPACITY);
      // Off the text column: within a side band.
      expect(b.x < BAND || b.x > 100 - BAND).toBe(true);
    }
  });

  it('keeps a minimum spacing between beans', () => {
    const beans = scatterBeans(BEAN_COUNT, seeded(7));
    let closest = Infinity;
    for (let i = 0; i < beans.length; i++) {
      for (let j = i + 1; j < beans.length; j++) {
        const dx = ((beans[i].x - beans[j].x) / 100) * NOMINAL_WIDTH;
        const dy = ((beans[i].y - beans[j].y) / 100) * NOMINAL_HEIGHT;
        closest = Math.min(closest, Math.hypot(dx, dy));
      }
    }
    expect(closest).toBeGreaterThanOrEqual(MIN_SPACING);
  });

  it('uses the whole size and opacity ranges', () => {
    const low = scatterBeans(1, () => 0)[0];
    const high = scatterBeans(1, () => 0.999999)[0];
    expect([low.size, low.opacity]).toEqual([30, 0.3]);
    expect([high.size, high.opacity]).toEqual([45, 0.7]);
  });
});
