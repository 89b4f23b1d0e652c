/**
 * What the admin's "Systemeinstellungen" tab shows about the provider keys: whether each provider
 * is configured and a masked form of its key. The keys themselves never leave the function.
 */
import { maskKey } from '../_shared/maskKey.ts';

export interface ProviderStatus {
  configured: boolean;
  masked: string | null;
}

export interface SystemSettings {
  languageModel: ProviderStatus;
  voice: ProviderStatus;
}

function present(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

export function systemSettings(env: Record<string, string>): SystemSettings {
  const openAiKey = present(env.OPENAI_API_KEY);
  const elevenLabsKey = present(env.ELEVENLABS_API_KEY);
  return {
    // Without a key the coach answers from the knowledge base alone, so the key alone decides.
    languageModel: { configured: openAiKey !== null, masked: openAiKey && maskKey(openAiKey) },
    // The voice needs both key and voice id (the tts function answers 'not configured' otherwise);
    // a key without voice id is still shown, so the operator sees which half is missing.
    voice: {
      configured: elevenLabsKey !== null && present(env.ELEVENLABS_VOICE_ID) !== null,
      masked: elevenLabsKey && maskKey(elevenLabsKey),
    },
  };
}
