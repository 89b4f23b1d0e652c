/**
 * The built site's Content-Security-Policy (scripts/csp.ts): the Supabase project's origin for
 * fetch and realtime, and Cloudflare's Turnstile only in a build with its site key.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deploymentCsp } from '../../scripts/csp';

const headers = readFileSync(new URL('../../public/_headers', import.meta.url), 'utf8');
const policy = (text: string) => /Content-Security-Policy: (.*)/u.exec(text)?.[1] ?? '';
const directive = (text: string, name: string) => policy(text).split('; ').find((part) => part.startsWith(`${name} `)) ?? null;

describe('the deployed CSP', () => {
  it('names no third party without a Turnstile site key', () => {
    const built = deploymentCsp(headers, { supabaseUrl: 'https://abcd.supabase.co', turnstile: false });
    expect(directive(built, 'connect-src')).toBe("connect-src 'self' https://abcd.supabase.co wss://abcd.supabase.co");
    expect(directive(built, 'script-src')).toBe("script-src 'self'");
    expect(directive(built, 'frame-src')).toBeNull();
    expect(policy(built)).not.toContain('cloudflare');
  });

  it('lets Turnstile\'s script and frame in with the key, and nothing else more', () => {
    const built = deploymentCsp(headers, { supabaseUrl: 'https://abcd.supabase.co', turnstile: true });
    expect(directive(built, 'script-src')).toBe("script-src 'self' https://challenges.cloudflare.com");
    expect(directive(built, 'frame-src')).toBe('frame-src https://challenges.cloudflare.com');
    expect(directive(built, 'frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(directive(built, 'default-src')).toBe("default-src 'self'");
  });
});
