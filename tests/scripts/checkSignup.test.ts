/**
 * npm run check:signup against the local stack, which refuses sign-ups as GoTrue does: closed by
 * default, and with Turnstile closed to e-mail sign-ups (behind the CAPTCHA and the hook).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TURNSTILE_TEST_SECRETS } from '../../supabase/local/auth/captcha';
import { LOCAL_ANON_KEY } from '../../supabase/local/config';
import { checkSignup } from '../../scripts/check-signup';
import { startHarness, type Harness } from '../local/harness';

describe('check:signup', () => {
  let closed: Harness;
  let turnstile: Harness;
  beforeAll(async () => {
    [closed, turnstile] = await Promise.all([startHarness(), startHarness({ captchaSecret: TURNSTILE_TEST_SECRETS.passes })]);
  });
  afterAll(async () => {
    await Promise.all([closed.close(), turnstile.close()]);
  });

  it('finds sign-up closed on the local stack', async () => {
    const result = await checkSignup(closed.url, LOCAL_ANON_KEY);
    expect(result).toMatchObject({ verdict: 'closed', status: 422, code: 'signup_disabled', settings: { disableSignup: true, anonymousUsers: false } });
  });

  it('finds it behind the CAPTCHA with Turnstile, anonymous sign-ins on, and says which hook must be on', async () => {
    const result = await checkSignup(turnstile.url, LOCAL_ANON_KEY);
    expect(result).toMatchObject({ verdict: 'behind-captcha', status: 400, code: 'captcha_failed', settings: { disableSignup: false, anonymousUsers: true } });
    expect(result.lines.at(-1)).toContain('public.only_anonymous_sign_ups');
  });
});
