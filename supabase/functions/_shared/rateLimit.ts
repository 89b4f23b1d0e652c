/**
 * Per-client rate limiting inside one function instance (a sliding window of request times per
 * client). The client is the first address in X-Forwarded-For, which Supabase's gateway (and the
 * local stack) set; requests without it share one bucket. An edge function instance is one of
 * possibly several, so this bounds abuse per instance rather than globally.
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

export function clientKey(request: Request): string {
  return request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown';
}

/** A positive integer from the environment, or the fallback. */
export function limitFromEnv(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}
