import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningService, ServiceConfig } from "@tollgate/kit";
import { createTestEnvironment, identityHeaders, startTestService, type TestEnvironment } from "@tollgate/kit/testing";
import { demoService } from "./fixtures/demo-service.js";

let environment: TestEnvironment;
let service: RunningService<ServiceConfig>;

beforeAll(async () => {
  environment = await createTestEnvironment();
  service = await startTestService(demoService, environment);
});

afterAll(async () => {
  await service?.stop();
});

const get = (path: string) => fetch(`${service.url}${path}`, { headers: identityHeaders(environment) });

describe("what endpoints declare", () => {
  it("checks every answer against its declared schema in tests, so the description cannot drift", async () => {
    expect(await (await get("/things/2/label")).json()).toEqual({ label: "thing 2" });
    const drifted = await get("/things/3/label");
    expect(drifted.status).toBe(500);
  });

  it("describes each endpoint in an OpenAPI 3.1 document, from the same schemas", async () => {
    const document = (await (await get("/openapi.json")).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { summary?: string; tags?: string[]; parameters?: { in: string; name: string }[]; requestBody?: unknown; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(document.openapi).toBe("3.1.0");
    const label = document.paths["/things/{id}/label"]?.get;
    expect(label).toMatchObject({ summary: "A thing's label", tags: ["things"], parameters: [expect.objectContaining({ in: "path", name: "id" })] });
    expect(label?.responses["200"]?.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/Label" });
    expect(document.components.schemas.Label).toEqual({ type: "object", properties: { label: { type: "string" } }, required: ["label"], additionalProperties: false });
    // Input failures are documented in the API's own error shape.
    expect(label?.responses["422"]?.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/HTTPValidationError" });
    expect(document.paths["/things"]?.post?.requestBody).toBeDefined();
  });
});
