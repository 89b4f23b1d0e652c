import type { Locator, Page } from '@playwright/test';
import { company } from '../../src/config/company';
import { getHref } from '../../src/config/routes';
import { expect, gotoHydrated, test, text } from './fixtures';

const contactEmail = 'kontakt@example.com';

const privacySections = ['glance', 'general', 'officers', 'ai', 'dataCollection', 'analytics', 'newsletter', 'plugins', 'rights'];
const transparencySections = ['aiSystems', 'hosting', 'gdpr', 'contactData', 'quality', 'oversight'];
const imprintSections = ['provider', 'contact', 'responsible', 'odr.title', 'consumer.title'];

const pages = [
  { name: 'privacy', headings: privacySections.map((key) => `privacy:sections.${key}.title`) },
  { name: 'transparency', headings: transparencySections.map((key) => `transparency:sections.${key}.title`) },
  { name: 'imprint', headings: imprintSections.map((key) => `imprint:${key}`) },
] as const;

for (const lang of ['de', 'en'] as const) {
  test.describe(`legal pages in ${lang === 'de' ? 'German' : 'English'}`, () => {
    for (const { name, headings } of pages) {
      test(`${name} shows every required section`, async ({ page }) => {
        await gotoHydrated(page, getHref(name, lang));
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(lang, `${name}:heading`));
        const main = page.getByRole('main');
        for (const key of headings) {
          await expect(main.getByRole('heading', { level: 2, name: text(lang, key), exact: true })).toBeVisible();
        }
        // Placeholders are filled in: no raw {{…}} reaches the page.
        await expect(main).not.toContainText('{{');
        await expect(main.locator(`a[href="mailto:${contactEmail}"]`).first()).toBeVisible();
      });
    }

    test('the transparency statement describes voice agent, emotion analysis and recommendation engine', async ({ page }) => {
      await gotoHydrated(page, getHref('transparency', lang));
      const systems = page.locator('#ki-systeme').getByRole('heading', { level: 3 });
      await expect(systems).toHaveCount(3);
      for (const label of ['purpose', 'function', 'disclosure', 'limits']) {
        await expect(page.locator('#ki-systeme dt').filter({ hasText: text(lang, `transparency:sections.aiSystems.labels.${label}`) })).toHaveCount(3);
      }
      // The revocation of advertising use goes to the contact address by e-mail.
      await expect(page.locator('#kontaktdaten-und-werbung').getByRole('link', { name: contactEmail })).toHaveAttribute(
        'href',
        `mailto:${contactEmail}`,
      );
      // The GDPR section leads on to the privacy policy, in the same language.
      await page.locator('#dsgvo').getByRole('link', { name: text(lang, 'transparency:sections.gdpr.privacyLink') }).click();
      await expect(page).toHaveURL(getHref('privacy', lang));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(lang, 'privacy:heading'));
    });

    test('the privacy policy names the controller and example officer contacts', async ({ page }) => {
      await gotoHydrated(page, getHref('privacy', lang));
      const general = page.locator('#verantwortliche-stelle');
      await expect(general.locator('address')).toContainText(company.legalName);
      await expect(general.locator('address')).toContainText(`${company.postalCode} ${company.city}`);
      await expect(general.getByRole('link', { name: contactEmail })).toHaveAttribute('href', `mailto:${contactEmail}`);
      const officers = page.locator('#beauftragte');
      await expect(officers).toContainText(text(lang, 'privacy:sections.officers.note'));
      await expect(officers.getByRole('link', { name: contactEmail })).toHaveCount(2);
      const ai = page.locator('#kuenstliche-intelligenz');
      await expect(ai.getByRole('heading', { level: 3 }).first()).toHaveText(
        text(lang, 'privacy:sections.ai.blocks.0.title', { name: 'Mia' }),
      );
    });

    test('the imprint shows the company data from the configuration', async ({ page }) => {
      await gotoHydrated(page, getHref('imprint', lang));
      const main = page.getByRole('main');
      await expect(main).toContainText(text(lang, 'imprint:example'));
      const provider = page.locator('#anbieter');
      await expect(provider.locator('address')).toContainText(company.legalName);
      await expect(provider.locator('address')).toContainText(company.street);
      await expect(provider.locator('address')).toContainText(`${company.postalCode} ${company.city}`);
      await expect(provider).toContainText(company.managingDirector);
      await expect(provider).toContainText(company.vatId);
      await expect(provider).toContainText(company.registerNumber);
      await expect(page.locator('#verantwortlich')).toContainText(company.managingDirector);
      const contact = page.locator('#kontakt');
      await expect(contact.getByRole('link', { name: contactEmail })).toHaveAttribute('href', `mailto:${contactEmail}`);
      await expect(contact.locator('a[href^="tel:"]')).toHaveAttribute('href', 'tel:+4930123456789');
    });
  });
}

/**
 * The heading, once the (smooth) scroll has settled, is below the sticky header, not hidden under
 * it, and in the upper half of the viewport.
 */
async function expectRightBelowHeader(page: Page, target: Locator) {
  await expect(target).toBeInViewport();
  const headerBottom = await page.getByRole('banner').first().evaluate((element) => element.getBoundingClientRect().bottom);
  let settled = Number.NaN;
  await expect
    .poll(async () => {
      const previous = settled;
      settled = await target.evaluate((element) => Math.round(element.getBoundingClientRect().top));
      return settled === previous;
    })
    .toBe(true);
  expect(settled).toBeGreaterThanOrEqual(headerBottom);
  expect(settled).toBeLessThan((page.viewportSize()?.height ?? 0) / 2);
}

for (const { name } of pages.filter((entry) => entry.name !== 'imprint')) {
  test(`the ${name} table of contents jumps to each section`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 700 });
    await page.addInitScript(() => window.localStorage.setItem('cookie-consent', 'accepted'));
    await gotoHydrated(page, getHref(name, 'de'));
    const toc = page.getByRole('navigation', { name: text('de', `${name}:toc`) });
    const links = toc.getByRole('link');
    const count = await links.count();
    expect(count).toBe(name === 'privacy' ? privacySections.length : transparencySections.length);
    // Jump from the last entry backwards, so every jump has to move the page.
    for (let index = count - 1; index >= 0; index -= 1) {
      const link = links.nth(index);
      const href = await link.getAttribute('href');
      expect(href).toMatch(/^#[a-z-]+$/);
      const target = page.locator(`${href ?? ''} h2`);
      await expect(target).toHaveText((await link.textContent()) ?? '');
      await link.click();
      await expect(page).toHaveURL(new RegExp(`${getHref(name, 'de')}${href ?? ''}$`));
      await expectRightBelowHeader(page, target);
      await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    }
  });
}

test('the sections below the fold are rendered only near the viewport, and an address with an anchor still lands on its section', async ({
  page,
}) => {
  await page.setViewportSize({ width: 412, height: 823 });
  await page.addInitScript(() => window.localStorage.setItem('cookie-consent', 'accepted'));
  await gotoHydrated(page, '/rechtliches/datenschutz');
  const sections = page.locator('main > section');
  const skipped = (index: number) =>
    sections.nth(index).locator('h2').evaluate((heading) => !heading.checkVisibility({ contentVisibilityAuto: true }));
  expect(await skipped(0)).toBe(false);
  expect(await skipped((await sections.count()) - 1)).toBe(true);

  // Opened at an anchor far down the page: the section's heading is right below the sticky header.
  await page.goto('/rechtliches/impressum');
  await gotoHydrated(page, '/rechtliches/datenschutz#ihre-rechte');
  await expectRightBelowHeader(page, page.locator('#ihre-rechte h2'));
});
