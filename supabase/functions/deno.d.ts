/**
 * The slice of the Deno runtime the function entry points (`<name>/index.ts`) use. The handlers
 * themselves are runtime-neutral; only the entries touch `Deno`, and the repo's typecheck runs with
 * Node types, so this declares just enough for them to compile there without pulling in Deno's lib.
 */
declare namespace Deno {
  function serve(handler: (request: Request) => Response | Promise<Response>): unknown;
  function upgradeWebSocket(request: Request): { socket: WebSocket; response: Response };
  const env: {
    toObject(): Record<string, string>;
  };
}
