// Deno entry on Supabase; the local stack imports handler.ts directly.
import { handle } from './handler.ts';

Deno.serve((request) => handle(request, Deno.env.toObject()));
