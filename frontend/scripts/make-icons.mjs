// Draws the app's icons (public/icons/*.png) from the brand's logo, the cup of
// public/favicon.svg, in Debian's Chromium. Run it again only when the logo changes, and
// commit the PNGs it writes:  cd frontend && node scripts/make-icons.mjs
//
// "any" icons are the cup on a cream tile with rounded corners (transparent outside it);
// "maskable" ones fill the whole square with cream and keep the cup inside the central
// circle of 40% radius that every launcher mask leaves visible. The Apple touch icon is the
// maskable drawing (iOS rounds the corners itself). The notification badge is the cup alone.
import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';

const cream = '#FBF6EF'; // brand.md: background, light
const favicon = readFileSync(new URL('../public/favicon.svg', import.meta.url), 'utf8');
// The cup's drawing, without its <svg> wrapper, in the favicon's 32-unit box.
const cup = favicon.replace(/^<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
// The middle of the cup's own extent (x 5 to 28.5, y 3 to 27), so it sits centred.
const [cx, cy] = [16.75, 15];

/** The icon as SVG in a 100-unit box: tile corner radius (no tile: null) and the cup's scale. */
function svg({ radius, scale }) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
${radius === null ? '' : `<rect width="100" height="100" rx="${radius}" fill="${cream}"/>`}
<g transform="translate(50 50) scale(${scale}) translate(${-cx} ${-cy})">${cup}</g></svg>`;
}

const any = svg({ radius: 22, scale: 2.6 });
// Half the cup's diagonal (about 16.8 units) times 2.2 is 37 units: inside the 40-unit safe circle.
const maskable = svg({ radius: 0, scale: 2.2 });

const icons = [
  { file: 'icon-192.png', size: 192, drawing: any },
  { file: 'icon-512.png', size: 512, drawing: any },
  { file: 'maskable-192.png', size: 192, drawing: maskable },
  { file: 'maskable-512.png', size: 512, drawing: maskable },
  { file: 'apple-touch-icon.png', size: 180, drawing: maskable },
  // A notification's badge: Android draws only its shape (the alpha), so the cup on nothing.
  { file: 'badge-96.png', size: 96, drawing: svg({ radius: null, scale: 2.9 }) },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  for (const { file, size, drawing } of icons) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">` +
        `<img src="data:image/svg+xml;base64,${Buffer.from(drawing).toString('base64')}" width="${size}" height="${size}" style="display:block"></body></html>`,
    );
    await page.locator('img').evaluate((img) => img.decode());
    await page.screenshot({
      path: new URL(`../public/icons/${file}`, import.meta.url).pathname,
      omitBackground: true,
    });
    console.warn(`public/icons/${file} (${size} px)`);
  }
} finally {
  await browser.close();
}
