import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { inject, describe, expect, it } from "vitest";
import { createDatabase, databaseUrl } from "@tollgate/kit/testing";
import { createDatabase as connectTo, migrate } from "@tollgate/kit";
import { billingMigrations } from "../../services/billing/src/migrations/index.js";
import { billingFiles, billingSource, repository } from "./source.js";

/** Billing's tables are fenced: each has an owning domain, and only that domain's stores name it (checked on the text, and on billing's migrated tables). */

/** Billing's domain folders and the tables each owns: a domain's store queries only these, and reads others' rows through their stores. */
const TABLES_OF_DOMAIN: Record<string, string[]> = {
  organizations: ["organizations"],
  invoices: ["order_documents"],
  "access-tokens": ["access_tokens"],
  products: ["products", "product_prices", "product_benefits", "product_medias", "product_custom_fields"],
  "custom-fields": ["custom_fields"],
  discounts: ["discounts", "discount_products"],
  benefits: ["benefits", "benefit_grants"],
  "license-keys": ["license_keys", "license_key_activations"],
  files: ["files", "file_downloads"],
  customers: ["customers", "customer_state_changes"],
  members: ["members"],
  "customer-sessions": ["customer_sessions", "customer_session_codes", "customer_email_verifications"],
  users: ["people"],
  checkouts: ["checkouts", "checkout_payment_jobs"],
  "checkout-links": ["checkout_links"],
  orders: ["orders", "order_items"],
  payments: ["payments", "customer_payment_methods", "sandbox_confirmation_tokens", "sandbox_operations", "sandbox_payment_methods", "stripe_customers"],
  "stripe-events": ["stripe_events"],
  disputes: ["disputes"],
  subscriptions: ["subscriptions"],
  "customer-seats": ["customer_seats"],
  "organization-links": ["customer_organization_links", "linked_organization_members"],
  refunds: ["refunds"],
  meters: ["meters", "meter_rollups", "meter_unique_values"],
  "customer-meters": ["customer_meters", "customer_meter_values"],
  "usage-events": ["usage_events", "usage_event_names", "usage_events_unmeasured"],
  "event-types": ["event_types"],
  metrics: ["order_hours", "order_product_hours", "checkout_hours", "checkout_product_hours", "metric_dashboards"],
  "customer-portal": [],
  "test-clock": [],
};
const OWNER_OF_TABLE = new Map(Object.entries(TABLES_OF_DOMAIN).flatMap(([domain, tables]) => tables.map((table) => [table, domain] as const)));


interface TableMention {
  /** Relative to the repository. */
  file: string;
  line: number;
  table: string;
  owner: string;
  /** The file's domain folder; none for the files beside the domains (service.ts, billing.ts…). */
  domain: string | undefined;
  /** The domains a `// crosses into <domains>:` comment over the mention names. */
  crossings: string[];
}

const describeMention = (mention: TableMention) => `${mention.file}:${mention.line} ${mention.table} (owned by ${mention.owner})`;

describe("billing's tables", () => {
  const mentions = billingFiles().flatMap(tableMentions);
  const isStore = (mention: TableMention) => mention.file.endsWith(".sql.ts");

  it("each have an owner: every table billing's migrations make is in TABLES_OF_DOMAIN", async () => {
    const unowned = (await billingTables()).filter((table) => !KIT_TABLES.has(table) && !OWNER_OF_TABLE.has(table));
    expect(unowned, `tables no domain owns (add them to TABLES_OF_DOMAIN):\n${unowned.join("\n")}`).toEqual([]);
  }, 60_000);

  it("are named only in *.sql.ts stores", () => {
    const outsideStores = mentions.filter((mention) => !isStore(mention)).map(describeMention);
    expect(outsideStores.length, `tables named outside a store:\n${outsideStores.join("\n")}`).toBe(0);
  });

  it("are named only by the domain owning them, or where a comment says the store crosses into it", () => {
    const foreign = mentions.filter((mention) => isStore(mention) && mention.owner !== mention.domain);
    const crossings = foreign.filter((mention) => mention.crossings.includes(mention.owner)).map(describeMention);
    // Printed for the reviewer: each crossing is allowed only while its reason holds.
    if (crossings.length > 0) console.info(`crossings into other domains' tables:\n${crossings.join("\n")}`);
    const trespasses = foreign.filter((mention) => !mention.crossings.includes(mention.owner)).map(describeMention);
    expect(trespasses.length, `stores naming another domain's tables:\n${trespasses.join("\n")}`).toBe(0);
  });
});

/** The kit's tables in every service's schema, and the migrations' own bookkeeping. */
const KIT_TABLES = new Set(["outbox", "inbox", "dead_letters", "memberships", "organization_requirements", "migrations", "migrations_lock", "set_aside_work"]);

/** The tables billing's migrations make, read from a database migrated for this test: the migrations build some names in code. */
async function billingTables(): Promise<string[]> {
  const { postgresUrl, runId } = inject("tollgate");
  const database = `${runId}_architecture`;
  await createDatabase(postgresUrl, database);
  const url = databaseUrl(postgresUrl, database);
  await migrate({ url, schema: "billing" }, billingMigrations);
  const db = connectTo({ url, schema: "billing", poolMax: 1 });
  try {
    return await db("information_schema.tables").where({ table_schema: "billing" }).orderBy("table_name").pluck<string[]>("table_name");
  } finally {
    await db.destroy();
  }
}


/** Query builder calls whose first argument is a table: `db("x")`, `trx("x")`, `unit.db("x")`, `.from("x")`, `.join("x", …)`… */
const TABLE_CALLS = new Set(["db", "trx", "knex", "from", "into", "table", "join", "leftJoin", "rightJoin", "innerJoin", "fullOuterJoin", "crossJoin"]);
/** What makes a string SQL rather than prose that happens to say "from orders". */
const LOOKS_LIKE_SQL = /\b(select\s|insert\s+into\s|update\s+"?\w+"?\s+set\s|delete\s+from\s)/i;
const TABLE_IN_SQL = /\b(?:from|join|into|update)\s+"?([a-z_][a-z0-9_]*)"?/gi;
const CROSSING = /\/\/\s*crosses into ([^:\n]+):/g;

/** Every place `file` names one of billing's tables, with the crossings declared over it. */
function tableMentions(file: string): TableMention[] {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const relative = path.relative(repository, file);
  const [first, ...rest] = path.relative(billingSource, file).split(path.sep);
  const domain = rest.length > 0 ? first : undefined;
  const mentions = new Map<number, TableMention>();
  const mention = (position: number, table: string, node: ts.Node) => {
    const owner = OWNER_OF_TABLE.get(table.toLowerCase());
    if (!owner || mentions.has(position)) return;
    const line = source.getLineAndCharacterOfPosition(position).line + 1;
    mentions.set(position, { file: relative, line, table, owner, domain, crossings: crossingsOver(node, position, text) });
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && TABLE_CALLS.has(calledName(node.expression))) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) mention(argument.getStart(source), argument.text.trim().split(/\s/)[0] ?? "", argument);
    }
    for (const piece of sqlPieces(node, source)) {
      for (const found of piece.getText(source).matchAll(TABLE_IN_SQL)) mention(piece.getStart(source) + found.index, found[1] ?? "", piece);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...mentions.values()].sort((a, b) => a.line - b.line);
}

const calledName = (callee: ts.Expression) => (ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : "");

/** The literal parts of `node` when it is a string of SQL: as written, or given to a `raw`/`…Raw` call. */
function sqlPieces(node: ts.Node, source: ts.SourceFile): ts.Node[] {
  const pieces = ts.isTemplateExpression(node) ? [node.head, ...node.templateSpans.map((span) => span.literal)] : ts.isStringLiteralLike(node) ? [node] : [];
  if (pieces.length === 0) return [];
  const sql = pieces.map((piece) => piece.getText(source)).join(" ");
  return LOOKS_LIKE_SQL.test(sql) || givenToRaw(node) ? pieces : [];
}

function givenToRaw(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node.parent; at && !ts.isSourceFile(at); at = at.parent) {
    if (ts.isCallExpression(at) && /(^r|R)aw$/.test(calledName(at.expression))) return true;
  }
  return false;
}

/**
 * The domains named by `// crosses into <domains>:` comments over a mention: before any declaration holding it, or
 * earlier in the statement holding it (above a step of a query chain), or at the end of its line.
 */
function crossingsOver(node: ts.Node, position: number, text: string): string[] {
  const comments = [text.slice(position, text.indexOf("\n", position))];
  let statement: ts.Node | undefined;
  for (let at: ts.Node | undefined = node; at && !ts.isSourceFile(at); at = at.parent) {
    for (const range of ts.getLeadingCommentRanges(text, at.getFullStart()) ?? []) comments.push(text.slice(range.pos, range.end));
    if (!statement && (ts.isSourceFile(at.parent) || ts.isBlock(at.parent))) statement = at;
  }
  comments.push(text.slice((statement ?? node).getFullStart(), position));
  return comments.flatMap((comment) => [...comment.matchAll(CROSSING)].flatMap((found) => found[1]?.split(/,\s*|\s+and\s+/).map((domain) => domain.trim()) ?? []));
}

