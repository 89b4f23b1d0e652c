import AxeBuilder from '@axe-core/playwright';
import { expect, gotoHydrated, test, wcag } from './fixtures';

// Every page is audited where it is visited once (routes.spec.ts); here the states a page reaches
// only by interaction, each audited where it changes the page.
test.describe('axe-core finds no violations', () => {
  test('with the contact modal open', async ({ page }) => {
    await gotoHydrated(page, '/');
    await page.getByRole('banner').getByRole('button', { name: 'Kontaktformular' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Nachricht senden' }).click();
    const results = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(wcag).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });

  test('with the mobile menu open', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await gotoHydrated(page, '/products/ai-hotlines');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const results = await new AxeBuilder({ page }).include('header').withTags(wcag).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});
