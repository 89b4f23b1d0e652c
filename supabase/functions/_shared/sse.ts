/**
 * Server-sent events as OpenAI-compatible APIs use them: only `data:` fields matter, one JSON
 * document (or `[DONE]`) per event. Read with plain streams so Deno and Node run it unchanged.
 */

/** One SSE event carrying `data`. */
export function sseEvent(data: string): string {
  return `data: ${data}\n\n`;
}

/**
 * The `data` of each event in an SSE body, as the events complete. Multi-line data is joined with
 * '\n' as the SSE spec says; comments (`: keep-alive`) and other fields are skipped. Stopping the
 * iteration early cancels the body, which closes the upstream connection.
 */
export async function* readSseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = buffer.split(/\r\n|\r|\n/u);
      // The last piece may be a line still arriving; at the end it is complete.
      buffer = done ? '' : (lines.pop() ?? '');
      if (done && lines.at(-1) !== '') lines.push('');
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) yield data.join('\n');
          data = [];
        } else if (line.startsWith('data:')) {
          data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
        }
      }
      if (done) return;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
