import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { billingFiles, billingRelative, billingSource, importsOf, repository } from "./source.js";

/** Billing's shape: routes call services, tiers import downward, discount rules in discounts/, http/ only HTTP. */

/** A billing routes.ts, or a file of a routes/ folder. */
const isRoutes = (file: string) => /(^|\/)routes(\.ts$|\/)/.test(billingRelative(file));

describe("billing's routes", () => {
  it("call their domain's service, never a *.sql.ts store", () => {
    const storeImports = billingFiles()
      .filter(isRoutes)
      .flatMap((file) => importsOf(file).filter((imported) => imported.endsWith(".sql.js")).map((imported) => `${path.relative(repository, file)} imports ${imported}`));
    expect(storeImports, `routes reading or writing a store:\n${storeImports.join("\n")}`).toEqual([]);
  });

  it("name their requests' schemas from schemas.ts or http/, never writing a query or body with zod inline", () => {
    const inline = billingFiles().filter(isRoutes).flatMap(inlineRequestSchemas);
    expect(inline, `query or body schemas written in routes (move them to the domain's schemas.ts):\n${inline.join("\n")}`).toEqual([]);
  });
});

/**
 * Where a routes file gives `defineEndpoint` a `query` or `body` that calls zod (`z.object(…)`,
 * `….extend({ x: z.string() })`), directly or through a constant of the file's own, as `file:line key`.
 */
function inlineRequestSchemas(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const constants = new Map<string, ts.Expression>();
  const endpointOptions: ts.ObjectLiteralExpression[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) constants.set(node.name.text, node.initializer);
    if (ts.isCallExpression(node) && node.expression.getText(source) === "defineEndpoint" && node.arguments[1] && ts.isObjectLiteralExpression(node.arguments[1])) endpointOptions.push(node.arguments[1]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  const callsZod = (node: ts.Node): boolean =>
    (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.expression.getText(source) === "z") || ts.forEachChild(node, callsZod) === true;
  return endpointOptions.flatMap((options) =>
    options.properties.flatMap((property) => {
      if (!ts.isPropertyAssignment(property) || !["query", "body"].includes(property.name.getText(source))) return [];
      const value = ts.isIdentifier(property.initializer) ? (constants.get(property.initializer.text) ?? property.initializer) : property.initializer;
      return callsZod(value) ? [`${path.relative(repository, file)}:${source.getLineAndCharacterOfPosition(property.getStart(source)).line + 1} ${property.name.getText(source)}`] : [];
    }),
  );
}

/**
 * Billing's folders by tier, as CONTRIBUTING's "Tiers" lists them: 0 what every domain shares (the
 * files beside the domains count as 0 too, bar the composition roots), 1 catalog, 2 customers, 3
 * commerce, 4 read models.
 */
const TIERS: Record<string, number> = {
  db: 0, calendar: 0, http: 0, migrations: 0,
  organizations: 1, taxes: 1, "access-tokens": 1, "test-clock": 1, files: 1, "custom-fields": 1, products: 1, discounts: 1, benefits: 1, meters: 1, "event-types": 1,
  users: 2, customers: 2, members: 2, "customer-sessions": 2, "customer-meters": 2, "license-keys": 2, "benefit-grants": 2,
  checkouts: 3, "checkout-links": 3, orders: 3, subscriptions: 3, payments: 3, refunds: 3, disputes: 3, "usage-events": 3, "customer-seats": 3, flows: 3, "organization-links": 3,
  "customer-state": 4, "customer-portal": 4, "customer-mails": 4, invoices: 4, purchases: 4, metrics: 4, "stripe-events": 4,
};

/** The tier of a file of billing's (relative to its src/): its folder's, or 0 beside the domains. */
const tierOf = (relative: string) => (relative.includes("/") ? TIERS[relative.split("/")[0] ?? ""] : 0);

/**
 * The files beside the domains that put billing together, and so may import any tier. Every other
 * file there (`events.ts`, `config.ts`) is tier 0: each tier imports it, so it imports none above.
 */
const COMPOSITION_ROOTS: Record<string, string> = {
  "service.ts": "builds the service: every domain's routes, workers and consumers",
  "main.ts": "starts the service",
  "parts.ts": "names the parts service.ts builds, typed by the domains that make them (the processor, file storage)",
  "set-aside.ts": "lists the workers of four domains under the scopes of what they work on",
};

describe("billing's tiers", () => {
  it("place every folder of billing's", () => {
    const folders = readdirSync(billingSource, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders.filter((folder) => !(folder in TIERS)), "folders missing from TIERS").toEqual([]);
  });

  it("are kept: no file imports a folder of a higher tier (the composition roots put them together)", () => {
    const upward = billingFiles()
      .filter((file) => !(billingRelative(file) in COMPOSITION_ROOTS))
      .flatMap((file) => {
        const from = billingRelative(file);
        return importsOf(file)
          .filter((imported) => imported.startsWith("."))
          .map((imported) => billingRelative(path.resolve(path.dirname(file), imported)))
          .filter((to) => to.includes("/") && (tierOf(to) ?? 0) > (tierOf(from) ?? 0))
          .map((to) => `${from} (tier ${tierOf(from)}) imports ${to} (tier ${tierOf(to)})`);
      });
    expect(upward, `imports up a tier:\n${upward.join("\n")}`).toEqual([]);
  });

  it("name only composition roots that are there", () => {
    const rootFiles = new Set(billingFiles().map(billingRelative).filter((relative) => !relative.includes("/")));
    expect(Object.keys(COMPOSITION_ROOTS).filter((root) => !rootFiles.has(root)), "COMPOSITION_ROOTS naming no file").toEqual([]);
  });
});

/** The modules `file` imports values from (a type-only import, or one of types alone, left out), and those it re-exports. */
function valueImportsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const typesAlone = (clause: ts.ImportClause | undefined) =>
    clause !== undefined && (clause.isTypeOnly || (!clause.name && clause.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.every((element) => element.isTypeOnly)));
  return source.statements.flatMap((statement) => {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier) && !typesAlone(statement.importClause)) return [statement.moduleSpecifier.text];
    if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) return [statement.moduleSpecifier.text];
    return [];
  });
}

describe("billing's money flows", () => {
  it("call their domains' services, never a *.sql.ts store (types may be imported)", () => {
    const storeImports = billingFiles()
      .filter((file) => billingRelative(file).startsWith("flows/"))
      .flatMap((file) => valueImportsOf(file).filter((imported) => imported.endsWith(".sql.js")).map((imported) => `${billingRelative(file)} imports ${imported}`));
    expect(storeImports, `flows reading or writing a store (call the domain's service.ts):\n${storeImports.join("\n")}`).toEqual([]);
  });
});

/**
 * The files that schedule a customer's state change: announcing an event that changes it
 * (customers/announce.ts), and measuring usage (the meters). The state is derived there alone, so no
 * flow has to remember it.
 */
const STATE_SCHEDULERS = new Set(["customers/announce.ts", "usage-events/measurer.ts"]);

describe("customer state", () => {
  it("is scheduled only where events are announced and usage measured", () => {
    const callers = billingFiles()
      .filter((file) => !STATE_SCHEDULERS.has(billingRelative(file)))
      .flatMap((file) => callsOf(file, "scheduleStateChanges"));
    expect(callers, `scheduleStateChanges called elsewhere:\n${callers.join("\n")}`).toEqual([]);
  });
});

/** Where `file` calls a function named `name`, as `file:line`. */
function callsOf(file: string, name: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const calls: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === name) {
      calls.push(`${billingRelative(file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return calls;
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
