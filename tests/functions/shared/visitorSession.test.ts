/**
 * Whose session a request carries (supabase/functions/_shared/visitorSession.ts): only a signed-in
 * user's access token counts (an anonymous visitor's included), never the anon or service key.
 */
import { describe, expect, it } from 'vitest';
import { sessionRequired, visitorSession } from '../../../supabase/functions/_shared/visitorSession';
import { LOCAL_ANON_KEY, LOCAL_JWT_SECRET, LOCAL_SERVICE_ROLE_KEY } from '../../../supabase/local/config';
import { signJwt } from '../../../supabase/local/jwt';

const now = 1_900_000_000;
const withToken = (token: string) => new Request('http://function.test/tts', { headers: { authorization: `Bearer ${token}` } });
const user = '00000000-0000-4000-8000-00000000ABCD';

describe('visitorSession', () => {
  it('is the user id of a signed-in (or anonymous) user\'s token', () => {
    const token = signJwt({ role: 'authenticated', sub: user, exp: now + 60, is_anonymous: true }, LOCAL_JWT_SECRET);
    expect(visitorSession(withToken(token), now)).toBe(`session:${user.toLowerCase()}`);
  });

  it('is nobody for the anon key, the service key, an expired or odd token, or none', () => {
    expect(visitorSession(withToken(LOCAL_ANON_KEY), now)).toBeNull();
    expect(visitorSession(withToken(LOCAL_SERVICE_ROLE_KEY), now)).toBeNull();
    expect(visitorSession(withToken(signJwt({ role: 'authenticated', sub: user, exp: now - 1 }, LOCAL_JWT_SECRET)), now)).toBeNull();
    expect(visitorSession(withToken(signJwt({ role: 'authenticated', sub: 'admin', exp: now + 60 }, LOCAL_JWT_SECRET)), now)).toBeNull();
    expect(visitorSession(withToken('not.a.jwt'), now)).toBeNull();
    expect(visitorSession(new Request('http://function.test/tts'), now)).toBeNull();
  });

  it('is required exactly where the operator set Turnstile\'s secret', () => {
    expect(sessionRequired({})).toBe(false);
    expect(sessionRequired({ TURNSTILE_SECRET_KEY: ' ' })).toBe(false);
    expect(sessionRequired({ TURNSTILE_SECRET_KEY: '1x0000000000000000000000000000000AA' })).toBe(true);
  });
});
