import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import ts from "typescript";
import type { JsonSchema, SdkOperation } from "./polar-sdk.js";

/**
 * What @polar-sh/sdk 1.x (in this repository as `polar-sdk-1`) expects of each operation, for each
 * dated API version it ships (`@polar-sh/sdk/2026-10`…): method, path, the query parameters it sends
 * and the model it types the answer with. 1.x checks no answer at run time, so the model is read
 * from the version's type declarations and turned into JSON Schema for the same comparison as 0.47's.
 */

const require = createRequire(import.meta.url);
// Its exports leave out package.json: the package is found from its main entry, dist/index.cjs.
const dist = path.dirname(require.resolve("polar-sdk-1"));
const sdkRoot = path.dirname(dist);

/** The dated versions the SDK ships, oldest first: its package's `./YYYY-MM` entry points. */
export const SDK_VERSIONS: string[] = Object.keys((JSON.parse(readFileSync(path.join(sdkRoot, "package.json"), "utf8")) as { exports: Record<string, unknown> }).exports)
  .map((entry) => /^\.\/(\d{4}-\d{2})$/.exec(entry)?.[1])
  .filter((version): version is string => version !== undefined)
  .sort();

/** One operation's function in a services file: `const getProducts = (client) => { … }`. */
const OPERATION = /^const (\w+) = \(client\) => \{$/gm;

function servicesFiles(version: string): string[] {
  const root = path.join(dist, version, "services");
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".mjs"))
    .map((file) => path.join(root, file));
}

/** The version's models file (`models-<hash>.d.mts`), named by its entry point's declarations. */
function modelsFile(version: string): string {
  const entry = readFileSync(path.join(dist, version, "index.d.mts"), "utf8");
  const file = /from "\.\.\/(models-[\w-]+)\.mjs"/.exec(entry)?.[1];
  if (!file) throw new Error(`@polar-sh/sdk ${version}: no models file named in index.d.mts`);
  return path.join(dist, `${file}.d.mts`);
}

export function sdkOneOperations(version: string): SdkOperation[] {
  const models = new ModelSchemas(modelsFile(version));
  const operations: SdkOperation[] = [];
  for (const file of servicesFiles(version)) {
    const source = readFileSync(file, "utf8");
    const starts = [...source.matchAll(OPERATION)].map((match) => match.index);
    for (const [index, start] of starts.entries()) {
      const body = source.slice(start, starts[index + 1] ?? source.length);
      const request = /client\.buildRequest\("([A-Z]+)", "([^"]+)"/.exec(body);
      // The iter… helpers page through a list operation and send nothing of their own.
      if (!request?.[1] || !request[2]) continue;
      const queryBlock = /const queryParams = \{([\s\S]*?)\};/.exec(body)?.[1] ?? "";
      const query = [...queryBlock.matchAll(/^\s*(\w+):/gm)].map((match) => match[1] ?? "");
      const kind = /parseResponse\(response, "(\w+)"/.exec(body)?.[1];
      const returned = /@returns \{(\w+)\}/.exec(body)?.[1] ?? null;
      const response = kind === "json" && returned ? models.schemaOf(returned) : null;
      operations.push({ method: request[1], path: request[2], query, status: null, response, responseName: response ? returned : null });
    }
  }
  return operations;
}

/** The models' TypeScript declarations as JSON Schema: interfaces as objects, unions as anyOf, `| null` kept. */
class ModelSchemas {
  private readonly checker: ts.TypeChecker;
  private readonly declarations = new Map<string, ts.InterfaceDeclaration | ts.TypeAliasDeclaration>();

  constructor(file: string) {
    const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true });
    this.checker = program.getTypeChecker();
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`${file} could not be read`);
    for (const statement of source.statements) {
      if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) this.declarations.set(statement.name.text, statement);
    }
  }

  schemaOf(name: string): JsonSchema | null {
    const declaration = this.declarations.get(name);
    if (!declaration) return null;
    return this.toSchema(this.checker.getTypeAtLocation(declaration.name), new Set(), 0);
  }

  private toSchema(type: ts.Type, enclosing: Set<ts.Type>, depth: number): JsonSchema {
    if (type.flags & ts.TypeFlags.Null) return { type: "null" };
    if (type.flags & (ts.TypeFlags.String | ts.TypeFlags.StringLiteral)) return { type: "string" };
    if (type.flags & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral)) return { type: "number" };
    if (type.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return { type: "boolean" };
    if (type.isUnion()) {
      const members = type.types.filter((member) => !(member.flags & ts.TypeFlags.Undefined));
      const schemas = members.map((member) => this.toSchema(member, enclosing, depth));
      // `boolean` is `true | false`, an enum of strings one type: kept as that type once.
      const distinct = [...new Map(schemas.map((schema) => [JSON.stringify(schema), schema])).values()];
      return distinct.length === 1 ? (distinct[0] ?? {}) : { anyOf: distinct };
    }
    // Deep or self-referring models are compared only as far as the comparison goes (a few levels).
    if (depth > 6 || enclosing.has(type)) return {};
    const inner = new Set(enclosing).add(type);
    if (this.checker.isArrayType(type)) {
      const [item] = this.checker.getTypeArguments(type as ts.TypeReference);
      return { type: "array", items: item ? this.toSchema(item, inner, depth + 1) : {} };
    }
    if (type.flags & ts.TypeFlags.Object) {
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const property of this.checker.getPropertiesOfType(type)) {
        const declaration = property.valueDeclaration ?? property.declarations?.[0];
        if (!declaration) continue;
        properties[property.name] = this.toSchema(this.checker.getTypeOfSymbolAtLocation(property, declaration), inner, depth + 1);
        if (!(property.flags & ts.SymbolFlags.Optional)) required.push(property.name);
      }
      // A record (`Record<string, …>`, metadata) has no named fields to compare.
      return Object.keys(properties).length > 0 ? { type: "object", properties, required } : { type: "object" };
    }
    return {};
  }
}
