import type { Locator, Page } from '@playwright/test';
import { company } from '../../src/config/company';
import { persona } from '../../src/config/persona';
import { getHref, routes, type Lang, type RouteId } from '../../src/config/routes';
import { expect, gotoHydrated, test, text } from './fixtures';

const bookingUrl = 'https://booking.example.com/rueckruf';
const contactEmail = 'kontakt@example.com';
const contactPhone = '+49 30 123456789';
const langs = ['de', 'en'] as const;
const dialogTitle = { de: 'Kontakt aufnehmen', en: 'Get in touch' } as const;

/** Opens a page in a language: its English path where it has one, else the remembered choice. */
async function openPage(page: Page, id: RouteId, lang: Lang) {
  if (!('en' in routes[id].paths) && lang === 'en') {
    await page.addInitScript(() => window.localStorage.setItem('language', 'en'));
  }
  await gotoHydrated(page, getHref(id, lang));
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}

const h2 = (page: Page, name: string) => page.getByRole('heading', { level: 2, name, exact: true });
const h3 = (scope: Page | Locator, name: string) => scope.getByRole('heading', { level: 3, name, exact: true });

async function expectSections(page: Page, lang: Lang, keys: readonly string[]) {
  for (const key of keys) await expect(h2(page, text(lang, key))).toBeVisible();
}

/** Every booking link in the page's content opens the scheduling service in a new tab, safely. */
async function expectBookingLinks(page: Page, lang: Lang, count: number) {
  const links = page.getByRole('main').getByRole('link', { name: new RegExp(text(lang, 'booking.cta')) });
  await expect(links).toHaveCount(count);
  for (const link of await links.all()) {
    await expect(link).toHaveAttribute('href', bookingUrl);
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  }
}

/** A native disclosure opens and closes from the keyboard; its answer shows only while open. */
async function expectFaqByKeyboard(page: Page, question: string, answer: string) {
  const summary = page.locator('summary', { hasText: question });
  const answerText = page.getByText(answer, { exact: true });
  await expect(answerText).toBeHidden();
  await summary.focus();
  await page.keyboard.press('Enter');
  await expect(answerText).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(answerText).toBeHidden();
}

test.describe('products overview', () => {
  const cards: readonly RouteId[] = [
    'contactCenter',
    'hotlines',
    'secretary',
    'mentalCoaches',
    'coachPlans',
    'liveCoach',
    'features',
    'solutions',
    'pricing',
    'demo',
  ];
  for (const lang of langs) {
    test(`has a card linking to every product page (${lang})`, async ({ page }) => {
      await openPage(page, 'products', lang);
      await expectSections(page, lang, ['overview:groups.voice.title', 'overview:groups.coaching.title', 'overview:groups.explore.title']);
      const main = page.getByRole('main');
      for (const id of cards) {
        const name = text(lang, `links.${id}`, { name: persona.name });
        const card = h3(main, name);
        await expect(card).toBeVisible();
        await expect(card.getByRole('link')).toHaveAttribute('href', getHref(id, lang));
        await expect(main.getByText(text(lang, `overview:cards.${id}`), { exact: true })).toBeVisible();
      }
    });
  }

  test('a card leads to its page', async ({ page }) => {
    await openPage(page, 'products', 'de');
    await h3(page.getByRole('main'), 'Preise').getByRole('link').click();
    await expect(page).toHaveURL(getHref('pricing', 'de'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'pricing:heading'));
  });
});

test.describe('features page', () => {
  for (const lang of langs) {
    test(`three categories of two items, each with benefits, a statistic and a disabled demo button (${lang})`, async ({ page }) => {
      await openPage(page, 'features', lang);
      const main = page.getByRole('main');
      for (const category of [0, 1, 2]) {
        await expect(h2(page, text(lang, `features:categories.${category}.title`))).toBeVisible();
        for (const item of [0, 1]) {
          const key = `features:categories.${category}.items.${item}`;
          await expect(h3(main, text(lang, `${key}.title`))).toBeVisible();
          await expect(main.getByText(text(lang, `${key}.description`), { exact: true })).toBeVisible();
          await expect(main.getByText(text(lang, `${key}.benefits.0`), { exact: true })).toBeVisible();
          await expect(main.getByText(text(lang, `${key}.stat`), { exact: true })).toBeVisible();
          await expect(main.getByText(text(lang, `${key}.statText`), { exact: true })).toBeVisible();
        }
      }
      const demoButtons = main.getByRole('button', { name: text(lang, 'features:demo'), exact: true });
      await expect(demoButtons).toHaveCount(6);
      for (const button of await demoButtons.all()) await expect(button).toBeDisabled();
    });
  }

  test('shows the static statistics as given', async ({ page }) => {
    await openPage(page, 'features', 'de');
    const main = page.getByRole('main');
    for (const figure of ['89', '76', '92', '85', '94', '67']) {
      await expect(main.getByText(new RegExp(`^${figure}\\s%$`))).toBeVisible();
    }
  });
});

test.describe('solutions page', () => {
  for (const lang of langs) {
    test(`has enterprise solutions, calculator, comparison, two stories and two booking links (${lang})`, async ({ page }) => {
      await openPage(page, 'solutions', lang);
      await expectSections(page, lang, [
        'solutions:enterprise.title',
        'roi:solutions.title',
        'solutions:comparison.title',
        'solutions:stories.title',
        'solutions:cta.title',
      ]);
      const main = page.getByRole('main');
      await expect(h3(main, text(lang, 'solutions:enterprise.mentalHealth.title'))).toBeVisible();
      await expect(h3(main, text(lang, 'solutions:enterprise.communication.title'))).toBeVisible();
      const table = page.getByRole('table', { name: text(lang, 'solutions:comparison.caption') });
      await expect(table.getByRole('columnheader')).toHaveText([
        text(lang, 'solutions:comparison.criterion'),
        text(lang, 'solutions:comparison.ours'),
        text(lang, 'solutions:comparison.traditional'),
      ]);
      await expect(table.getByRole('row')).toHaveCount(7);
      for (const story of [0, 1]) {
        await expect(h3(main, text(lang, `solutions:stories.items.${story}.title`))).toBeVisible();
        await expect(main.getByText(text(lang, `solutions:stories.items.${story}.quote`))).toBeVisible();
      }
      await expectBookingLinks(page, lang, 2);
      // The two booking links sit in different parts of the page.
      const header = page.getByRole('main').locator('header');
      const closing = page.getByRole('region', { name: text(lang, 'solutions:cta.title') });
      await expect(header.getByRole('link', { name: new RegExp(text(lang, 'booking.cta')) })).toHaveCount(1);
      await expect(closing.getByRole('link', { name: new RegExp(text(lang, 'booking.cta')) })).toHaveCount(1);
    });
  }

  const figures = {
    de: { defaults: /^90\.000\s€$/, cost: /^260\s€$/, plusTen: /^93\.600\s€$/, max: /^45\.000\.000\s€$/, min: /^4\.500\s€$/, page: /^49\.500\s€$/ },
    en: { defaults: /^€90,000$/, cost: /^€260$/, plusTen: /^€93,600$/, max: /^€45,000,000$/, min: /^€4,500$/, page: /^€49,500$/ },
  } as const;

  for (const lang of langs) {
    test(`the ROI calculator works by keyboard with exact figures (${lang})`, async ({ page }) => {
      await openPage(page, 'solutions', lang);
      const expected = figures[lang];
      const result = page.getByTestId('roi-result');
      const slider = (key: 'employees' | 'sickDays' | 'costPerDay') =>
        page.getByRole('slider', { name: text(lang, `roi:solutions.${key}`), exact: true });
      const press = async (key: 'employees' | 'sickDays' | 'costPerDay', keyName: string) => {
        await slider(key).focus();
        await page.keyboard.press(keyName);
      };

      // 100 × 12 × 250 × 0.3
      await expect(result).toHaveText(expected.defaults);
      await expect(slider('costPerDay')).toHaveAttribute('aria-valuenow', '250');

      // 100 × 12 × 260 × 0.3
      await press('costPerDay', 'ArrowRight');
      await expect(slider('costPerDay')).toHaveAttribute('aria-valuenow', '260');
      await expect(slider('costPerDay')).toHaveAttribute('aria-valuetext', expected.cost);
      await expect(result).toHaveText(expected.plusTen);

      // 10000 × 30 × 500 × 0.3
      for (const key of ['employees', 'sickDays', 'costPerDay'] as const) await press(key, 'End');
      await expect(slider('employees')).toHaveAttribute('aria-valuenow', '10000');
      await expect(slider('sickDays')).toHaveAttribute('aria-valuenow', '30');
      await expect(slider('costPerDay')).toHaveAttribute('aria-valuenow', '500');
      await expect(result).toHaveText(expected.max);

      // 100 × 1 × 150 × 0.3
      for (const key of ['employees', 'sickDays', 'costPerDay'] as const) await press(key, 'Home');
      await expect(result).toHaveText(expected.min);

      // PageUp moves ten steps: 1100 × 1 × 150 × 0.3
      await press('employees', 'PageUp');
      await expect(slider('employees')).toHaveAttribute('aria-valuenow', '1100');
      await expect(result).toHaveText(expected.page);
    });
  }
});

test.describe('pricing page', () => {
  for (const lang of langs) {
    test(`prices on request with phone, e-mail and booking, two plans and the FAQ (${lang})`, async ({ page }) => {
      await openPage(page, 'pricing', lang);
      await expectSections(page, lang, ['pricing:onRequest.title', 'pricing:plans.title', 'pricing:faq.title']);
      const onRequest = page.getByRole('region', { name: text(lang, 'pricing:onRequest.title') });
      await expect(onRequest.getByRole('link', { name: contactPhone })).toHaveAttribute('href', `tel:${contactPhone.replace(/\s+/g, '')}`);
      await expect(onRequest.getByRole('link', { name: contactEmail })).toHaveAttribute('href', `mailto:${contactEmail}`);
      await expect(onRequest.getByRole('link', { name: new RegExp(text(lang, 'booking.cta')) })).toHaveCount(1);
      await expectBookingLinks(page, lang, 2);

      const plans = page.getByRole('region', { name: text(lang, 'pricing:plans.title') });
      for (const plan of ['basic', 'professional'] as const) {
        await expect(h3(plans, text(lang, `pricing:plans.${plan}.name`))).toBeVisible();
        await expect(plans.getByRole('button', { name: text(lang, `pricing:plans.${plan}.cta`) })).toBeVisible();
      }
      await expect(plans.getByText(text(lang, 'pricing:plans.basic.price'), { exact: true })).toHaveCount(2);
      for (const feature of ['basic.features.0', 'basic.features.1', 'basic.features.2', 'professional.features.0', 'professional.features.1']) {
        await expect(plans.getByText(text(lang, `pricing:plans.${feature}`), { exact: true }).first()).toBeVisible();
      }
      await expect(page.locator('details')).toHaveCount(4);
      await expectFaqByKeyboard(page, text(lang, 'pricing:faq.items.0.question'), text(lang, 'pricing:faq.items.0.answer'));
    });
  }

  test('the German copy states the seed figures', async ({ page }) => {
    await openPage(page, 'pricing', 'de');
    const main = page.getByRole('main');
    await expect(h2(page, 'Preise auf Anfrage')).toBeVisible();
    for (const claim of ['Mindestlaufzeit 3 Monate', 'Bis zu 500 KI-Sprachanrufe pro Monat', 'Über 32 Sprachen', 'Mindestlaufzeit 6 Monate', 'Unbegrenzte Anrufe']) {
      await expect(main.getByText(claim, { exact: true }).first()).toBeVisible();
    }
    await main.locator('summary', { hasText: 'Kann ich den Tarif wechseln?' }).click();
    await expect(main.getByText(/jederzeit möglich\. Bei einem Upgrade rechnen wir bereits gezahlte Beträge an\./)).toBeVisible();
  });

  test('a plan’s call to action opens the contact form', async ({ page }) => {
    await openPage(page, 'pricing', 'en');
    await page.getByRole('button', { name: text('en', 'pricing:plans.professional.cta') }).click();
    await expect(page.getByRole('dialog', { name: dialogTitle.en })).toBeVisible();
  });
});

test.describe('coach reach and plans page', () => {
  for (const lang of langs) {
    test(`reach options, two plans, comparison and four FAQs (${lang})`, async ({ page }) => {
      await openPage(page, 'coachPlans', lang);
      await expectSections(page, lang, ['coachPlans:reach.title', 'coachPlans:plans.title', 'coachPlans:comparison.title', 'coachPlans:faq.title']);
      const reach = page.getByRole('group', { name: text(lang, 'coachPlans:reach.legend') });
      for (const [id, factor] of [
        ['national', '1'],
        ['international', lang === 'de' ? '1,5' : '1.5'],
        ['global', '2'],
      ] as const) {
        const radio = reach.getByRole('radio', { name: text(lang, `coachPlans:reach.options.${id}.name`), exact: true });
        await expect(radio).toBeVisible();
        await expect(reach.getByText(text(lang, `coachPlans:reach.options.${id}.coverage`), { exact: true })).toBeVisible();
        await expect(reach.getByText(text(lang, 'coachPlans:reach.multiplier', { value: factor }), { exact: true })).toBeVisible();
      }
      await expect(reach.getByRole('radio', { name: 'National', exact: true })).toBeChecked();

      const plans = page.getByRole('region', { name: text(lang, 'coachPlans:plans.title') });
      for (const plan of ['portal', 'whiteLabel'] as const) {
        await expect(h3(plans, text(lang, `coachPlans:plans.${plan}.name`))).toBeVisible();
        await expect(plans.getByText(text(lang, `coachPlans:plans.${plan}.features.0`), { exact: true })).toBeVisible();
      }
      await expect(plans.getByText(text(lang, 'coachPlans:plans.portal.price'), { exact: true })).toHaveCount(2);

      const table = page.getByRole('table', { name: text(lang, 'coachPlans:comparison.caption') });
      await expect(table.getByRole('columnheader')).toHaveText([text(lang, 'coachPlans:comparison.feature'), 'Portal', 'White-Label Solution']);
      await expect(table.getByRole('row')).toHaveCount(10);

      const faq = page.getByRole('region', { name: text(lang, 'coachPlans:faq.title') });
      await expect(faq.locator('details')).toHaveCount(4);
      await expectFaqByKeyboard(page, text(lang, 'coachPlans:faq.items.1.question'), text(lang, 'coachPlans:faq.items.1.answer'));
      await expectBookingLinks(page, lang, 2);
    });
  }

  test('the plan names and price texts are the same words in both languages where the seed says so', async ({ page }) => {
    await openPage(page, 'coachPlans', 'en');
    const plans = page.getByRole('region', { name: text('en', 'coachPlans:plans.title') });
    await expect(h3(plans, 'Portal')).toBeVisible();
    await expect(h3(plans, 'White-Label Solution')).toBeVisible();
    await expect(plans.getByText('Setup and commission on request', { exact: true })).toHaveCount(2);
  });

  test('the reach is National by default and changes by keyboard and by click, without touching prices', async ({ page }) => {
    await openPage(page, 'coachPlans', 'de');
    const radio = (name: string) => page.getByRole('radio', { name, exact: true });
    const summary = page.getByTestId('reach-summary');
    await expect(radio('National')).toBeChecked();
    await expect(summary).toHaveText('Ihre Auswahl: National (Deutschland, Österreich, Schweiz), Faktor ×1');

    // One tab stop for the group; arrow keys move the choice.
    await radio('National').focus();
    await page.keyboard.press('ArrowRight');
    await expect(radio('International')).toBeChecked();
    await expect(radio('International')).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(radio('Global')).toBeChecked();
    await expect(radio('National')).not.toBeChecked();
    await expect(summary).toHaveText('Ihre Auswahl: Global (Weltweit), Faktor ×2');

    await page.getByText('Europa', { exact: true }).click();
    await expect(radio('International')).toBeChecked();
    await expect(summary).toHaveText('Ihre Auswahl: International (Europa), Faktor ×1,5');
    // The multiplier is shown, never applied: the price texts stay "on request".
    await expect(page.getByText('Setup und Provision auf Anfrage', { exact: true })).toHaveCount(2);
  });

  test('a plan enquiry opens the contact form', async ({ page }) => {
    await openPage(page, 'coachPlans', 'de');
    await page.getByRole('button', { name: text('de', 'coachPlans:plans.whiteLabel.cta') }).click();
    await expect(page.getByRole('dialog', { name: dialogTitle.de })).toBeVisible();
  });
});

test.describe('mental coaches page', () => {
  for (const lang of langs) {
    test(`explains the offer and links to the live test and the plans (${lang})`, async ({ page }) => {
      await openPage(page, 'mentalCoaches', lang);
      await expectSections(page, lang, ['mentalCoaches:forCoaches.title', 'mentalCoaches:forClients.title', 'mentalCoaches:howItWorks.title', 'mentalCoaches:next.title']);
      const main = page.getByRole('main');
      await expect(h3(main, text(lang, 'mentalCoaches:forCoaches.items.1.title'))).toBeVisible();
      await expect(h3(main, text(lang, 'mentalCoaches:forClients.items.2.title'))).toBeVisible();
      await expect(page.getByRole('region', { name: text(lang, 'mentalCoaches:howItWorks.title') }).getByRole('listitem')).toHaveCount(4);
      const next = page.getByRole('region', { name: text(lang, 'mentalCoaches:next.title') });
      await expect(next.getByRole('link', { name: text(lang, 'mentalCoaches:next.liveCta', { name: persona.name }) })).toHaveAttribute(
        'href',
        getHref('liveCoach', lang),
      );
      await next.getByRole('link', { name: text(lang, 'mentalCoaches:next.plansCta') }).click();
      await expect(page).toHaveURL(getHref('coachPlans', lang));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(lang, 'coachPlans:heading'));
    });
  }
});

test.describe('demo page', () => {
  for (const lang of langs) {
    test(`shows what a demo covers, the live test and the booking link (${lang})`, async ({ page }) => {
      await openPage(page, 'demo', lang);
      await expectSections(page, lang, ['demo:shows.title', 'demo:steps.title', 'demo:live.title', 'demo:booking.title']);
      const main = page.getByRole('main');
      for (const item of [0, 1, 2, 3]) await expect(h3(main, text(lang, `demo:shows.items.${item}.title`))).toBeVisible();
      const live = page.getByRole('region', { name: text(lang, 'demo:live.title') });
      await expect(live.getByRole('link', { name: text(lang, 'demo:live.cta', { name: persona.name }) })).toHaveAttribute('href', getHref('liveCoach', lang));
      await expectBookingLinks(page, lang, 2);
    });
  }

  test('the live test link opens the coach', async ({ page }) => {
    await openPage(page, 'demo', 'de');
    await page.getByRole('link', { name: `${persona.name} AI live testen` }).click();
    await expect(page).toHaveURL(getHref('liveCoach', 'de'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Sprich jetzt mit ${persona.name} AI!`);
  });
});

test.describe('about page', () => {
  for (const lang of langs) {
    test(`mission, values, the joint project of two companies and a way to contact (${lang})`, async ({ page }) => {
      await openPage(page, 'about', lang);
      await expectSections(page, lang, ['about:mission.title', 'about:values.title', 'about:joint.title', 'about:contact.title']);
      const values = page.getByRole('region', { name: text(lang, 'about:values.title') });
      await expect(values.getByRole('heading', { level: 3 })).toHaveCount(4);
      const joint = page.getByRole('region', { name: text(lang, 'about:joint.title') });
      await expect(h3(joint, company.legalName)).toBeVisible();
      await expect(h3(joint, company.partner.legalName)).toBeVisible();
      await page.getByRole('link', { name: text(lang, 'about:contact.cta') }).click();
      await expect(page).toHaveURL(getHref('contact', lang));
      await expect(page.getByRole('dialog', { name: dialogTitle[lang] })).toBeVisible();
    });
  }
});

test.describe('contact page', () => {
  for (const lang of langs) {
    test(`opens the contact form on arrival and lists every way to reach us (${lang})`, async ({ page }) => {
      await openPage(page, 'contact', lang);
      const dialog = page.getByRole('dialog', { name: dialogTitle[lang] });
      await expect(dialog).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();

      const ways = page.getByRole('region', { name: text(lang, 'contactPage:waysTitle') });
      await expect(ways.getByRole('link', { name: contactEmail })).toHaveAttribute('href', `mailto:${contactEmail}`);
      await expect(ways.getByRole('link', { name: contactPhone })).toHaveAttribute('href', `tel:${contactPhone.replace(/\s+/g, '')}`);
      await expect(ways.getByText(text(lang, 'contactPage:responseText'))).toBeVisible();
      await expect(ways.getByText(company.street)).toBeVisible();
      await expect(ways.getByText(`${company.postalCode} ${company.city}`)).toBeVisible();
      await expectBookingLinks(page, lang, 2);

      await page.getByRole('button', { name: text(lang, 'contactPage:openForm') }).click();
      await expect(page.getByRole('dialog', { name: dialogTitle[lang] })).toBeVisible();
    });
  }
});

test.describe('small screens', () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test('no marketing page overflows 320 px', async ({ page }) => {
    for (const id of ['products', 'features', 'demo', 'solutions', 'pricing', 'coachPlans', 'mentalCoaches', 'about', 'contact'] as const) {
      await gotoHydrated(page, getHref(id, 'de'));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, id).toBeLessThanOrEqual(0);
    }
  });
});
