/**
 * Knowledge search benchmark: search_knowledge() over 20,000 passages, on PGlite (the local stack's
 * engine, the default) or on a real PostgreSQL 15 server with its default settings, JIT on, as
 * Supabase runs it (`-- --engine postgres`: a throwaway cluster, scripts/postgresCluster.ts).
 *
 * The corpus imitates German text (scripts/searchBenchCorpus.ts): Zipf-distributed words over more
 * than 20,000 German word forms, the same on every run.
 *
 * Prints p50/p95/p99 latency of 200 natural German questions, the CPU time the engine spent on
 * them (this process for PGlite, the server's backend process for PostgreSQL), how many passages
 * each question shares at least one term with (the rows a plain OR search would have to rank), and
 * every notice the server sent with the searches (a client would receive them too).
 * Budget: p95 <= 15 ms on either engine. Run with `npm run bench:search [-- --engine postgres]`.
 *
 * `npm run bench:search -- --vectors` measures the hybrid search instead: every passage gets an
 * embedding (the fake OpenAI server's deterministic 1536-dimension embeddings, the real HNSW index)
 * and every question is searched with its embedding, as the coach does with a key.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

import { ENGINES, type Engine, count, openBenchDatabase } from './benchDatabase';
import { PASSAGES, ZIPF_EXPONENT, benchCorpus, loadCorpus, vectorText } from './searchBenchCorpus';

const { values: options } = parseArgs({
  options: { vectors: { type: 'boolean', default: false }, engine: { type: 'string', default: 'pglite' } },
});
const withVectors = options.vectors;
const isEngine = (name: string): name is Engine => (ENGINES as readonly string[]).includes(name);

const BUDGET_P95_MS = 15;

function percentile(sorted: readonly number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

function format(ms: number): string {
  return `${ms.toFixed(2)} ms`;
}

async function main(): Promise<void> {
  const started = performance.now();
  const { passages, questions, warmUpQuestions, averageChars, distinctForms } = benchCorpus();

  if (!isEngine(options.engine)) throw new Error(`--engine must be one of ${ENGINES.join(', ')}`);
  const db = await openBenchDatabase(options.engine);
  try {
    await loadCorpus(db, passages, withVectors);
    const loaded = performance.now();
    const lexemes = await db.query(
      'select count(*)::int as lexemes from ts_stat($$select fts from public.document_chunks$$)',
    );

    // As the coach function calls it: one transaction per request, as the service role.
    const search = async (question: string): Promise<{ wall: number; cpu: number; rows: number }> =>
      db.asService(async (tx) => {
        const cpuBefore = db.cpuMilliseconds();
        const begin = performance.now();
        const result = withVectors
          ? await tx.query('select * from public.search_knowledge($1, 5, null, $2::extensions.vector)', [question, vectorText(question)])
          : await tx.query('select * from public.search_knowledge($1, 5)', [question]);
        const wall = performance.now() - begin;
        return { wall, cpu: db.cpuMilliseconds() - cpuBefore, rows: result.rows.length };
      });

    for (const question of warmUpQuestions) await search(question);
    const warmUpNotices = db.notices.splice(0).length;

    const timings: number[] = [];
    const cpuTimings: number[] = [];
    const returned: number[] = [];
    for (const question of questions) {
      const { wall, cpu, rows } = await search(question);
      timings.push(wall);
      cpuTimings.push(cpu);
      returned.push(rows);
    }

    // Counted after timing: a query as another role in between would make Postgres re-plan the
    // function's statements (plans on tables with row level security depend on the role).
    const matched: number[] = [];
    for (const question of questions) {
      const counts = await db.query(
        `select count(*)::int as any_term from public.document_chunks c
          where c.fts @@ (
            select string_agg(format('''%s''', replace(replace(v.lexeme, '\\', '\\\\'), '''', '''''')), ' | ')::tsquery
              from unnest(to_tsvector('german', $1)) as v
          )`,
        [question],
      );
      matched.push(count(counts, 'any_term'));
    }

    const sortedTimings = [...timings].sort((a, b) => a - b);
    const sortedCpu = [...cpuTimings].sort((a, b) => a - b);
    const sortedMatched = [...matched].sort((a, b) => a - b);
    const p95 = percentile(sortedTimings, 95);
    const notices = new Map<string, number>();
    for (const notice of db.notices) notices.set(notice, (notices.get(notice) ?? 0) + 1);
    const lines = [
      `engine: ${db.description}`,
      `corpus: ${PASSAGES} passages, avg ${averageChars.toFixed(0)} chars, ${distinctForms} distinct word forms, ` +
        `${String(count(lexemes, 'lexemes'))} distinct lexemes after German stemming (Zipf s=${ZIPF_EXPONENT}); ` +
        `loaded in ${((loaded - started) / 1000).toFixed(1)} s`,
      `questions: ${questions.length}, e.g. "${questions[0] ?? ''}", "${questions[1] ?? ''}"`,
      `search_knowledge(question, 5${withVectors ? ', null, embedding' : ''}) latency: p50 ${format(percentile(sortedTimings, 50))}, ` +
        `p95 ${format(p95)}, p99 ${format(percentile(sortedTimings, 99))}, max ${format(sortedTimings.at(-1) ?? Number.NaN)}`,
      // On a shared machine wall time includes waiting for a core; CPU time shows the work itself.
      `  CPU time of the same calls: p50 ${format(percentile(sortedCpu, 50))}, p95 ${format(percentile(sortedCpu, 95))}, ` +
        `p99 ${format(percentile(sortedCpu, 99))} (load average ${loadavg()[0]?.toFixed(1) ?? '?'} on ${availableParallelism()} cores)`,
      `passages sharing a term with the question: min ${sortedMatched[0] ?? 0}, ` +
        `median ${percentile(sortedMatched, 50)}, max ${sortedMatched.at(-1) ?? 0}`,
      `questions with fewer than 5 results: ${returned.filter((count) => count < 5).length}`,
      `notices sent to the client: ${String(db.notices.length)} with the measured questions, ${String(warmUpNotices)} with the warm-up` +
        [...notices].slice(0, 3).map(([text, count]) => `\n  ${String(count)}× ${text.slice(0, 120)}`).join(''),
      `budget p95 <= ${BUDGET_P95_MS} ms: ${p95 <= BUDGET_P95_MS ? 'met' : 'MISSED'} ` +
        `(total ${((performance.now() - started) / 1000).toFixed(1)} s)`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (p95 > BUDGET_P95_MS) process.exitCode = 1;
  } finally {
    await db.close();
  }
}

await main();
