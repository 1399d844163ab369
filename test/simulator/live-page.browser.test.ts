/**
 * The live page in a real headless browser (Debian's chromium driven by playwright-core), against
 * the simulator's HTTP server as `npm run simulator` starts it: title, language and landmarks; a
 * message sent through the API appears; names and topics are text, never HTML; no sideways
 * scrolling at 375 px; Tab reaches elements with a visible focus style; nothing in the console.
 * Where no chromium is installed (`apt-get install chromium`; .ci/run installs it) the tests skip
 * and say why.
 */
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorServer } from '../../scripts/cli/simulator-server.ts';
import { basicAuth, encodeForm } from '../../simulator/index.ts';

const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** CHROMIUM_PATH, else the first of BROWSER_NAMES on PATH. */
function findChromium(): string | undefined {
  const candidates = process.env.CHROMIUM_PATH
    ? [process.env.CHROMIUM_PATH]
    : (process.env.PATH ?? '').split(path.delimiter).filter(Boolean).flatMap((dir) => BROWSER_NAMES.map((name) => path.join(dir, name)));
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

const executablePath = findChromium();
if (!executablePath) {
  console.warn(
    `live-page.browser.test.ts: SKIPPED, no chromium found (looked for ${BROWSER_NAMES.join(', ')} on PATH, or CHROMIUM_PATH). ` +
      'Install it (Debian/Ubuntu: apt-get install -y --no-install-recommends chromium) to run the live page in a browser.',
  );
}

describe.skipIf(!executablePath)('the live page in headless chromium', () => {
  let server: Awaited<ReturnType<typeof startSimulatorServer>>;
  let origin: string;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    server = await startSimulatorServer({ port: 0, print: false });
    origin = new URL(server.url).origin;
    browser = await chromium.launch({ executablePath, timeout: 20_000 });
    page = await browser.newPage({ viewport: { width: 375, height: 740 } });
    page.setDefaultTimeout(10_000);
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(String(error)));
    await page.goto(`${origin}/`);
    await page.locator('#status', { hasText: 'Live' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('has a title, a language and the landmarks', async () => {
    expect(await page.title()).toBe('Zulip Dev · Chat simulator · live');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    for (const role of ['banner', 'navigation', 'main', 'complementary'] as const) expect([role, await page.getByRole(role).count()]).toEqual([role, 1]);
    expect(await page.locator('#watcher').textContent()).toBe('Read-only live view, watching as Desdemona (desdemona@zulip.com)');
  });

  it('shows a message sent through the API as it arrives: content rendered, names and topics as text', async () => {
    const hamlet = server.simulator.engine.state.users.get(10)!;
    const topic = '<i>tea</i> & biscuits';
    const sent = await fetch(`${origin}/api/v1/messages`, {
      method: 'POST',
      headers: { authorization: basicAuth(hamlet.delivery_email, hamlet.api_key), 'content-type': 'application/x-www-form-urlencoded' },
      body: encodeForm({ type: 'stream', to: 'Denmark', topic, content: 'Live **from** the <b>API</b>' }),
    });
    expect(sent.status).toBe(200);
    const { id } = (await sent.json()) as { id: number };
    const shown = page.locator(`#messages li[data-id="${id}"]`);
    await shown.waitFor();
    expect(await shown.locator('.content').innerHTML()).toBe('<p>Live <strong>from</strong> the &lt;b&gt;API&lt;/b&gt;</p>');
    expect(await shown.locator('.where').textContent()).toBe(`#Denmark › ${topic}`);
    expect(await shown.locator('.sender').textContent()).toBe(hamlet.full_name);
    expect(await page.locator('#messages i, #views i').count()).toBe(0);
    await page.locator('#events summary', { hasText: `message · #` }).first().waitFor();
    expect(await page.locator('#views button', { hasText: topic }).count()).toBe(1);
  });

  it('has no sideways scrolling at 375 px', async () => {
    // Browser code as text: the project compiles without the DOM's types.
    const widths = await page.evaluate<{ document: number; viewport: number }>('({ document: document.documentElement.scrollWidth, viewport: window.innerWidth })');
    expect(widths.viewport).toBe(375);
    expect(widths.document).toBeLessThanOrEqual(widths.viewport);
  });

  it('Tab moves focus to interactive elements, each with a visible focus style', async () => {
    const focused: string[] = [];
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      const seen = await page.evaluate<{ text: string; tag: string; outline: string }>(
        "(() => { const e = document.activeElement, s = getComputedStyle(e); return { text: e.textContent.trim(), tag: e.tagName, outline: s.outlineStyle + ' ' + s.outlineWidth }; })()",
      );
      expect(['A', 'BUTTON', 'SUMMARY']).toContain(seen.tag);
      expect(seen.outline).toBe('solid 3px');
      focused.push(seen.text);
    }
    expect(focused.slice(0, 2)).toEqual(['Skip to messages', expect.stringMatching(/^All messages \(\d+\)$/)]);
  });

  it('a channel chosen from the keyboard filters the messages', async () => {
    await page.locator('#views button', { hasText: '#Denmark' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('#messages-title').textContent()).toBe('#Denmark');
    const places = await page.locator('#messages .where').allTextContents();
    expect(places.length).toBeGreaterThan(0);
    expect(places.every((place) => place.startsWith('#Denmark › '))).toBe(true);
  });

  it('logged nothing to the console', () => {
    expect(consoleErrors).toEqual([]);
  });

  // After the console check: the refused poll is a 400 the browser logs.
  it('registers again when its event queue is gone (a reset), and goes on showing new messages', async () => {
    const registers = () => server.simulator.journal.entries({ route: 'POST /register' }).length;
    expect((await fetch(`${origin}/__simulator/reset`, { method: 'POST' })).status).toBe(204);
    const hamlet = server.simulator.engine.state.users.get(10)!;
    await expect.poll(registers, { timeout: 10_000 }).toBe(1);
    await page.locator('#status', { hasText: /^Live/ }).waitFor();
    // Sent once the page is polling its new queue: it arrives as an event.
    const sent = await server.simulator.request({ method: 'POST', path: '/api/v1/messages', as: hamlet.id, body: { type: 'stream', to: 'Denmark', topic: 'after reset', content: 'still live' } });
    await page.locator(`#messages li[data-id="${sent.body.id}"]`).waitFor();
    await page.locator('#events summary', { hasText: `message · #` }).first().waitFor();
  });
});
