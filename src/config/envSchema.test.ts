import { parseEnv } from './envSchema';

describe('build-time environment', () => {
  it('defaults every value to a working local setup', () => {
    const env = parseEnv({});
    expect(env.VITE_SUPABASE_URL).toBe('http://127.0.0.1:54321');
    expect(env.VITE_SUPABASE_ANON_KEY.split('.')).toHaveLength(3);
    expect(env.VITE_BOOKING_URL).toMatch(/^https:\/\//);
    expect(env.VITE_CONTACT_EMAIL).toContain('@');
  });

  it('follows a changed local stack port', () => {
    expect(parseEnv({ SUPABASE_LOCAL_PORT: '6000' }).VITE_SUPABASE_URL).toBe('http://127.0.0.1:6000');
    expect(parseEnv({ SUPABASE_LOCAL_PORT: '6000', VITE_SUPABASE_URL: 'https://x.supabase.co' }).VITE_SUPABASE_URL).toBe(
      'https://x.supabase.co',
    );
  });

  it('treats empty values as unset', () => {
    expect(parseEnv({ VITE_CONTACT_EMAIL: '' }).VITE_CONTACT_EMAIL).toBe('kontakt@example.com');
  });

  it('names the variable that is wrong', () => {
    expect(() => parseEnv({ VITE_BOOKING_URL: 'not a url' })).toThrow(/VITE_BOOKING_URL/);
    expect(() => parseEnv({ VITE_CONTACT_EMAIL: 'nobody' })).toThrow(/VITE_CONTACT_EMAIL/);
    expect(() => parseEnv({ VITE_SUPABASE_ANON_KEY: 'sk-secret' })).toThrow(/VITE_SUPABASE_ANON_KEY/);
  });
});
