import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { importsOf, repository } from "./source.js";

/** The web app's data layer: wire types generated from the /v1 document, query keys spelled only in queries modules. */

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

/** The areas with their own folder: forms/ holds only what they share, so it imports none of them. */
const AREAS = ["seller", "account", "admin", "organizations", "auth", "checkout", "portal"];

describe("the web app's folders", () => {
  it("keep forms/ to shared pieces: no module under web/src/forms imports an area's folder", () => {
    const forms = path.join(webSource, "forms");
    const offences = readdirSync(forms, { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file))
      .flatMap((file) => {
        const full = path.join(forms, file);
        return importsOf(full)
          .filter((imported) => imported.startsWith(".") && AREAS.includes(path.relative(webSource, path.resolve(path.dirname(full), imported)).split(path.sep)[0] ?? ""))
          .map((imported) => `${path.relative(repository, full)} imports ${imported}`);
      });
    expect(offences.length, `forms/ importing an area (move the form beside its screens):\n${offences.join("\n")}`).toBe(0);
  });

  it("leave a console screen's route to its folder: router.tsx names no module of a seller/<domain>/ folder", () => {
    const router = path.join(webSource, "router.tsx");
    const source = ts.createSourceFile(router, readFileSync(router, "utf8"), ts.ScriptTarget.Latest, true);
    const named: string[] = [];
    const visit = (node: ts.Node) => {
      if (ts.isStringLiteralLike(node) && /^\.\/seller\/[^/]+\//.test(node.text)) named.push(node.text);
      ts.forEachChild(node, visit);
    };
    visit(source);
    expect(named, "router.tsx naming a console folder's module (add the route to the folder's routes.ts)").toEqual([]);
  });
});

/** Where a query's state may decide what a screen shows: the shared parts that show it one way (QueryState, ServerListing). */
const SHOWS_QUERY_STATE = "ui/";
/** Files that read a query's state themselves, and why. */
const DRAWS_ITS_OWN_STATE: Record<string, string> = {
  "web/src/shell.tsx": "the session gate: no session sends the reader to sign in, it is not a failure to show",
  "web/src/shell-menus.tsx": "a dropdown menu can hold only menu items and labels: it says it loads with a label",
};
/** What a screen would read of a query to draw its own placeholder or failure. */
const STATE_FIELDS = new Set(["isPending", "isLoading", "isError", "error"]);

describe("the web app's loading, empty and error states", () => {
  it("are drawn only by ui/: no screen reads a query's isPending, isLoading, isError or error", () => {
    // A queries module may read them to make several queries one that QueryState shows (set-aside work's services).
    const allowed = (file: string) => file.startsWith(`web/src/${SHOWS_QUERY_STATE}`) || isQueriesModule(file) || file in DRAWS_ITS_OWN_STATE;
    const offences = queryStateReads().filter((offence) => !allowed(offence.split(":")[0] ?? ""));
    expect(offences.length, `screens drawing a query's state themselves (use ui/query-state.tsx's QueryState):\n${offences.join("\n")}`).toBe(0);
    // It type-checks the whole web app to tell queries from mutations: slower than the default timeout.
  }, 120_000);
});

/**
 * Every `x.isPending` (isLoading, isError, error) in web/src whose `x` is a query's result, told by its
 * type: a query has a `fetchStatus`, a mutation (a form's submit state, which screens may show) has none.
 */
function queryStateReads(): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(repository, "web/tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error("web/tsconfig.json could not be read");
  const program = ts.createProgram(webFiles(), config.options);
  const checker = program.getTypeChecker();
  const isQueryResult = (node: ts.Expression) => checker.getTypeAtLocation(node).getProperty("fetchStatus") !== undefined;
  return program.getSourceFiles().flatMap((source) => {
    if (!source.fileName.startsWith(webSource)) return [];
    const offences: string[] = [];
    const visit = (node: ts.Node) => {
      if (ts.isPropertyAccessExpression(node) && STATE_FIELDS.has(node.name.text) && isQueryResult(node.expression))
        offences.push(`${path.relative(repository, source.fileName).split(path.sep).join("/")}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${node.getText(source)}`);
      ts.forEachChild(node, visit);
    };
    visit(source);
    return offences;
  });
}
