import type { Request, Response } from "express";
import { z } from "zod";
import { randomId } from "@tollgate/kit";
import { OAUTH_STATE_HEADER } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import { consumeVerification, createVerification } from "../verification/verifications.sql.js";

/** A sign-in or link flow lives 10 minutes from its start to the provider's callback. */
const STATE_LIFETIME_SECONDS = 600;

const flowState = z.object({
  provider: z.string(),
  codeVerifier: z.string(),
  callbackURL: z.string(),
  errorURL: z.string().optional(),
  newUserURL: z.string().optional(),
  /** Present when a signed-in user links an account rather than signing in. */
  link: z.object({ userId: z.string(), email: z.string(), sessionId: z.string() }).optional(),
  requestSignUp: z.boolean().optional(),
});
export type FlowState = z.output<typeof flowState>;

/**
 * Begins a flow: its state record (32-character state, 128-character PKCE verifier) and the signed
 * cookie that ties it to this browser. Returns the state and verifier for the authorization URL.
 */
export async function beginFlow(auth: Parts, res: Response, state: Omit<FlowState, "codeVerifier">): Promise<{ state: string; codeVerifier: string }> {
  const codeVerifier = randomId(128);
  const token = await createVerification(auth.db, "oauth-state", JSON.stringify({ ...state, codeVerifier }), STATE_LIFETIME_SECONDS, 32);
  auth.cookies.issueState(res, token, STATE_LIFETIME_SECONDS);
  return { state: token, codeVerifier };
}

export type TakenState = { ok: true; flow: FlowState } | { ok: false; error: "please_restart_the_process" | "state_mismatch"; errorURL?: string };

/**
 * Uses a callback's state up: the record goes whatever happens, so a state works once. Missing or
 * expired, the flow must start again; a state this browser did not begin is a mismatch.
 */
export async function takeFlowState(auth: Parts, req: Request, res: Response, state: string): Promise<TakenState> {
  const stored = await consumeVerification(auth.db, "oauth-state", state);
  auth.cookies.clearState(res);
  const parsed = stored === null ? null : flowState.safeParse(JSON.parse(stored));
  if (!parsed?.success) return { ok: false, error: "please_restart_the_process" };
  if (req.get(OAUTH_STATE_HEADER) !== state) return { ok: false, error: "state_mismatch", errorURL: parsed.data.errorURL };
  return { ok: true, flow: parsed.data };
}
