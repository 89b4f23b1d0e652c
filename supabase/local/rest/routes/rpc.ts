/** `/rest/v1/rpc/<fn>`: calling a function of `public` by POST (JSON arguments) or GET (query arguments). */
import { type Routine, SCHEMA, cachedRoutines } from '../catalog';
import { isRecord, quoteIdent } from '../../shared';
import { PgrstError } from '../errors';
import { type ReadQuery, parseQuery } from '../grammar/query';
import { JSON_TYPE, OBJECT_TYPE, type RequestContext, rangeResponse } from '../responses';
import { ALIAS, Params, type Source, aggregateSql, limitSql, orderSql, runAggregate, selectList, whereSql } from '../sql';

/** PostgREST's PGRST202 without its "Perhaps you meant" hint. */
function noRoutine(name: string, keys: string[], isPost: boolean): PgrstError {
  const func = `${SCHEMA}.${name}`;
  const list = [...keys].sort().join(', ');
  const message = `Could not find the function ${func}${keys.length ? `(${list})` : ' without parameters'} in the schema cache`;
  const paramsDetail = keys.length ? ` with parameter${keys.length > 1 ? 's' : ''} ${list}` : ' without parameters';
  const details = `Searched for the function ${func}${paramsDetail}${isPost ? ' or with a single unnamed json/jsonb parameter' : ''}, but no matches were found in the schema cache.`;
  return new PgrstError(404, 'PGRST202', message, details);
}

function pickRoutine(routines: Routine[], keys: Set<string>): Routine[] {
  return routines.filter((routine) => {
    const names = new Set(routine.inputs.map((input) => input.name));
    for (const key of keys) if (!names.has(key)) return false;
    return routine.inputs.every((input) => !input.required || keys.has(input.name));
  });
}

export async function callRoutine(rc: RequestContext, name: string): Promise<Response> {
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
    if (!isRecord(parsed)) throw new PgrstError(400, 'PGRST102', 'Empty or invalid json');
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
  if (!routine) throw noRoutine(name, keys, method === 'POST');
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
