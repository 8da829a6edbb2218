/** One decorative bean: position in percent of the decorated area, size in px. */
export interface Bean {
  /** Left edge, percent of the area's width. */
  x: number;
  /** Top edge, percent of the area's height. */
  y: number;
  size: number;
  opacity: number;
  rotate: number;
}

export const BEAN_COUNT = 30;
export const MIN_SIZE = 30;
export const MAX_SIZE = 45;
export const MIN_OPACITY = 0.3;
export const MAX_OPACITY = 0.7;
/** Width of each side band, percent: beans stay in the margins, away from the text column. */
export const BAND = 7;
/** Minimum distance between bean centres, in px of the nominal area below. */
export const MIN_SPACING = 60;
/** The nominal size of the decorated area used to turn percents into px for spacing. */
export const NOMINAL_WIDTH = 1280;
export const NOMINAL_HEIGHT = 3600;

const MAX_TRIES = 60;

function distance(a: Bean, b: Bean): number {
  const dx = ((a.x - b.x) / 100) * NOMINAL_WIDTH;
  const dy = ((a.y - b.y) / 100) * NOMINAL_HEIGHT;
  return Math.hypot(dx, dy);
}

/**
 * Scatters `count` beans over the left and right margin bands (so they never
 * sit on the text), each 30-45 px and 0.3-0.7 opaque, at least MIN_SPACING
 * apart where random tries allow (spec §9, landing decoration).
 */
export function scatterBeans(count = BEAN_COUNT, random: () => number = Math.random): Bean[] {
  const beans: Bean[] = [];
  for (let i = 0; i < count; i++) {
    let candidate: Bean | undefined;
    for (let t = 0; t < MAX_TRIES; t++) {
      const left = i % 2 === 0;
      const offset = random() * (BAND - 3);
      const next: Bean = {
        x: left ? offset : 100 - 3 - offset,
        y: random() * 97,
        size: Math.round(MIN_SIZE + random() * (MAX_SIZE - MIN_SIZE)),
        opacity: Math.round((MIN_OPACITY + random() * (MAX_OPACITY - MIN_OPACITY)) * 100) / 100,
        rotate: Math.round(random() * 360),
      };
      candidate = next;
      if (beans.every((b) => distance(b, next) >= MIN_SPACING)) break;
    }
    beans.push(candidate as Bean);
  }
  return beans;
}
