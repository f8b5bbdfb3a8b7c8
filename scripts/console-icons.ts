/**
 * Draws the installable console's icons (docs/console.md "On a phone: the installable app") from
 * the console's logo (console/src/ui.tsx `Logo`: the brand square, the white house, the amber
 * door) with headless Chromium, into console/public/icons/: icon-192.png and icon-512.png (the
 * logo with its rounded corners), icon-maskable-512.png (full-bleed brand colour, the house inside
 * the maskable safe zone, the middle 80 %) and apple-touch-icon.png (180 px, square: iOS rounds
 * it). The PNGs are committed; run `node scripts/console-icons.ts` again only when the logo changes.
 */
import path from 'node:path';
import { chromium } from 'playwright-core';

const out = path.resolve(import.meta.dirname, '../console/public/icons');
const HOUSE = '<path d="M7 16.5 16 8l9 8.5V25H7z" fill="#fff"/><path d="M13.5 25v-5.5h5V25z" fill="#ffbf47"/>';

/** The logo at `size` px; `maskable` fills the square and shrinks the house into the safe zone. */
function svg(size: number, variant: 'rounded' | 'square' | 'maskable'): string {
  const rx = variant === 'rounded' ? 7 : 0;
  const house = variant === 'maskable' ? `<g transform="translate(16 16.5) scale(0.7) translate(-16 -16.5)">${HOUSE}</g>` : HOUSE;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="${size}" height="${size}"><rect width="32" height="32" rx="${rx}" fill="#1f4e79"/>${house}</svg>`;
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const page = await browser.newPage();
const icons: Array<[file: string, size: number, variant: 'rounded' | 'square' | 'maskable']> = [
  ['icon-192.png', 192, 'rounded'],
  ['icon-512.png', 512, 'rounded'],
  ['icon-maskable-512.png', 512, 'maskable'],
  ['apple-touch-icon.png', 180, 'square'],
];
for (const [file, size, variant] of icons) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg(size, variant)}</body></html>`);
  await page.locator('svg').screenshot({ path: path.join(out, file), omitBackground: true });
  process.stdout.write(`${file}\n`);
}
await browser.close();
