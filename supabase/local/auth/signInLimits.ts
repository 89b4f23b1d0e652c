/**
 * Slows down guessing passwords on `POST /auth/v1/token?grant_type=password`.
 *
 * GoTrue (supabase/auth, internal/api/token.go and internal/api/apilimiter/apilimiter.go) limits
 * `/token` with a tollbooth token bucket per client address: GOTRUE_RATE_LIMIT_TOKEN_REFRESH
 * requests per 5 minutes (default 150, i.e. 0.5 a second; `[auth.rate_limit] token_refresh` in
 * config.toml), a burst of 30, entries kept for an hour. Over it, performRateLimiting
 * (internal/api/middleware.go) answers `apierrors.NewTooManyRequestsError(
 * ErrorCodeOverRequestRateLimit, "Request rate limit reached")`: 429 with
 * `{"code":429,"error_code":"over_request_rate_limit","msg":"Request rate limit reached"}`.
 *
 * Locally every caller (the operator's browser, the tests, the scripts) is on loopback, so a limit
 * on every request would throttle the sign-ins that succeed. The same buckets therefore count only
 * attempts that fail: each attempt takes a token from the bucket of its address and from the
 * bucket of its e-mail address before the password is checked (so parallel guesses cannot all
 * slip through), and a successful sign-in gives both back. The bucket per e-mail address, which
 * GoTrue does not have, keeps guesses spread over many addresses at the same pace.
 *
 * The e-mail bucket must not let a guesser lock the account's owner out: an address from which
 * the account has signed in before (./knownAddresses.ts) takes no token from it. A guesser cannot
 * make an address known without the password, so guesses from new addresses stay limited, while
 * the owner, signing in from an address they used before, only ever meets their own address's
 * bucket.
 */

/** GoTrue's defaults: 150 per 5 minutes, burst 30. */
export const SIGN_IN_RATE_PER_5_MINUTES = 150;
export const SIGN_IN_BURST = 30;
/** Buckets beyond this many are pruned of those that have refilled (as if never used). */
const PRUNE_ABOVE = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

export interface TokenBuckets {
  /** Takes one token from `key`'s bucket; false (nothing taken) when it is empty. */
  take(key: string): boolean;
  /** Gives back a token taken by `take`. */
  giveBack(key: string): void;
}

export function createTokenBuckets(ratePerSecond: number, burst: number, now: () => number = Date.now): TokenBuckets {
  const buckets = new Map<string, Bucket>();

  function level(bucket: Bucket | undefined, at: number): number {
    if (!bucket) return burst;
    return Math.min(burst, bucket.tokens + ((at - bucket.at) / 1000) * ratePerSecond);
  }

  function prune(at: number): void {
    if (buckets.size <= PRUNE_ABOVE) return;
    for (const [key, bucket] of buckets) if (level(bucket, at) >= burst) buckets.delete(key);
  }

  return {
    take(key) {
      const at = now();
      const tokens = level(buckets.get(key), at);
      if (tokens < 1) return false;
      buckets.set(key, { tokens: tokens - 1, at });
      prune(at);
      return true;
    },
    giveBack(key) {
      const at = now();
      const bucket = buckets.get(key);
      if (!bucket) return;
      const tokens = level(bucket, at) + 1;
      if (tokens >= burst) buckets.delete(key);
      else buckets.set(key, { tokens, at });
    },
  };
}

export interface SignInLimits {
  /**
   * Reserves one attempt for this address and e-mail address (for a known address, of the
   * address only). Returns a function that gives the attempt back (call it when the sign-in
   * succeeded), or null when a bucket is empty.
   */
  reserve(address: string, email: string, options?: { knownAddress?: boolean }): (() => void) | null;
}

export function createSignInLimits({
  perFiveMinutes = SIGN_IN_RATE_PER_5_MINUTES,
  burst = SIGN_IN_BURST,
}: { perFiveMinutes?: number; burst?: number } = {}): SignInLimits {
  const byAddress = createTokenBuckets(perFiveMinutes / (60 * 5), burst);
  const byEmail = createTokenBuckets(perFiveMinutes / (60 * 5), burst);
  return {
    reserve(address, email, { knownAddress = false } = {}) {
      const emailKey = email.trim().toLowerCase();
      if (!byAddress.take(address)) return null;
      if (knownAddress) return () => byAddress.giveBack(address);
      if (!byEmail.take(emailKey)) {
        byAddress.giveBack(address);
        return null;
      }
      return () => {
        byAddress.giveBack(address);
        byEmail.giveBack(emailKey);
      };
    },
  };
}
