/** SQL for a parsed query: select list, where, order, limit, and the JSON aggregate around it. */
import type { Transaction } from '@electric-sql/pglite';
import { type Column } from './catalog';
import { quoteIdent } from '../shared';
import { PgrstError, columnMissing } from './errors';
import type { CompareOp, Filter, LogicTree } from './grammar/filters';
import type { OrderTerm, ReadQuery } from './grammar/query';
import type { SelectItem } from './grammar/select';

// SQL building

export const ALIAS = 'pgrst_t';

export class Params {
  readonly values: string[] = [];

  /** Binds a value as text; the cast to the column's type happens in SQL. */
  text(value: string): string {
    this.values.push(value);
    return `$${this.values.length}::text`;
  }
}

/** The columns a query can see: a table's, or a function's result columns. */
export interface Source {
  /** Name used in error messages (`column <name>.x does not exist`). */
  label: string;
  columns: Map<string, Column>;
}

export function columnOf(source: Source, name: string): Column {
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

export async function selectList(tx: Transaction, source: Source, items: SelectItem[]): Promise<string> {
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

const comparison: Record<CompareOp, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'like',
  ilike: 'ilike',
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
    case 'compare': {
      const pattern = op.op === 'like' || op.op === 'ilike';
      // PostgREST lets * stand for % in patterns (a % is awkward in a URL).
      const value = pattern ? op.value.replace(/\*/g, '%') : op.value;
      sql = `${target} ${comparison[op.op]} ${params.text(value)}${pattern ? '' : `::${column.type}`}`;
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

export function whereSql(source: Source, filters: LogicTree[], params: Params): string {
  if (filters.length === 0) return '';
  return ` where ${filters.map((tree) => `(${logicSql(source, tree, params)})`).join(' and ')}`;
}

export function orderSql(source: Source, order: OrderTerm[]): string {
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

export function limitSql(query: ReadQuery): string {
  let sql = '';
  if (query.limit !== null) sql += ` limit ${String(query.limit)}`;
  if (query.offset > 0) sql += ` offset ${String(query.offset)}`;
  return sql;
}

/** Wraps a row-producing query into one JSON array (Postgres formats the values, as PostgREST). */
export function aggregateSql(inner: string, stripNulls: boolean): string {
  const element = stripNulls ? 'pg_catalog.json_strip_nulls(pg_catalog.row_to_json(pgrst_row))' : 'pgrst_row';
  return `select coalesce(pg_catalog.json_agg(${element}), '[]')::text as body, pg_catalog.count(*)::int as total
            from (${inner}) pgrst_row`;
}

export interface Aggregated {
  body: string;
  total: number;
}

export async function runAggregate(tx: Transaction, sql: string, params: Params): Promise<Aggregated> {
  const result = await tx.query<Aggregated>(sql, params.values);
  const row = result.rows[0];
  return row ?? { body: '[]', total: 0 };
}
