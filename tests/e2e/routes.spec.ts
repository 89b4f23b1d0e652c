import AxeBuilder from '@axe-core/playwright';
import { entryChunk, pageMeta, pageMetaFromHtml } from '../../src/app/buildContract';
import { persona } from '../../src/config/persona';
import { getHref, routeIds, routes, type Lang, type RouteId } from '../../src/config/routes';
import { expect, gotoHydrated, test, text, wcag } from './fixtures';
import { decodeEntities, germanIn } from './germanTexts';

/** Where each page's heading lives in the translations. */
const headingKey: Record<RouteId, string> = {
  home: 'home.headline',
  products: 'overview:heading',
  features: 'features:heading',
  demo: 'demo:heading',
  solutions: 'solutions:heading',
  pricing: 'pricing:heading',
  coachPlans: 'coachPlans:heading',
  contactCenter: 'contactCenter:heading',
  hotlines: 'hotlines:heading',
  secretary: 'secretary:heading',
  mentalCoaches: 'mentalCoaches:heading',
  liveCoach: '',
  about: 'about:heading',
  contact: 'contactPage:heading',
  imprint: 'imprint:heading',
  privacy: 'privacy:heading',
  transparency: 'transparency:heading',
  adminLogin: 'admin:login.heading',
  // Signed out, the dashboard sends the visitor to the login (admin-auth.spec.ts covers the rest).
  adminDashboard: 'admin:login.heading',
};

function expectedHeading(id: RouteId, lang: Lang): string {
  // The coach speaks German only, whatever the site's language.
  if (id === 'liveCoach') return `Sprich jetzt mit ${persona.name} AI!`;
  return text(lang, headingKey[id]);
}

const cases = routeIds.flatMap((id) =>
  (['de', 'en'] as const).map((lang) => ({ id, lang, path: getHref(id, lang), bound: 'en' in routes[id].paths })),
);

/**
 * Every text the page puts on screen after its HTML, outside lang="de": each text node the page
 * adds or changes, recorded as it happens (the HTML itself is checked before the visit), so no
 * frame can show a text that is not recorded.
 */
function recordTextsAsTheyChange() {
  const seen = new Set<string>();
  Object.assign(window, { textsSeen: seen });
  const record = (node: Node) => {
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let text: Node | null = node.nodeType === Node.TEXT_NODE ? node : walker.nextNode(); text; text = walker.nextNode()) {
      if (!text.parentElement?.closest('[lang="de"]')) seen.add(text.textContent ?? '');
    }
  };
  new MutationObserver((mutations) => {
    for (const mutation of mutations) {
      if (mutation.type === 'characterData') record(mutation.target);
      mutation.addedNodes.forEach(record);
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
}

/**
 * axe-core audits each page once, in one language, alternating along the route registry: a
 * page's twins share their markup and differ only in words (their headings, landmarks and texts
 * are checked in both), and both languages' header, footer and cookie notice are audited.
 */
const audited = new Set(routeIds.map((id, index) => `${id}:${index % 2 === 0 ? 'de' : 'en'}`));

/**
 * One visit per page and language checks what every page owes: its heading in its language, the
 * landmarks, no axe-core violation (see `audited`), and on an English path no German text in the prerendered HTML
 * or in any frame until the page is live (the live coach's part, marked lang="de", aside).
 */
test.describe('every route in both languages', () => {
  for (const { id, lang, path, bound } of cases) {
    test(`${id} (${lang}) at ${path}`, async ({ page }) => {
      const englishPage = lang === 'en' && routes[id].kind !== 'admin';
      if (!bound) {
        // The admin area has one path and follows the remembered language.
        await page.addInitScript((choice) => window.localStorage.setItem('language', choice), lang);
      }
      if (englishPage) {
        const html = await (await page.request.get(path)).text();
        const withoutCoach = id === 'liveCoach' ? html.replace(/<div[^>]* lang="de"[\s\S]*<\/main>/, '</main>') : html;
        expect(germanIn(decodeEntities(withoutCoach)), 'German in the prerendered HTML').toEqual([]);
        await page.addInitScript(recordTextsAsTheyChange);
      }
      await gotoHydrated(page, path);
      if (id === 'contact') {
        // The contact page opens the shared contact modal on arrival; close it to see the page.
        await expect(page.getByRole('dialog')).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toBeHidden();
      }
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(expectedHeading(id, lang));
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.getByRole('banner').first()).toBeVisible();
      await expect(page.getByRole('contentinfo')).toBeVisible();
      if (englishPage) {
        await page.waitForLoadState('networkidle');
        const texts = await page.evaluate(() => [...(window as unknown as { textsSeen: Set<string> }).textsSeen].join('\n'));
        expect(texts.length).toBeGreaterThan(0);
        expect(germanIn(texts), 'German in a frame').toEqual([]);
        expect(germanIn(await page.title()), 'German in the title').toEqual([]);
      }
      if (audited.has(`${id}:${lang}`)) {
        const results = await new AxeBuilder({ page }).withTags(wcag).analyze();
        expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      }
    });
  }
});

test('an unknown path shows the not-found page with status 404 and a way home', async ({ page, consoleProblems }) => {
  const response = await gotoHydrated(page, '/gibt-es-nicht/wirklich');
  expect(response?.status()).toBe(404);
  // The browser reports the document's own 404 status; that one is expected here.
  expect(consoleProblems.seen.some((line) => line.includes('status of 404'))).toBe(true);
  consoleProblems.allow(/status of 404/);
  await expect(page.getByText('404', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Diese Seite wurde nicht gefunden.');
  await page.getByRole('link', { name: 'Zur Startseite', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'home.headline'));
});

test('an unknown path under an English prefix shows the English not-found page', async ({ page, consoleProblems }) => {
  consoleProblems.allow(/status of 404/);
  for (const path of ['/products/does-not-exist', '/legal/nothing']) {
    const response = await page.request.get(path);
    expect(response.status(), path).toBe(404);
    expect(await response.text(), path).toContain(`<html lang="en">`);
  }
  const response = await gotoHydrated(page, '/en/typo');
  expect(response?.status()).toBe(404);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'notFound.message'));
  await page.getByRole('link', { name: text('en', 'notFound.home'), exact: true }).click();
  await expect(page).toHaveURL(/\/en$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'home.headline'));
});

test('prerendered HTML carries the page before any script runs', async ({ request }) => {
  for (const [path, heading, lang] of [
    ['/', text('de', 'home.headline'), 'de'],
    ['/products/ai-hotlines', text('en', 'hotlines:heading'), 'en'],
    ['/unternehmen/ueber-uns', text('de', 'about:heading'), 'de'],
  ] as const) {
    const response = await request.get(path);
    expect(response.status()).toBe(200);
    const html = await response.text();
    expect(html).toContain(`<html lang="${lang}">`);
    expect(html).toMatch(new RegExp(`<h1[^>]*>${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</h1>`));
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toMatch(/<meta name="description" content="[^"]+"/);
    expect(html).toContain(`<link rel="canonical" href="https://www.example.com${path}"`);
    // No inline script: the strict Content-Security-Policy forbids them.
    expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
  }
  const twin = await (await request.get('/produkte/ai-hotlines')).text();
  expect(twin).toContain('hreflang="en" href="https://www.example.com/products/ai-hotlines"');
  expect(twin).toContain('hreflang="de" href="https://www.example.com/produkte/ai-hotlines"');
});

test('the code a page loads first carries V8\'s compile hint; code loaded on demand does not', async ({ request }) => {
  const html = await (await request.get('/produkte/ai-hotlines')).text();
  const entry = /<script type="module"[^>]* src="([^"]+)"/.exec(html)?.[1] ?? '';
  const modules = pageMetaFromHtml(html, pageMeta.appModules).split(' ').filter(Boolean);
  expect(entry).toMatch(/^\/assets\/.+\.js$/);
  expect(modules.length).toBeGreaterThan(3);
  for (const file of [entry, ...modules]) {
    expect((await (await request.get(file)).text()).startsWith('//# allFunctionsCalledOnLoad\n'), file).toBe(true);
  }
  // The admin login page is loaded only when an operator opens it.
  const boot = await (await request.get(modules.find((file) => file.includes('/boot-')) ?? '')).text();
  const admin = /assets\/AdminLoginPage-[\w-]+\.js/.exec(boot)?.[0];
  expect(admin).toBeDefined();
  expect(await (await request.get(`/${admin ?? ''}`)).text()).not.toContain('allFunctionsCalledOnLoad');
});

test('the app\'s code is requested only after the page\'s content is on screen, also on a slow phone', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  // A busy phone runs frames that paint nothing yet: the next animation frame is not the first paint.
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  for (const path of ['/unternehmen/kontakt', '/produkte/ai-hotlines', '/rechtliches/datenschutz']) {
    await gotoHydrated(page, path);
    const { paint, resources } = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      resources: performance.getEntriesByType('resource').map(({ name, startTime }) => ({ name, startTime })),
    }));
    // The first request for the app's code or the whole stylesheet: React DOM, boot, one of the
    // page's modules (the entry is the HTML's own script).
    const app = Math.min(
      ...resources
        .filter(({ name }) => /\/assets\/[\w-]+\.(js|css)$/.test(name) && !entryChunk.matches(new URL(name).pathname))
        .map(({ startTime }) => startTime),
    );
    expect(paint, path).toBeGreaterThan(0);
    expect(Number.isFinite(app), path).toBe(true);
    expect(app, path).toBeGreaterThanOrEqual(paint);
  }
});

test.describe('a page carries only its own CSS rules, and looks exactly as it does with the whole stylesheet', () => {
  for (const width of [412, 1280]) {
    for (const path of ['/', '/produkte/loesungen', '/produkte/preise', '/rechtliches/datenschutz', '/company/contact']) {
      test(`${path} at ${String(width)} px`, async ({ page, consoleProblems }) => {
        // The prerendered HTML alone: no script runs, so nothing loads the whole stylesheet.
        consoleProblems.allow(/Failed to load resource: net::ERR_FAILED/);
        await page.route(/\/assets\/.+\.js$/, (route) => route.abort());
        await page.setViewportSize({ width, height: 800 });
        await page.goto(path);
        const { inline, full } = await page.evaluate((name) => ({
          inline: document.querySelector('style')?.textContent.length ?? 0,
          full: document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '',
        }), pageMeta.appStylesheet);
        // Every section rendered, so the whole page is compared.
        await page.evaluate(() => (document.documentElement.dataset.layout = 'full'));
        const own = await page.screenshot({ fullPage: true });
        const fullText = await (await page.request.get(full)).text();
        expect(inline).toBeLessThan(fullText.length * 0.7);
        await page.evaluate(
          (href) =>
            new Promise<void>((resolve) => {
              const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href, onload: () => resolve() });
              document.head.append(link);
            }),
          full,
        );
        expect((await page.screenshot({ fullPage: true })).equals(own)).toBe(true);
      });
    }
  }
});

test('the whole stylesheet applies when the app first adds to the page, in the frame that shows it', async ({ page }) => {
  const applied = () => page.evaluate(() => document.adoptedStyleSheets.length);
  await page.setViewportSize({ width: 1280, height: 800 });
  await gotoHydrated(page, '/produkte/ai-hotlines');
  // Hydrated, the calculators' island too: the page's own rules are all it has needed so far.
  await page.waitForLoadState('networkidle');
  expect(await applied()).toBe(0);
  expect(await page.evaluate(() => performance.getEntriesByType('resource').some((entry) => /\/assets\/styles-[\w-]+\.css$/.test(entry.name)))).toBe(true);
  // The dialog is not part of the prerendered page. Its width is read in the first animation frame
  // after it is added, before that frame is painted.
  await page.evaluate(() => {
    const seen = new MutationObserver(() => {
      const dialog = document.querySelector('[role="dialog"]');
      if (!dialog) return;
      seen.disconnect();
      requestAnimationFrame(() => (document.body.dataset.firstFrameWidth = getComputedStyle(dialog).maxWidth));
    });
    seen.observe(document.body, { childList: true, subtree: true });
  });
  await page.getByRole('banner').getByRole('button', { name: 'Kontaktformular' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  // sm:max-w-xl: a rule no element of the prerendered page uses.
  await expect(page.locator('body')).toHaveAttribute('data-first-frame-width', '576px');
  expect(await applied()).toBe(1);

  // The contact page opens its dialog on arrival.
  await page.setViewportSize({ width: 412, height: 823 });
  await gotoHydrated(page, '/unternehmen/kontakt');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  // Its rounded top corners on a phone (rounded-t-2xl) are a rule the prerendered page does not use.
  expect(await dialog.evaluate((element) => getComputedStyle(element).borderTopLeftRadius)).toBe('16px');
});

test('without the stylesheet\'s text (a failed fetch), the app\'s first change still gets the whole stylesheet', async ({ page, consoleProblems }) => {
  consoleProblems.allow(/Failed to load resource: net::ERR_FAILED/);
  await page.setViewportSize({ width: 1280, height: 800 });
  // Only the first request fails: the entry's fetch. The <link> it falls back to loads.
  await page.route(/\/assets\/styles-[\w-]+\.css$/, (route) => route.abort(), { times: 1 });
  await gotoHydrated(page, '/produkte/ai-hotlines');
  await page.getByRole('banner').getByRole('button', { name: 'Kontaktformular' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect.poll(() => dialog.evaluate((element) => getComputedStyle(element).maxWidth)).toBe('576px');
});

test('the admin area keeps other windows out; public pages are opened without a browsing-context-group swap', async ({ request }) => {
  // The operator's session lives in the admin area: Cross-Origin-Opener-Policy cuts every
  // reference another window could hold to it. A public page holds no session, and the policy made
  // the browser swap browsing-context groups on every arrival (docs/performance.md).
  expect((await request.get(getHref('adminLogin', 'de'))).headers()['cross-origin-opener-policy']).toBe('same-origin');
  for (const path of ['/', '/produkte/ai-hotlines', '/rechtliches/datenschutz']) {
    const headers = (await request.get(path)).headers();
    expect(headers['cross-origin-opener-policy'], path).toBeUndefined();
    expect(headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
  }
});

test('sitemap and robots come from the route registry', async ({ request }) => {
  const sitemap = await (await request.get('/sitemap.xml')).text();
  expect(sitemap).toContain('<loc>https://www.example.com/products/ai-secretary</loc>');
  expect(sitemap).toContain('<loc>https://www.example.com/produkte/mia-ai</loc>');
  expect(sitemap).not.toContain('/admin/');
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toContain('Disallow: /admin/');
});

test('the site is served with a strict Content-Security-Policy', async ({ request }) => {
  const response = await request.get('/');
  const csp = response.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain("'unsafe-eval'");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(response.headers()['x-content-type-options']).toBe('nosniff');
});
