/**
 * What the admin-only `system-settings` function says about the providers
 * (supabase/functions/system-settings/providerStatus.ts, _shared/maskKey.ts): configured or not,
 * and keys masked so that an answer never carries one. The function over HTTP, who may call it and
 * the tts cache it clears: tests/local/systemSettings.test.ts.
 */
import { describe, expect, it } from 'vitest';

import { maskKey } from '../../../supabase/functions/_shared/maskKey.ts';
import { systemSettings } from '../../../supabase/functions/system-settings/providerStatus.ts';

const ELEVENLABS_KEY = 'sk_9f8e7d6c5b4a39281706f5e4d3c2b1a0b5c2';

describe('provider status', () => {
  it('counts the voice as configured only with key and voice id', () => {
    expect(systemSettings({ ELEVENLABS_API_KEY: ELEVENLABS_KEY }).voice).toEqual({ configured: false, masked: 'sk_…b5c2' });
    expect(systemSettings({ ELEVENLABS_VOICE_ID: 'voice' }).voice).toEqual({ configured: false, masked: null });
    expect(systemSettings({ OPENAI_API_KEY: '   ' }).languageModel).toEqual({ configured: false, masked: null });
  });

  it('masks keys: vendor prefix within the first four characters, the last four, short keys only two', () => {
    expect(maskKey('sk-proj-AbCd1234x7Qa')).toBe('sk-…x7Qa');
    expect(maskKey('sk_0123456789abcdef')).toBe('sk_…cdef');
    // No separator within the first four characters: no prefix (ElevenLabs' older hex keys).
    expect(maskKey('0123456789abcdef0123456789abcdef')).toBe('…cdef');
    expect(maskKey('abcde-fghijklmnop')).toBe('…mnop');
    expect(maskKey('short-key')).toBe('…ey');
    expect(maskKey('abcdefghijk')).toBe('…jk');
  });
});
