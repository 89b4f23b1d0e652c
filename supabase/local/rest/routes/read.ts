/** `GET`/`HEAD /rest/v1/<table>`: rows, with `count=exact` and ranges. */
import { type Relation, SCHEMA } from '../catalog';
import { quoteIdent } from '../../shared';
import { parseQuery } from '../grammar/query';
import { type RequestContext, rangeResponse, relationSource } from '../responses';
import { ALIAS, Params, aggregateSql, limitSql, orderSql, runAggregate, selectList, whereSql } from '../sql';

export async function readTable(rc: RequestContext, relation: Relation): Promise<Response> {
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
