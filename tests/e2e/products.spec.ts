import type { Locator, Page } from '@playwright/test';
import { getHref, type Lang, type RouteId } from '../../src/config/routes';
import { expect, gotoHydrated, test, text } from './fixtures';

const bookingUrl = 'https://booking.example.com/rueckruf';
const langs = ['de', 'en'] as const;

interface ProductPage {
  id: RouteId;
  /** The product name the contact e-mail's subject carries. */
  product: string;
  /** Keys of the section headings (h2), in page order. */
  sections: readonly string[];
  /** Keys of card lists whose every title must show as an h3. */
  cards: readonly string[];
  related: readonly RouteId[];
}

const pages: readonly ProductPage[] = [
  {
    id: 'contactCenter',
    product: 'AI Contact Center',
    sections: [
      'contactCenter:stats.title',
      'contactCenter:features.title',
      'contactCenter:benefits.title',
      'contactCenter:implementation.title',
      'contactCenter:cta.title',
    ],
    cards: ['contactCenter:features.items', 'contactCenter:implementation.steps'],
    related: ['hotlines', 'secretary', 'pricing'],
  },
  {
    id: 'hotlines',
    product: 'AI Hotlines',
    sections: ['hotlines:features.title', 'hotlines:technical.title', 'roi:hotlines.title', 'hotlines:cta.title'],
    cards: ['hotlines:features.items'],
    related: ['contactCenter', 'secretary', 'pricing'],
  },
  {
    id: 'secretary',
    product: 'AI Secretary',
    sections: [
      'secretary:features.title',
      'secretary:integrations.title',
      'roi:secretary.title',
      'secretary:testimonials.title',
      'secretary:cta.title',
    ],
    cards: ['secretary:features.items', 'secretary:integrations.items'],
    related: ['contactCenter', 'hotlines', 'pricing'],
  },
];

/** The titles of a card list in the translations (`ns:path` → item 0, 1, … until one is missing). */
function titles(lang: Lang, key: string): string[] {
  const found: string[] = [];
  for (let index = 0; ; index++) {
    try {
      found.push(text(lang, `${key}.${String(index)}.title`));
    } catch {
      return found;
    }
  }
}

// Each product page's translations live in a namespace named like its route id.
const contactLabel = (lang: Lang, id: RouteId) => text(lang, `${id}:contact`);
const dialogName = { de: 'Kontakt aufnehmen', en: 'Get in touch' } as const;

/** An exact figure; spaces match any white space, so German "10.000 €" matches its no-break space. */
function figure(shown: string): RegExp {
  return new RegExp(`^${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s')}$`);
}

test.beforeEach(async ({ page }) => {
  // The cookie notice sits over the bottom of the page; these tests are about the page itself.
  await page.addInitScript(() => window.localStorage.setItem('cookie-consent', 'accepted'));
});

test.describe('product pages in both languages', () => {
  for (const { id, sections, cards, related } of pages) {
    for (const lang of langs) {
      test(`${id} (${lang}) shows its heading, every section, its cards and related links`, async ({ page }) => {
        await gotoHydrated(page, getHref(id, lang));
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(lang, `${id}:heading`));
        await expect(page.getByRole('main').getByText(text(lang, `${id}:lead`))).toBeVisible();

        const main = page.getByRole('main');
        const expected = [...sections.map((key) => text(lang, key)), text(lang, `${id}:related`)];
        await expect(main.getByRole('heading', { level: 2 })).toHaveText(expected);
        for (const key of sections) {
          await expect(main.getByRole('region', { name: text(lang, key) })).toBeVisible();
        }
        for (const key of cards) {
          const names = titles(lang, key);
          expect(names.length, key).toBeGreaterThan(0);
          for (const name of names) {
            await expect(main.getByRole('heading', { level: 3, name, exact: true })).toBeVisible();
          }
        }

        const nav = page.getByRole('navigation', { name: text(lang, `${id}:related`) });
        await expect(nav.getByRole('link')).toHaveText(related.map((target) => text(lang, `links.${target}`)));
        for (const [index, target] of related.entries()) {
          await expect(nav.getByRole('link').nth(index)).toHaveAttribute('href', getHref(target, lang));
        }
      });
    }
  }
});

test.describe('calls to action', () => {
  for (const { id, product } of pages) {
    for (const lang of langs) {
      test(`${id} (${lang}): booking links open in a new tab, the contact buttons open the form for ${product}`, async ({
        page,
      }) => {
        await gotoHydrated(page, getHref(id, lang));
        const main = page.getByRole('main');
        // One in the page header, one in the closing call to action.
        const booking = main.getByRole('link', { name: new RegExp(`^${text(lang, 'booking.cta')}`) });
        await expect(booking).toHaveCount(2);
        for (const link of await booking.all()) {
          await expect(link).toHaveAttribute('href', bookingUrl);
          await expect(link).toHaveAttribute('target', '_blank');
          await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
        }

        const buttons = main.getByRole('button', { name: contactLabel(lang, id), exact: true });
        await expect(buttons).toHaveCount(2);
        const dialog = page.getByRole('dialog', { name: dialogName[lang] });
        await buttons.first().click();
        await expect(dialog).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
        await expect(buttons.first()).toBeFocused();

        // The closing section's button opens the same form; the e-mail names the product.
        await buttons.last().click();
        await expect(dialog).toBeVisible();
        await dialog.getByLabel(new RegExp(`^${text(lang, 'contact.salutation')}`)).selectOption('mrs');
        await dialog.getByLabel(new RegExp(`^${text(lang, 'contact.name')}`)).fill('Erika Muster');
        await dialog.getByLabel(new RegExp(`^${text(lang, 'contact.phone')}`)).fill('+49 30 1234');
        await dialog.getByLabel(new RegExp(`^${text(lang, 'contact.email')}`)).fill('erika@example.com');
        await dialog.getByLabel(new RegExp(`^${text(lang, 'contact.message')}`)).fill('Bitte rufen Sie mich an.');
        const [mail] = await Promise.all([
          page.waitForRequest((request) => request.url().startsWith('mailto:')),
          dialog.getByRole('button', { name: text(lang, 'contact.submit') }).click(),
        ]);
        const subject = new URL(mail.url()).searchParams.get('subject');
        expect(subject).toBe(`Kontaktformular - ${product}`);
        await expect(dialog).toBeHidden();
      });
    }
  }
});

test.describe('AI Contact Center figures', () => {
  const shown: Record<Lang, readonly [RegExp, string][]> = {
    de: [
      [/^<\s10\sSek\.$/, 'Antwortzeit'],
      [/^95\s%$/, 'Kundenzufriedenheit'],
      [/^40\s%$/, 'Kostenreduktion'],
      [/^24\/7$/, 'Verfügbarkeit'],
    ],
    en: [
      [/^<\s10\ssec$/, 'Response time'],
      [/^95%$/, 'Customer satisfaction'],
      [/^40%$/, 'Cost reduction'],
      [/^24\/7$/, 'Availability'],
    ],
  };
  for (const lang of langs) {
    test(`stat cards show under 10 sec, 95 %, 40 % and 24/7 as text (${lang})`, async ({ page }) => {
      await gotoHydrated(page, getHref('contactCenter', lang));
      const stats = page.getByRole('region', { name: text(lang, 'contactCenter:stats.title') }).getByRole('listitem');
      await expect(stats).toHaveCount(4);
      for (const [index, [value, label]] of shown[lang].entries()) {
        const card = stats.nth(index);
        await expect(card.locator('p').nth(0)).toHaveText(value);
        await expect(card.locator('p').nth(1)).toHaveText(label);
      }
    });
  }

  test('the implementation steps come in order with their time frames', async ({ page }) => {
    await gotoHydrated(page, getHref('contactCenter', 'de'));
    const steps = page.getByRole('region', { name: text('de', 'contactCenter:implementation.title') }).getByRole('listitem');
    await expect(steps).toHaveCount(4);
    await expect(steps.first()).toContainText('Woche 1');
    await expect(steps.last()).toContainText('Ab Woche 5');
  });
});

test.describe('AI Hotlines technical details', () => {
  for (const lang of langs) {
    test(`name the bandwidth of at least 10 Mbit/s and up to 10,000 parallel calls (${lang})`, async ({ page }) => {
      await gotoHydrated(page, getHref('hotlines', lang));
      const details = page.getByRole('region', { name: text(lang, 'hotlines:technical.title') });
      await expect(details).toContainText(lang === 'de' ? /[Mm]indestens 10\s+Mbit\/s/ : /at least 10\s+Mbit\/s/);
      await expect(details).toContainText(lang === 'de' ? 'Bis zu 10.000 parallele Anrufe' : 'Up to 10,000 parallel calls');
    });
  }
});

test.describe('AI Secretary testimonials', () => {
  test('two customer quotes with name and role', async ({ page }) => {
    await gotoHydrated(page, getHref('secretary', 'en'));
    const quotes = page.getByRole('region', { name: text('en', 'secretary:testimonials.title') }).locator('figure');
    await expect(quotes).toHaveCount(2);
    await expect(quotes.first().locator('figcaption')).toContainText(text('en', 'secretary:testimonials.items.0.name'));
    await expect(quotes.last().locator('blockquote')).toContainText(text('en', 'secretary:testimonials.items.1.quote'));
  });
});

/** One result figure of a calculator, found by its label. */
function result(calculator: Locator, label: string): Locator {
  return calculator
    .locator('dl > div')
    .filter({ has: calculator.page().locator('dt', { hasText: figure(label) }) })
    .locator('dd');
}

async function press(page: Page, slider: Locator, key: string, times = 1) {
  await slider.focus();
  for (let i = 0; i < times; i++) await page.keyboard.press(key);
}

test('hydration keeps the prerendered page: the calculators\' markup stays while their code loads', async ({ page }) => {
  // Every element added inside <main> from the end of parsing on. Hydration adopts the HTML as it
  // is; an island whose boundary is re-rendered before its code arrives is thrown away and rebuilt
  // (placeholder first), which the visitor sees and the phone pays for.
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      const main = document.querySelector('main');
      if (!main) return;
      new MutationObserver((records) => {
        const added = records.reduce((count, record) => count + [...record.addedNodes].filter((node) => node.nodeType === Node.ELEMENT_NODE).length, 0);
        if (added > 0) main.dataset.addedElements = String(Number(main.dataset.addedElements ?? 0) + added);
      }).observe(main, { childList: true, subtree: true });
    });
  });
  await gotoHydrated(page, getHref('hotlines', 'en'));
  const calculator = page.getByRole('region', { name: text('en', 'roi:hotlines.title') });
  const calls = calculator.getByRole('slider', { name: text('en', 'roi:hotlines.calls') });
  // The island answers the keyboard only once its code has loaded and hydrated.
  await press(page, calls, 'End');
  await expect(calls).toHaveAttribute('aria-valuenow', '10000');
  expect(await page.locator('main').getAttribute('data-added-elements')).toBeNull();
});

test.describe('AI Hotlines ROI calculator by keyboard', () => {
  const figures = {
    de: {
      defaults: ['10.000 €', '4.000 €', '48.000 €'],
      cost: '2,30 €',
      afterCost: ['11.500 €', '4.600 €'],
      calls: '2.000',
      afterCalls: ['23.000 €', '9.200 €'],
      max: ['10.000', '30 Min.', '5,00 €', '1.500.000 €', '600.000 €', '7.200.000 €'],
      min: ['100', '1 Min.', '0,50 €', '50 €', '20 €'],
    },
    en: {
      defaults: ['€10,000', '€4,000', '€48,000'],
      cost: '€2.30',
      afterCost: ['€11,500', '€4,600'],
      calls: '2,000',
      afterCalls: ['€23,000', '€9,200'],
      max: ['10,000', '30 min', '€5.00', '€1,500,000', '€600,000', '€7,200,000'],
      min: ['100', '1 min', '€0.50', '€50', '€20'],
    },
  } as const;

  for (const lang of langs) {
    test(`defaults, arrow, page and Home/End keys give exact figures (${lang})`, async ({ page }) => {
      const f = figures[lang];
      await gotoHydrated(page, getHref('hotlines', lang));
      const calculator = page.getByRole('region', { name: text(lang, 'roi:hotlines.title') });
      const calls = calculator.getByRole('slider', { name: text(lang, 'roi:hotlines.calls') });
      const minutes = calculator.getByRole('slider', { name: text(lang, 'roi:hotlines.minutes') });
      const cost = calculator.getByRole('slider', { name: text(lang, 'roi:hotlines.costPerMinute') });
      const current = result(calculator, text(lang, 'roi:hotlines.current'));
      const saving = result(calculator, text(lang, 'roi:hotlines.saving'));
      const annual = result(calculator, text(lang, 'roi:hotlines.annual'));

      // 1,000 calls × 5 min × €2 = €10,000 a month; 40 % of it is saved.
      await expect(current).toHaveText(figure(f.defaults[0]));
      await expect(saving).toHaveText(figure(f.defaults[1]));
      await expect(annual).toHaveText(figure(f.defaults[2]));

      // Three steps of 0.1 from 2.00 land exactly on 2.30, never on 2.3000000000000003.
      await press(page, cost, 'ArrowRight', 3);
      await expect(cost).toHaveAttribute('aria-valuenow', '2.3');
      await expect(cost).toHaveAttribute('aria-valuetext', figure(f.cost));
      await expect(calculator.locator('output').nth(2)).toHaveText(figure(f.cost));
      await expect(current).toHaveText(figure(f.afterCost[0]));
      await expect(saving).toHaveText(figure(f.afterCost[1]));

      // Page Up moves ten steps: 1,000 → 2,000 calls.
      await press(page, calls, 'PageUp');
      await expect(calls).toHaveAttribute('aria-valuetext', figure(f.calls));
      await expect(current).toHaveText(figure(f.afterCalls[0]));
      await expect(saving).toHaveText(figure(f.afterCalls[1]));

      // All at their maximum: 10,000 calls × 30 min × €5.
      for (const slider of [calls, minutes, cost]) await press(page, slider, 'End');
      await expect(calls).toHaveAttribute('aria-valuetext', figure(f.max[0]));
      await expect(minutes).toHaveAttribute('aria-valuetext', figure(f.max[1]));
      await expect(cost).toHaveAttribute('aria-valuetext', figure(f.max[2]));
      await expect(current).toHaveText(figure(f.max[3]));
      await expect(saving).toHaveText(figure(f.max[4]));
      await expect(annual).toHaveText(figure(f.max[5]));

      // All at their minimum: 100 calls × 1 min × €0.50.
      for (const slider of [calls, minutes, cost]) await press(page, slider, 'Home');
      await expect(calls).toHaveAttribute('aria-valuetext', figure(f.min[0]));
      await expect(minutes).toHaveAttribute('aria-valuetext', figure(f.min[1]));
      await expect(cost).toHaveAttribute('aria-valuetext', figure(f.min[2]));
      await expect(current).toHaveText(figure(f.min[3]));
      await expect(saving).toHaveText(figure(f.min[4]));
    });
  }
});

test.describe('AI Secretary ROI calculator by keyboard', () => {
  const figures = {
    de: {
      defaults: ['2.500 €', '1.750 €', '21.000 €'],
      requests: '1.100',
      afterRequests: ['2.750 €', '1.925 €'],
      hourly: '40 €',
      afterHourly: ['3.667 €', '2.567 €'],
      min: ['100', '1 Min.', '20 €', '33 €', '23 €', '280 €'],
      max: ['5.000', '15 Min.', '50 €', '62.500 €', '43.750 €'],
    },
    en: {
      defaults: ['€2,500', '€1,750', '€21,000'],
      requests: '1,100',
      afterRequests: ['€2,750', '€1,925'],
      hourly: '€40',
      afterHourly: ['€3,667', '€2,567'],
      min: ['100', '1 min', '€20', '€33', '€23', '€280'],
      max: ['5,000', '15 min', '€50', '€62,500', '€43,750'],
    },
  } as const;

  for (const lang of langs) {
    test(`defaults, arrow, page and Home/End keys give exact figures (${lang})`, async ({ page }) => {
      const f = figures[lang];
      await gotoHydrated(page, getHref('secretary', lang));
      const calculator = page.getByRole('region', { name: text(lang, 'roi:secretary.title') });
      const requests = calculator.getByRole('slider', { name: text(lang, 'roi:secretary.requests') });
      const minutes = calculator.getByRole('slider', { name: text(lang, 'roi:secretary.minutes') });
      const hourly = calculator.getByRole('slider', { name: text(lang, 'roi:secretary.hourlyCost') });
      const current = result(calculator, text(lang, 'roi:secretary.current'));
      const saving = result(calculator, text(lang, 'roi:secretary.saving'));
      const annual = result(calculator, text(lang, 'roi:secretary.annual'));

      // 1,000 requests × 5 min ÷ 60 × €30 = €2,500 a month; the saving shown is 70 % of it.
      await expect(current).toHaveText(figure(f.defaults[0]));
      await expect(saving).toHaveText(figure(f.defaults[1]));
      await expect(annual).toHaveText(figure(f.defaults[2]));

      await press(page, requests, 'ArrowRight');
      await expect(requests).toHaveAttribute('aria-valuetext', figure(f.requests));
      await expect(current).toHaveText(figure(f.afterRequests[0]));
      await expect(saving).toHaveText(figure(f.afterRequests[1]));

      // Page Up moves ten steps: €30 → €40 an hour; 3,666.67 shows rounded.
      await press(page, hourly, 'PageUp');
      await expect(hourly).toHaveAttribute('aria-valuetext', figure(f.hourly));
      await expect(current).toHaveText(figure(f.afterHourly[0]));
      await expect(saving).toHaveText(figure(f.afterHourly[1]));

      // All at their minimum: 100 × 1 ÷ 60 × €20 = 33.33, shown as whole euros.
      for (const slider of [requests, minutes, hourly]) await press(page, slider, 'Home');
      await expect(requests).toHaveAttribute('aria-valuetext', figure(f.min[0]));
      await expect(minutes).toHaveAttribute('aria-valuetext', figure(f.min[1]));
      await expect(hourly).toHaveAttribute('aria-valuetext', figure(f.min[2]));
      await expect(current).toHaveText(figure(f.min[3]));
      await expect(saving).toHaveText(figure(f.min[4]));
      await expect(annual).toHaveText(figure(f.min[5]));

      // All at their maximum: 5,000 × 15 ÷ 60 × €50.
      for (const slider of [requests, minutes, hourly]) await press(page, slider, 'End');
      await expect(requests).toHaveAttribute('aria-valuetext', figure(f.max[0]));
      await expect(minutes).toHaveAttribute('aria-valuetext', figure(f.max[1]));
      await expect(hourly).toHaveAttribute('aria-valuetext', figure(f.max[2]));
      await expect(current).toHaveText(figure(f.max[3]));
      await expect(saving).toHaveText(figure(f.max[4]));
    });
  }
});

test.describe('small screens', () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test('no product page overflows 320 px in either language', async ({ page }) => {
    for (const { id } of pages) {
      for (const lang of langs) {
        const path = getHref(id, lang);
        await gotoHydrated(page, path);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, path).toBeLessThanOrEqual(0);
      }
    }
  });
});
