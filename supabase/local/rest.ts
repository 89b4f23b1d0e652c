/**
 * The subset of PostgREST (12.2, the version src/types/database.ts names) the app uses: reading,
 * counting, inserting, updating and deleting rows of the tables in `public`, and calling its functions. Every request
 * runs in one transaction as the caller's role with the JWT claims set, so row level security
 * decides exactly as on Supabase. The query string is parsed with PostgREST's grammar; every
 * identifier is looked up in the catalog before it reaches SQL (and is quoted), every value is a
 * bound parameter.
 */
import type { Transaction } from '@electric-sql/pglite';
import type { LocalStackConfig } from './config';
import { withClaims, type DatabaseRole, type JwtClaims } from './database';
import { json } from './http';
import { bearerToken } from './shared';
import { verifyJwt } from './jwt';
import type { Service, StackContext } from './types';

const SCHEMA = 'public';
/** PostgREST's db-extra-search-path on Supabase. */
const SEARCH_PATH = 'public, extensions';

type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/** An error PostgREST answers with {code, details, hint, message}. */
export class PgrstError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string | null = null,
    readonly hint: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toResponse(): Response {
    return json(
      this.status,
      { code: this.code, details: this.details, hint: this.hint, message: this.message },
      { 'proxy-status': `PostgREST; error=${this.code}`, ...this.headers },
    );
  }
}

interface PostgresError {
  code: string;
  message: string;
  detail?: string;
  hint?: string;
}

function isPostgresError(error: unknown): error is PostgresError {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as { code?: unknown; message?: unknown; severity?: unknown };
  return typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code) && typeof candidate.message === 'string';
}

/** PostgREST's mapping of SQLSTATEs to HTTP statuses (Error.hs, pgErrorStatus). */
export function statusForSqlState(code: string, authenticated: boolean, message = ''): number {
  const exact: Record<string, number> = {
    '23503': 409,
    '23505': 409,
    '25006': 405,
    '53400': 500,
    '57P01': 503,
    P0001: 400,
    '42P01': 404,
    '42P17': 500,
  };
  if (code === '42501') return authenticated ? 403 : 401;
  if (code === '42883') return message.startsWith('function xmlagg(') ? 406 : 404;
  if (code === '21000') return message.endsWith('requires a WHERE clause') ? 400 : 500;
  const known = exact[code];
  if (known !== undefined) return known;
  if (code.startsWith('PT')) {
    const status = Number(code.slice(2));
    return Number.isInteger(status) && status >= 100 && status <= 599 ? status : 500;
  }
  const prefixes: [string, number][] = [
    ['08', 503], ['09', 500], ['0L', 403], ['0P', 403], ['25', 500], ['28', 403], ['2D', 500], ['38', 500],
    ['39', 500], ['3B', 500], ['40', 500], ['53', 503], ['54', 500], ['55', 500], ['57', 500], ['58', 500],
    ['F0', 500], ['HV', 500], ['P0', 500], ['XX', 500],
  ];
  for (const [prefix, status] of prefixes) if (code.startsWith(prefix)) return status;
  return 400;
}

function postgresErrorResponse(error: PostgresError, role: DatabaseRole): Response {
  const status = statusForSqlState(error.code, role !== 'anon', error.message);
  const headers: Record<string, string> = { 'proxy-status': `PostgREST; error=${error.code}` };
  if (status === 401) headers['www-authenticate'] = 'Bearer';
  return json(
    status,
    { code: error.code, details: error.detail ?? null, hint: error.hint ?? null, message: error.message },
    headers,
  );
}

const parseError = (what: string, raw: string, column: number, details: string) =>
  new PgrstError(400, 'PGRST100', `"failed to parse ${what} (${raw})" (line 1, column ${column})`, details);

const columnMissing = (relation: string, column: string) =>
  new PgrstError(400, '42703', `column ${relation}.${column} does not exist`);

// ---------------------------------------------------------------------------------------------
// Authentication (the gateway and PostgREST's JWT check)
// ---------------------------------------------------------------------------------------------

/** Supabase's API gateway rejects a request without any key before PostgREST sees it. */
class GatewayError extends Error {
  toResponse(): Response {
    return json(401, { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' });
  }
}

interface RestCaller {
  role: DatabaseRole;
  claims: JwtClaims;
}

const apiRoles = new Set<string>(['anon', 'authenticated', 'service_role']);

function jwtError(code: string, message: string): PgrstError {
  return new PgrstError(401, code, message, null, null, {
    'www-authenticate': `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`,
  });
}

function authenticate(request: Request, config: LocalStackConfig): RestCaller {
  const token = bearerToken(request) ?? request.headers.get('apikey');
  if (!token) throw new GatewayError();
  const parts = token.split('.').length;
  if (parts !== 3) throw jwtError('PGRST301', `Expected 3 parts in JWT; got ${parts}`);
  const verified = verifyJwt(token, config.jwtSecret);
  if (!verified.ok) {
    if (verified.reason === 'expired') throw jwtError('PGRST303', 'JWT expired');
    if (verified.reason === 'malformed') throw jwtError('PGRST301', 'JWT cryptographic operation failed');
    throw jwtError('PGRST301', 'No suitable key or wrong key type');
  }
  const claims = verified.claims as JwtClaims;
  const role: unknown = claims.role;
  // Without a role claim PostgREST uses its anonymous role.
  if (role === undefined) return { role: 'anon', claims };
  if (typeof role !== 'string' || !apiRoles.has(role)) {
    throw new PgrstError(403, '42501', `permission denied to set role "${typeof role === 'string' ? role : JSON.stringify(role)}"`);
  }
  return { role: role as DatabaseRole, claims };
}

// ---------------------------------------------------------------------------------------------
// Headers: media types, preferences, profiles
// ---------------------------------------------------------------------------------------------

interface MediaChoice {
  singular: boolean;
  stripNulls: boolean;
}

function chooseMedia(request: Request): MediaChoice {
  const accept = request.headers.get('accept');
  if (!accept) return { singular: false, stripNulls: false };
  const offered = accept.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const entry of offered) {
    const [typeRaw = '', ...paramsRaw] = entry.split(';').map((part) => part.trim());
    const type = typeRaw.toLowerCase();
    const params = paramsRaw.map((part) => part.toLowerCase().replace(/\s+/g, ''));
    const stripNulls = params.includes('nulls=stripped');
    if (type === 'application/vnd.pgrst.object+json' || type === 'application/vnd.pgrst.object') {
      return { singular: true, stripNulls };
    }
    if (['application/json', 'application/vnd.pgrst.array+json', '*/*', 'application/*'].includes(type)) {
      return { singular: false, stripNulls };
    }
  }
  throw new PgrstError(406, 'PGRST107', `None of these media types are available: ${offered.map((entry) => entry.split(';')[0]?.trim() ?? '').join(', ')}`);
}

interface Preferences {
  representation: boolean;
  count: boolean;
  missingDefault: boolean;
  resolution: 'merge' | 'ignore' | null;
}

function readPreferences(request: Request): Preferences {
  const tokens = (request.headers.get('prefer') ?? '')
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== '');
  const has = (token: string) => tokens.includes(token);
  return {
    representation: has('return=representation'),
    count: has('count=exact') || has('count=planned') || has('count=estimated'),
    missingDefault: has('missing=default'),
    resolution: has('resolution=merge-duplicates') ? 'merge' : has('resolution=ignore-duplicates') ? 'ignore' : null,
  };
}

function checkProfile(request: Request): void {
  const reading = request.method === 'GET' || request.method === 'HEAD';
  const profile = request.headers.get(reading ? 'accept-profile' : 'content-profile');
  if (profile !== null && profile !== SCHEMA) {
    throw new PgrstError(406, 'PGRST106', `The schema must be one of the following: ${SCHEMA}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Query string grammar (PostgREST's QueryParams.hs, the parts this stack supports)
// ---------------------------------------------------------------------------------------------

class Cursor {
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
}

const identifierChar = /[\p{L}\p{N}_ $]/u;

function parseQuoted(cursor: Cursor): string {
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
function parseFieldName(cursor: Cursor): string {
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

interface SelectField {
  kind: 'field';
  name: string;
  alias: string | null;
  cast: string | null;
}
type SelectItem = { kind: 'star' } | SelectField;

function parseSelect(raw: string): SelectItem[] {
  const cursor = new Cursor(raw, 'select parameter');
  const items: SelectItem[] = [];
  cursor.skipSpaces();
  if (cursor.atEnd()) return items;
  for (;;) {
    cursor.skipSpaces();
    items.push(parseSelectItem(cursor));
    cursor.skipSpaces();
    if (cursor.atEnd()) return items;
    if (cursor.peek() !== ',') cursor.fail('"," or end of input');
    cursor.pos += 1;
  }
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

function aggregatesNotAllowed(): PgrstError {
  return new PgrstError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
}

type QuantOp = 'eq' | 'gte' | 'gt' | 'lte' | 'lt' | 'like' | 'ilike' | 'match' | 'imatch';
type SimpleOp = 'neq' | 'cs' | 'cd' | 'ov' | 'sl' | 'sr' | 'nxr' | 'nxl' | 'adj';
type FtsOp = 'fts' | 'plfts' | 'phfts' | 'wfts';

type Operation =
  | { kind: 'quant'; op: QuantOp; quantifier: 'any' | 'all' | null; value: string }
  | { kind: 'simple'; op: SimpleOp; value: string }
  | { kind: 'in'; values: string[] }
  | { kind: 'is'; value: 'null' | 'not_null' | 'true' | 'false' | 'unknown' }
  | { kind: 'isdistinct'; value: string }
  | { kind: 'fts'; op: FtsOp; language: string | null; value: string };

interface Filter {
  column: string;
  negated: boolean;
  operation: Operation;
}

type LogicTree = { kind: 'filter'; filter: Filter } | { kind: 'logic'; negated: boolean; op: 'and' | 'or'; children: LogicTree[] };

const quantOps: QuantOp[] = ['eq', 'gte', 'gt', 'lte', 'lt', 'like', 'ilike', 'match', 'imatch'];
const simpleOps: SimpleOp[] = ['neq', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj'];
const ftsOps: FtsOp[] = ['fts', 'plfts', 'phfts', 'wfts'];

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

function parseFilterValue(column: string, raw: string): Filter {
  const cursor = new Cursor(raw, 'filter');
  const { negated, operation } = parseOperation(cursor, false);
  if (!cursor.atEnd()) cursor.fail('end of input');
  return { column, negated, operation };
}

function parseLogic(key: string, raw: string): LogicTree {
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

interface OrderTerm {
  column: string;
  direction: 'asc' | 'desc' | null;
  nulls: 'first' | 'last' | null;
}

function parseOrder(raw: string): OrderTerm[] {
  const cursor = new Cursor(raw, 'order');
  const terms: OrderTerm[] = [];
  for (;;) {
    cursor.skipSpaces();
    const column = parseFieldName(cursor);
    if (cursor.peek() === '(') cursor.fail('delimiter (.), "," or end of input (related orders are not available here)');
    if (cursor.startsWith('->')) cursor.fail('delimiter (.), "," or end of input (JSON paths are not available here)');
    let direction: OrderTerm['direction'] = null;
    let nulls: OrderTerm['nulls'] = null;
    if (cursor.peek() === '.') {
      cursor.pos += 1;
      if (cursor.startsWith('asc')) {
        direction = 'asc';
        cursor.pos += 3;
      } else if (cursor.startsWith('desc')) {
        direction = 'desc';
        cursor.pos += 4;
      }
      if (direction !== null && cursor.peek() === '.') cursor.pos += 1;
      if (direction === null || cursor.text.charAt(cursor.pos - 1) === '.') {
        if (cursor.startsWith('nullsfirst')) {
          nulls = 'first';
          cursor.pos += 10;
        } else if (cursor.startsWith('nullslast')) {
          nulls = 'last';
          cursor.pos += 9;
        } else {
          cursor.fail(direction === null ? '"asc", "desc", "nullsfirst" or "nullslast"' : '"nullsfirst" or "nullslast"');
        }
      }
    }
    cursor.skipSpaces();
    terms.push({ column, direction, nulls });
    if (cursor.atEnd()) return terms;
    if (cursor.peek() !== ',') cursor.fail('"," or end of input');
    cursor.pos += 1;
  }
}

function parseColumnsParam(raw: string, what = 'columns parameter'): string[] {
  const cursor = new Cursor(raw, what);
  const names: string[] = [];
  for (;;) {
    cursor.skipSpaces();
    names.push(parseFieldName(cursor));
    cursor.skipSpaces();
    if (cursor.atEnd()) return names;
    if (cursor.peek() !== ',') cursor.fail('"," or end of input');
    cursor.pos += 1;
  }
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

interface ReadQuery {
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

function notEmbedded(resource: string): PgrstError {
  return new PgrstError(
    400,
    'PGRST108',
    `'${resource}' is not an embedded resource in this request`,
    null,
    `Verify that '${resource}' is included in the 'select' query parameter.`,
  );
}

/**
 * Parses the query string. `argumentNames` (GET /rpc) are the function's parameter names: those
 * keys are arguments, never filters.
 */
function parseQuery(url: URL, argumentNames: ReadonlySet<string> = new Set()): ReadQuery {
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

// ---------------------------------------------------------------------------------------------
// Catalog (the "schema cache", read in the request's transaction)
// ---------------------------------------------------------------------------------------------

/**
 * Like PostgREST's schema cache: what the catalog says about a table or function is kept per
 * database once read (the schema only changes through migrations, applied before the stack
 * serves). Misses are not cached, so a table that appears later is still found.
 */
interface SchemaCache {
  relations: Map<string, Relation>;
  routines: Map<string, Routine[]>;
}

const schemaCaches = new WeakMap<object, SchemaCache>();

function schemaCacheOf(db: object): SchemaCache {
  let cache = schemaCaches.get(db);
  if (!cache) {
    cache = { relations: new Map(), routines: new Map() };
    schemaCaches.set(db, cache);
  }
  return cache;
}

async function cachedRelation(cache: SchemaCache, tx: Transaction, name: string): Promise<Relation> {
  const known = cache.relations.get(name);
  if (known) return known;
  const relation = await loadRelation(tx, name);
  cache.relations.set(name, relation);
  return relation;
}

async function cachedRoutines(cache: SchemaCache, tx: Transaction, name: string): Promise<Routine[]> {
  const known = cache.routines.get(name);
  if (known) return known;
  const routines = await loadRoutines(tx, name);
  if (routines.length > 0) cache.routines.set(name, routines);
  return routines;
}

interface Column {
  name: string;
  type: string;
}

interface Relation {
  name: string;
  kind: string;
  columns: Map<string, Column>;
  primaryKey: string[];
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function loadRelation(tx: Transaction, name: string): Promise<Relation> {
  const result = await tx.query<{ relkind: string; attname: string | null; type: string | null; pk: string[] | null }>(
    `select c.relkind::text as relkind, a.attname::text as attname, pg_catalog.format_type(a.atttypid, a.atttypmod) as type,
            array(select ia.attname::text from pg_catalog.pg_index i
                    join pg_catalog.pg_attribute ia on ia.attrelid = i.indrelid and ia.attnum = any (i.indkey)
                   where i.indrelid = c.oid and i.indisprimary order by ia.attnum) as pk
       from pg_catalog.pg_class c
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       left join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = $1 and c.relname = $2 and c.relkind in ('r', 'v', 'm', 'f', 'p')
      order by a.attnum`,
    [SCHEMA, name],
  );
  const first = result.rows[0];
  if (!first) throw await tableNotFound(tx, name);
  const columns = new Map<string, Column>();
  for (const row of result.rows) {
    if (row.attname !== null && row.type !== null) columns.set(row.attname, { name: row.attname, type: row.type });
  }
  return { name, kind: first.relkind, columns, primaryKey: first.pk ?? [] };
}

async function tableNotFound(tx: Transaction, name: string): Promise<PgrstError> {
  const tables = await tx.query<{ relname: string }>(
    `select c.relname::text as relname from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'v', 'm', 'f', 'p')`,
    [SCHEMA],
  );
  const suggestion = closest(name, tables.rows.map((row) => row.relname));
  return new PgrstError(
    404,
    'PGRST205',
    `Could not find the table '${SCHEMA}.${name}' in the schema cache`,
    null,
    suggestion ? `Perhaps you meant the table '${SCHEMA}.${suggestion}'` : null,
  );
}

function levenshtein(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = previous[0] ?? 0;
    previous[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = previous[j] ?? 0;
      const left = previous[j - 1] ?? 0;
      previous[j] = Math.min(above + 1, left + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length] ?? 0;
}

/** A close name for "Perhaps you meant …" hints, or null when nothing is close. */
function closest(name: string, candidates: string[]): string | null {
  let best: string | null = null;
  let bestScore = Infinity;
  for (const candidate of candidates) {
    const score = levenshtein(name.toLowerCase(), candidate.toLowerCase()) / Math.max(name.length, candidate.length, 1);
    if (score < bestScore) {
      bestScore = score;
      best = candidate;
    }
  }
  return bestScore <= 0.5 ? best : null;
}

// ---------------------------------------------------------------------------------------------
// SQL building
// ---------------------------------------------------------------------------------------------

const ALIAS = 'pgrst_t';

class Params {
  readonly values: string[] = [];

  /** Binds a value as text; the cast to the column's type happens in SQL. */
  text(value: string): string {
    this.values.push(value);
    return `$${this.values.length}::text`;
  }
}

/** The columns a query can see: a table's, or a function's result columns. */
interface Source {
  /** Name used in error messages (`column <name>.x does not exist`). */
  label: string;
  columns: Map<string, Column>;
}

function columnOf(source: Source, name: string): Column {
  const column = source.columns.get(name);
  if (!column) throw columnMissing(source.label, name);
  return column;
}

const qualified = (name: string) => `${quoteIdent(ALIAS)}.${quoteIdent(name)}`;

async function resolveCast(tx: Transaction, cast: string): Promise<string> {
  const result = await tx.query<{ type: string | null }>('select pg_catalog.format_type(pg_catalog.to_regtype($1), null) as type', [cast]);
  const type = result.rows[0]?.type ?? null;
  if (type === null) throw new PgrstError(400, '42704', `type "${cast}" does not exist`);
  return type;
}

async function selectList(tx: Transaction, source: Source, items: SelectItem[]): Promise<string> {
  const parts: string[] = [];
  for (const item of items) {
    if (item.kind === 'star') {
      parts.push(`${quoteIdent(ALIAS)}.*`);
      continue;
    }
    columnOf(source, item.name);
    let expression = qualified(item.name);
    if (item.cast !== null) expression = `cast(${expression} as ${await resolveCast(tx, item.cast)})`;
    parts.push(`${expression} as ${quoteIdent(item.alias ?? item.name)}`);
  }
  return parts.join(', ');
}

const comparison: Record<QuantOp | SimpleOp, string> = {
  eq: '=',
  gte: '>=',
  gt: '>',
  lte: '<=',
  lt: '<',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
  neq: '<>',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
};

const tsFunctions: Record<FtsOp, string> = {
  fts: 'pg_catalog.to_tsquery',
  plfts: 'pg_catalog.plainto_tsquery',
  phfts: 'pg_catalog.phraseto_tsquery',
  wfts: 'pg_catalog.websearch_to_tsquery',
};

function filterSql(source: Source, filter: Filter, params: Params): string {
  const column = columnOf(source, filter.column);
  const target = qualified(column.name);
  const op = filter.operation;
  let sql: string;
  switch (op.kind) {
    case 'is':
      sql = `${target} is ${op.value === 'not_null' ? 'not null' : op.value}`;
      break;
    case 'in':
      sql = op.values.length === 0 ? 'false' : `${target} in (${op.values.map((value) => `${params.text(value)}::${column.type}`).join(', ')})`;
      break;
    case 'isdistinct':
      sql = `${target} is distinct from ${params.text(op.value)}::${column.type}`;
      break;
    case 'fts': {
      const query = params.text(op.value);
      const config = op.language === null ? '' : `${params.text(op.language)}::pg_catalog.regconfig, `;
      sql = `${target} @@ ${tsFunctions[op.op]}(${config}${query})`;
      break;
    }
    case 'simple':
      sql = `${target} ${comparison[op.op]} ${params.text(op.value)}::${column.type}`;
      break;
    case 'quant': {
      const patternOp = op.op === 'like' || op.op === 'ilike' || op.op === 'match' || op.op === 'imatch';
      const value = op.op === 'like' || op.op === 'ilike' ? op.value.replace(/\*/g, '%') : op.value;
      if (op.quantifier) {
        const arrayType = patternOp ? 'text[]' : `${column.type}[]`;
        sql = `${target} ${comparison[op.op]} ${op.quantifier}(${params.text(value)}::${arrayType})`;
      } else {
        sql = `${target} ${comparison[op.op]} ${params.text(value)}${patternOp ? '' : `::${column.type}`}`;
      }
      break;
    }
  }
  return filter.negated ? `not (${sql})` : sql;
}

function logicSql(source: Source, tree: LogicTree, params: Params): string {
  if (tree.kind === 'filter') return filterSql(source, tree.filter, params);
  const inner = tree.children.map((child) => `(${logicSql(source, child, params)})`).join(` ${tree.op} `);
  return tree.negated ? `not (${inner})` : inner;
}

function whereSql(source: Source, filters: LogicTree[], params: Params): string {
  if (filters.length === 0) return '';
  return ` where ${filters.map((tree) => `(${logicSql(source, tree, params)})`).join(' and ')}`;
}

function orderSql(source: Source, order: OrderTerm[]): string {
  if (order.length === 0) return '';
  const terms = order.map((term) => {
    columnOf(source, term.column);
    let sql = qualified(term.column);
    if (term.direction) sql += ` ${term.direction}`;
    if (term.nulls) sql += ` nulls ${term.nulls}`;
    return sql;
  });
  return ` order by ${terms.join(', ')}`;
}

function limitSql(query: ReadQuery): string {
  let sql = '';
  if (query.limit !== null) sql += ` limit ${String(query.limit)}`;
  if (query.offset > 0) sql += ` offset ${String(query.offset)}`;
  return sql;
}

/** Wraps a row-producing query into one JSON array (Postgres formats the values, as PostgREST). */
function aggregateSql(inner: string, stripNulls: boolean): string {
  const element = stripNulls ? 'pg_catalog.json_strip_nulls(pg_catalog.row_to_json(pgrst_row))' : 'pgrst_row';
  return `select coalesce(pg_catalog.json_agg(${element}), '[]')::text as body, pg_catalog.count(*)::int as total
            from (${inner}) pgrst_row`;
}

interface Aggregated {
  body: string;
  total: number;
}

async function runAggregate(tx: Transaction, sql: string, params: Params): Promise<Aggregated> {
  const result = await tx.query<Aggregated>(sql, params.values);
  const row = result.rows[0];
  return row ?? { body: '[]', total: 0 };
}

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

const JSON_TYPE = 'application/json; charset=utf-8';
const OBJECT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';

/** Thrown inside the transaction so a write that cannot be shown as one object is rolled back. */
function singularityError(rows: number): PgrstError {
  return new PgrstError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${rows} rows`);
}

function rowsBody(result: Aggregated, media: MediaChoice): { body: string; contentType: string } {
  if (media.singular) {
    if (result.total !== 1) throw singularityError(result.total);
    // json_agg of a single row is "[<row>]"; the object is that text without the brackets.
    return { body: result.body.slice(1, -1).trim(), contentType: OBJECT_TYPE };
  }
  return { body: result.body, contentType: JSON_TYPE };
}

function contentRange(offset: number, rows: number, total: number | null): string {
  const range = rows > 0 ? `${offset}-${offset + rows - 1}` : '*';
  return `${range}/${total === null ? '*' : String(total)}`;
}

// ---------------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------------

interface RequestContext {
  tx: Transaction;
  schema: SchemaCache;
  request: Request;
  url: URL;
  media: MediaChoice;
  prefs: Preferences;
}

function relationSource(relation: Relation): Source {
  return { label: relation.name, columns: relation.columns };
}

async function readTable(rc: RequestContext, relation: Relation): Promise<Response> {
  const query = parseQuery(rc.url);
  const source = relationSource(relation);
  const params = new Params();
  const list = await selectList(rc.tx, source, query.select);
  const from = ` from ${quoteIdent(SCHEMA)}.${quoteIdent(relation.name)} as ${quoteIdent(ALIAS)}`;
  const where = whereSql(source, query.filters, params);
  const inner = `select ${list}${from}${where}${orderSql(source, query.order)}${limitSql(query)}`;
  const result = await runAggregate(rc.tx, aggregateSql(inner, rc.media.stripNulls), params);
  let total: number | null = null;
  if (rc.prefs.count) {
    const counted = await rc.tx.query<{ count: number }>(`select pg_catalog.count(*)::int as count${from}${where}`, params.values);
    total = counted.rows[0]?.count ?? 0;
  }
  return rangeResponse(rc, query.offset, result, total);
}

function rangeResponse(rc: RequestContext, offset: number, result: Aggregated, total: number | null): Response {
  let status = 200;
  if (total !== null) {
    if (offset > total && !(offset === 0 && total === 0)) {
      throw new PgrstError(416, 'PGRST103', 'Requested range not satisfiable', `An offset of ${offset} was requested, but there are only ${total} rows.`);
    }
    if (result.total < total) status = 206;
  }
  const { body, contentType } = rowsBody(result, rc.media);
  return new Response(body, {
    status,
    headers: { 'content-type': contentType, 'content-range': contentRange(offset, result.total, total) },
  });
}

async function readBody(request: Request): Promise<{ text: string; value: unknown }> {
  const text = await request.text();
  try {
    return { text, value: JSON.parse(text) as unknown };
  } catch {
    throw new PgrstError(400, 'PGRST102', 'Empty or invalid json');
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function writableColumns(relation: Relation, names: string[]): Column[] {
  return names.map((name) => {
    const column = relation.columns.get(name);
    if (!column) throw new PgrstError(400, 'PGRST204', `Could not find the '${name}' column of '${relation.name}' in the schema cache`);
    return column;
  });
}

async function writeResponse(
  rc: RequestContext,
  relation: Relation,
  mutation: { sql: string; params: Params },
  successStatus: { representation: number; minimal: number },
): Promise<Response> {
  if (rc.prefs.representation || rc.media.singular) {
    const query = parseQuery(rc.url);
    const list = await selectList(rc.tx, relationSource(relation), query.select);
    const sql = `with pgrst_mutation as (${mutation.sql} returning ${quoteIdent(ALIAS)}.*)
                 ${aggregateSql(`select ${list} from pgrst_mutation as ${quoteIdent(ALIAS)}`, rc.media.stripNulls)}`;
    const result = await runAggregate(rc.tx, sql, mutation.params);
    const { body, contentType } = rowsBody(result, rc.media);
    const headers: Record<string, string> = { 'content-range': contentRange(0, result.total, rc.prefs.count ? result.total : null) };
    if (!rc.prefs.representation) return new Response(null, { status: successStatus.minimal, headers });
    return new Response(body, { status: successStatus.representation, headers: { ...headers, 'content-type': contentType } });
  }
  const result = await rc.tx.query(mutation.sql, mutation.params.values);
  const affected = result.affectedRows ?? 0;
  return new Response(null, {
    status: successStatus.minimal,
    headers: { 'content-range': contentRange(0, affected, rc.prefs.count ? affected : null) },
  });
}

async function insertRows(rc: RequestContext, relation: Relation): Promise<Response> {
  const { text, value } = await readBody(rc.request);
  const rows: Json[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      if (!isObject(item)) throw new PgrstError(400, 'PGRST102', 'Empty or invalid json');
      rows.push(item);
    }
  } else if (isObject(value)) {
    rows.push(value);
  } else {
    throw new PgrstError(400, 'PGRST102', 'Empty or invalid json');
  }

  const columnsParam = rc.url.searchParams.get('columns');
  let names: string[];
  if (columnsParam !== null) {
    names = [...new Set(parseColumnsParam(columnsParam))];
  } else {
    const first = rows[0] ? Object.keys(rows[0]) : [];
    const signature = [...first].sort().join('\u0000');
    for (const row of rows) {
      if (Object.keys(row).sort().join('\u0000') !== signature) throw new PgrstError(400, 'PGRST102', 'All object keys must match');
    }
    names = first;
  }
  const columns = writableColumns(relation, names);
  const table = `${quoteIdent(SCHEMA)}.${quoteIdent(relation.name)}`;
  const params = new Params();

  let conflict = '';
  if (rc.prefs.resolution) {
    const onConflictRaw = rc.url.searchParams.get('on_conflict');
    const keys = onConflictRaw === null ? relation.primaryKey : parseColumnsParam(onConflictRaw, 'on_conflict parameter');
    for (const key of keys) columnOf(relationSource(relation), key);
    if (keys.length > 0) {
      const updates = columns.filter((column) => !keys.includes(column.name));
      conflict =
        rc.prefs.resolution === 'ignore' || updates.length === 0
          ? ` on conflict (${keys.map(quoteIdent).join(', ')}) do nothing`
          : ` on conflict (${keys.map(quoteIdent).join(', ')}) do update set ${updates
              .map((column) => `${quoteIdent(column.name)} = excluded.${quoteIdent(column.name)}`)
              .join(', ')}`;
    }
  }

  if (rows.length === 0) return writeEmpty(rc, 201);
  const into = `insert into ${table} as ${quoteIdent(ALIAS)}`;
  if (columns.length === 0) {
    return insertEach(rc, relation, rows.map(() => `${into} default values${conflict}`), params);
  }
  const list = columns.map((column) => quoteIdent(column.name)).join(', ');
  if (rc.prefs.missingDefault && rows.some((row) => columns.some((column) => !(column.name in row)))) {
    // Absent keys take the column default: each row inserts only the keys it has.
    const statements = rows.map((row) => {
      const present = columns.filter((column) => column.name in row);
      if (present.length === 0) return `${into} default values${conflict}`;
      const names = present.map((column) => quoteIdent(column.name)).join(', ');
      return `${into} (${names}) select ${names} from pg_catalog.json_populate_recordset(null::${table}, ${params.text(JSON.stringify([row]))}::json)${conflict}`;
    });
    return insertEach(rc, relation, statements, params);
  }
  // The body goes to Postgres as sent, so numbers keep their precision and types convert as in PostgREST.
  const body = Array.isArray(value) ? text : `[${text}]`;
  const sql = `${into} (${list}) select ${list} from pg_catalog.json_populate_recordset(null::${table}, ${params.text(body)}::json)${conflict}`;
  return writeResponse(rc, relation, { sql, params }, { representation: 201, minimal: 201 });
}

/** missing=default with rows that differ in their keys: one statement per row, results in order. */
async function insertEach(rc: RequestContext, relation: Relation, statements: string[], params: Params): Promise<Response> {
  const wantsRows = rc.prefs.representation || rc.media.singular;
  if (!wantsRows) {
    let affected = 0;
    for (const statement of statements) {
      const used = usedParams(statement, params);
      const result = await rc.tx.query(used.sql, used.values);
      affected += result.affectedRows ?? 0;
    }
    return new Response(null, { status: 201, headers: { 'content-range': contentRange(0, affected, rc.prefs.count ? affected : null) } });
  }
  const query = parseQuery(rc.url);
  const list = await selectList(rc.tx, relationSource(relation), query.select);
  const bodies: string[] = [];
  for (const statement of statements) {
    const used = usedParams(statement, params);
    const sql = `with pgrst_mutation as (${used.sql} returning ${quoteIdent(ALIAS)}.*)
                 ${aggregateSql(`select ${list} from pgrst_mutation as ${quoteIdent(ALIAS)}`, rc.media.stripNulls)}`;
    const result = await rc.tx.query<Aggregated>(sql, used.values);
    const body = result.rows[0]?.body ?? '[]';
    if (body !== '[]') bodies.push(body.slice(1, -1).trim());
  }
  const combined: Aggregated = { body: `[${bodies.join(', ')}]`, total: bodies.length };
  const { body, contentType } = rowsBody(combined, rc.media);
  const headers = { 'content-range': contentRange(0, combined.total, rc.prefs.count ? combined.total : null) };
  if (!rc.prefs.representation) return new Response(null, { status: 201, headers });
  return new Response(body, { status: 201, headers: { ...headers, 'content-type': contentType } });
}

/** Renumbers the one placeholder a per-row statement uses so it can run on its own. */
function usedParams(sql: string, params: Params): { sql: string; values: string[] } {
  const values: string[] = [];
  const renumbered = sql.replace(/\$(\d+)::text/g, (_, index: string) => {
    values.push(params.values[Number(index) - 1] ?? '');
    return `$${values.length}::text`;
  });
  return { sql: renumbered, values };
}

/** PATCH/DELETE may be limited with limit/offset (and order), as PostgREST allows. */
/**
 * The WHERE of an update or delete. Supabase's Data API sessions run pg-safeupdate: a statement
 * without any condition is refused (21000, "DELETE requires a WHERE clause"), answered with 400.
 */
function limitedWhere(relation: Relation, source: Source, query: ReadQuery, params: Params, verb: 'UPDATE' | 'DELETE'): string {
  const where = whereSql(source, query.filters, params);
  if (query.limit === null && query.offset === 0) {
    if (where.trim() === '') throw new PgrstError(400, '21000', `${verb} requires a WHERE clause`);
    return where;
  }
  if (relation.kind !== 'r' && relation.kind !== 'p') {
    throw new PgrstError(400, 'PGRST100', 'limit/offset are only available on tables here');
  }
  const table = `${quoteIdent(SCHEMA)}.${quoteIdent(relation.name)}`;
  return ` where ${quoteIdent(ALIAS)}.ctid = any (array(select ${quoteIdent(ALIAS)}.ctid from ${table} as ${quoteIdent(ALIAS)}${where}${orderSql(source, query.order)}${limitSql(query)}))`;
}

async function updateRows(rc: RequestContext, relation: Relation): Promise<Response> {
  const { text, value } = await readBody(rc.request);
  if (!isObject(value)) throw new PgrstError(400, 'PGRST102', 'Empty or invalid json');
  const query = parseQuery(rc.url);
  const columns = writableColumns(relation, Object.keys(value));
  const source = relationSource(relation);
  const params = new Params();
  const table = `${quoteIdent(SCHEMA)}.${quoteIdent(relation.name)}`;
  if (columns.length === 0) {
    // Nothing to change: answer as an update that matched nothing.
    return writeEmpty(rc, 204);
  }
  const body = params.text(text);
  const sets = columns.map((column) => `${quoteIdent(column.name)} = pgrst_body.${quoteIdent(column.name)}`).join(', ');
  const sql = `update ${table} as ${quoteIdent(ALIAS)} set ${sets}
                 from (select * from pg_catalog.json_populate_record(null::${table}, ${body}::json)) as pgrst_body${limitedWhere(relation, source, query, params, 'UPDATE')}`;
  return writeResponse(rc, relation, { sql, params }, { representation: 200, minimal: 204 });
}

function writeEmpty(rc: RequestContext, minimalStatus: 201 | 204): Response {
  if (rc.media.singular) throw singularityError(0);
  const headers = { 'content-range': contentRange(0, 0, rc.prefs.count ? 0 : null) };
  if (!rc.prefs.representation) return new Response(null, { status: minimalStatus, headers });
  return new Response('[]', { status: minimalStatus === 201 ? 201 : 200, headers: { ...headers, 'content-type': JSON_TYPE } });
}

async function deleteRows(rc: RequestContext, relation: Relation): Promise<Response> {
  const query = parseQuery(rc.url);
  const source = relationSource(relation);
  const params = new Params();
  const table = `${quoteIdent(SCHEMA)}.${quoteIdent(relation.name)}`;
  const sql = `delete from ${table} as ${quoteIdent(ALIAS)}${limitedWhere(relation, source, query, params, 'DELETE')}`;
  return writeResponse(rc, relation, { sql, params }, { representation: 200, minimal: 204 });
}

// ---------------------------------------------------------------------------------------------
// Functions (/rpc)
// ---------------------------------------------------------------------------------------------

interface Routine {
  name: string;
  /** Input parameters in order, with their types; `required` when they have no default. */
  inputs: { name: string; type: string; required: boolean }[];
  /** Result columns when the function returns rows (table, setof composite, composite). */
  outputs: Column[] | null;
  returnsSet: boolean;
  returnsVoid: boolean;
  volatile: boolean;
}

interface RoutineRow {
  proname: string;
  argnames: string[] | null;
  argmodes: string[] | null;
  argtypes: string[];
  pronargs: number;
  pronargdefaults: number;
  proretset: boolean;
  provolatile: string;
  returns_void: boolean;
  ret_columns: { name: string; type: string }[] | null;
}

async function loadRoutines(tx: Transaction, name: string): Promise<Routine[]> {
  const result = await tx.query<RoutineRow>(
    `select p.proname::text as proname, p.proargnames::text[] as argnames, p.proargmodes::text[] as argmodes,
            array(select pg_catalog.format_type(t.oid, null)
                    from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality as a(oid, n)
                    join pg_catalog.pg_type t on t.oid = a.oid
                   order by a.n) as argtypes,
            p.pronargs::int as pronargs, p.pronargdefaults::int as pronargdefaults, p.proretset, p.provolatile::text as provolatile,
            p.prorettype = 'pg_catalog.void'::pg_catalog.regtype as returns_void,
            case when rt.typrelid <> 0 then
              (select pg_catalog.json_agg(pg_catalog.json_build_object('name', ra.attname, 'type', pg_catalog.format_type(ra.atttypid, ra.atttypmod)) order by ra.attnum)
                 from pg_catalog.pg_attribute ra where ra.attrelid = rt.typrelid and ra.attnum > 0 and not ra.attisdropped)
            end as ret_columns
       from pg_catalog.pg_proc p
       join pg_catalog.pg_namespace n on n.oid = p.pronamespace
       join pg_catalog.pg_type rt on rt.oid = p.prorettype
      where n.nspname = $1 and p.proname = $2 and p.prokind = 'f'`,
    [SCHEMA, name],
  );
  return result.rows.map((row) => {
    const modes = row.argmodes ?? row.argtypes.map(() => 'i');
    const inputs: Routine['inputs'] = [];
    const tableColumns: Column[] = [];
    row.argtypes.forEach((type, index) => {
      const mode = modes[index] ?? 'i';
      const argName = row.argnames?.[index] ?? '';
      if (mode === 'i' || mode === 'b' || mode === 'v') inputs.push({ name: argName, type, required: true });
      if (mode === 't' || mode === 'o' || mode === 'b') tableColumns.push({ name: argName, type });
    });
    const optionalFrom = row.pronargs - row.pronargdefaults;
    inputs.forEach((input, index) => {
      input.required = index < optionalFrom;
    });
    let outputs: Column[] | null = null;
    if (tableColumns.length > 0 && (row.proretset || tableColumns.length > 1)) outputs = tableColumns;
    else if (row.ret_columns) outputs = row.ret_columns;
    return {
      name: row.proname,
      inputs,
      outputs,
      returnsSet: row.proretset,
      returnsVoid: row.returns_void,
      volatile: row.provolatile === 'v',
    };
  });
}

async function noRoutine(tx: Transaction, name: string, keys: string[], candidates: Routine[], isPost: boolean): Promise<PgrstError> {
  const func = `${SCHEMA}.${name}`;
  const sorted = [...keys].sort();
  const list = sorted.join(', ');
  const message = `Could not find the function ${func}${keys.length ? `(${list})` : ' without parameters'} in the schema cache`;
  const paramsDetail = keys.length ? ` with parameter${keys.length > 1 ? 's' : ''} ${list}` : ' without parameters';
  const details = `Searched for the function ${func}${paramsDetail}${isPost ? ' or with a single unnamed json/jsonb parameter' : ''}, but no matches were found in the schema cache.`;
  let hint: string | null = null;
  if (candidates.length > 0) {
    const first = candidates[0];
    if (first) hint = `Perhaps you meant to call the function ${func}(${first.inputs.map((input) => input.name).sort().join(', ')})`;
  } else {
    const all = await tx.query<{ proname: string }>(
      `select distinct p.proname::text as proname from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace where n.nspname = $1`,
      [SCHEMA],
    );
    const suggestion = closest(name, all.rows.map((row) => row.proname));
    if (suggestion) hint = `Perhaps you meant to call the function ${SCHEMA}.${suggestion}`;
  }
  return new PgrstError(404, 'PGRST202', message, details, hint);
}

function pickRoutine(routines: Routine[], keys: Set<string>): Routine[] {
  return routines.filter((routine) => {
    const names = new Set(routine.inputs.map((input) => input.name));
    for (const key of keys) if (!names.has(key)) return false;
    return routine.inputs.every((input) => !input.required || keys.has(input.name));
  });
}

async function callRoutine(rc: RequestContext, name: string): Promise<Response> {
  const method = rc.request.method;
  const routines = await cachedRoutines(rc.schema, rc.tx, name);
  const argumentNames = new Set(routines.flatMap((routine) => routine.inputs.map((input) => input.name)));

  let argsText: string;
  let keys: string[];
  let query: ReadQuery;
  if (method === 'GET' || method === 'HEAD') {
    query = parseQuery(rc.url, argumentNames);
    const args: Record<string, string> = {};
    for (const [key, value] of query.plain) args[key] = value;
    keys = Object.keys(args);
    argsText = JSON.stringify(args);
  } else {
    query = parseQuery(rc.url);
    const text = await rc.request.text();
    let parsed: unknown = {};
    if (text.trim() !== '') {
      try {
        parsed = JSON.parse(text) as unknown;
      } catch {
        throw new PgrstError(400, 'PGRST102', 'Empty or invalid json');
      }
    }
    if (!isObject(parsed)) throw new PgrstError(400, 'PGRST102', 'Empty or invalid json');
    keys = Object.keys(parsed);
    argsText = text.trim() === '' ? '{}' : text;
  }

  const matches = pickRoutine(routines, new Set(keys));
  if (matches.length > 1) {
    throw new PgrstError(
      300,
      'PGRST203',
      `Could not choose the best candidate function between: ${matches
        .map((routine) => `${SCHEMA}.${routine.name}(${routine.inputs.map((input) => `${input.name} => ${input.type}`).join(', ')})`)
        .join(', ')}`,
      null,
      'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    );
  }
  const routine = matches[0];
  if (!routine) throw await noRoutine(rc.tx, name, keys, routines, method === 'POST');
  if ((method === 'GET' || method === 'HEAD') && routine.volatile) {
    throw new PgrstError(405, 'PGRST101', `Cannot use the ${method} method on RPC`);
  }
  if (!routine.volatile) await rc.tx.query('set transaction read only');

  const params = new Params();
  const provided = routine.inputs.filter((input) => keys.includes(input.name));
  const argsFrom =
    provided.length === 0
      ? ''
      : ` pg_catalog.json_to_record(${params.text(argsText)}::json) as pgrst_args(${provided
          .map((input) => `${quoteIdent(input.name)} ${input.type}`)
          .join(', ')})`;
  const call = `${quoteIdent(SCHEMA)}.${quoteIdent(routine.name)}(${provided
    .map((input) => `${quoteIdent(input.name)} => pgrst_args.${quoteIdent(input.name)}`)
    .join(', ')})`;

  if (routine.outputs) {
    const source: Source = { label: routine.name, columns: new Map(routine.outputs.map((column) => [column.name, column])) };
    const list = await selectList(rc.tx, source, query.select);
    const from = argsFrom === '' ? ` from ${call} as ${quoteIdent(ALIAS)}` : ` from${argsFrom} cross join lateral ${call} as ${quoteIdent(ALIAS)}`;
    const where = whereSql(source, query.filters, params);
    const inner = `select ${list}${from}${where}${orderSql(source, query.order)}${limitSql(query)}`;
    const result = await runAggregate(rc.tx, aggregateSql(inner, rc.media.stripNulls), params);
    if (!routine.returnsSet && !rc.media.singular) {
      // A function returning one composite value answers with that object.
      const body = result.total === 1 ? result.body.slice(1, -1).trim() : 'null';
      return new Response(body, { status: 200, headers: { 'content-type': JSON_TYPE } });
    }
    let total: number | null = null;
    if (rc.prefs.count) {
      const counted = await rc.tx.query<{ count: number }>(`select pg_catalog.count(*)::int as count${from}${where}`, params.values);
      total = counted.rows[0]?.count ?? 0;
    }
    return rangeResponse(rc, query.offset, result, total);
  }

  if (query.filters.length > 0 || query.order.length > 0) {
    throw new PgrstError(400, 'PGRST100', `"failed to parse filter" (line 1, column 1)`, `filters and order are only available on functions returning rows`);
  }
  const fromArgs = argsFrom === '' ? '' : ` from${argsFrom}`;
  if (routine.returnsVoid) {
    await rc.tx.query(`select ${call}${fromArgs}`, params.values);
    return new Response(null, { status: 204 });
  }
  if (routine.returnsSet) {
    const inner = `select pgrst_value from (select ${call} as pgrst_value${fromArgs}) pgrst_set${limitSql(query)}`;
    const result = await runAggregate(rc.tx, `select coalesce(pg_catalog.json_agg(pgrst_row.pgrst_value), '[]')::text as body, pg_catalog.count(*)::int as total from (${inner}) pgrst_row`, params);
    return rangeResponse(rc, query.offset, result, rc.prefs.count ? result.total : null);
  }
  const result = await rc.tx.query<{ body: string | null }>(`select pg_catalog.to_json(${call})::text as body${fromArgs}`, params.values);
  const body = result.rows[0]?.body ?? 'null';
  return new Response(body, { status: 200, headers: { 'content-type': rc.media.singular ? OBJECT_TYPE : JSON_TYPE } });
}

// ---------------------------------------------------------------------------------------------
// The service
// ---------------------------------------------------------------------------------------------

function requestHeadersJson(request: Request): string {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  return JSON.stringify(headers);
}

async function route(ctx: StackContext, request: Request, path: string, caller: RestCaller): Promise<Response> {
  const url = new URL(request.url);
  let segments: string[];
  try {
    segments = path.split('/').filter((segment) => segment !== '').map((segment) => decodeURIComponent(segment));
  } catch {
    throw new PgrstError(404, 'PGRST125', 'Invalid path specified in request URL');
  }
  const method = request.method;
  const isRpc = segments[0] === 'rpc';
  if (segments.length === 0) {
    throw new PgrstError(404, 'PGRST126', 'Root endpoint metadata is disabled');
  }
  if ((isRpc && segments.length !== 2) || (!isRpc && segments.length !== 1)) {
    throw new PgrstError(404, 'PGRST125', 'Invalid path specified in request URL');
  }
  const supported = isRpc ? ['GET', 'HEAD', 'POST'] : ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'];
  if (!supported.includes(method)) {
    throw isRpc
      ? new PgrstError(405, 'PGRST101', `Cannot use the ${method} method on RPC`)
      : new PgrstError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
  }
  checkProfile(request);
  const media = chooseMedia(request);
  const prefs = readPreferences(request);
  const name = segments[isRpc ? 1 : 0] ?? '';

  return withClaims(ctx.db, caller.claims, caller.role, async (tx) => {
    await tx.query(
      `select set_config('search_path', $1, true), set_config('request.method', $2, true),
              set_config('request.path', $3, true), set_config('request.headers', $4, true)`,
      [SEARCH_PATH, method, url.pathname, requestHeadersJson(request)],
    );
    if (method === 'GET' || method === 'HEAD') await tx.query('set transaction read only');
    const rc: RequestContext = { tx, schema: schemaCacheOf(ctx.db), request, url, media, prefs };
    if (isRpc) return callRoutine(rc, name);
    const relation = await cachedRelation(rc.schema, tx, name);
    switch (method) {
      case 'POST':
        return insertRows(rc, relation);
      case 'PATCH':
        return updateRows(rc, relation);
      case 'DELETE':
        return deleteRows(rc, relation);
      default:
        return readTable(rc, relation);
    }
  });
}

export function createRestService(ctx: StackContext): Service {
  return {
    async handle(request, path) {
      let caller: RestCaller | null = null;
      try {
        caller = authenticate(request, ctx.config);
        return await route(ctx, request, path, caller);
      } catch (error) {
        if (error instanceof PgrstError || error instanceof GatewayError) return error.toResponse();
        if (isPostgresError(error)) return postgresErrorResponse(error, caller?.role ?? 'anon');
        console.error('[supabase-local rest]', error);
        return new PgrstError(500, 'PGRSTX00', 'Internal server error').toResponse();
      }
    },
  };
}
