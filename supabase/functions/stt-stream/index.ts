// Deno entry on Supabase; the local stack imports handler.ts directly and gives it a `ws`-based runtime.
import { standardSocketRuntime } from '../_shared/webSocket.ts';
import { handle } from './handler.ts';

const runtime = standardSocketRuntime((request) => Deno.upgradeWebSocket(request));

Deno.serve((request) => handle(request, Deno.env.toObject(), runtime));
