import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { z } from "zod";

/**
 * What the published @polar-sh/sdk (generated from Polar's OpenAPI document) expects of each
 * operation: its method and path, the query parameters it sends, and the schema it parses the
 * successful answer with. Read from the SDK's own files, so a new SDK release is compared as it is.
 */
export interface SdkOperation {
  method: string;
  path: string;
  query: string[];
  status: number | null;
  /** The answer's JSON Schema, as the SDK's parser reads it; null for an answer without a body. */
  response: JsonSchema | null;
  /** The SDK's name for the answer's schema (a list's item, for lists). */
  responseName: string | null;
}

export type JsonSchema = Record<string, unknown>;

const require = createRequire(import.meta.url);
const sdkRoot = path.dirname(require.resolve("@polar-sh/sdk/package.json"));
const esm = path.join(sdkRoot, "dist", "esm");

/** Where a schema the func imports comes from: `Name` → `models/components/name.js`. */
function importsOf(source: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const [, names = "", file = ""] of source.matchAll(/import \{([^}]*)\} from "\.\.\/(models\/(?:components|operations)\/\w+\.js)"/g)) {
    for (const name of names.split(",").map((part) => part.trim().replace(/\$inboundSchema$/, ""))) if (name) found.set(name, file);
  }
  return found;
}

/** The SDK's schema as JSON Schema, its input side (the wire's snake_case), nested schemas inline. */
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any", reused: "inline", cycles: "ref" });
}

export async function sdkOperations(): Promise<SdkOperation[]> {
  const funcs = path.join(esm, "funcs");
  const operations: SdkOperation[] = [];
  for (const file of readdirSync(funcs).filter((name) => name.endsWith(".js"))) {
    const source = readFileSync(path.join(funcs, file), "utf8");
    const route = /pathToFunc\("([^"]+)"\)/.exec(source)?.[1];
    const method = /method: "([A-Z]+)"/.exec(source)?.[1];
    if (!route || !method) continue;
    const queryBlock = /const query = ([\s\S]*?);\n/.exec(source)?.[1] ?? "";
    const query = [...queryBlock.matchAll(/"([A-Za-z_]+)": payload/g)].map((match) => match[1] ?? "");
    const success = /M\.(json|nil)\((2\d\d),\s*(\w+)\$inboundSchema/.exec(source);
    let response: JsonSchema | null = null;
    let responseName: string | null = null;
    if (success?.[1] === "json" && success[3]) {
      const name = success[3];
      const module = importsOf(source).get(name);
      if (module) {
        const loaded = (await import(path.join(esm, module))) as Record<string, z.ZodType>;
        const schema = loaded[`${name}$inboundSchema`];
        if (schema) {
          response = jsonSchemaOf(schema);
          responseName = name;
          // A paged list is wrapped as `{Result: ListResource…}` by the SDK; the wire carries the list itself.
          const wrapped = (response.properties as Record<string, JsonSchema> | undefined)?.Result;
          if (wrapped && Object.keys(response.properties as object).length === 1) response = wrapped;
        }
      }
    }
    operations.push({ method, path: route, query, status: success?.[2] ? Number(success[2]) : null, response, responseName });
  }
  return operations;
}
