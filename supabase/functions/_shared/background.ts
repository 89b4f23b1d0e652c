/**
 * Work that outlives its response. On Supabase an instance may be stopped once its response has
 * been sent, unless the work is handed to `EdgeRuntime.waitUntil` (Supabase's background tasks);
 * the local stack's functions host provides the same call and waits for such work before it
 * closes. Where neither exists the promise simply runs on.
 */
interface EdgeRuntimeLike {
  waitUntil?: (task: Promise<unknown>) => void;
}

export function inBackground(task: Promise<unknown>): void {
  const runtime = (globalThis as { EdgeRuntime?: EdgeRuntimeLike }).EdgeRuntime;
  runtime?.waitUntil?.(task);
}
