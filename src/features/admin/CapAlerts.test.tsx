import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../tests/support/browser/render';
import { CapAlerts } from './CapAlerts';

/** The system-settings function's usage answer, as far as these tests need it. */
function usage(today: Record<string, number>, alerts: { kind: string; threshold: number }[] = [], clients = { modelTokens: 3, ttsCharacters: 1, sttSeconds: 0 }) {
  return {
    caps: { modelTokens: 1_000_000, ttsCharacters: 100_000, sttSeconds: 7200, embeddingTokens: 2_000_000 },
    today: { modelTokens: 0, ttsCharacters: 0, sttSeconds: 0, embeddingTokens: 0, ...today },
    clients,
    alerts,
    problems: [],
  };
}

function serve(body: unknown) {
  const fetch = vi.fn((input: RequestInfo | URL) => Promise.resolve(new Response(JSON.stringify(typeof input === 'string' ? body : {}), { status: 200 })));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('CapAlerts', () => {
  it('shows nothing while every cap is below 80 %', async () => {
    const fetch = serve(usage({ modelTokens: 799_999, ttsCharacters: 10 }));
    const { container } = renderWithProviders(<CapAlerts token="admin-token" />, { path: '/admin/master-dashboard' });
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    const asked = fetch.mock.calls[0]?.[0];
    expect(typeof asked === 'string' ? asked : '').toMatch(/\/functions\/v1\/system-settings\/usage$/u);
    expect(container).toBeEmptyDOMElement();
  });

  it('warns at 80 % with what was spent and by how many clients', async () => {
    serve(usage({ modelTokens: 823_456 }));
    renderWithProviders(<CapAlerts token="admin-token" />, { path: '/admin/master-dashboard' });
    const warning = await screen.findByRole('status');
    expect(warning).toHaveTextContent('Sprachmodell-Tokens: 82 % des Tageslimits verbraucht');
    expect(warning).toHaveTextContent('823.456 von 1.000.000 verbraucht, von 3 Clients.');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says a cap is reached once a request was refused for it, below the last unit, and what visitors get instead', async () => {
    serve(usage({ ttsCharacters: 97_000 }, [{ kind: 'tts_characters', threshold: 80 }, { kind: 'tts_characters', threshold: 100 }]));
    renderWithProviders(<CapAlerts token="admin-token" />, { path: '/admin/master-dashboard' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Sprachausgabe-Zeichen: Tageslimit erreicht');
    expect(alert).toHaveTextContent('97.000 von 100.000 verbraucht, von einem Client.');
    expect(alert).toHaveTextContent('Bis Mitternacht hören die Besucher die Stimme des Browsers.');
  });

  it('speaks English on the English dashboard', async () => {
    serve(usage({ sttSeconds: 7200 }, [], { modelTokens: 0, ttsCharacters: 0, sttSeconds: 12 }));
    renderWithProviders(<CapAlerts token="admin-token" />, { path: '/en/admin/master-dashboard' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Speech recognition seconds: daily cap reached7,200 of 7,200 used, by 12 clients.');
    // Without speech to text the coach still listens where the browser recognises speech itself.
    expect(alert).toHaveTextContent('Until midnight the coach listens only in browsers with their own speech recognition; typing still works.');
  });
});
