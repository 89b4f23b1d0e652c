/**
 * The e2e setup's ports and fake provider keys, shared by the server (tests/e2e/server.ts), the
 * Playwright config and the fixtures. The keys are fake and exist so a test can prove that none
 * of them ever reaches the browser.
 */
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export const e2eEnv = {
  sitePort: port('E2E_PORT', 4179),
  stackPort: port('SUPABASE_LOCAL_PORT', 54321),
  controlPort: port('E2E_CONTROL_PORT', 54390),
  fakeOpenAIPort: port('FAKE_OPENAI_PORT', 54391),
  fakeElevenLabsPort: port('FAKE_ELEVENLABS_PORT', 54392),
  openaiKey: 'sk-e2e-fake-openai-key-7Hq2x7Qa',
  elevenLabsKey: 'sk_e2e_fake_elevenlabs_key_9Zb1',
  voiceId: 'e2e-voice',
};

export const stackUrl = `http://127.0.0.1:${String(e2eEnv.stackPort)}`;
export const controlUrl = `http://127.0.0.1:${String(e2eEnv.controlPort)}`;
export const fakeOpenAIUrl = `http://127.0.0.1:${String(e2eEnv.fakeOpenAIPort)}`;
export const fakeElevenLabsUrl = `http://127.0.0.1:${String(e2eEnv.fakeElevenLabsPort)}`;

/** The edge functions' environment in the e2e run: both providers configured, limits out of the way. */
export function functionEnvFor(openaiUrl: string, elevenLabsUrl: string): Record<string, string> {
  return {
    OPENAI_API_KEY: e2eEnv.openaiKey,
    OPENAI_BASE_URL: openaiUrl,
    ELEVENLABS_API_KEY: e2eEnv.elevenLabsKey,
    ELEVENLABS_VOICE_ID: e2eEnv.voiceId,
    ELEVENLABS_BASE_URL: elevenLabsUrl,
    COACH_RATE_LIMIT: '100000',
    TTS_RATE_LIMIT: '100000',
    STT_RATE_LIMIT: '100000',
    COACH_DAILY_LIMIT: '1000000',
    TTS_DAILY_LIMIT: '1000000',
    COACH_CONCURRENT_LIMIT: '1000',
    TTS_CONCURRENT_LIMIT: '1000',
    STT_DAILY_LIMIT: '1000000',
    STT_CONCURRENT_LIMIT: '1000',
    // Every test's browser is the same client (127.0.0.1).
    OPEN_QUESTIONS_DAILY_LIMIT: '1000000',
  };
}
