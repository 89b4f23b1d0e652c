import AxeBuilder from '@axe-core/playwright';
import { getHref, routeIds, routes } from '../../src/config/routes';
import { expect, gotoHydrated, test } from './fixtures';

const wcag = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

const cases = routeIds.flatMap((id) =>
  (['de', 'en'] as const).map((lang) => ({ id, lang, path: getHref(id, lang), bound: 'en' in routes[id].paths })),
);

test.describe('axe-core finds no violations', () => {
  for (const { id, lang, path, bound } of cases) {
    test(`${id} (${lang}) at ${path}`, async ({ page }) => {
      if (!bound) await page.addInitScript((choice) => window.localStorage.setItem('language', choice), lang);
      await gotoHydrated(page, path);
      if (path.startsWith('/admin/')) {
        // Signed out, the dashboard sends the visitor to the sign-in, whose code loads on demand:
        // audit where the visitor ends up, not the moment in between.
        await page.waitForLoadState('networkidle');
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      }
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      const results = await new AxeBuilder({ page }).withTags(wcag).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    });
  }

  test('with the contact modal open', async ({ page }) => {
    await gotoHydrated(page, '/');
    await page.getByRole('banner').getByRole('button', { name: 'Kontaktformular' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Nachricht senden' }).click();
    const results = await new AxeBuilder({ page }).withTags(wcag).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });

  test('with the mobile menu open', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await gotoHydrated(page, '/products/ai-hotlines');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const results = await new AxeBuilder({ page }).withTags(wcag).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});
