/**
 * Live coach tests that change shared state (the functions' environment, the fake providers'
 * behaviour); they run after all other tests, one at a time, and put everything back.
 */
import { expect, test } from './admin';
import {
  audioLog,
  browserSpeech,
  coachTexts,
  expectState,
  knowledgePdf,
  lastAssistant,
  modelRequests,
  notice,
  openCoach,
  persona,
  recordBrowserSpeech,
  say,
  speech,
  textInput,
  uploadKnowledge,
  voiceButton,
  watchAudio,
} from './coach';
import { controlUrl, fakeElevenLabsUrl, fakeOpenAIUrl } from './env';

async function post(url: string, body: unknown = {}) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.ok).toBe(true);
}

const voiceDefaults = { stability: 0.25, similarity_boost: 0.75, style: 0.45, use_speaker_boost: true, pitch: 1, speed: 1 };

test.afterEach(async ({ service }) => {
  await service.from('voice_configs').update(voiceDefaults).eq('is_active', true);
  await post(`${controlUrl}/env/reset`);
  await post(`${fakeOpenAIUrl}/__reset`);
  await post(`${fakeElevenLabsUrl}/__reset`);
});

test.describe('live coach with providers changed', () => {
  test('without a language model key the coach answers from the uploaded PDF and says so', async ({ page, loginAsAdmin }, testInfo) => {
    const marker = `Wolkenpause${testInfo.testId.replace(/\W/g, '').slice(0, 6)}`;
    const passage = `Die ${marker} dauert drei Minuten und hilft nach langen Besprechungen. Man schaut dabei aus dem Fenster und zählt zehn Atemzüge.`;
    await loginAsAdmin(page);
    await uploadKnowledge(page, `${marker}.pdf`, knowledgePdf([passage]));
    await post(`${controlUrl}/env`, { unset: ['OPENAI_API_KEY'] });
    const before = (await modelRequests()).length;

    await openCoach(page);
    await expect(page.getByTestId('coach-offline')).toHaveCount(0);
    const answered = page.waitForResponse((response) => response.url().endsWith('/chat/completions') && response.request().method() === 'POST');
    await textInput(page).fill(`Was ist die ${marker}?`);
    await textInput(page).press('Enter');
    expect((await answered).headers()['x-coach-mode']).toBe('offline');
    await expect(lastAssistant(page)).toContainText(`Die ${marker} dauert drei Minuten`, { timeout: 10_000 });
    await expect(page.getByTestId('coach-offline')).toHaveText(coachTexts.chat.offline);
    expect((await modelRequests()).length).toBe(before);
  });

  test('the model call fails: "Tut mir leid, ich habe gerade technische Schwierigkeiten…"', async ({ page, consoleProblems }) => {
    consoleProblems.allow(/Failed to load resource: .*502/);
    await post(`${fakeOpenAIUrl}/__control`, { failure: 'http500' });
    await openCoach(page);
    await say(page, 'Hallo Mia');
    await expect(lastAssistant(page)).toHaveText(
      'Tut mir leid, ich habe gerade technische Schwierigkeiten. Kannst du es in einem Moment noch einmal versuchen?',
      { timeout: 10_000 },
    );
    await expectState(page, 'ready', { hint: 'Bereit zum Aufnehmen' });
  });

  test('the model sends no text: "Entschuldigung, ich konnte dazu gerade keine passende Antwort finden…"', async ({ page }) => {
    await post(`${fakeOpenAIUrl}/__control`, { failure: 'empty' });
    await openCoach(page);
    await say(page, 'Hallo Mia');
    await expect(lastAssistant(page)).toHaveText(
      'Entschuldigung, ich konnte dazu gerade keine passende Antwort finden. Kannst du deine Frage vielleicht anders formulieren?',
      { timeout: 10_000 },
    );
    await expectState(page, 'ready');
  });

  test('the voice provider fails: the playback message, and the answer stays readable', async ({ page, consoleProblems }) => {
    consoleProblems.allow(/Failed to load resource: .*502/);
    await openCoach(page);
    await expectState(page, 'ready', { timeout: 20_000 });
    await post(`${fakeElevenLabsUrl}/__control`, { failure: 'http500' });
    await say(page, 'Hallo Mia');
    await expect(notice(page)).toHaveText('Es gab ein Problem bei der Audiowiedergabe. Lies bitte die Textantwort.', { timeout: 10_000 });
    await expect(lastAssistant(page)).toContainText('Das klingt nach einer anstrengenden Zeit.');
    await expectState(page, 'ready');
  });

  test('without an ElevenLabs key the browser’s German voice speaks, learnt once: no refused request per sentence', async ({ page }) => {
    await post(`${controlUrl}/env`, { unset: ['ELEVENLABS_API_KEY'] });
    const synthesisRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/functions/v1/tts') && request.method() === 'POST') synthesisRequests.push(request.url());
    });
    await recordBrowserSpeech(page);
    await openCoach(page);
    await expectState(page, 'ready', { timeout: 10_000 });
    await expect.poll(() => browserSpeech(page)).toEqual([{ text: persona.greeting, lang: 'de-DE', rate: 1, pitch: 1 }]);
    await say(page, 'Hallo Mia');
    await expect.poll(async () => (await browserSpeech(page)).length, { timeout: 10_000 }).toBe(4);
    expect((await browserSpeech(page)).every((utterance) => utterance.lang === 'de-DE')).toBe(true);
    await expect(notice(page)).toHaveText('');
    expect(synthesisRequests).toEqual([]);
  });

  test('no recogniser and no speech-to-text provider: "Browser unterstützt keine Spracherkennung", and the text input still works', async ({
    page,
  }) => {
    await post(`${controlUrl}/env`, { unset: ['OPENAI_API_KEY', 'ELEVENLABS_API_KEY'] });
    await recordBrowserSpeech(page);
    await openCoach(page, { supported: false });
    await expectState(page, 'ready', { timeout: 10_000 });
    await voiceButton(page).click();
    await expect(notice(page)).toHaveText('Browser unterstützt keine Spracherkennung');
    await textInput(page).fill('Was hilft gegen Stress?');
    await textInput(page).press('Enter');
    await expect(lastAssistant(page)).not.toHaveText('', { timeout: 10_000 });
  });

  for (const [code, message] of [
    ['service-not-allowed', 'Mikrofon-Zugriff verweigert. Bitte erlaube den Zugriff.'],
    ['network', 'Es gab ein Problem bei der Verarbeitung.'],
  ] as const) {
    test(`without a speech-to-text provider the recogniser's ${code} shows "${message}"`, async ({ page }) => {
      await post(`${controlUrl}/env`, { unset: ['OPENAI_API_KEY', 'ELEVENLABS_API_KEY'] });
      await recordBrowserSpeech(page);
      await openCoach(page);
      await expectState(page, 'ready', { timeout: 10_000 });
      await voiceButton(page).click();
      await expectState(page, 'listening');
      await speech(page).fail(code);
      await expect(notice(page)).toHaveText(message);
      await expectState(page, 'ready');
    });
  }

  test('saved speed and pitch: the rest of the tempo in the player, the pitch through SoundTouch', async ({ page, service }) => {
    const { error } = await service.from('voice_configs').update({ speed: 1.5, pitch: 1.3 }).eq('is_active', true);
    expect(error).toBeNull();
    await watchAudio(page);
    const greeting = page.waitForResponse(
      (response) => response.url().endsWith('/functions/v1/tts') && response.request().method() === 'POST' && response.status() === 200,
    );
    await openCoach(page);
    const headers = (await greeting).headers();
    expect(headers['x-pitch']).toBe('1.3');
    expect(Number(headers['x-playback-rate'])).toBeCloseTo(1.25, 5);
    await expect.poll(async () => (await audioLog(page)).events).toContain('playing');
    const log = await audioLog(page);
    expect(log.tempos.at(-1)).toBeCloseTo(1.25, 5);
    expect(log.shifters).toHaveLength(1);
    expect(log.shifters[0]).toBeCloseTo(1.3, 5);
    await expectState(page, 'ready', { timeout: 20_000 });
  });
});
