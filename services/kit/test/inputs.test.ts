import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineEndpoint, openApiDocument, polarErrors, queryFlag, trimmedText } from "@tollgate/kit";

interface Described {
  paths: { "/things": { post: { parameters?: unknown[]; requestBody: { content: { "application/json": { schema: unknown } } } } } };
}

/** The JSON Schemas an endpoint's description gives its query and body. */
function described(query: z.ZodObject, body: z.ZodObject) {
  const endpoint = defineEndpoint("/things", { method: "POST", query, body }, () => Promise.resolve(undefined));
  const { post } = (openApiDocument({ title: "Things", version: "1", errors: polarErrors }, [endpoint]) as unknown as Described).paths["/things"];
  return { parameters: post.parameters, body: post.requestBody.content["application/json"].schema };
}

describe("a yes/no query parameter", () => {
  const query = z.object({ archived: queryFlag().optional() });

  it("is described as the boolean it reads, not as any string (which clients would then send)", () => {
    expect(described(query, z.object({})).parameters).toEqual([{ in: "query", name: "archived", schema: { type: "boolean" } }]);
  });

  it("reads how a boolean is written in a query, and refuses any other text", () => {
    expect(query.parse({ archived: "true" })).toEqual({ archived: true });
    expect(query.parse({ archived: "false" })).toEqual({ archived: false });
    expect(query.safeParse({ archived: "" }).success).toBe(false);
    expect(query.safeParse({ archived: "maybe" }).success).toBe(false);
  });
});

describe("trimmed text", () => {
  const body = z.object({ name: trimmedText({ min: 3, max: 10 }), tax_id: trimmedText({ min: 1, max: 10 }) });
  const schema = described(z.object({}), body).body as { properties: Record<string, { pattern: string }> };
  const matches = (field: string, value: string) => new RegExp(schema.properties[field]?.pattern ?? "", "u").test(value);

  it("is described by a pattern that counts only what trimming leaves, as the schema does", () => {
    for (const [name, taken] of [["abc", true], [" a c ", true], ["\t abc\n", true], ["  ab  ", false], ["      ", false], ["ab", false]] as const) {
      expect(matches("name", name), JSON.stringify(name)).toBe(taken);
      expect(body.shape.name.safeParse(name).success, JSON.stringify(name)).toBe(taken);
    }
    for (const [taxId, taken] of [["x", true], [" x ", true], ["\t", false], ["", false]] as const) {
      expect(matches("tax_id", taxId), JSON.stringify(taxId)).toBe(taken);
      expect(body.shape.tax_id.safeParse(taxId).success, JSON.stringify(taxId)).toBe(taken);
    }
  });
});
