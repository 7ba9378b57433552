// Renders media/icon.svg to media/icon.png (128×128, the Marketplace icon) in Debian's Chromium.
// Run by hand after changing the SVG: node scripts/make-icon.mjs
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const svg = readFileSync(new URL('../media/icon.svg', import.meta.url), 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
await page.screenshot({ path: new URL('../media/icon.png', import.meta.url).pathname, omitBackground: true, clip: { x: 0, y: 0, width: 128, height: 128 } });
await browser.close();
