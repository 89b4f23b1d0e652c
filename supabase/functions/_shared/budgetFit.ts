/**
 * Whether each visitor budget holds what one visitor needs first: a question to the coach, the
 * greeting spoken, an utterance transcribed. A budget smaller than that would answer a new visitor
 * "paused" before anything was spent, so the configuration is reported where the operator sees
 * it, with the smallest cap that works: when the local stack starts, in each spending function's
 * log at its first request, and in the admin's Systemeinstellungen.
 *
 * One question's bound is what a new visitor's first question reserves at most in an ordinary
 * conversation: the persona, the knowledge message at its largest (five passages of 700
 * characters, the passage size of `private.document_passages`, each under a heading and a title
 * of up to 100 characters, with the rules and markers), a question of 500 characters, its
 * embedding and a full reply. Text is counted at 1.2 tokens per character: a token covers at
 * least one UTF-8 byte, and German text has fewer than 1.1 bytes per character (the starter
 * knowledge: 1.02). A longer question, or a long conversation, reserves more; that is the budget
 * doing its work, not a configuration that cannot serve anyone.
 */
import { persona, personaSystemPrompt } from './persona.ts';
import { budgetPercent, clientBudgets, networkBudgets, SPEND_ENV_SUFFIX, type VisitorSpendKind } from './spendSettings.ts';
import { promptTokenBound, TOKENS_PER_MESSAGE } from './tokenBounds.ts';

/** The most tokens the model may answer with (the seed's max_tokens). */
export const REPLY_MAX_TOKENS = 500;
/** Passages the coach sends at most (the seed's five documents). */
export const KNOWLEDGE_PASSAGES = 5;
/** The longest passage (`private.document_passages`' default max_chars). */
export const PASSAGE_MAX_CHARS = 700;
/**
 * The knowledge message's own text: its intro and rules (about 630 characters) and per passage
 * the markers (about 90) with a heading and a title of up to 100 characters each. Held above the
 * real message by tests/functions/coach/knowledge.test.ts.
 */
export const KNOWLEDGE_FRAME_CHARS = 700;
export const PASSAGE_FRAME_CHARS = 300;
/** An ordinary spoken or typed first question. */
export const ORDINARY_QUESTION_CHARS = 500;
/** Tokens per character of German text, with room to spare (see the module comment). */
const TOKENS_PER_CHAR = 1.2;

/** The most one ordinary first question reserves, in model tokens. */
export function questionBound(withEmbedding = true): number {
  const knowledgeChars = KNOWLEDGE_FRAME_CHARS + KNOWLEDGE_PASSAGES * (PASSAGE_FRAME_CHARS + PASSAGE_MAX_CHARS);
  const knowledge = Math.ceil(knowledgeChars * TOKENS_PER_CHAR);
  const question = Math.ceil(ORDINARY_QUESTION_CHARS * TOKENS_PER_CHAR);
  const prompt = promptTokenBound([{ content: personaSystemPrompt }]) + knowledge + TOKENS_PER_MESSAGE + question + TOKENS_PER_MESSAGE;
  return prompt + REPLY_MAX_TOKENS + (withEmbedding ? question : 0);
}

/** What a new visitor needs of each kind before anything else. */
export function firstNeeds(): Record<VisitorSpendKind, number> {
  return {
    model_tokens: questionBound(),
    // The greeting, spoken to every visitor when the coach starts.
    tts_characters: persona.greeting.length,
    // One utterance at its longest.
    stt_seconds: 60,
  };
}

export interface BudgetProblem {
  kind: VisitorSpendKind;
  /** Whose budget: a client's (and a session's) or a network's. */
  scope: 'client' | 'network';
  budget: number;
  needed: number;
  /** The setting that makes it fit: the smallest cap at the configured percentage, or the budget itself. */
  fix: { setting: string; value: number };
}

/** The budgets that cannot hold what a new visitor needs first, each with the setting that fixes it. */
export function budgetProblems(env: Record<string, string>): BudgetProblem[] {
  const needs = firstNeeds();
  const budgets = { client: clientBudgets(env), network: networkBudgets(env) };
  const problems: BudgetProblem[] = [];
  for (const kind of Object.keys(needs) as VisitorSpendKind[]) {
    const suffix = SPEND_ENV_SUFFIX[kind];
    const needed = needs[kind];
    for (const scope of ['client', 'network'] as const) {
      const budget = budgets[scope][kind];
      if (budget >= needed) continue;
      const prefix = scope === 'client' ? 'CLIENT_BUDGET' : 'NETWORK_BUDGET';
      // A budget set for the kind is raised itself; a share of the cap by raising the cap.
      const fix =
        (env[`${prefix}_${suffix}`]?.trim() ?? '') !== ''
          ? { setting: `${prefix}_${suffix}`, value: needed }
          : { setting: `SPEND_CAP_${suffix}`, value: Math.ceil((needed * 100) / budgetPercent(env, scope)) };
      problems.push({ kind, scope, budget, needed, fix });
    }
  }
  return problems;
}

const number = (value: number) => value.toLocaleString('en-US');

const KIND_NAMES: Record<VisitorSpendKind, string> = {
  model_tokens: 'model tokens (one question)',
  tts_characters: 'TTS characters (the greeting)',
  stt_seconds: 'STT seconds (one utterance)',
};

/** One line per problem, for a log. */
export function budgetProblemLines(env: Record<string, string>): string[] {
  return budgetProblems(env).map(
    (problem) =>
      `a ${problem.scope}'s daily budget of ${number(problem.budget)} ${KIND_NAMES[problem.kind]} is smaller than ${number(problem.needed)}: ` +
      `a new visitor would be answered "paused"; set ${problem.fix.setting} to at least ${number(problem.fix.value)}`,
  );
}

/** Configurations already reported by this instance. */
const reported = new Set<string>();

/** Logs the configuration's problems once per instance and configuration (a function's first request). */
export function reportBudgetFit(fn: string, env: Record<string, string>): void {
  const lines = budgetProblemLines(env);
  const key = lines.join('\n');
  if (lines.length === 0 || reported.has(key)) return;
  reported.add(key);
  for (const line of lines) console.warn(`[${fn}] ${line}`);
}
