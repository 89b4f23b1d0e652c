/**
 * The coach page where the operator set a Turnstile site key: starting the coach shows the human
 * check (an injected fake widget here: Cloudflare's script cannot load offline), whose token signs
 * the visitor in anonymously through supabase-js, and the coach's calls carry that session.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { persona } from '../../config/persona';
import type { HumanCheckWidget } from '../../components/ui/HumanCheck';
import {
  installFetch,
  installRecognition,
  installWebAudio,
  jsonResponse,
  pcmResponse,
  sseResponse,
  type RecordedRequest,
} from '../../../tests/support/browser/browserFakes';
import { renderWithProviders } from '../../../tests/support/browser/render';
import { LiveCoach } from './LiveCoach';
import { coachTexts } from './texts';

vi.hoisted(() => {
  vi.stubEnv('VITE_TURNSTILE_SITE_KEY', '1x00000000000000000000AA');
});

const SESSION_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYXV0aGVudGljYXRlZCJ9.visitor-session';

let requests: RecordedRequest[] = [];

beforeAll(() => {
  requests = installFetch((request) => {
    if (request.url.endsWith('/auth/v1/signup')) {
      return jsonResponse(200, {
        access_token: SESSION_TOKEN,
        token_type: 'bearer',
        expires_in: 3600,
        expires_at: Math.floor(Date.now() / 1000) + 3600,
        refresh_token: 'refresh-1',
        user: { id: '00000000-0000-4000-8000-0000000000a1', aud: 'authenticated', role: 'authenticated', is_anonymous: true, app_metadata: {}, user_metadata: {} },
      });
    }
    if (request.url.endsWith('/chat/completions')) {
      return request.method === 'GET' ? new Response(null, { status: 204 }) : sseResponse(['Atme tief ein.'], { 'x-coach-mode': 'model' });
    }
    if (request.url.endsWith('/tts')) return request.method === 'GET' ? jsonResponse(200, { available: true }) : pcmResponse();
    return jsonResponse(404, {});
  });
});
afterAll(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});
beforeEach(() => {
  requests.length = 0;
  installRecognition();
  installWebAudio().autoPlay = true;
});

/** A stand-in for Turnstile's API that the test answers for. */
function fakeWidget() {
  const rendered: { sitekey: string; callback: (token: string) => void; error?: (code: string) => void }[] = [];
  const widget: HumanCheckWidget = {
    render: (_container, options) => {
      rendered.push({ sitekey: options.sitekey, callback: options.callback, error: options['error-callback'] });
      return `widget-${String(rendered.length)}`;
    },
    reset: () => undefined,
    remove: () => undefined,
  };
  return { rendered, load: () => Promise.resolve(widget) };
}

const voiceButton = () => screen.getByRole('button', { name: /Klick hier|Ich höre zu|spricht|Einen Moment/ });
const posts = (path: string) => requests.filter((request) => request.url.endsWith(path) && request.method === 'POST');

describe('live coach with the human check', () => {
  it('shows the check when the coach starts, signs in with its token, and sends the session with every call', async () => {
    const widget = fakeWidget();
    const user = userEvent.setup();
    renderWithProviders(<LiveCoach loadCheck={widget.load} />, { path: `/produkte/${persona.slug}-ai` });
    // Nothing of it before the visitor starts the coach.
    expect(screen.queryByText(/Mensch/u)).toBeNull();
    expect(widget.rendered).toHaveLength(0);

    await user.click(voiceButton());
    await waitFor(() => expect(widget.rendered).toHaveLength(1));
    expect(widget.rendered[0]?.sitekey).toBe('1x00000000000000000000AA');
    expect(screen.getByText('Kurz bestätigen, dass du ein Mensch bist – dann antwortet der Coach.')).toBeInTheDocument();
    // The greeting waits for the check.
    expect(posts('/tts')).toHaveLength(0);

    widget.rendered[0]?.callback('XXXX.DUMMY.TOKEN.XXXX');
    await waitFor(() => expect(posts('/tts')).toHaveLength(1));
    const signup = posts('/auth/v1/signup');
    expect(signup).toHaveLength(1);
    expect(JSON.parse(signup[0]?.body ?? '{}')).toMatchObject({ gotrue_meta_security: { captcha_token: 'XXXX.DUMMY.TOKEN.XXXX' } });
    expect(posts('/tts')[0]?.headers.get('authorization')).toBe(`Bearer ${SESSION_TOKEN}`);

    await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.ready));
    await user.type(screen.getByRole('textbox', { name: coachTexts.chat.inputLabel }), 'Wie schlafe ich besser?{Enter}');
    await waitFor(() => expect(posts('/chat/completions')).toHaveLength(1));
    expect(posts('/chat/completions')[0]?.headers.get('authorization')).toBe(`Bearer ${SESSION_TOKEN}`);
    // One sign-in for the whole conversation.
    expect(posts('/auth/v1/signup')).toHaveLength(1);
  });
});
