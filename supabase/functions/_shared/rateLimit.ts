/**
 * A sliding window of request times per client inside one function instance: the cheap first
 * filter in front of the shared limits in Postgres (guard.ts, which also decides who the client is).
 */
export interface RateLimiter {
  /** Records a request; returns the seconds to wait when the client is over its limit, else 0. */
  take(key: string, now?: number): number;
}

export function createRateLimiter(limit: number, windowMs: number): RateLimiter {
  const seen = new Map<string, number[]>();
  let lastSweep = 0;
  return {
    take(key, now = Date.now()) {
      if (now - lastSweep > windowMs) {
        for (const [client, times] of seen) if ((times.at(-1) ?? 0) <= now - windowMs) seen.delete(client);
        lastSweep = now;
      }
      const times = (seen.get(key) ?? []).filter((time) => time > now - windowMs);
      if (times.length >= limit) {
        seen.set(key, times);
        const oldest = times[0] ?? now;
        return Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
      }
      times.push(now);
      seen.set(key, times);
      return 0;
    },
  };
}

/** A positive integer from the environment, or the fallback. */
export function limitFromEnv(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}
