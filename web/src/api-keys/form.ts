import * as z from "zod/mini";
import { aName } from "../forms/schemas";

export const KEY_LIFETIMES = ["7", "30", "90", "365", "never"] as const;

/** A new API key: its name (better-auth takes 1 to 32 characters) and how many days it lives. */
export const apiKeyForm = z.object({ name: aName(32), lifetime: z.enum(KEY_LIFETIMES) });
export type ApiKeyForm = z.infer<typeof apiKeyForm>;

/** better-auth's `expiresIn`: seconds from now, or none. */
export const expiresIn = (lifetime: ApiKeyForm["lifetime"]) => (lifetime === "never" ? null : Number(lifetime) * 86_400);
