import { ADMIN, DASHBOARD_PATH, LOGIN_PATH, expect, test, text } from './admin';

const loginFields = (page: import('@playwright/test').Page) => ({
  username: page.getByLabel(text('de', 'admin:login.username')),
  password: page.getByLabel(text('de', 'admin:login.password')),
  submit: page.getByRole('button', { name: 'Login', exact: true }),
});

test.describe('admin sign-in and guard', () => {
  test('the dashboard sends a signed-out visitor to the login and back to the wanted tab afterwards', async ({ page }) => {
    await page.goto(`${DASHBOARD_PATH}?tab=knowledge`);
    await expect(page).toHaveURL(LOGIN_PATH);
    expect(await page.evaluate(() => sessionStorage.getItem('admin-return-path'))).toBe(`${DASHBOARD_PATH}?tab=knowledge`);

    const form = loginFields(page);
    await form.username.fill(ADMIN.email);
    await form.password.fill(ADMIN.password);
    await form.submit.click();

    await expect(page).toHaveURL(`${DASHBOARD_PATH}?tab=knowledge`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Master Admin Dashboard');
    await expect(page.getByRole('tab', { name: 'Wissensdatenbank' })).toHaveAttribute('aria-selected', 'true');
    // The stored path is used once.
    expect(await page.evaluate(() => sessionStorage.getItem('admin-return-path'))).toBeNull();
  });

  test('a wrong password shows the server message above the form and keeps the visitor on the login', async ({ page, consoleProblems }) => {
    consoleProblems.allow(/Failed to load resource: the server responded with a status of 400/);
    await page.goto(LOGIN_PATH);
    const form = loginFields(page);
    await form.username.fill(ADMIN.email);
    await form.password.fill('not-the-password');
    await form.submit.click();
    const alert = page.getByRole('alert');
    await expect(alert).toHaveText('Invalid login credentials');
    // The error box sits above the form.
    const alertBox = await alert.boundingBox();
    const formBox = await form.username.boundingBox();
    expect(alertBox && formBox && alertBox.y < formBox.y).toBe(true);
    await expect(page).toHaveURL(LOGIN_PATH);
    await expect(form.submit).toBeEnabled();
  });

  test('the browser checks the required fields and the e-mail format before anything is sent', async ({ page }) => {
    let tokenRequests = 0;
    page.on('request', (request) => {
      if (request.url().includes('/auth/v1/token')) tokenRequests += 1;
    });
    await page.goto(LOGIN_PATH);
    const form = loginFields(page);
    await expect(form.username).toHaveAttribute('type', 'email');
    await expect(form.username).toHaveAttribute('required', '');
    await expect(form.password).toHaveAttribute('required', '');
    await form.username.fill('kein-at-zeichen');
    await form.password.fill('irgendwas');
    await form.submit.click();
    expect(await form.username.evaluate((input: HTMLInputElement) => input.validity.typeMismatch)).toBe(true);
    expect(tokenRequests).toBe(0);
  });

  test('the button reads "Logging in..." and is disabled while the sign-in runs', async ({ page }) => {
    await page.goto(LOGIN_PATH);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 1500, downloadThroughput: -1, uploadThroughput: -1 });
    const form = loginFields(page);
    await form.username.fill(ADMIN.email);
    await form.password.fill(ADMIN.password);
    await form.submit.click();
    const busy = page.getByRole('button', { name: 'Logging in...', exact: true });
    await expect(busy).toBeDisabled();
    // Seen: the dashboard's own requests need no delay.
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await expect(page).toHaveURL(DASHBOARD_PATH, { timeout: 15_000 });
  });

  test('a signed-in user who is not an admin is told so and not let in', async ({ page, createUser }) => {
    const user = await createUser();
    await page.goto(LOGIN_PATH);
    const form = loginFields(page);
    await form.username.fill(user.email);
    await form.password.fill(user.password);
    await form.submit.click();
    await expect(page.getByRole('alert')).toHaveText(text('de', 'admin:login.notAdmin'));
    await expect(page).toHaveURL(LOGIN_PATH);
    // No session is left behind: the dashboard still sends the user to the login.
    await page.goto(DASHBOARD_PATH);
    await expect(page).toHaveURL(LOGIN_PATH);
  });

  test('sign-in replaces history, survives a reload, and sign-out ends the session', async ({ page }) => {
    await page.goto('/');
    await page.goto(LOGIN_PATH);
    const form = loginFields(page);
    await form.username.fill(ADMIN.email);
    await form.password.fill(ADMIN.password);
    await form.submit.click();
    await expect(page).toHaveURL(DASHBOARD_PATH);

    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Master Admin Dashboard');
    await expect(page.getByText(text('de', 'admin:dashboard.signedInAs', { email: ADMIN.email }))).toBeVisible();

    // Back skips the login page, which history no longer holds.
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    await page.goForward();
    await expect(page).toHaveURL(DASHBOARD_PATH);

    await page.getByRole('button', { name: text('de', 'admin:dashboard.signOut') }).click();
    await expect(page).toHaveURL(LOGIN_PATH);
    await page.goto(DASHBOARD_PATH);
    await expect(page).toHaveURL(LOGIN_PATH);
  });
});
