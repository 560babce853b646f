import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import madge from "madge";
import ts from "typescript";
import { inject, describe, expect, it } from "vitest";
import { createDatabase, databaseUrl } from "@tollgate/kit/testing";
import { createDatabase as connectTo, migrate } from "@tollgate/kit";
import { billingMigrations } from "../services/billing/src/migrations/index.js";

/** The shape the code keeps, checked on its text (and on billing's migrated tables): no services. */

const repository = fileURLToPath(new URL("..", import.meta.url));

describe("imports", () => {
  it("go round in no circle in the services, the gateway, proto and the web app", async () => {
    const services = readdirSync(path.join(repository, "services")).map((service) => `services/${service}/src`);
    const circles = [...(await circlesIn([...services, "gateway/src", "proto/src"], "tsconfig.json")), ...(await circlesIn(["web/src"], "web/tsconfig.json"))];
    expect(circles.length, `import circles:\n${circles.join("\n")}`).toBe(0);
  }, 120_000);
});

/** Each circle among the TypeScript files under `folders`, as `a.ts → b.ts → a.ts`; imports resolve as `tsConfig` has them. */
async function circlesIn(folders: string[], tsConfig: string): Promise<string[]> {
  const graph = await madge(folders, { baseDir: repository, fileExtensions: ["ts", "tsx"], tsConfig: path.join(repository, tsConfig) });
  return graph.circular().map((circle) => [...circle, circle[0]].join(" → "));
}

/** Billing's domain folders and the tables each owns: a domain's store queries only these, and reads others' rows through their stores. */
const TABLES_OF_DOMAIN: Record<string, string[]> = {
  organizations: ["organizations"],
  "access-tokens": ["access_tokens"],
  products: ["products", "product_prices", "product_benefits", "product_medias", "product_custom_fields"],
  "custom-fields": ["custom_fields"],
  discounts: ["discounts", "discount_products"],
  benefits: ["benefits", "benefit_grants"],
  "license-keys": ["license_keys", "license_key_activations"],
  files: ["files"],
  customers: ["customers", "customer_state_changes"],
  "customer-sessions": ["customer_sessions"],
  users: ["people"],
  checkouts: ["checkouts", "checkout_payment_jobs"],
  "checkout-links": ["checkout_links"],
  orders: ["orders", "order_items"],
  payments: ["payments", "customer_payment_methods", "sandbox_confirmation_tokens", "sandbox_operations", "sandbox_payment_methods"],
  subscriptions: ["subscriptions"],
  refunds: ["refunds"],
  meters: ["meters", "meter_rollups", "meter_unique_values"],
  "customer-meters": ["customer_meters", "customer_meter_values"],
  "usage-events": ["usage_events", "usage_event_names", "usage_events_unmeasured"],
  metrics: ["order_hours", "order_product_hours", "checkout_hours", "checkout_product_hours"],
  "customer-portal": [],
  "test-clock": [],
};
const OWNER_OF_TABLE = new Map(Object.entries(TABLES_OF_DOMAIN).flatMap(([domain, tables]) => tables.map((table) => [table, domain] as const)));

const billingSource = path.join(repository, "services/billing/src");

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

describe("billing's routes", () => {
  it("call their domain's service, never a *.sql.ts store", () => {
    const isRoutes = (file: string) => /(^|\/)routes(\.ts$|\/)/.test(path.relative(billingSource, file).split(path.sep).join("/"));
    const storeImports = billingFiles()
      .filter(isRoutes)
      .flatMap((file) => importsOf(file).filter((imported) => imported.endsWith(".sql.js")).map((imported) => `${path.relative(repository, file)} imports ${imported}`));
    expect(storeImports, `routes reading or writing a store:\n${storeImports.join("\n")}`).toEqual([]);
  });
});

/**
 * Billing's folders by tier, as CONTRIBUTING's "Tiers" lists them: 0 what every domain shares (the
 * files beside the domains count as 0 too), 1 catalog, 2 customers, 3 commerce, 4 read models.
 */
const TIERS: Record<string, number> = {
  db: 0, calendar: 0, http: 0, migrations: 0,
  organizations: 1, "access-tokens": 1, "test-clock": 1, files: 1, "custom-fields": 1, products: 1, discounts: 1, benefits: 1, meters: 1,
  users: 2, customers: 2, "customer-sessions": 2, "customer-meters": 2, "license-keys": 2, "benefit-grants": 2,
  checkouts: 3, "checkout-links": 3, orders: 3, subscriptions: 3, payments: 3, refunds: 3, "usage-events": 3, flows: 3,
  "customer-state": 4, "customer-portal": 4, purchases: 4, metrics: 4,
};

/** The tier of a file of billing's (relative to its src/): its folder's, or 0 beside the domains. */
const tierOf = (relative: string) => (relative.includes("/") ? TIERS[relative.split("/")[0] ?? ""] : 0);

describe("billing's tiers", () => {
  it("place every folder of billing's", () => {
    const folders = readdirSync(billingSource, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders.filter((folder) => !(folder in TIERS)), "folders missing from TIERS").toEqual([]);
  });

  it("are kept: no folder imports a folder of a higher tier (service.ts composes them)", () => {
    const relativeOf = (file: string) => path.relative(billingSource, file).split(path.sep).join("/");
    const upward = billingFiles()
      .filter((file) => relativeOf(file).includes("/"))
      .flatMap((file) => {
        const from = relativeOf(file);
        return importsOf(file)
          .filter((imported) => imported.startsWith("."))
          .map((imported) => relativeOf(path.resolve(path.dirname(file), imported)))
          .filter((to) => to.includes("/") && (tierOf(to) ?? 0) > (tierOf(from) ?? 0))
          .map((to) => `${from} (tier ${tierOf(from)}) imports ${to} (tier ${tierOf(to)})`);
      });
    expect(upward, `imports up a tier:\n${upward.join("\n")}`).toEqual([]);
  });
});

/** The modules `file` imports or re-exports, as written. */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  return source.statements.flatMap((statement) =>
    (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? [statement.moduleSpecifier.text] : [],
  );
}

/** The kit's tables in every service's schema, and the migrations' own bookkeeping. */
const KIT_TABLES = new Set(["outbox", "inbox", "dead_letters", "memberships", "migrations", "migrations_lock", "set_aside_work"]);

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

/** Billing's TypeScript files, its migrations left out (they make every table). */
function billingFiles(): string[] {
  return readdirSync(billingSource, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.startsWith(`migrations${path.sep}`))
    .map((file) => path.join(billingSource, file));
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

/** A discount's terms, as its row names them: only the discounts domain reads them (its rules, its output). */
const DISCOUNT_TERMS = new Set(["basis_points", "duration_in_months", "max_redemptions", "redemptions_count"]);

describe("discount rules", () => {
  it("live in discounts/: no other billing file reads a discount's terms", () => {
    const readers = billingFiles()
      .filter((file) => !path.relative(billingSource, file).startsWith(`discounts${path.sep}`))
      .flatMap(discountTermReads);
    expect(readers.length, `discount terms read outside discounts/ (call discounts/rules.ts or discounts/output.ts):\n${readers.join("\n")}`).toBe(0);
  });
});

/**
 * Where `file` reads a discount's terms: `x.basis_points` and the like, or `discount.duration` (a
 * word other rows may use, so only on something named for a discount), as `file:line name`.
 */
function discountTermReads(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const reads: string[] = [];
  const visit = (node: ts.Node) => {
    const name = ts.isPropertyAccessExpression(node) ? node.name.text : ts.isBindingElement(node) ? (node.propertyName ?? node.name).getText(source) : undefined;
    const owner = ts.isPropertyAccessExpression(node) ? node.expression.getText(source) : "";
    if (name && (DISCOUNT_TERMS.has(name) || (name === "duration" && /discount/i.test(owner)))) {
      reads.push(`${path.relative(repository, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${name}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return reads;
}

describe("billing's http/ folder", () => {
  it("holds what is HTTP: no store imports from it (stores' helpers live in db/)", () => {
    const storeImports = billingFiles()
      .filter((file) => file.endsWith(".sql.ts"))
      .flatMap((file) => [...readFileSync(file, "utf8").matchAll(/from "\.\.\/http\/([^"]+)"/g)].map((found) => `${path.relative(repository, file)} imports http/${found[1]}`));
    expect(storeImports.length, `stores importing http/:\n${storeImports.join("\n")}`).toBe(0);
  });
});

const webSource = path.join(repository, "web/src");
/** The generated wire types, and the module that names them for the app. */
const WIRE_MODULES = new Set(["api/v1-wire.ts", "api/wire.ts"]);
/** A hand-written object type with this many fields, all of one schema's, is taken for a copy of it. */
const COPIED_FIELDS = 3;

describe("the web app's /v1 wire types", () => {
  it("are the ones generated from v1-openapi.json: none is declared by hand in web/src", () => {
    const schemas = wireSchemas();
    const names = new Set([...schemas.keys(), ...wireNames()]);
    const offences = webFiles().flatMap((file) => handWrittenWireTypes(file, names, schemas));
    expect(offences.length, `wire types declared by hand (use web/src/api/wire.ts):\n${offences.join("\n")}`).toBe(0);
  });
});

/** Each component schema of the /v1 document, with its fields (a union's are its variants' together). */
function wireSchemas(): Map<string, Set<string>> {
  interface Schema { properties?: Record<string, unknown>; oneOf?: Schema[]; anyOf?: Schema[]; $ref?: string }
  const document = JSON.parse(readFileSync(path.join(webSource, "api/v1-openapi.json"), "utf8")) as { components: { schemas: Record<string, Schema> } };
  const all = document.components.schemas;
  const fieldsOf = (schema: Schema | undefined): string[] =>
    schema?.$ref ? fieldsOf(all[schema.$ref.split("/").pop() ?? ""]) : [...Object.keys(schema?.properties ?? {}), ...[...(schema?.oneOf ?? []), ...(schema?.anyOf ?? [])].flatMap(fieldsOf)];
  return new Map(Object.entries(all).map(([name, schema]) => [name, new Set(fieldsOf(schema))]));
}

/** The names web/src/api/wire.ts gives generated types. */
const wireNames = () => [...readFileSync(path.join(webSource, "api/wire.ts"), "utf8").matchAll(/^export type (\w+)/gm)].map((found) => found[1] ?? "");

const webFiles = () =>
  readdirSync(webSource, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file) && !WIRE_MODULES.has(file.split(path.sep).join("/")))
    .map((file) => path.join(webSource, file));

/** Interfaces and object types in `file` named as a wire type, or whose fields are all one schema's. */
function handWrittenWireTypes(file: string, names: Set<string>, schemas: Map<string, Set<string>>): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const where = (node: ts.Node) => `${path.relative(repository, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const offences: string[] = [];
  const visit = (node: ts.Node) => {
    const declared = ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) ? node.name.text : undefined;
    if (declared && names.has(declared) && (ts.isInterfaceDeclaration(node) || holdsObjectType(node))) offences.push(`${where(node)} declares ${declared}`);
    if (ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node)) {
      const fields = node.members.flatMap((member) => (member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) ? [member.name.text] : []));
      const copied = fields.length >= COPIED_FIELDS ? [...schemas].find(([, known]) => fields.every((field) => known.has(field))) : undefined;
      if (copied) offences.push(`${where(node)} copies the fields of ${copied[0]}: ${fields.join(", ")}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return offences;
}

const holdsObjectType = (node: ts.Node): boolean => ts.isTypeLiteralNode(node) || ts.forEachChild(node, (child) => holdsObjectType(child) || undefined) === true;

/** Files allowed to spell a query key: each area's queries module. */
const isQueriesModule = (file: string) => path.basename(file) === "queries.ts";

describe("the web app's query keys", () => {
  it("are spelled only in a queries module: no string query key elsewhere", () => {
    const offences = webFiles()
      .filter((file) => !isQueriesModule(file))
      .flatMap((file) => stringQueryKeys(file));
    expect(offences.length, `string query keys outside a queries.ts (use the area's key factory):\n${offences.join("\n")}`).toBe(0);
  });
});

/** `queryKey: ["…", …]` (and a server listing's `key: ["…", …]`) in `file`: a key written out where it is used. */
function stringQueryKeys(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const offences: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && (node.name.text === "queryKey" || node.name.text === "key") && ts.isArrayLiteralExpression(node.initializer)) {
      const [first] = node.initializer.elements;
      if (first && ts.isStringLiteralLike(first)) offences.push(`${path.relative(repository, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${node.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return offences;
}
