/** The `select` parameter: columns, aliases and casts (no embedded resources, no aggregates). */
import { aggregatesNotAllowed } from '../errors';
import { Cursor, parseFieldName } from './cursor';

interface SelectField {
  kind: 'field';
  name: string;
  alias: string | null;
  cast: string | null;
}
export type SelectItem = { kind: 'star' } | SelectField;

export function parseSelect(raw: string): SelectItem[] {
  const cursor = new Cursor(raw, 'select parameter');
  cursor.skipSpaces();
  if (cursor.atEnd()) return [];
  return cursor.list(() => parseSelectItem(cursor));
}

function parseSelectItem(cursor: Cursor): SelectItem {
  if (cursor.startsWith('...')) {
    cursor.fail('a column (embedded resources are not available here)', '"..."');
  }
  if (cursor.peek() === '*') {
    cursor.pos += 1;
    cursor.skipSpaces();
    if (!cursor.atEnd() && cursor.peek() !== ',') cursor.fail('"," or end of input');
    return { kind: 'star' };
  }
  let alias: string | null = null;
  let name = parseFieldName(cursor);
  if (cursor.peek() === ':' && cursor.peek(1) !== ':') {
    cursor.pos += 1;
    alias = name;
    if (cursor.startsWith('count()')) throw aggregatesNotAllowed();
    name = parseFieldName(cursor);
  }
  if (name === 'count' && cursor.startsWith('()')) throw aggregatesNotAllowed();
  if (cursor.peek() === '(' || cursor.peek() === '!') {
    cursor.fail('"," or end of input (embedded resources are not available here)');
  }
  if (cursor.startsWith('->')) cursor.fail('"," or end of input (JSON paths are not available here)');
  let cast: string | null = null;
  if (cursor.startsWith('::')) {
    cursor.pos += 2;
    const start = cursor.pos;
    while (!cursor.atEnd() && /[A-Za-z0-9_ ]/.test(cursor.peek())) cursor.pos += 1;
    cast = cursor.text.slice(start, cursor.pos).trim();
    if (cast === '') cursor.fail('type name');
  }
  if (cursor.peek() === '.' && /^\.(sum|avg|count|max|min)\(\)/.test(cursor.text.slice(cursor.pos))) {
    throw aggregatesNotAllowed();
  }
  cursor.skipSpaces();
  if (!cursor.atEnd() && cursor.peek() !== ',') cursor.fail('"," or end of input');
  return { kind: 'field', name, alias, cast };
}
