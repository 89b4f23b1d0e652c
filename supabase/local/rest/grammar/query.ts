/** The whole query string: select, filters, order, limit and offset, and function arguments. */
import { PgrstError, notEmbedded, parseError } from '../errors';
import { Cursor, parseFieldName } from './cursor';
import { type LogicTree, parseFilterValue, parseLogic } from './filters';
import { type SelectItem, parseSelect } from './select';

export interface OrderTerm {
  column: string;
  direction: 'asc' | 'desc' | null;
  nulls: 'first' | 'last' | null;
}

function parseOrderTerm(cursor: Cursor): OrderTerm {
  const column = parseFieldName(cursor);
  if (cursor.peek() === '(') cursor.fail('delimiter (.), "," or end of input (related orders are not available here)');
  if (cursor.startsWith('->')) cursor.fail('delimiter (.), "," or end of input (JSON paths are not available here)');
  let direction: OrderTerm['direction'] = null;
  let nulls: OrderTerm['nulls'] = null;
  if (cursor.peek() === '.') {
    cursor.pos += 1;
    direction = cursor.take(['asc', 'desc'] as const);
    if (direction !== null && cursor.peek() === '.') cursor.pos += 1;
    if (direction === null || cursor.text.charAt(cursor.pos - 1) === '.') {
      const which = cursor.take(['nullsfirst', 'nullslast'] as const);
      if (which === null) {
        cursor.fail(direction === null ? '"asc", "desc", "nullsfirst" or "nullslast"' : '"nullsfirst" or "nullslast"');
      }
      nulls = which === 'nullsfirst' ? 'first' : 'last';
    }
  }
  return { column, direction, nulls };
}

function parseOrder(raw: string): OrderTerm[] {
  const cursor = new Cursor(raw, 'order');
  return cursor.list(() => parseOrderTerm(cursor));
}

export function parseColumnsParam(raw: string, what = 'columns parameter'): string[] {
  const cursor = new Cursor(raw, what);
  return cursor.list(() => parseFieldName(cursor));
}

function parseNonNegative(raw: string, name: 'limit' | 'offset'): number {
  if (!/^\d+$/.test(raw)) {
    if (/^-\d+$/.test(raw) && name === 'limit') {
      throw new PgrstError(416, 'PGRST103', 'Requested range not satisfiable', 'Limit should be greater than or equal to zero.');
    }
    throw parseError(`${name} parameter`, raw, 1, `unexpected ${JSON.stringify(raw.charAt(0) || 'end of input')} expecting digit`);
  }
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw parseError(`${name} parameter`, raw, 1, 'number too large');
  return value;
}

export interface ReadQuery {
  select: SelectItem[];
  filters: LogicTree[];
  order: OrderTerm[];
  limit: number | null;
  offset: number;
  /** Parameters without an operator (function arguments of GET /rpc). */
  plain: Map<string, string>;
}

const reservedParams = new Set(['select', 'columns', 'on_conflict']);
const reservedEndings = new Set(['order', 'limit', 'offset', 'and', 'or']);


/**
 * Parses the query string. `argumentNames` (GET /rpc) are the function's parameter names: those
 * keys are arguments, never filters.
 */
export function parseQuery(url: URL, argumentNames: ReadonlySet<string> = new Set()): ReadQuery {
  const query: ReadQuery = {
    select: parseSelect(url.searchParams.get('select') ?? '*'),
    filters: [],
    order: [],
    limit: null,
    offset: 0,
    plain: new Map(),
  };
  for (const [key, value] of url.searchParams) {
    if (reservedParams.has(key)) continue;
    if (argumentNames.has(key)) {
      query.plain.set(key, value);
      continue;
    }
    const segments = key.split('.');
    const last = segments[segments.length - 1] ?? '';
    if (reservedEndings.has(last)) {
      const prefix = segments.slice(0, -1);
      if (last === 'and' || last === 'or') {
        if (prefix.length === 0 || (prefix.length === 1 && prefix[0] === 'not')) {
          query.filters.push(parseLogic(key, value));
          continue;
        }
        throw notEmbedded(prefix.filter((part) => part !== 'not')[0] ?? '');
      }
      if (prefix.length > 0) throw notEmbedded(prefix[0] ?? '');
      if (value === '') continue;
      if (last === 'order') query.order = parseOrder(value);
      else if (last === 'limit') query.limit = parseNonNegative(value, 'limit');
      else query.offset = parseNonNegative(value, 'offset');
      continue;
    }
    const keyCursor = new Cursor(key, 'tree path');
    const path: string[] = [parseFieldName(keyCursor)];
    while (keyCursor.peek() === '.') {
      keyCursor.pos += 1;
      path.push(parseFieldName(keyCursor));
    }
    if (keyCursor.startsWith('->')) keyCursor.fail('delimiter (.) (JSON paths are not available here)');
    if (!keyCursor.atEnd()) keyCursor.fail('delimiter (.) or end of input');
    if (path.length > 1) throw notEmbedded(path[0] ?? '');
    query.filters.push({ kind: 'filter', filter: parseFilterValue(path[0] ?? '', value) });
  }
  return query;
}
