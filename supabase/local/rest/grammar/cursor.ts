/** A position in a query string value, with PostgREST's parse errors (QueryParams.hs). */
import { parseError } from '../errors';


export class Cursor {
  pos = 0;
  constructor(
    readonly text: string,
    readonly what: string,
  ) {}

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  peek(offset = 0): string {
    return this.text.charAt(this.pos + offset);
  }

  startsWith(token: string): boolean {
    return this.text.startsWith(token, this.pos);
  }

  skipSpaces(): void {
    while (!this.atEnd() && /\s/.test(this.peek())) this.pos += 1;
  }

  fail(expecting: string, unexpected?: string): never {
    const found = unexpected ?? (this.atEnd() ? 'end of input' : JSON.stringify(this.peek()));
    throw parseError(this.what, this.text, this.pos + 1, `unexpected ${found} expecting ${expecting}`);
  }

  expect(token: string, expecting = JSON.stringify(token)): void {
    if (!this.startsWith(token)) this.fail(expecting);
    this.pos += token.length;
  }

  /** The first of `words` the text continues with (and moves past it), or null. */
  take<W extends string>(words: readonly W[]): W | null {
    const word = words.find((candidate) => this.startsWith(candidate)) ?? null;
    if (word !== null) this.pos += word.length;
    return word;
  }

  /** Items separated by commas up to the end of the text, with spaces around each. */
  list<T>(parseItem: () => T): T[] {
    const items: T[] = [];
    for (;;) {
      this.skipSpaces();
      items.push(parseItem());
      this.skipSpaces();
      if (this.atEnd()) return items;
      if (this.peek() !== ',') this.fail('"," or end of input');
      this.pos += 1;
    }
  }
}

const identifierChar = /[\p{L}\p{N}_ $]/u;

export function parseQuoted(cursor: Cursor): string {
  cursor.expect('"');
  let value = '';
  for (;;) {
    if (cursor.atEnd()) cursor.fail('"\\"" (end of quoted value)');
    const char = cursor.peek();
    cursor.pos += 1;
    if (char === '"') return value;
    if (char === '\\') {
      if (cursor.atEnd()) cursor.fail('escaped character');
      value += cursor.peek();
      cursor.pos += 1;
    } else {
      value += char;
    }
  }
}

/** A field name: "quoted", or identifier characters (letters, digits, _, space, $) joined by dashes. */
export function parseFieldName(cursor: Cursor): string {
  if (cursor.peek() === '"') return parseQuoted(cursor);
  const start = cursor.pos;
  for (;;) {
    const begin = cursor.pos;
    while (!cursor.atEnd() && identifierChar.test(cursor.peek())) cursor.pos += 1;
    if (cursor.pos === begin) {
      cursor.pos = begin;
      cursor.fail('field name (* or [a..z0..9_$])');
    }
    if (cursor.peek() === '-' && cursor.peek(1) !== '>' && identifierChar.test(cursor.peek(1))) {
      cursor.pos += 1;
      continue;
    }
    break;
  }
  return cursor.text
    .slice(start, cursor.pos)
    .split('-')
    .map((part) => part.trim())
    .join('-');
}
