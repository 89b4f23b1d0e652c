import { Cursor, identifierChar, parseFieldName, parseQuoted } from './cursor';

export type QuantOp = 'eq' | 'gte' | 'gt' | 'lte' | 'lt' | 'like' | 'ilike' | 'match' | 'imatch';
export type SimpleOp = 'neq' | 'cs' | 'cd' | 'ov' | 'sl' | 'sr' | 'nxr' | 'nxl' | 'adj';
export type FtsOp = 'fts' | 'plfts' | 'phfts' | 'wfts';

export type Operation =
  | { kind: 'quant'; op: QuantOp; quantifier: 'any' | 'all' | null; value: string }
  | { kind: 'simple'; op: SimpleOp; value: string }
  | { kind: 'in'; values: string[] }
  | { kind: 'is'; value: 'null' | 'not_null' | 'true' | 'false' | 'unknown' }
  | { kind: 'isdistinct'; value: string }
  | { kind: 'fts'; op: FtsOp; language: string | null; value: string };

export interface Filter {
  column: string;
  negated: boolean;
  operation: Operation;
}

export type LogicTree = { kind: 'filter'; filter: Filter } | { kind: 'logic'; negated: boolean; op: 'and' | 'or'; children: LogicTree[] };

export const quantOps: QuantOp[] = ['eq', 'gte', 'gt', 'lte', 'lt', 'like', 'ilike', 'match', 'imatch'];
export const simpleOps: SimpleOp[] = ['neq', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj'];
export const ftsOps: FtsOp[] = ['fts', 'plfts', 'phfts', 'wfts'];

export function parseListValue(cursor: Cursor): string[] {
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

export function readUntil(cursor: Cursor, stops: string): string {
  const start = cursor.pos;
  while (!cursor.atEnd() && !stops.includes(cursor.peek())) cursor.pos += 1;
  return cursor.text.slice(start, cursor.pos);
}

/** The value grammar of filters inside and/or: quoted, {array}, or up to the next , or ). */
export function parseLogicValue(cursor: Cursor): string {
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

export function parseOperation(cursor: Cursor, inLogic: boolean): { negated: boolean; operation: Operation } {
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
  if (word === 'isdistinct') {
    cursor.pos += word.length;
    cursor.expect('.', 'delimiter (.)');
    return { negated, operation: { kind: 'isdistinct', value: readValue() } };
  }
  if ((ftsOps as string[]).includes(word)) {
    cursor.pos += word.length;
    let language: string | null = null;
    if (cursor.peek() === '(') {
      cursor.pos += 1;
      const start = cursor.pos;
      while (!cursor.atEnd() && identifierChar.test(cursor.peek())) cursor.pos += 1;
      language = cursor.text.slice(start, cursor.pos).trim();
      if (language === '') cursor.fail('text search configuration name');
      cursor.expect(')');
    }
    cursor.expect('.', 'delimiter (.)');
    return { negated, operation: { kind: 'fts', op: word as FtsOp, language, value: readValue() } };
  }
  if ((simpleOps as string[]).includes(word)) {
    cursor.pos += word.length;
    cursor.expect('.', 'delimiter (.)');
    return { negated, operation: { kind: 'simple', op: word as SimpleOp, value: readValue() } };
  }
  if ((quantOps as string[]).includes(word)) {
    cursor.pos += word.length;
    let quantifier: 'any' | 'all' | null = null;
    if (cursor.startsWith('(any)')) quantifier = 'any';
    else if (cursor.startsWith('(all)')) quantifier = 'all';
    if (quantifier) cursor.pos += 5;
    cursor.expect('.', 'delimiter (.)');
    return { negated, operation: { kind: 'quant', op: word as QuantOp, quantifier, value: readValue() } };
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

export function parseLogicChildren(cursor: Cursor): LogicTree[] {
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

export function parseLogicNode(cursor: Cursor): LogicTree {
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
