import AxeBuilder from '@axe-core/playwright';
import { DASHBOARD_PATH, expect, test, text } from './admin';

const wcag = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

test.describe('dashboard', () => {
  test.beforeEach(async ({ loginAsAdmin, page }) => {
    await loginAsAdmin(page);
  });

  test('four counters from admin_stats, with the seed labels, and the open questions', async ({ page, service }) => {
    await page.goto(DASHBOARD_PATH);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Master Admin Dashboard');
    const counters = page.getByRole('region', { name: text('de', 'admin:stats.heading') });
    for (const label of ['totalUsers', 'activeConversations', 'documentsProcessed', 'averageRating', 'openQuestions'] as const) {
      await expect(counters.getByRole('heading', { name: text('de', `admin:stats.${label}`) })).toBeVisible();
    }
    await expect(counters.getByText('Letzte 24 Stunden', { exact: true })).toBeVisible();
    const { count } = await service.from('users').select('id', { count: 'exact', head: true });
    const usersCard = counters.locator('div', { has: page.getByRole('heading', { name: text('de', 'admin:stats.totalUsers') }) }).last();
    await expect(usersCard).toContainText(String(count));
  });

  test('the tabs work by keyboard and the chosen tab survives a reload', async ({ page }) => {
    await page.goto(DASHBOARD_PATH);
    const voice = page.getByRole('tab', { name: 'Spracheinstellungen' });
    const knowledge = page.getByRole('tab', { name: 'Wissensdatenbank' });
    const settings = page.getByRole('tab', { name: 'Systemeinstellungen' });
    await expect(voice).toHaveAttribute('aria-selected', 'true');
    await voice.focus();
    await page.keyboard.press('ArrowRight');
    await expect(knowledge).toBeFocused();
    await expect(knowledge).toHaveAttribute('aria-selected', 'true');
    await expect(page).toHaveURL(`${DASHBOARD_PATH}?tab=knowledge`);
    await expect(page.getByRole('heading', { name: 'Dokumente hochladen' })).toBeVisible();
    await page.keyboard.press('End');
    await expect(settings).toHaveAttribute('aria-selected', 'true');
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Systemeinstellungen' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('button', { name: 'Cache leeren' })).toBeVisible();
    await page.getByRole('tab', { name: 'Systemeinstellungen' }).focus();
    await page.keyboard.press('Home');
    await expect(page.getByRole('tab', { name: 'Spracheinstellungen' })).toHaveAttribute('aria-selected', 'true');
    await expect(page).toHaveURL(`${DASHBOARD_PATH}?tab=voice`);
  });
});

test.describe('dashboard accessibility', () => {
  // Each tab is audited once, in one language; between them both languages are. "Offene Fragen"
  // is audited with its rows in admin-open-questions.spec.ts.
  test('axe-core finds no violations on any tab', async ({ page, loginAsAdmin }) => {
    await loginAsAdmin(page);
    for (const [tab, lang] of [
      ['voice', 'de'],
      ['knowledge', 'en'],
      ['settings', 'de'],
    ] as const) {
      // German until another language is remembered; then the remembered one.
      if (page.url().startsWith('http')) await page.evaluate((choice) => window.localStorage.setItem('language', choice), lang);
      await page.goto(`${DASHBOARD_PATH}?tab=${tab}`);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.getByRole('tab', { name: text(lang, `admin:dashboard.tabs.${tab}`) })).toHaveAttribute('aria-selected', 'true');
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      const results = await new AxeBuilder({ page }).withTags(wcag).analyze();
      expect(results.violations.map((v) => `${tab}: ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    }
  });
});

test.describe('on a phone (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the cookie notice covers none of the dashboard\'s controls, on any tab', async ({ page, loginAsAdmin }) => {
    await loginAsAdmin(page);
    for (const tab of ['voice', 'knowledge', 'settings'] as const) {
      await page.goto(`${DASHBOARD_PATH}?tab=${tab}`);
      await expect(page.getByRole('tab', { name: text('de', `admin:dashboard.tabs.${tab}`) })).toHaveAttribute('aria-selected', 'true');
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      // A first visit: the notice is there and can be read.
      await expect(page.getByRole('region', { name: 'Cookie-Hinweis' })).toBeVisible();
      const controls = page
        .getByRole('main')
        .locator('button, input, select, textarea, a[href], [role="slider"], [role="tab"], [role="switch"]');
      expect(await controls.count(), tab).toBeGreaterThan(2);
      // Each control brought to the bottom edge of the screen, where a notice floating over the
      // page would lie: what is on top at its centre must not be the notice.
      const covered = await controls.evaluateAll((elements) =>
        elements
          .filter((element) => element.checkVisibility() && element.getBoundingClientRect().height > 0)
          .filter((element) => {
            element.scrollIntoView({ block: 'end', behavior: 'instant' });
            const box = element.getBoundingClientRect();
            const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            return top?.closest('[data-cookie-notice]') != null;
          })
          .map((element) => element.outerHTML.slice(0, 80)),
      );
      expect(covered, tab).toEqual([]);
    }
  });
});
