import type { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from "zod-openapi";
import type { Router } from "express";
import type { Endpoint, EndpointDescription } from "./endpoint.js";
import type { ErrorContract } from "./errors.js";
import { apiVersionOf, introducedAfter, NEWEST_API_VERSION, type ApiVersion } from "../polar/api-versions.js";

/** What a service says of its API as a whole; its endpoints say the rest. */
export interface ApiDescription {
  title: string;
  version: string;
  description?: string;
  /** Where the service's router is mounted (`/api/auth`), before each endpoint's own path. */
  basePath?: string;
  errors: ErrorContract;
  /** How callers authenticate, as OpenAPI security schemes; every operation accepts any of them. */
  securitySchemes?: Record<string, { type: "http"; scheme: "bearer"; description: string } | { type: "apiKey"; in: "cookie" | "header"; name: string; description: string }>;
}

/** An OpenAPI 3.1 document, as JSON. */
export type OpenApiDocument = ReturnType<typeof createDocument>;

/** express's `/v1/files/:id` as OpenAPI's `/v1/files/{id}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");

type Status = `${1 | 2 | 3 | 4 | 5}${string}`;

const GENERIC_FAILURES: Record<Status, string> = {
  401: "Not authenticated",
  403: "Not permitted",
  404: "Not found",
  429: "Too many requests",
};

function operationOf(endpoint: EndpointDescription, api: ApiDescription): ZodOpenApiOperationObject {
  const { errors } = api;
  const success = endpoint.status === 200 && !endpoint.response && !endpoint.produces ? 204 : endpoint.status;
  const responses: ZodOpenApiResponsesObject = {
    [String(success) as Status]: {
      description: endpoint.summary ?? "Success",
      ...(endpoint.response ? { content: { "application/json": { schema: endpoint.response } } } : {}),
      ...(endpoint.produces && !endpoint.response ? { content: { [endpoint.produces]: {} } } : {}),
    },
  };
  if (endpoint.body || endpoint.query || endpoint.params) {
    responses[String(errors.documented.validation.status) as Status] = { description: "The input failed its schema", content: { "application/json": { schema: errors.documented.validation.schema } } };
  }
  for (const [status, description] of Object.entries(GENERIC_FAILURES) as [Status, string][]) {
    responses[status] ??= { description, content: { "application/json": { schema: errors.documented.error } } };
  }
  return {
    operationId: `${endpoint.method.toLowerCase()}${openApiPath(endpoint.path).replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? "").toUpperCase())}`,
    ...(endpoint.summary ? { summary: endpoint.summary } : {}),
    ...(endpoint.tag ? { tags: [endpoint.tag] } : {}),
    ...(endpoint.params || endpoint.query ? { requestParams: { ...(endpoint.params ? { path: endpoint.params } : {}), ...(endpoint.query ? { query: endpoint.query } : {}) } } : {}),
    ...(endpoint.body && endpoint.method !== "GET" ? { requestBody: { content: { "application/json": { schema: endpoint.body } } } } : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 description of a service's endpoints, built from the schemas they declare (the same
 * ones that parse their input and, with CHECK_RESPONSES, check their answers), so it cannot drift from
 * what the service does.
 */
export function openApiDocument(api: ApiDescription, endpoints: readonly Endpoint[], version: ApiVersion = NEWEST_API_VERSION): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  for (const { description } of endpoints) {
    const path = `${api.basePath ?? ""}${openApiPath(description.path)}`;
    paths[path] = { ...paths[path], [description.method.toLowerCase()]: operationOf(description, api) };
  }
  const schemes = api.securitySchemes ?? {};
  return createDocument(
    {
      openapi: "3.1.0",
      info: { title: api.title, version: api.version, ...(api.description ? { description: api.description } : {}) },
      paths,
      components: { securitySchemes: schemes },
      ...(Object.keys(schemes).length > 0 ? { security: [...Object.keys(schemes).map((name) => ({ [name]: [] })), {}] } : {}),
    },
    version === NEWEST_API_VERSION ? {} : { override: ({ zodSchema, jsonSchema }) => leaveOutLaterFields(zodSchema, jsonSchema, version) },
  );
}

/** An object's description as `version` has it: the fields that came later are not there, nor required. */
function leaveOutLaterFields(zodSchema: z.core.$ZodType, jsonSchema: { properties?: Record<string, unknown>; required?: string[] }, version: ApiVersion): void {
  const def = zodSchema._zod.def;
  if (def.type !== "object") return;
  for (const [name, field] of Object.entries((def as z.core.$ZodObjectDef).shape)) {
    if (!introducedAfter(field as z.ZodType, version)) continue;
    delete jsonSchema.properties?.[name];
    if (jsonSchema.required) jsonSchema.required = jsonSchema.required.filter((required) => required !== name);
  }
}

/**
 * Answers `GET /openapi.json` on the service's own root with its description, built on first use.
 * The path is under no public prefix: the gateway fetches it and publishes the documents it merges.
 */
export function serveApiDescription(router: Router, api: ApiDescription, endpoints: readonly Endpoint[]): void {
  const documents = new Map<ApiVersion, OpenApiDocument>();
  router.get("/openapi.json", (req, res) => {
    const version = apiVersionOf(req.headers);
    const document = documents.get(version) ?? openApiDocument(api, endpoints, version);
    documents.set(version, document);
    res.json(document);
  });
}
