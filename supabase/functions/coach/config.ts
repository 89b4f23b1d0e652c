/**
 * The coach's settings from the function environment, read once per request (the environment is
 * handed in, so tests and the local stack can run several configurations side by side).
 */
import { limitFromEnv } from '../_shared/rateLimit.ts';

export interface CoachConfig {
  /** null: no language model; the coach answers from the knowledge base alone. */
  openai: { apiKey: string; baseUrl: string; model: string } | null;
  /** Requests per minute per client. */
  rateLimit: number;
  /** Open questions one client may add (or count again) per day. */
  openQuestionsPerDay: number;
}

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_OPENAI_MODEL = 'gpt-4-turbo-preview';
const DEFAULT_RATE_LIMIT = 30;
const DEFAULT_OPEN_QUESTIONS_PER_DAY = 10;

export function coachConfig(env: Record<string, string>): CoachConfig {
  const apiKey = env.OPENAI_API_KEY?.trim() ?? '';
  const baseUrl = (env.OPENAI_BASE_URL?.trim() || DEFAULT_OPENAI_BASE_URL).replace(/\/+$/u, '');
  const model = env.OPENAI_MODEL?.trim() || DEFAULT_OPENAI_MODEL;
  return {
    openai: apiKey === '' ? null : { apiKey, baseUrl, model },
    rateLimit: limitFromEnv(env.COACH_RATE_LIMIT, DEFAULT_RATE_LIMIT),
    openQuestionsPerDay: limitFromEnv(env.OPEN_QUESTIONS_DAILY_LIMIT, DEFAULT_OPEN_QUESTIONS_PER_DAY),
  };
}
