import { expect, gotoHydrated, test, text } from './fixtures';

const bookingUrl = 'https://booking.example.com/rueckruf';

test.describe('header', () => {
  test('links to the product pages and About, and the contact link opens the booking service in a new tab', async ({ page }) => {
    await gotoHydrated(page, '/');
    const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
    for (const [name, heading, url] of [
      ['AI Contact Center', 'AI Contact Center', '/produkte/ai-contact-center'],
      ['AI Hotlines', 'AI Hotlines', '/produkte/ai-hotlines'],
      ['AI Secretary', 'AI Secretary', '/produkte/ai-secretary'],
      ['Über uns', 'Über uns', '/unternehmen/ueber-uns'],
    ] as const) {
      await nav.getByRole('link', { name }).click();
      await expect(page).toHaveURL(url);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    }
    const contact = page.getByRole('banner').getByRole('link', { name: /^Kontakt/ });
    await expect(contact).toHaveAttribute('href', bookingUrl);
    await expect(contact).toHaveAttribute('target', '_blank');
    await expect(contact).toHaveAttribute('rel', 'noopener noreferrer');
    await page.getByRole('link', { name: /Voxa AI – zur Startseite/ }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('the language selector moves between German and English paths and is remembered', async ({ page }) => {
    await gotoHydrated(page, '/produkte/ai-hotlines');
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('en');
    await expect(page).toHaveURL('/products/ai-hotlines');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('AI Hotlines');
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'About' })).toHaveAttribute(
      'href',
      '/company/about',
    );
    // The admin area has one path: it follows the remembered language, also after a reload.
    await gotoHydrated(page, '/admin/dashboard-login');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'admin:login.heading'));
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'admin:login.heading'));
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await expect(page).toHaveURL('/admin/dashboard-login');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'admin:login.heading'));
    // A public page's path decides, whatever was chosen before.
    await gotoHydrated(page, '/products/features');
    await expect(page.getByRole('button', { name: 'Contact form' })).toBeVisible();
    await expect(page).toHaveTitle(text('en', 'meta:features.title', { site: 'Voxa AI' }));
  });

  test('navigation starts the new page at its top', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 500 });
    await gotoHydrated(page, '/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Impressum' }).click();
    await expect(page).toHaveURL('/rechtliches/impressum');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});

test.describe('footer', () => {
  test('has the Content, Company and Legal groups, copyright, compliance claim and a contact trigger', async ({ page }) => {
    await gotoHydrated(page, '/');
    const footer = page.getByRole('contentinfo');
    for (const [group, links] of [
      ['Inhalte', ['Produktübersicht', 'Features', 'Demo', 'Lösungen', 'Preise', 'Mental Coaches', 'Auftritt wählen', 'Live-Test: Mia AI']],
      ['Unternehmen', ['Über uns', 'Kontakt', 'AI Contact Center', 'AI Hotlines', 'AI Secretary']],
      ['Rechtliches', ['Impressum', 'Datenschutz', 'Transparenz']],
    ] as const) {
      const nav = footer.getByRole('navigation', { name: group });
      await expect(nav.getByRole('link')).toHaveText([...links]);
    }
    await expect(footer).toContainText(`© ${new Date().getFullYear()} Voxa AI. Alle Rechte vorbehalten.`);
    await expect(footer).toContainText('DSGVO-konform und im Einklang mit dem EU AI Act.');
    await footer.getByRole('navigation', { name: 'Inhalte' }).getByRole('link', { name: 'Live-Test: Mia AI' }).click();
    await expect(page).toHaveURL('/produkte/mia-ai');
    // The address changes before the page's module has loaded; when it renders, the page scrolls to
    // its top and the footer moves. A visitor clicks on the page they see.
    await expect(page.getByRole('heading', { level: 1, name: 'Sprich jetzt mit Mia AI!' })).toBeVisible();
    await footer.getByRole('button', { name: 'Kontakt aufnehmen' }).click();
    await expect(page.getByRole('dialog', { name: 'Kontakt aufnehmen' })).toBeVisible();
  });

  test('follows the language', async ({ page }) => {
    await gotoHydrated(page, '/company/about');
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('navigation', { name: 'Legal' }).getByRole('link')).toHaveText(['Imprint', 'Privacy policy', 'Transparency']);
    await expect(footer).toContainText('GDPR compliant and in line with the EU AI Act.');
  });
});

test.describe('mobile', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the menu toggle shows and hides the navigation and a choice closes it', async ({ page }) => {
    await gotoHydrated(page, '/');
    const toggle = page.getByRole('button', { name: 'Menü öffnen' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('navigation', { name: 'Hauptnavigation' })).toBeHidden();
    await toggle.click();
    const close = page.getByRole('button', { name: 'Menü schließen' });
    await expect(close).toHaveAttribute('aria-expanded', 'true');
    const menu = page.getByRole('navigation', { name: 'Hauptnavigation' });
    await expect(menu.getByRole('link', { name: 'AI Secretary' })).toBeVisible();
    await expect(menu.getByRole('link', { name: /^Kontakt/ })).toHaveAttribute('target', '_blank');
    await menu.getByRole('link', { name: 'AI Secretary' }).click();
    await expect(page).toHaveURL('/produkte/ai-secretary');
    await expect(page.getByRole('navigation', { name: 'Hauptnavigation' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Menü öffnen' })).toHaveAttribute('aria-expanded', 'false');
  });

  test('nothing overflows the 320 px viewport', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    for (const path of ['/', '/products/ai-hotlines', '/rechtliches/impressum', '/unternehmen/kontakt']) {
      await gotoHydrated(page, path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });
});

test.describe('cookie banner', () => {
  test('Accept hides it for good, across reloads', async ({ page }) => {
    await gotoHydrated(page, '/');
    const banner = page.getByRole('region', { name: 'Cookie-Hinweis' });
    await expect(banner).toBeVisible();
    await banner.getByRole('button', { name: 'Akzeptieren' }).click();
    await expect(banner).toBeHidden();
    expect(await page.evaluate(() => window.localStorage.getItem('cookie-consent'))).toBe('accepted');
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await expect(page.getByRole('region', { name: 'Cookie-Hinweis' })).toBeHidden();
  });

  test('the X hides it for this view only; Settings opens the privacy policy in a new tab', async ({ page, context }) => {
    await gotoHydrated(page, '/');
    const banner = page.getByRole('region', { name: 'Cookie-Hinweis' });
    const [privacy] = await Promise.all([context.waitForEvent('page'), banner.getByRole('link', { name: /Einstellungen/ }).click()]);
    await privacy.waitForLoadState();
    expect(new URL(privacy.url()).pathname).toBe('/rechtliches/datenschutz');
    await privacy.close();
    await banner.getByRole('button', { name: 'Hinweis schließen' }).click();
    await expect(banner).toBeHidden();
    await page.reload();
    await expect(page.getByRole('region', { name: 'Cookie-Hinweis' })).toBeVisible();
  });
});

test.describe('cookie notice in the prerendered HTML', () => {
  const pages = [
    ['/rechtliches/impressum', 'de'],
    ['/company/about', 'en'],
  ] as const;

  test('is in the HTML of the page, in its language', async ({ request }) => {
    for (const [path, lang] of pages) {
      const html = await (await request.get(path)).text();
      expect(html, path).toContain(`data-cookie-notice="" aria-label="${text(lang, 'cookies.label')}"`);
      expect(html, path).toContain(text(lang, 'cookies.text'));
    }
  });

  test('a first-time visitor sees it without waiting for the app', async ({ browser }) => {
    // A context of its own (the app's failed import is the point here, not a console problem).
    const context = await browser.newContext();
    await context.route(/\/assets\/boot-[^/]*\.js$/, (route) => route.abort());
    const page = await context.newPage();
    for (const [path, lang] of pages) {
      await page.goto(path);
      const notice = page.getByRole('region', { name: text(lang, 'cookies.label') });
      await expect(notice).toBeVisible();
      await expect(notice).toContainText(text(lang, 'cookies.text'));
      expect(await page.evaluate(() => document.documentElement.dataset.hydrated), 'the app never loaded').toBeUndefined();
    }
    await context.close();
  });

  test('a visitor who has accepted never sees it, not even for a frame before the app has loaded', async ({ page }) => {
    await gotoHydrated(page, '/');
    await page.getByRole('region', { name: 'Cookie-Hinweis' }).getByRole('button', { name: 'Akzeptieren' }).click();
    // From the next page on, every frame the browser renders records whether the notice is visible
    // (requestAnimationFrame runs right before each frame is painted).
    await page.addInitScript(() => {
      const frames: boolean[] = [];
      Object.assign(window, { noticeFrames: frames });
      const sample = () => {
        frames.push(document.querySelector('[data-cookie-notice]')?.checkVisibility() ?? false);
        requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    });
    for (const path of ['/rechtliches/impressum', '/products/ai-hotlines', '/']) {
      await page.goto(path);
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      await expect(page.locator('[data-cookie-notice]')).toHaveCount(0);
      const frames = await page.evaluate(() => (window as unknown as { noticeFrames: boolean[] }).noticeFrames);
      expect(frames.length, path).toBeGreaterThan(0);
      expect(frames.filter(Boolean), `frames with the notice on ${path}`).toEqual([]);
    }
  });
});

test.describe('contact modal', () => {
  test('keyboard: opens from the header, traps focus, closes on Escape and returns focus', async ({ page }) => {
    await gotoHydrated(page, '/');
    const opener = page.getByRole('banner').getByRole('button', { name: 'Kontaktformular' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Kontakt aufnehmen' });
    await expect(dialog).toBeVisible();
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((node) => node.contains(document.activeElement))).toBe(true);
    }
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await dialog.evaluate((node) => node.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  });

  test('validates, then hands the e-mail draft to the mail program and closes', async ({ page }) => {
    await gotoHydrated(page, '/produkte/ai-hotlines');
    await page.getByRole('banner').getByRole('button', { name: 'Kontaktformular' }).click();
    const dialog = page.getByRole('dialog', { name: 'Kontakt aufnehmen' });
    await dialog.getByRole('button', { name: 'Nachricht senden' }).click();
    await expect(dialog.getByText('Bitte wählen Sie eine Anrede.')).toBeVisible();
    await expect(dialog.getByLabel(/^Anrede/)).toBeFocused();
    await dialog.getByLabel(/^Anrede/).selectOption('mr');
    await dialog.getByLabel(/^Name/).fill('Max Muster');
    await dialog.getByLabel(/^Telefon/).fill('+49 30 1');
    await dialog.getByLabel(/^E-Mail/).fill('max@example.com');
    await dialog.getByLabel(/^Nachricht/).fill('Rückruf bitte');
    await dialog.getByRole('button', { name: 'Nachricht senden' }).click();
    await expect(dialog).toBeHidden();
    // The page stays: a mailto: link hands over to the mail program without leaving the site.
    await expect(page).toHaveURL('/produkte/ai-hotlines');
  });

  test('the contact page opens the shared modal and can reopen it', async ({ page }) => {
    await gotoHydrated(page, '/company/contact');
    const dialog = page.getByRole('dialog', { name: 'Get in touch' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: 'Open the contact form' }).click();
    await expect(page.getByRole('dialog', { name: 'Get in touch' })).toBeVisible();
  });
});

test.describe('home page', () => {
  test('has the particle background, the headline and the booking button', async ({ page }) => {
    await gotoHydrated(page, '/');
    await expect(page.locator('canvas[aria-hidden="true"]')).toHaveCount(1);
    const booking = page.getByRole('main').getByRole('link', { name: /Jetzt Rückruf buchen/ });
    await expect(booking).toHaveAttribute('href', bookingUrl);
    await expect(booking).toHaveAttribute('target', '_blank');
    await expect(booking).toHaveAttribute('rel', 'noopener noreferrer');
  });

  test('keeps the particles still under prefers-reduced-motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await gotoHydrated(page, '/');
    const canvas = page.locator('canvas');
    // The still frame is drawn by a worker that starts after hydration.
    await expect(canvas).toHaveAttribute('data-drawn', 'true');
    const first = await canvas.screenshot();
    await page.waitForTimeout(400);
    expect((await canvas.screenshot()).equals(first)).toBe(true);
  });

  test('moves the particles when motion is allowed', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await gotoHydrated(page, '/');
    const canvas = page.locator('canvas');
    await expect(canvas).toHaveAttribute('data-drawn', 'true');
    const first = await canvas.screenshot();
    await page.waitForTimeout(400);
    expect((await canvas.screenshot()).equals(first)).toBe(false);
  });
});
