/** Filters (`col=op.value`) and `and`/`or` trees, the operators the app's calls send. */
import { notSupported } from '../errors';
import { Cursor, parseFieldName, parseQuoted } from './cursor';

/** The comparisons supabase-js's eq/neq/gt/gte/lt/lte/like/ilike send. */
export type CompareOp = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'like' | 'ilike';

type Operation =
  | { kind: 'compare'; op: CompareOp; value: string }
  | { kind: 'in'; values: string[] }
  | { kind: 'is'; value: 'null' | 'not_null' | 'true' | 'false' | 'unknown' };

export interface Filter {
  column: string;
  negated: boolean;
  operation: Operation;
}

export type LogicTree = { kind: 'filter'; filter: Filter } | { kind: 'logic'; negated: boolean; op: 'and' | 'or'; children: LogicTree[] };

const compareOps: readonly string[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike'];
/**
 * PostgREST operators the app never sends (full text search, ranges and arrays, regular
 * expressions, isdistinct): refused as not supported instead of half implemented.
 */
const unsupportedOps: readonly string[] = [
  'fts', 'plfts', 'phfts', 'wfts', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj', 'match', 'imatch', 'isdistinct',
];

function parseListValue(cursor: Cursor): string[] {
  cursor.skipSpaces();
  cursor.expect('(');
  cursor.skipSpaces();
  const values: string[] = [];
  for (;;) {
    if (cursor.peek() === '"') {
      const save = cursor.pos;
      const quoted = parseQuoted(cursor);
      if (cursor.peek() === ',' || cursor.peek() === ')') {
        values.push(quoted);
      } else {
        cursor.pos = save;
        values.push(readUntil(cursor, ',)'));
      }
    } else {
      values.push(readUntil(cursor, ',)'));
    }
    if (cursor.peek() === ',') {
      cursor.pos += 1;
      continue;
    }
    break;
  }
  cursor.skipSpaces();
  cursor.expect(')', '"," or ")"');
  cursor.skipSpaces();
  // PostgREST's list grammar (sepBy1) always yields one element; "in.()" means the empty list.
  return values.length === 1 && values[0] === '' ? [] : values;
}

function readUntil(cursor: Cursor, stops: string): string {
  const start = cursor.pos;
  while (!cursor.atEnd() && !stops.includes(cursor.peek())) cursor.pos += 1;
  return cursor.text.slice(start, cursor.pos);
}

/** The value grammar of filters inside and/or: quoted, {array}, or up to the next , or ). */
function parseLogicValue(cursor: Cursor): string {
  if (cursor.peek() === '"') {
    const save = cursor.pos;
    const quoted = parseQuoted(cursor);
    if (cursor.atEnd() || cursor.peek() === ',' || cursor.peek() === ')') return quoted;
    cursor.pos = save;
  }
  if (cursor.peek() === '{') {
    const end = cursor.text.indexOf('}', cursor.pos);
    const inner = end === -1 ? '' : cursor.text.slice(cursor.pos + 1, end);
    if (end !== -1 && !inner.includes('{')) {
      cursor.pos = end + 1;
      return `{${inner}}`;
    }
  }
  return readUntil(cursor, ',)');
}

function parseOperation(cursor: Cursor, inLogic: boolean): { negated: boolean; operation: Operation } {
  let negated = false;
  if (cursor.startsWith('not.')) {
    negated = true;
    cursor.pos += 4;
  }
  const readValue = () => (inLogic ? parseLogicValue(cursor) : (() => {
    const value = cursor.text.slice(cursor.pos);
    cursor.pos = cursor.text.length;
    return value;
  })());
  const wordMatch = /^[a-z]+/.exec(cursor.text.slice(cursor.pos));
  const word = wordMatch?.[0] ?? '';
  const expectingOperator = '"not" or operator (eq, gt, ...)';

  if (word === 'in') {
    cursor.pos += 2;
    cursor.expect('.', 'delimiter (.)');
    return { negated, operation: { kind: 'in', values: parseListValue(cursor) } };
  }
  if (word === 'is') {
    cursor.pos += 2;
    cursor.expect('.', 'delimiter (.)');
    const rest = cursor.text.slice(cursor.pos);
    const isMatch = /^(null|not_null|true|false|unknown)/i.exec(rest);
    if (!isMatch?.[1]) cursor.fail('isVal: (null, not_null, true, false, unknown)');
    cursor.pos += isMatch[1].length;
    return { negated, operation: { kind: 'is', value: isMatch[1].toLowerCase() as 'null' } };
  }
  if (unsupportedOps.includes(word)) throw notSupported(`the operator "${word}"`);
  if (compareOps.includes(word)) {
    cursor.pos += word.length;
    if (cursor.startsWith('(any)') || cursor.startsWith('(all)')) throw notSupported('the quantifiers (any) and (all)');
    cursor.expect('.', 'delimiter (.)');
    return { negated, operation: { kind: 'compare', op: word as CompareOp, value: readValue() } };
  }
  return cursor.fail(expectingOperator);
}

export function parseFilterValue(column: string, raw: string): Filter {
  const cursor = new Cursor(raw, 'filter');
  const { negated, operation } = parseOperation(cursor, false);
  if (!cursor.atEnd()) cursor.fail('end of input');
  return { column, negated, operation };
}

export function parseLogic(key: string, raw: string): LogicTree {
  const negated = key.startsWith('not.');
  const op = (negated ? key.slice(4) : key) as 'and' | 'or';
  const cursor = new Cursor(`${op}${raw}`, 'logic tree');
  cursor.pos = op.length;
  const children = parseLogicChildren(cursor);
  if (!cursor.atEnd()) cursor.fail('end of input');
  return { kind: 'logic', negated, op, children };
}

function parseLogicChildren(cursor: Cursor): LogicTree[] {
  cursor.skipSpaces();
  cursor.expect('(');
  const children: LogicTree[] = [];
  for (;;) {
    cursor.skipSpaces();
    children.push(parseLogicNode(cursor));
    cursor.skipSpaces();
    if (cursor.peek() === ',') {
      cursor.pos += 1;
      continue;
    }
    break;
  }
  cursor.expect(')', '"," or ")"');
  cursor.skipSpaces();
  return children;
}

function parseLogicNode(cursor: Cursor): LogicTree {
  const save = cursor.pos;
  let negated = false;
  if (cursor.startsWith('not.')) {
    negated = true;
    cursor.pos += 4;
  }
  for (const op of ['and', 'or'] as const) {
    if (cursor.startsWith(`${op}(`)) {
      cursor.pos += op.length;
      return { kind: 'logic', negated, op, children: parseLogicChildren(cursor) };
    }
  }
  cursor.pos = save;
  const column = parseFieldName(cursor);
  if (cursor.startsWith('->')) cursor.fail('delimiter (.) (JSON paths are not available here)');
  cursor.expect('.', 'delimiter (.)');
  const { negated: opNegated, operation } = parseOperation(cursor, true);
  return { kind: 'filter', filter: { column, negated: opNegated, operation } };
}
