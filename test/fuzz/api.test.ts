import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PUBLIC_URL, ROOT_ADMIN, signInRootAdmin, type Browser } from "../stacks/auth.js";
import { signedUp } from "../stacks/people.js";
import { startDispatcherStack, type DispatcherStack } from "../stacks/dispatcher.js";
import { cookieOf, FIELD_KINDS, Fixture, freshAdmin, freshSession, openClub, openShop, PATH_KINDS, resolved, sessionTokenOf, startWebhookReceiver, type FixtureKind, type FixtureValues, type Shop } from "./fixtures.js";
import { mutantsOf, type RequestInput } from "./mutations.js";
import { operationsOf, randomSegment, validInputs, written, type OpenApiDocument, type Operation } from "./operations.js";
import { findingOf, verdictOn, type Allowed, type Contract, type Exchange } from "./verdict.js";

/**
 * Property-based requests for every operation of both published OpenAPI documents, generated from the
 * documents themselves: valid ones, and invalid ones made from them by one mutation each, sent by a
 * seller, a customer, a platform admin (admin operations) and nobody. Any 5xx, any answer giving away
 * internals, and any valid request refused for its shape fails, with the shrunk request printed.
 *
 * FUZZ_RUNS sets the requests per operation; the seed is fixed unless FUZZ_SEED names one or
 * FUZZ_RANDOM=1 draws one (it is printed either way); FUZZ_OPERATIONS (a pattern of `METHOD /path`)
 * narrows the run to some operations, to replay a finding.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = process.env.FUZZ_RANDOM === "1" ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 20_240_611);
const ONLY = process.env.FUZZ_OPERATIONS ? new RegExp(process.env.FUZZ_OPERATIONS) : undefined;
/**
 * A request with no answer by then is a finding of its own: one that hangs. Speed is bench/'s to
 * measure; a sandbox clock moved years ahead answers once every renewal due has run (waiting for the
 * renewal worker when it holds one), which on a loaded CI machine has taken longer than 15 s.
 */
const ANSWER_TIMEOUT_MS = 60_000;

type Caller = "seller" | "customer" | "admin" | "nobody";

interface Plan {
  caller: Caller;
  input: RequestInput;
  mutation?: string;
}

/** How one operation is called: the fixtures its requests may name, and who calls. */
interface Arena {
  values: FixtureValues;
  callers: Caller[];
  /** The headers that make a request the caller's, for one run. */
  sign(caller: Caller): Promise<Record<string, string>>;
}

interface Api {
  contract: Contract;
  documentPath: string;
  allowed: Allowed[];
  arenaFor(operation: Operation): Promise<Arena>;
  /** Operations run in this order, so that those taking fixtures away (deletions, the test clock) come last. */
  rank(operation: Operation): number;
}

/**
 * Refusals of requests valid by their schemas that are right all the same. Each one is reviewed:
 * add one only with the reason the schema cannot say.
 */
const POLAR_ALLOWED: Allowed[] = [
  {
    operation: /^POST /,
    place: "body.organization_id missing",
    reason: "organization_id is optional for a token, which names its organization; a user session reaching no single organization must name one, and Polar answers that with the same `missing` 422",
  },
  {
    operation: "POST /v1/checkouts/client/{client_secret}/confirm",
    place: /^body\.(?:customer_\w+|confirmation_token_id|custom_field_data)(?:\.\S+)? missing$/,
    reason: "what confirming needs depends on the checkout (the e-mail and address it lacks, its required custom fields, whether a payment is due), not on the body's schema; Polar names each gap with the same `missing` 422",
  },
  {
    operation: /^(?:POST|PATCH) \/v1\/checkouts\//,
    place: /^body\.custom_field_data\..* \w+$/,
    reason: "answers are checked against the custom fields attached to the checkout's product (type, length, range, options; other slugs refused), which the body's schema cannot say; Polar refuses them with pydantic's 422 at the slug",
  },
  {
    operation: /^POST \/v1\/(?:customer-portal\/)?orders\/\{id\}\/invoice$/,
    place: " unreadable",
    reason: "an invoice needs the order's billing name and address, a state of the order no schema says; Polar refuses one without them with its own 422, MissingInvoiceBillingDetails (an error and a detail, not a list of fields)",
  },
  {
    operation: "POST /v1/customer-portal/orders/{id}/confirm-payment",
    place: " unreadable",
    reason: "only an order whose declined charge put its subscription past due can be paid here, and only with exactly one of a token or a kept card, states and a pairing no schema says; Polar refuses the rest with its own 422s, OrderNotEligibleForRetry and PaymentRetryValidationError (an error and a detail, not a list of fields)",
  },
  {
    operation: /^GET \/v1\/(?:metrics\/|metrics\/export|meters\/\{id\}\/quantities|orders\/export|subscriptions\/export)$/,
    place: "query.timezone TimeZoneName",
    reason: "a time zone must be one this Postgres knows (pg_timezone_names, read at start), a list the schema does not carry; Polar refuses an unknown zone with a 422 at the field too",
  },
  {
    operation: /./,
    place: /^(?:query|body)\.\S+ datetime_parsing$/,
    reason: "moments are bounded to the years 1 to 9999 in UTC, as Postgres and Polar keep them; RFC 3339's date-time allows year 0, and an offset can carry a written year 1 or 9999 beyond them, which a format cannot say",
  },
];
const BETTER_AUTH_ALLOWED: Allowed[] = [];

/** Operations after which the caller's session, password or user may be gone: each run signs in afresh. */
const SESSION_ENDING = /\/(?:sign-out|revoke-sessions?|revoke-other-sessions|change-password|change-email|delete-user|set-active|set-active-team|leave|impersonate-user|stop-impersonating)$/;

let stack: DispatcherStack;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let shop: Shop;
let rootAdmin: Browser;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  stack = await startDispatcherStack({ WEBHOOK_MAX_ATTEMPTS: "2" }, { ADMIN_USER_IDS: ROOT_ADMIN.id });
  rootAdmin = await signInRootAdmin(stack);
  console.info(`fuzzing with seed ${SEED} and ${RUNS} runs per operation (FUZZ_SEED, FUZZ_RANDOM=1, FUZZ_RUNS)`);
});

afterAll(async () => {
  await stack?.stop();
  receiver?.server.close();
});

const polar: Api = {
  contract: "polar",
  documentPath: "/v1/openapi.json",
  allowed: POLAR_ALLOWED,
  rank: (operation) => (operation.method === "DELETE" ? (operation.path.startsWith("/v1/customers/") ? 3 : 2) : operation.path.includes("/sandbox/clock/") ? 1 : 0),
  arenaFor: (operation) =>
    Promise.resolve({
      values: shop.values,
      callers: ["seller", "customer", "nobody"],
      async sign(caller): Promise<Record<string, string>> {
        if (caller === "seller") return { authorization: `Bearer ${shop.seller.token}` };
        if (caller === "nobody") return {};
        // A customer calls the portal with their customer session, and the rest as a signed-in user.
        return operation.path.startsWith("/v1/customer-portal/") ? { authorization: `Bearer ${shop.customerSession}` } : { cookie: await cookieOf(shop.buyer, stack.gateway.url) };
      },
    }),
};

let replacements = 0;

const betterAuth: Api = {
  contract: "better-auth",
  documentPath: "/api/auth/openapi.json",
  allowed: BETTER_AUTH_ALLOWED,
  rank: () => 0,
  async arenaFor(operation) {
    const club = await openClub(stack);
    const people = { seller: club.owner, customer: club.plain };
    const endsSessions = SESSION_ENDING.test(operation.path);
    // The session token of the last signed-in caller: a real one even when nobody calls.
    let token = await sessionTokenOf(club.owner, stack.gateway.url);
    /** Signs a person in again; one who can no longer (deleted, banned, password changed) is replaced by someone new. */
    const signInAgain = async (caller: "seller" | "customer") => {
      const again = await freshSession(stack, people[caller].email);
      if (again) return again;
      replacements += 1;
      people[caller] = await signedUp(stack, `fuzz-replacement-${replacements}-${Date.now()}@example.com`, { verified: false });
      return people[caller];
    };
    return {
      values: { ...club.values, session_token: () => Promise.resolve(token) },
      callers: operation.path.startsWith("/api/auth/admin/") ? ["seller", "customer", "admin", "nobody"] : ["seller", "customer", "nobody"],
      async sign(caller): Promise<Record<string, string>> {
        if (caller === "nobody") return {};
        const browser = caller === "admin" ? (endsSessions ? await freshAdmin(stack) : rootAdmin) : endsSessions ? await signInAgain(caller) : people[caller];
        token = await sessionTokenOf(browser, stack.gateway.url);
        return { cookie: await cookieOf(browser, stack.gateway.url) };
      },
    };
  },
};

/** A seed of each operation's own, so that adding an operation changes no other's requests. */
function seedOf(operation: Operation): number {
  let hash = SEED;
  for (const character of operation.key) hash = Math.imul(hash ^ character.charCodeAt(0), 0x01000193);
  return hash | 0;
}

/** Requests for an operation: a caller and valid input, then half the time one mutation of it. */
function plansFor(operation: Operation, arena: Arena, components: OpenApiDocument["components"]): fc.Arbitrary<Plan> {
  const available = new Set(Object.keys(arena.values));
  const segments = operation.path.split("/");
  // A fixture most of the time, so that handlers get past the 404; random text the rest.
  const fixtureOr = (kind: FixtureKind | undefined, other: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> => {
    if (kind === undefined || !available.has(kind)) return other;
    // Webhooks are delivered to the URL an endpoint names: only to the receiver here, never anywhere else.
    if (kind === "webhook_url") return fc.constant(new Fixture(kind));
    return fc.oneof({ weight: 2, arbitrary: fc.constant(new Fixture(kind)) }, { weight: 1, arbitrary: other });
  };
  const inputs = validInputs(operation, {
    components: components?.schemas ?? {},
    pathValue: (_operation, parameter) => fixtureOr(PATH_KINDS[`${segments[segments.indexOf(`{${parameter.name}}`) - 1] ?? ""}/{${parameter.name}}`], randomSegment),
    strings: (_schema, at, fromSchema) => {
      const name = [...at].reverse().find((key) => typeof key === "string" && key !== "*");
      if (name === undefined) return fromSchema;
      const scoped = segments.map((segment) => FIELD_KINDS[`${segment}:${name}`]).find((kind) => kind !== undefined);
      return fixtureOr(scoped ?? FIELD_KINDS[name], fromSchema);
    },
  });
  return fc
    .tuple(fc.constantFrom(...arena.callers), inputs)
    .chain(([caller, input]) => fc.oneof(fc.constant<Plan>({ caller, input }), mutantsOf(input).map(({ input: mutated, mutation }): Plan => ({ caller, input: mutated, mutation }))));
}

/** Sends one planned request through the gateway, as its caller. */
async function exchanged(api: Api, operation: Operation, arena: Arena, plan: Plan): Promise<Exchange> {
  const headers = await arena.sign(plan.caller);
  const { target, body } = written(operation, (await resolved(plan.input, arena.values)) as RequestInput);
  const sent = { contract: api.contract, operation: operation.key, caller: plan.caller, method: operation.method, target, ...(plan.mutation !== undefined && { mutation: plan.mutation }), ...(body !== undefined && { body }) };
  try {
    const response = await fetch(`${stack.gateway.url}${target}`, {
      method: operation.method,
      headers: { origin: PUBLIC_URL, ...(body !== undefined && { "content-type": "application/json" }), ...headers },
      body,
      // Redirects name other sites (a checkout's success URL): they are answers, not places to go.
      redirect: "manual",
      signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
    });
    return { ...sent, status: response.status, contentType: response.headers.get("content-type") ?? "", text: await response.text() };
  } catch (error) {
    throw new Error(findingOf({ ...sent, status: 0, contentType: "", text: "" }, [`no answer: ${error instanceof Error ? error.message : String(error)}`]), { cause: error });
  }
}

/** Fuzzes every operation of one API; the findings, one per failing operation, and the notes on `custom` refusals. */
async function fuzz(api: Api): Promise<{ findings: string[]; notes: Set<string> }> {
  const response = await fetch(`${stack.gateway.url}${api.documentPath}`);
  expect(response.status).toBe(200);
  const document = (await response.json()) as OpenApiDocument;
  const operations = operationsOf(document)
    .filter((operation) => !ONLY || ONLY.test(operation.key))
    .sort((a, b) => api.rank(a) - api.rank(b));
  const findings: string[] = [];
  const notes = new Set<string>();
  for (const operation of operations) {
    const arena = await api.arenaFor(operation);
    const property = fc.asyncProperty(plansFor(operation, arena, document.components), async (plan) => {
      const exchange = await exchanged(api, operation, arena, plan);
      const verdict = verdictOn(exchange, api.allowed);
      for (const note of verdict.notes) notes.add(note);
      if (verdict.problems.length > 0) throw new Error(findingOf(exchange, verdict.problems));
    });
    const result = await fc.check(property, { numRuns: RUNS, seed: seedOf(operation) });
    if (result.failed) {
      const error = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
      findings.push(`${operation.key} — ${error}\n  replay: FUZZ_SEED=${SEED} FUZZ_OPERATIONS='^${operation.key}$' (shrunk ${result.numShrinks} times)`);
    }
  }
  return { findings, notes };
}

function report(api: Api, { findings, notes }: { findings: string[]; notes: Set<string> }): void {
  if (notes.size > 0) console.info(`${api.documentPath}: valid requests refused by a refine (custom), for review:\n${[...notes].join("\n")}`);
  expect(findings, `seed ${SEED}\n\n${findings.join("\n\n")}`).toEqual([]);
}

it("/v1: no request, valid or not, from anyone, gets a 5xx, internals, or a valid request refused", { timeout: 600_000 }, async () => {
  shop = await openShop(stack, receiver.url);
  report(polar, await fuzz(polar));
});

it("/api/auth: no request, valid or not, from anyone, gets a 5xx, internals, or a valid request refused", { timeout: 600_000 }, async () => {
  report(betterAuth, await fuzz(betterAuth));
});
