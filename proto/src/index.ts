export * from "./envelope.js";
export * from "./identity.js";
export * from "./requests.js";
export * from "./subjects.js";
export * from "./auth.js";
export * from "./organization.js";
export * from "./billing.js";
export * from "./webhooks.js";
