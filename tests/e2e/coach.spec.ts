import AxeBuilder from '@axe-core/playwright';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LOCAL_SERVICE_ROLE_KEY } from '../../supabase/local/config';
import { DEFAULT_REPLY } from '../fixtures/fakeProviders/fakeOpenAI';
import { expect, test } from './admin';
import {
  audioEvents,
  coachPath,
  coachTexts,
  escapeRegExp,
  expectState,
  hint,
  installFakeRecognition,
  knowledgePdf,
  lastAssistant,
  messages,
  modelRequests,
  notice,
  openCoach,
  persona,
  speech,
  textInput,
  uploadKnowledge,
  voiceButton,
  watchAudio,
} from './coach';
import { e2eEnv } from './env';

const wcag = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
/** The fake model's default reply: three sentences. */
const reply = DEFAULT_REPLY;
/** Speaking three sentences of fake audio takes a few seconds. */
const spoken = { timeout: 20_000 };

async function axeViolations(page: import('@playwright/test').Page) {
  const results = await new AxeBuilder({ page }).withTags(wcag).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('live coach', () => {
  test('the page: heading, instructions, the idle purple button, no chat yet, no axe violations', async ({ page }) => {
    await installFakeRecognition(page);
    await page.goto(coachPath);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Sprich jetzt mit ${persona.name} AI!`);
    await expect(page.getByText(coachTexts.instructions)).toBeVisible();
    await expectState(page, 'idle', { hint: '' });
    await expect(textInput(page)).toHaveCount(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  test('first click: chat panel with the spoken greeting, then ready (blue) when it has been said', async ({ page }) => {
    await watchAudio(page);
    const greetingRequest = page.waitForRequest((request) => request.url().endsWith('/functions/v1/tts') && request.method() === 'POST');
    await installFakeRecognition(page);
    await page.goto(coachPath);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    // The mouse button goes down: the greeting is asked for and arrives, but nothing is shown or
    // heard before the click.
    await voiceButton(page).hover();
    await page.mouse.down();
    const request = await greetingRequest;
    expect(request.postDataJSON()).toEqual({ text: persona.greeting, format: 'pcm', cache: true });
    await request.response();
    // The voice's first bytes follow its headers at once (the fake's first byte: 0 ms); ungated,
    // they would be playing well within this.
    await page.waitForTimeout(300);
    await expectState(page, 'idle');
    await expect(messages(page)).toHaveCount(0);
    expect(await audioEvents(page)).not.toContain('playing');

    await page.mouse.up();
    // The greeting is the first message, the coach's; the text input is labelled, the hint is live.
    await expect(messages(page).first()).toHaveText(new RegExp(escapeRegExp(persona.greeting)));
    await expect(messages(page).first()).toHaveAttribute('data-role', 'assistant');
    await expect(textInput(page)).toBeVisible();
    await expect(hint(page)).toHaveAttribute('aria-live', 'polite');
    await expectState(page, 'speaking', { hint: `${persona.name} antwortet...` });
    await expect(page.getByRole('heading', { level: 2, name: coachTexts.chat.title })).toBeVisible();
    await expect.poll(() => audioEvents(page)).toContain('playing');
    await expectState(page, 'ready', { hint: 'Bereit zum Aufnehmen', ...spoken });
    expect(await audioEvents(page)).toContain('ended');
    expect(await axeViolations(page)).toEqual([]);
  });

  test('voice: listening (red) with a live caption, processing, speaking (green), back to ready', async ({ page }) => {
    await watchAudio(page);
    await openCoach(page);
    await expectState(page, 'ready', spoken);
    // Hold the question at the network so the processing state can be seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/functions/v1/coach/chat/completions', async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });

    await voiceButton(page).click();
    await expectState(page, 'listening', { hint: 'Aufnahme läuft...' });
    const [recognition] = await speech(page).instances();
    expect(recognition).toMatchObject({ lang: 'de-DE', continuous: false, interimResults: true, maxAlternatives: 1 });
    await speech(page).interim('Ich bin im Moment');
    await expect(page.getByTestId('coach-caption')).toContainText('Ich bin im Moment');

    await speech(page).final('Ich bin im Moment sehr gestresst.');
    await expectState(page, 'processing', { hint: 'Verarbeite Anfrage...' });
    await expect(messages(page).filter({ hasText: 'Ich bin im Moment sehr gestresst.' })).toHaveCount(1);
    release();

    await expectState(page, 'speaking', { hint: `${persona.name} antwortet...`, timeout: 10_000 });
    await expect(lastAssistant(page)).toHaveText(reply);
    await expectState(page, 'ready', { hint: 'Bereit zum Aufnehmen', ...spoken });
    expect(await axeViolations(page)).toEqual([]);
  });

  // The recogniser's errors and their messages are the session's (its unit tests, with the same fake
  // recognition); this one goes through the page. A failing recognition service ('network', …) is
  // replaced by recording when the stt function has a provider (coach-stt.spec.ts); without one its
  // messages are in coach.serial.spec.ts.
  test('a recognition error shows its catalogue message: bad-grammar, "Es gab ein Problem bei der Verarbeitung."', async ({ page }) => {
    await openCoach(page);
    await voiceButton(page).click();
    await expectState(page, 'listening');
    await speech(page).fail('bad-grammar');
    await expect(notice(page)).toHaveText('Es gab ein Problem bei der Verarbeitung.');
    await expectState(page, 'ready');
  });

  test('text input: Enter sends only non-blank text; the answer streams into the panel', async ({ page }) => {
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/chat/completions') && request.method() === 'POST') asked.push(request.postData() ?? '');
    });
    await openCoach(page);
    await textInput(page).fill('    ');
    await textInput(page).press('Enter');
    await expect(page.getByRole('button', { name: coachTexts.chat.send })).toBeDisabled();
    expect(asked).toEqual([]);

    await textInput(page).fill('  Wie werde ich ruhiger?  ');
    await page.getByRole('button', { name: coachTexts.chat.send }).click();
    await expect(textInput(page)).toHaveValue('');
    await expect(messages(page).filter({ hasText: 'Wie werde ich ruhiger?' })).toHaveCount(1);
    await expect(lastAssistant(page)).toHaveText(reply, { timeout: 10_000 });
    const body = JSON.parse(asked[0] ?? '{}') as { messages: { role: string; content: string }[]; stream: boolean };
    expect(body.stream).toBe(true);
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'Wie werde ich ruhiger?' });

    await textInput(page).fill('Und danach?');
    // While the coach prepares its answer (processing) the input does not send; then it does.
    await expect(page.getByRole('button', { name: coachTexts.chat.send })).toBeEnabled({ timeout: 10_000 });
    await textInput(page).press('Enter');
    await expect.poll(() => asked.length, { timeout: 20_000 }).toBe(2);
    const second = JSON.parse(asked[1] ?? '{}') as { messages: { role: string; content: string }[] };
    // The history goes along: greeting, first question, first answer, new question.
    expect(second.messages.map((message) => message.role)).toEqual(['assistant', 'user', 'assistant', 'user']);
  });

  test('blocked autoplay: the catalogue message, and the answer stays readable', async ({ page }) => {
    await watchAudio(page, { blockAutoplay: true });
    await openCoach(page);
    await expect(notice(page)).toHaveText(
      'Die automatische Audiowiedergabe wurde vom Browser blockiert. Bitte erlaube die Audiowiedergabe oder lies die Textantwort.',
    );
    await expectState(page, 'ready');
    await textInput(page).fill('Hallo');
    await textInput(page).press('Enter');
    await expect(lastAssistant(page)).toHaveText(reply, { timeout: 10_000 });
    await expect(notice(page)).toHaveText(/automatische Audiowiedergabe wurde vom Browser blockiert/);
  });

  test('rating: "Gespräch beenden" offers 1–5; the rating lands in the counters', async ({ page, service }) => {
    await openCoach(page);
    await expect(page.getByRole('button', { name: coachTexts.chat.endConversation })).toHaveCount(0);
    const answered = page.waitForResponse((response) => response.url().endsWith('/chat/completions') && response.request().method() === 'POST');
    await textInput(page).fill('Danke für den Tipp.');
    await textInput(page).press('Enter');
    // The function signs the conversation's id: the page holds `<id>.<signature>`.
    const [conversationId = '', signature = ''] = ((await answered).headers()['x-conversation-id'] ?? '').split('.');
    expect(conversationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(signature).toMatch(/^[\w-]{20,}$/);

    await page.getByRole('button', { name: coachTexts.chat.endConversation }).click();
    await expectState(page, 'ready');
    await expect(page.getByRole('group', { name: coachTexts.rating.question })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: '4 von 5' }).click();
    await expect(page.getByText(coachTexts.rating.thanks)).toBeVisible();
    await expect(page.getByRole('button', { name: '4 von 5' })).toHaveAttribute('aria-pressed', 'true');
    // A conversation is rated once.
    await expect(page.getByRole('button', { name: '2 von 5' })).toBeDisabled();

    const { data: row } = await service.from('conversations').select('rating, message_count').eq('id', conversationId).single();
    expect(row).toEqual({ rating: 4, message_count: 1 });
    const { data: rated } = await service.from('conversations').select('rating').not('rating', 'is', null);
    const ratings = (rated ?? []).map((entry) => entry.rating);
    const { data: stats } = await service.rpc('admin_stats');
    const average = Math.round((ratings.reduce((sum, value) => sum + value, 0) / ratings.length) * 10) / 10;
    expect(stats).toMatchObject({ averageRating: average });

    // Writing again starts a new conversation.
    const next = page.waitForRequest((request) => request.url().endsWith('/chat/completions') && request.method() === 'POST');
    await textInput(page).fill('Neue Frage');
    await textInput(page).press('Enter');
    expect((await next).headers()['x-conversation-id']).toBeUndefined();
    await expect(page.getByText(coachTexts.chat.newConversation)).toBeVisible();
  });

  test('a question about an uploaded PDF: the passage reaches the model', async ({ page, loginAsAdmin }, testInfo) => {
    const marker = `Quallenatmung${testInfo.testId.replace(/\W/g, '').slice(0, 6)}`;
    const passage = `Die ${marker} ist eine Übung, bei der man beim Ausatmen die Schultern sinken lässt und leise bis sechs zählt.`;
    await loginAsAdmin(page);
    await uploadKnowledge(page, `${marker}.pdf`, knowledgePdf([passage]));

    await openCoach(page);
    await textInput(page).fill(`Wie funktioniert die ${marker}?`);
    await textInput(page).press('Enter');
    await expect(lastAssistant(page)).toHaveText(reply, { timeout: 10_000 });
    const request = (await modelRequests()).find((entry) =>
      entry.body.messages.some((message) => message.role === 'user' && message.content.includes(marker)),
    );
    const knowledge = request?.body.messages.filter((message) => message.role === 'system')[1]?.content ?? '';
    expect(knowledge).toContain(`Die ${marker} ist eine Übung`);
  });

  test('no provider key reaches the browser: not in the bundle, not on the wire', async ({ page }) => {
    const secrets = [e2eEnv.openaiKey, e2eEnv.elevenLabsKey, LOCAL_SERVICE_ROLE_KEY];
    const dist = resolve(import.meta.dirname, '..', '..', process.env.DIST_DIR ?? 'dist');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : [path];
      });
    for (const file of files(dist)) {
      const content = readFileSync(file, 'latin1');
      for (const secret of secrets) expect(content.includes(secret), `${secret} in ${file}`).toBe(false);
    }

    const traffic: string[] = [];
    page.on('request', (request) => {
      traffic.push(request.url(), JSON.stringify(request.headers()), request.postData() ?? '');
    });
    page.on('response', (response) => {
      traffic.push(JSON.stringify(response.headers()));
      if (!/audio/.test(response.headers()['content-type'] ?? '')) {
        void response.text().then(
          (body) => traffic.push(body),
          () => undefined,
        );
      }
    });
    await openCoach(page);
    await textInput(page).fill('Was ist Stress?');
    await textInput(page).press('Enter');
    await expect(lastAssistant(page)).toHaveText(reply, { timeout: 10_000 });
    await expectState(page, 'ready', spoken);
    expect(traffic.some((entry) => entry.includes('functions/v1/coach/chat/completions'))).toBe(true);
    for (const secret of [...secrets, 'xi-api-key', 'sk-e2e', 'sk_e2e']) {
      expect(traffic.filter((entry) => entry.includes(secret)), secret).toEqual([]);
    }
  });

  test('on a laptop screen an undecided cookie notice moves below the open chat instead of over its controls', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await openCoach(page);
    const cookieNotice = page.getByRole('region', { name: 'Cookie-Hinweis' });
    const send = page.getByRole('button', { name: coachTexts.chat.send });
    await expect(cookieNotice).toHaveCount(1);
    await expect(cookieNotice).not.toHaveCSS('position', 'fixed');
    await textInput(page).fill('Hallo');
    // Where the chat first appears, its input and "Senden" are on screen and nothing lies over them.
    for (const control of [textInput(page), send]) {
      const where = await control.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return { onScreen: box.bottom <= window.innerHeight, uncovered: top !== null && element.contains(top) };
      });
      expect(where).toEqual({ onScreen: true, uncovered: true });
    }
    // The notice follows the chat in the page, and it still works.
    const [sendBox, noticeBox] = await Promise.all([send.boundingBox(), cookieNotice.boundingBox()]);
    expect(noticeBox?.y ?? 0).toBeGreaterThan((sendBox?.y ?? Infinity) + (sendBox?.height ?? 0));
    await cookieNotice.getByRole('button', { name: 'Akzeptieren' }).click();
    await expect(cookieNotice).toHaveCount(0);
  });
});
