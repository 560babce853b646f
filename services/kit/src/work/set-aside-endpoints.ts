import { z } from "zod";
import type { IdentityClaims } from "@tollgate/proto";
import type { OrganizationAccess, Scope } from "../access/organization-access.js";
import type { Knex } from "../db/connection.js";
import { defineEndpoint, type Endpoint } from "../http/endpoint.js";
import { HttpError } from "../http/errors.js";
import { notFound } from "../polar/errors.js";
import { listResource, pageJson, pageOf, paging, repeated } from "../polar/lists.js";
import { findSetAside, forgetFailures, setAsideOf, type WorkFailureRow } from "./set-aside.sql.js";

/** A worker whose set-aside items a seller may see (with `read`) and send back to work (with `write`). */
export interface SetAsideWorker {
  read: Scope;
  write: Scope;
  /**
   * For a worker that settled the item when it set it aside (the webhook dispatcher marks the event
   * failed, so its seller sees that in the delivery log): makes it work to do again, in the same
   * transaction as its failures are forgotten.
   */
  putBack?(db: Knex, item: string): Promise<unknown>;
  /** Called once an item is back in line, so it is tried at once rather than at the next poll. */
  wake(): void;
}

const SetAsideWork = z
  .strictObject({
    id: z.string(),
    created_at: z.iso.datetime({ offset: true }).meta({ description: "When the item first failed" }),
    modified_at: z.iso.datetime({ offset: true }).meta({ description: "When it last failed" }),
    set_aside_at: z.iso.datetime({ offset: true }),
    worker: z.string().meta({ description: "The background work that failed on it" }),
    item_id: z.string().meta({ description: "The id of what it was working on (a webhook event, a usage event, a subscription …)" }),
    organization_id: z.string(),
    reason: z.string().meta({ description: "Why its last try failed" }),
    failures: z.int(),
  })
  .meta({ id: "SetAsideWork", description: "Background work set aside after failing again and again; everything else went on." });

const setAsideJson = (row: WorkFailureRow): z.output<typeof SetAsideWork> => ({
  id: String(row.id),
  created_at: row.first_failed_at.toISOString(),
  modified_at: row.last_failed_at.toISOString(),
  set_aside_at: (row.set_aside_at ?? row.last_failed_at).toISOString(),
  worker: row.worker,
  item_id: row.item,
  organization_id: row.organization_id ?? "",
  reason: row.reason,
  failures: row.failures,
});

/**
 * The organizations the caller may see each worker's items for: a token without a worker's scope
 * sees none of its items, and is refused only when it may see no worker's at all.
 */
async function reachableByWorker(access: OrganizationAccess, identity: IdentityClaims, workers: Record<string, SetAsideWorker>, scope: "read" | "write"): Promise<Map<string, string[]>> {
  const reachable = new Map<string, string[]>();
  let refusal: HttpError | null = null;
  for (const [name, worker] of Object.entries(workers)) {
    try {
      reachable.set(name, await access.organizationIds(identity, worker[scope]));
    } catch (error) {
      if (!(error instanceof HttpError && error.status === 403)) throw error;
      refusal = error;
    }
  }
  if (reachable.size === 0 && refusal) throw refusal;
  return reachable;
}

/**
 * `GET {base}/` lists the caller's set-aside work, newest first; `POST {base}/{id}/retry` puts an
 * item back in line once its seller has dealt with the cause (it counts its failures afresh).
 */
export function setAsideEndpoints(base: string, deps: { db: Knex; access: OrganizationAccess; workers: Record<string, SetAsideWorker>; tag: string }): Endpoint[] {
  const { db, access, workers, tag } = deps;
  const visibleTo = (reachable: Map<string, string[]>) => (query: Knex.QueryBuilder) => {
    void query.where((any) => {
      for (const [worker, organizationIds] of reachable) void any.orWhere((one) => one.where("worker", worker).whereIn("organization_id", organizationIds));
    });
  };
  return [
    defineEndpoint(
      `${base}/`,
      {
        method: "GET",
        query: z.object({ ...paging, organization_id: repeated(z.string()), worker: repeated(z.string()) }),
        response: listResource(SetAsideWork, "ListResource_SetAsideWork_"),
        summary: "List background work set aside after repeated failures",
        tag,
      },
      async ({ query, identity }) => {
        const reachable = await reachableByWorker(access, identity, workers, "read");
        const wanted = new Set(query.worker ?? reachable.keys());
        const narrowed = new Map([...reachable].filter(([worker]) => wanted.has(worker)).map(([worker, ids]) => [worker, query.organization_id ? ids.filter((id) => query.organization_id?.includes(id)) : ids]));
        const found = setAsideOf(db, [...new Set([...narrowed.values()].flat())]).modify(visibleTo(narrowed));
        const { rows, total } = await pageOf<WorkFailureRow, "set_aside_at">(found, {
          ...query,
          sort: [{ property: "set_aside_at", descending: true }],
          columns: { set_aside_at: "set_aside_at" },
          table: "set_aside_work",
        });
        return pageJson(rows.map(setAsideJson), total, query.limit);
      },
    ),
    defineEndpoint(
      `${base}/:id/retry`,
      { method: "POST", status: 202, params: z.object({ id: z.string() }), response: z.strictObject({}), summary: "Try a set-aside work item again", tag },
      async ({ params, identity }) => {
        const reachable = await reachableByWorker(access, identity, workers, "write");
        const item = await findSetAside(db, [...new Set([...reachable.values()].flat())], params.id);
        if (!item || !item.organization_id || !reachable.get(item.worker)?.includes(item.organization_id)) throw notFound("Set-aside work");
        const worker = workers[item.worker];
        await db.transaction(async (trx) => {
          await forgetFailures(trx, item.worker, [item.item]);
          await worker?.putBack?.(trx, item.item);
        });
        worker?.wake();
        return {};
      },
    ),
  ];
}
