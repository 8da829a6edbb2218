/**
 * The performance mark src/app/earlyStart.ts sets once a signed-in screen's code has been
 * fetched and evaluated. make bench-browser (bench/browser.bench.ts) times the screen's render
 * from it or from the screen's data, whichever came later.
 */
export const SCREEN_CODE_MARK = 'percolate:screen-code';
