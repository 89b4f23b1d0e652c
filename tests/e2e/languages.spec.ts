import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHref, prerenderPaths, routeIds, routes, type RouteId } from '../../src/config/routes';
import { expect, gotoHydrated, test, text } from './fixtures';

const siteUrl = 'https://www.example.com';
const absolute = (path: string) => `${siteUrl}${path}`;

type Json = Record<string, unknown>;
const locales = join(import.meta.dirname, '..', '..', 'src', 'i18n', 'locales');
const readLocale = (lang: string, file: string) => JSON.parse(readFileSync(join(locales, lang, file), 'utf8')) as Json;

function leaves(value: unknown, prefix = ''): [string, string][] {
  if (typeof value === 'string') return [[prefix, value]];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => leaves(child, prefix ? `${prefix}.${key}` : key));
}

/**
 * Every German text of the site that says something English does not: the longest run between
 * placeholders of each German text that differs from its English twin, at least 20 characters
 * long and found nowhere in the English texts (so brand names and shared terms do not count).
 */
const germanOnly: string[] = (() => {
  const english = new Set<string>();
  const found: string[] = [];
  for (const file of readdirSync(join(locales, 'en'))) {
    for (const [, value] of leaves(readLocale('en', file))) english.add(value);
  }
  const allEnglish = [...english].join('\n');
  for (const file of readdirSync(join(locales, 'de'))) {
    const en = new Map(leaves(readLocale('en', file)));
    for (const [key, value] of leaves(readLocale('de', file))) {
      if (en.get(key) === value) continue;
      const run = value.split(/{{\s*\w+\s*}}/).sort((a, b) => b.length - a.length)[0]?.trim() ?? '';
      if (run.length >= 20 && !allEnglish.includes(run)) found.push(run);
    }
  }
  return found;
})();

const germanIn = (content: string) => germanOnly.filter((phrase) => content.includes(phrase));

const decodeEntities = (html: string) =>
  html.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');

const publicIds = routeIds.filter((id) => routes[id].kind !== 'admin');

test('the German texts to look for are many (the check below can find something)', () => {
  expect(germanOnly.length).toBeGreaterThan(300);
  expect(germanIn(text('de', 'cookies.text'))).not.toEqual([]);
});

test.describe('no German text on an English path, in the HTML or in any frame until the page is live', () => {
  for (const id of publicIds) {
    const path = getHref(id, 'en');
    test(`${id} at ${path}`, async ({ page }) => {
      const html = await (await page.request.get(path)).text();
      // The live coach speaks German: its part of the page says so with lang="de".
      const withoutCoach = id === 'liveCoach' ? html.replace(/<div[^>]* lang="de"[\s\S]*<\/main>/, '</main>') : html;
      expect(germanIn(decodeEntities(withoutCoach)), 'German in the prerendered HTML').toEqual([]);
      // Every frame the browser renders, from the first paint until after hydration: the texts on
      // the page outside elements marked lang="de".
      await page.addInitScript(() => {
        const seen = new Set<string>();
        Object.assign(window, { textsSeen: seen });
        const sample = () => {
          const body = document.querySelector('body');
          if (body) {
            const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              if (!node.parentElement?.closest('[lang="de"]')) seen.add(node.textContent ?? '');
            }
          }
          requestAnimationFrame(sample);
        };
        requestAnimationFrame(sample);
      });
      await gotoHydrated(page, path);
      await page.waitForLoadState('networkidle');
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      const texts = await page.evaluate(() => [...(window as unknown as { textsSeen: Set<string> }).textsSeen].join('\n'));
      expect(texts.length).toBeGreaterThan(0);
      expect(germanIn(texts), 'German in a frame').toEqual([]);
      expect(germanIn(await page.title()), 'German in the title').toEqual([]);
    });
  }
});

test('every public page links its German and English twins (hreflang) and names itself canonical', async ({ request }) => {
  for (const { path, id, lang } of prerenderPaths()) {
    const html = await (await request.get(path)).text();
    expect(html, path).toContain(`<html lang="${lang}">`);
    const alternates = Object.fromEntries(
      [...html.matchAll(/<link rel="alternate" hreflang="([\w-]+)" href="([^"]+)"/g)].map((match): [string, string] => [match[1] ?? '', match[2] ?? '']),
    );
    expect(alternates, path).toEqual({
      de: absolute(getHref(id, 'de')),
      en: absolute(getHref(id, 'en')),
      'x-default': absolute(getHref(id, 'de')),
    });
    expect(html, path).toContain(`<link rel="canonical" href="${absolute(path)}"`);
  }
});

test('the sitemap lists every public page in both languages with its twins', async ({ request }) => {
  const sitemap = await (await request.get('/sitemap.xml')).text();
  const urls = [...sitemap.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((match) => match[1] ?? '');
  expect(urls).toHaveLength(prerenderPaths().length);
  for (const { path, id } of prerenderPaths()) {
    const entry = urls.find((url) => url.includes(`<loc>${absolute(path)}</loc>`));
    expect(entry, path).toBeDefined();
    expect(entry, path).toContain(`hreflang="de" href="${absolute(getHref(id, 'de'))}"`);
    expect(entry, path).toContain(`hreflang="en" href="${absolute(getHref(id, 'en'))}"`);
  }
  expect(sitemap).not.toContain('/admin/');
});

test.describe('the language switch moves to the twin', () => {
  const cases: [RouteId, string][] = [
    ['home', 'home.headline'],
    ['pricing', 'pricing:heading'],
    ['privacy', 'privacy:heading'],
  ];
  for (const [id, heading] of cases) {
    test(`${id}: ${getHref(id, 'de')} ↔ ${getHref(id, 'en')}`, async ({ page }) => {
      await gotoHydrated(page, getHref(id, 'de'));
      await page.getByRole('combobox', { name: 'Sprache' }).selectOption('en');
      await expect(page).toHaveURL(getHref(id, 'en'));
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', heading));
      await expect(page).toHaveTitle(text('en', `meta:${id}.title`, { site: 'Voxa AI' }));
      await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
      await expect(page).toHaveURL(getHref(id, 'de'));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', heading));
    });
  }

  test('the live coach: English around it, German in it', async ({ page }) => {
    await gotoHydrated(page, getHref('liveCoach', 'de'));
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('en');
    await expect(page).toHaveURL('/products/mia-ai');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sprich jetzt mit Mia AI!');
    await expect(page.getByText(text('en', 'coachPage.languageNote', { name: 'Mia' }))).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    await expect(page.getByRole('main').locator('[lang="de"]').first()).toBeVisible();
  });
});
