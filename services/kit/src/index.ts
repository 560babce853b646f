export { ConfigError, loadConfig, env, commonEnv, maskUrlPassword, serviceEnv } from "./config.js";
export { createLogger, type Logger } from "./logger.js";
export { Metrics } from "./metrics.js";
export { StartupError, describeStartupError } from "./startup.js";
export { derivedVaultKey, SecretVault } from "./crypto/secret-vault.js";
export { connectRedis } from "./redis.js";
export { runProgram, type ProgramCommand, type ProgramOptions } from "./program.js";
export { createDatabase, failureReason, isDatabaseUnreachable, type Knex } from "./db/connection.js";
export { storableText } from "./db/storable-text.js";
export { prepared } from "./db/prepared.js";
export { postgresTimeZones } from "./db/time-zones.js";
export { claim, claimableSql, claimStatement, heldSql, LeaseKeeper, release, takeSql, whileHeld, type Claimed, type Keeping, type Lease, type Statement } from "./db/leases.js";
export { migrate, pendingMigrations } from "./db/migrate.js";
export type { Migration, Migrations } from "./db/migrations.js";
export { connectBus, ensureEventStream, natsConnectOptions, natsSettingsOf, type BusConnection, type NatsSettings } from "./bus/connection.js";
export { Outbox, OutboxRelay, type OutboxRelayOptions, type PendingEvent } from "./bus/outbox.js";
export { UnitOfWork, Units, type UnitOptions } from "./bus/unit-of-work.js";
export {
  EventConsumer,
  on,
  PostgresConsumerStore,
  StatelessConsumerStore,
  type ConsumerDefinition,
  type ConsumerStore,
  type EventHandler,
  type HandlerContext,
  type StatelessHandlerContext,
} from "./bus/consumer.js";
export { request, respond, BusRequestError, RemoteError, ReplyError } from "./bus/rpc.js";
export { natsPermissions, type NatsPermissions } from "./bus/permissions.js";
export { createHttpApp, listen, closeServer, securityHeaders, serveMetrics, trackRequest, type HttpAppOptions, type ReadinessCheck } from "./http/app.js";
export { loggableUrl } from "./http/loggable-url.js";
export {
  HttpError,
  MalformedBodyError,
  ValidationError,
  betterAuthErrors,
  polarErrors,
  type ErrorContract,
  type ValidationIssue,
} from "./http/errors.js";
export { CHECK_RESPONSES, defineEndpoint, mountEndpoints, UndeclaredResponseError, type Endpoint, type EndpointContext, type EndpointDescription } from "./http/endpoint.js";
export { openApiDocument, serveApiDescription, type ApiDescription, type OpenApiDocument } from "./http/openapi.js";
export { csvCell, csvLine, sendCsv, type CsvValue } from "./http/csv.js";
export { queryFlag, trimmedText } from "./http/inputs.js";
export { rawBodyOf } from "./http/body.js";
export {
  generateIdentityKeys,
  identitySigner,
  identityVerifier,
  keyDerivedFromSigningKey,
  requireIdentity,
  verifyKeyOf,
  type IdentitySigner,
  type IdentityVerifier,
  type VerifiedIdentity,
} from "./http/identity.js";
export {
  authCookieName,
  decodeSessionCache,
  encodeSessionCache,
  parseCookieHeader,
  signCookieValue,
  verifyCookieValue,
  type SessionCache,
} from "./http/signed-cookie.js";
export { randomId } from "./ids.js";
export { SerialRunner } from "./serial-runner.js";
export { PollingWorker } from "./polling-worker.js";
export { DEFAULT_MAX_FAILURES, WorkFailures } from "./work/set-aside.js";
export { workBatch, type BatchedItems } from "./work/batches.js";
export type { WorkFailure, WorkFailureRow } from "./work/set-aside.sql.js";
export { setAsideEndpoints, type SetAsideWorker } from "./work/set-aside-endpoints.js";
export { originOf, trustedOrigins } from "./http/origins.js";
export {
  defineService,
  loadServiceConfig,
  migrateService,
  migrationConfigSchema,
  serviceConfigSchema,
  serviceSettingNames,
  runService,
  startService,
  waitForMigrations,
  type MigrationConfig,
  type RunningService,
  type ServiceConfig,
  type ServiceContext,
  type HookContext,
  type ServiceDefinition,
  type Worker,
} from "./service.js";
export { membershipConsumer, membershipMigrations, recordMembership, type MembershipRow, type OrganizationRequirementRow } from "./access/memberships.js";
export { OrganizationAccess, unauthenticated, type Scope } from "./access/organization-access.js";
export { meetsTwoFactorRequirement, TWO_FACTOR_REQUIRED_MESSAGE } from "./access/two-factor.js";
// Polar's API conventions, shared by billing and the webhook dispatcher.
export { invalidField, isForeignKeyViolation, isUniqueViolation, notFound, notPermitted, parseNested } from "./polar/errors.js";
export { listResource, pageJson, pageOf, paging, repeated, sorting, whereAnyOf, type Page, type Sort } from "./polar/lists.js";
export { reachable } from "./polar/resources.js";
export { API_VERSION_HEADER, API_VERSIONS, answerIn, apiVersionOf, isApiVersion, NEWEST_API_VERSION, since, type ApiVersion } from "./polar/api-versions.js";
export { dayInput, isoTimestamp, momentInput, PG_INTEGER_MAX, pgInteger, timeZoneName, webUrl } from "./polar/fields.js";
