// Debian's Chromium driven by playwright-core, one browser per test file. A missing executable fails
// the test with a message saying what to install: these journeys must run, never be skipped.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.SIGNIN_TEST_CHROMIUM ?? '/usr/bin/chromium';
export const PHONE = { width: 360, height: 740 };
export const DESKTOP = { width: 1280, height: 800 };
const SHOTS = new URL('../../test-results/screenshots/', import.meta.url);

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's package (apt-get install chromium) or set SIGNIN_TEST_CHROMIUM. The browser tests fail rather than skip.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** Screenshots of the current page at phone and desktop sizes; the page is left at phone size. */
export async function screenshots(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: new URL(`${name}-${size}.png`, SHOTS).pathname, fullPage: true });
  }
}

/** A screenshot of what the screen shows now (the viewport, not the whole page), as `<name>.png`. */
export async function screenshotAt(page: Page, name: string): Promise<string> {
  await mkdir(SHOTS, { recursive: true });
  const path = new URL(`${name}.png`, SHOTS).pathname;
  await page.screenshot({ path });
  return path;
}

/**
 * A screenshot of the whole page, as `<name>.png`: the screen is made as tall as the page for it, then
 * given back its size (Playwright's fullPage would drop a text size set with pageWithTextSize).
 */
export async function screenshotWhole(page: Page, name: string): Promise<string> {
  await mkdir(SHOTS, { recursive: true });
  const path = new URL(`${name}.png`, SHOTS).pathname;
  const screen = page.viewportSize()!;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: screen.width, height: Math.max(height, screen.height) });
  await page.screenshot({ path });
  await page.setViewportSize(screen);
  return path;
}

/**
 * Links and buttons on the page smaller than 44×44 CSS px (WCAG 2.5.5), among those a user can see or
 * reach by scrolling; each as "text (width×height)".
 */
export async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const small: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('a[href], button')) {
      const style = getComputedStyle(el);
      if (el.hidden || style.display === 'none' || style.visibility === 'hidden') continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (box.width < 44 || box.height < 44)
        small.push(`${(el.textContent ?? '').trim()} (${Math.round(box.width)}×${Math.round(box.height)})`);
    }
    return small;
  });
}

/** Answers the application's redirect URI in the browser, and hands back the URL it was called with. */
export async function catchCallback(page: Page, redirectUri: string): Promise<() => Promise<URL>> {
  let resolve!: (url: URL) => void;
  const arrived = new Promise<URL>((r) => (resolve = r));
  const origin = new URL(redirectUri).origin;
  await page.route(`${origin}/**`, async (route) => {
    resolve(new URL(route.request().url()));
    await route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the application' });
  });
  // Returns once the page has landed there, so that the next navigation does not interrupt this one.
  return async () => {
    const url = await arrived;
    await page.waitForURL((u) => u.origin === origin);
    return url;
  };
}
