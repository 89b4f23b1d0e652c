/**
 * The addresses each account has signed in from (successfully), kept for 90 days in the local
 * stack's own bookkeeping schema, so they outlast sign-outs and restarts. The sign-in limits
 * (./signInLimits.ts) exempt them from the per-e-mail bucket: someone else's wrong guesses never
 * lock the owner out. The address is the connection's, as for the sign-in buckets.
 */
import type { StackContext } from '../types';

const REMEMBERED_DAYS = 90;

export interface KnownAddresses {
  has(userId: string, address: string): Promise<boolean>;
  remember(userId: string, address: string): Promise<void>;
}

export function createKnownAddresses(ctx: StackContext): KnownAddresses {
  let ready: Promise<unknown> | null = null;
  // Created on first use: a data dir set up before this table existed gets it too.
  const table = () =>
    (ready ??= ctx.db.exec(`
      create table if not exists supabase_local.sign_in_addresses (
        user_id uuid not null references auth.users (id) on delete cascade,
        address text not null,
        last_seen timestamptz not null default now(),
        primary key (user_id, address)
      );
      comment on table supabase_local.sign_in_addresses is
        'Local stack: addresses each account signed in from; exempt from the per-e-mail sign-in limit.';
    `));
  return {
    async has(userId, address) {
      await table();
      const { rows } = await ctx.db.query(
        `select 1 from supabase_local.sign_in_addresses
          where user_id = $1 and address = $2 and last_seen > now() - make_interval(days => $3)`,
        [userId, address, REMEMBERED_DAYS],
      );
      return rows.length > 0;
    },
    async remember(userId, address) {
      await table();
      await ctx.db.query(
        `insert into supabase_local.sign_in_addresses (user_id, address) values ($1, $2)
         on conflict (user_id, address) do update set last_seen = now()`,
        [userId, address],
      );
    },
  };
}
