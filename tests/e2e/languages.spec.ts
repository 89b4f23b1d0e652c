import { getHref, prerenderPaths, type RouteId } from '../../src/config/routes';
import { expect, gotoHydrated, test, text } from './fixtures';
import { germanIn, germanOnly } from './germanTexts';

const siteUrl = 'https://www.example.com';
const absolute = (path: string) => `${siteUrl}${path}`;

test('the German texts to look for are many (the check below can find something)', () => {
  expect(germanOnly.length).toBeGreaterThan(300);
  expect(germanIn(text('de', 'cookies.text'))).not.toEqual([]);
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
