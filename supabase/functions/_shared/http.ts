/** Small response helpers shared by the functions; every answer carries the CORS headers. */
import { corsHeaders } from './cors.ts';

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders(), 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** An error in the shape the openai SDK and our services read: `{ error: { message, code } }`. */
export function errorResponse(status: number, message: string, code: string, headers: Record<string, string> = {}): Response {
  return json(status, { error: { message, code } }, headers);
}

/** Reads a JSON body, or null when it is missing or not JSON. */
export async function readJson(request: Request): Promise<unknown> {
  try {
    return (await request.json()) as unknown;
  } catch {
    return null;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
