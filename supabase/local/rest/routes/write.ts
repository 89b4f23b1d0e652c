/** `POST` (insert, upsert), `PATCH` (update) and `DELETE` on `/rest/v1/<table>`, with `Prefer: return=…`. */
import { type Column, type Relation, SCHEMA } from '../catalog';
import { isRecord, quoteIdent } from '../../shared';
import { PgrstError } from '../errors';
import { type ReadQuery, parseColumnsParam, parseQuery } from '../grammar/query';
import { JSON_TYPE, type Json, type RequestContext, contentRange, relationSource, rowsBody, singularityError } from '../responses';
import { ALIAS, type Aggregated, Params, type Source, aggregateSql, columnOf, limitSql, orderSql, runAggregate, selectList, whereSql } from '../sql';

async function readBody(request: Request): Promise<{ text: string; value: unknown }> {
  const text = await request.text();
  try {
    return { text, value: JSON.parse(text) as unknown };
  } catch {
    throw new PgrstError(400, 'PGRST102', 'Empty or invalid json');
  }
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

export async function insertRows(rc: RequestContext, relation: Relation): Promise<Response> {
  const { text, value } = await readBody(rc.request);
  const rows: Json[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      if (!isRecord(item)) throw new PgrstError(400, 'PGRST102', 'Empty or invalid json');
      rows.push(item);
    }
  } else if (isRecord(value)) {
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

export async function updateRows(rc: RequestContext, relation: Relation): Promise<Response> {
  const { text, value } = await readBody(rc.request);
  if (!isRecord(value)) throw new PgrstError(400, 'PGRST102', 'Empty or invalid json');
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

export async function deleteRows(rc: RequestContext, relation: Relation): Promise<Response> {
  const query = parseQuery(rc.url);
  const source = relationSource(relation);
  const params = new Params();
  const table = `${quoteIdent(SCHEMA)}.${quoteIdent(relation.name)}`;
  const sql = `delete from ${table} as ${quoteIdent(ALIAS)}${limitedWhere(relation, source, query, params, 'DELETE')}`;
  return writeResponse(rc, relation, { sql, params }, { representation: 200, minimal: 204 });
}
