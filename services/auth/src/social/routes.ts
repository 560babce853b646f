import type { Request, Response } from "express";
import { z } from "zod";
import { defineEndpoint, HttpError, type Endpoint } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { assertTrustedRedirect, withQuery } from "../http/callback-url.js";
import { authError } from "../http/errors.js";
import { requestLocale } from "../i18n/locales.js";
import { authUrl } from "../mail/links.js";
import { requireSession } from "../sessions/current-session.js";
import { startSession } from "../sessions/issuance.js";
import { SignedIn } from "../sessions/schemas.js";
import { userJson } from "../users/output.js";
import { acceptsIdTokens, claimsOf, verifyIdToken } from "./id-token.js";
import { authorizationUrl, exchangeCode } from "./oauth2.js";
import { fetchProfile } from "./profile.js";
import type { ProviderTokens } from "./providers/types.js";
import { type IdTokenSignIn, ProviderCallback, ProviderIdParams, ProviderRedirect, SocialLink, SocialLinked, SocialProviders, SocialSignIn } from "./schemas.js";
import type { ConfiguredProvider } from "./settings.js";
import { linkProviderAccount, linkSessionLive, signInWithProvider, type ProviderIdentity } from "./sign-in.js";
import { beginFlow, takeFlowState } from "./state.js";

/**
 * The longest address the posted callback passes on: a Location header must fit, with the rest of
 * the answer's headers, in the 16 KiB that Node (the gateway's own client too) and most proxies read.
 */
const MAX_ONWARD_URL_LENGTH = 8 * 1024;

const redirectUri = (auth: Parts, provider: ConfiguredProvider) => authUrl(auth.config, `/callback/${provider.definition.id}`);

function providerOf(auth: Parts, id: string): ConfiguredProvider {
  const provider = auth.providers.get(id);
  if (!provider) throw authError(404, "PROVIDER_NOT_FOUND");
  return provider;
}

/** The person behind an ID token a client presents, or the error better-auth answers with. */
async function identityFromIdToken(auth: Parts, provider: ConfiguredProvider, idToken: z.output<typeof IdTokenSignIn>): Promise<ProviderIdentity & { email: string }> {
  if (!acceptsIdTokens(provider)) throw authError(404, "ID_TOKEN_NOT_SUPPORTED");
  const claims = await verifyIdToken(provider, idToken.token, idToken.nonce);
  if (!claims) throw authError(401, "INVALID_TOKEN");
  const tokens: ProviderTokens = {
    accessToken: idToken.accessToken ?? null,
    refreshToken: idToken.refreshToken ?? null,
    idToken: idToken.token,
    accessTokenExpiresAt: idToken.expiresAt ? new Date(idToken.expiresAt) : null,
    refreshTokenExpiresAt: null,
    scopes: [],
  };
  const profile = await fetchProfile(auth.logger, provider, tokens, claims);
  if (!profile) throw authError(401, "FAILED_TO_GET_USER_INFO");
  if (!profile.email) throw authError(401, "USER_EMAIL_NOT_FOUND");
  return { provider, profile, tokens, email: profile.email };
}

/** Starts a redirect flow: the state, its cookie, and where the browser goes next. */
async function redirectToProvider(
  auth: Parts,
  res: Response,
  provider: ConfiguredProvider,
  body: { callbackURL?: string; errorCallbackURL?: string; newUserCallbackURL?: string; scopes?: string[]; loginHint?: string; additionalParams?: Record<string, string>; disableRedirect?: boolean; requestSignUp?: boolean },
  link?: { userId: string; email: string; sessionId: string },
) {
  const { state, codeVerifier } = await beginFlow(auth, res, {
    provider: provider.definition.id,
    callbackURL: body.callbackURL || auth.config.PUBLIC_URL,
    errorURL: body.errorCallbackURL,
    newUserURL: body.newUserCallbackURL,
    requestSignUp: body.requestSignUp,
    link,
  });
  const url = authorizationUrl(provider, {
    state,
    codeVerifier,
    redirectUri: redirectUri(auth, provider),
    scopes: body.scopes,
    loginHint: body.loginHint,
    additionalParams: body.additionalParams,
  });
  if (!body.disableRedirect) res.setHeader("location", url);
  return { url, redirect: !body.disableRedirect };
}

/**
 * The provider's answer: the code traded for tokens, the profile fetched, then a sign-in, a sign-up
 * or a link. Every failure sends the browser to the flow's error URL (the error page by default)
 * with better-auth's code.
 */
async function completeFlow(auth: Parts, providerId: string, query: unknown, req: Request, res: Response): Promise<void> {
  const errorPage = authUrl(auth.config, "/error");
  const params = ProviderCallback.safeParse(query);
  if (!params.success) return res.redirect(302, withQuery(errorPage, { error: "invalid_callback_request" }));
  const { code, state, error, error_description: description } = params.data;
  if (!state) return res.redirect(302, withQuery(errorPage, { error: "state_not_found" }));
  const taken = await takeFlowState(auth, req, res, state);
  if (!taken.ok) return res.redirect(302, withQuery(taken.errorURL ?? errorPage, { error: taken.error }));
  const { flow } = taken;
  const fail = (reason: string, detail?: string) =>
    res.redirect(302, withQuery(flow.errorURL ?? errorPage, { error: reason, ...(detail && { error_description: detail }) }));

  if (error) return fail(error, description);
  if (!code) return fail("no_code");
  const provider = auth.providers.get(providerId);
  if (!provider || flow.provider !== providerId) return fail("oauth_provider_not_found");
  let tokens: ProviderTokens;
  try {
    tokens = await exchangeCode(provider, { code, codeVerifier: flow.codeVerifier, redirectUri: redirectUri(auth, provider), deviceId: params.data.device_id });
  } catch (exchangeError) {
    auth.logger.warn({ provider: providerId, reason: exchangeError instanceof Error ? exchangeError.message : String(exchangeError) }, "the provider refused the code");
    return fail("invalid_code");
  }
  const profile = await fetchProfile(auth.logger, provider, tokens, claimsOf(tokens.idToken), params.data.user ?? null);
  if (!profile) return fail("unable_to_get_user_info");
  const identity = { provider, profile, tokens };

  if (flow.link) {
    if (!(await linkSessionLive(auth, flow.link))) return fail("unable_to_link_account");
    const linked = await linkProviderAccount(auth, identity, flow.link);
    return linked.ok ? res.redirect(302, flow.callbackURL) : fail(linked.error);
  }
  if (!profile.email) return fail("email_not_found");
  const outcome = await signInWithProvider(auth, { ...identity, email: profile.email }, { requestSignUp: flow.requestSignUp, callbackURL: flow.callbackURL, requestLocale: requestLocale(req) });
  if (!outcome.ok) return fail(outcome.error);
  await startSession(auth, auth.db, res, outcome.user, { req, persistent: true });
  res.redirect(302, outcome.isNew ? (flow.newUserURL ?? flow.callbackURL) : flow.callbackURL);
}

export function socialEndpoints(auth: Parts): Endpoint[] {
  const { config } = auth;
  const assertRedirects = (body: { callbackURL?: string; errorCallbackURL?: string; newUserCallbackURL?: string }) => {
    assertTrustedRedirect(config, body.callbackURL);
    assertTrustedRedirect(config, body.errorCallbackURL, "INVALID_ERROR_CALLBACK_URL");
    assertTrustedRedirect(config, body.newUserCallbackURL, "INVALID_NEW_USER_CALLBACK_URL");
  };
  return [
    defineEndpoint(
      "/sign-in/social",
      {
        method: "POST",
        body: SocialSignIn,
        response: z.union([ProviderRedirect, SignedIn]),
        summary: "Sign in with a social provider: where to send the browser, or with an ID token, signed in at once",
        tag: "Default",
      },
      async ({ body, req, res }) => {
        const provider = providerOf(auth, body.provider);
        assertRedirects(body);
        if (!body.idToken) return redirectToProvider(auth, res, provider, body);
        const identity = await identityFromIdToken(auth, provider, body.idToken);
        const outcome = await signInWithProvider(auth, identity, { requestSignUp: body.requestSignUp, callbackURL: body.callbackURL, requestLocale: requestLocale(req) });
        if (!outcome.ok) {
          if (outcome.error === "email_not_verified") throw authError(403, "EMAIL_NOT_VERIFIED");
          if (outcome.error === "banned") throw authError(403, "BANNED_USER");
          throw new HttpError(401, "OAUTH_LINK_ERROR", outcome.error.replaceAll("_", " "));
        }
        const { token } = await startSession(auth, auth.db, res, outcome.user, { req, persistent: true });
        return { redirect: false, token, url: undefined, user: userJson(outcome.user) };
      },
    ),

    defineEndpoint(
      "/callback/:id",
      {
        method: "GET",
        params: ProviderIdParams,
        status: 302,
        produces: "text/html",
        summary: "Where a provider sends the browser back: on to the flow's callback, or its error URL",
        tag: "Default",
      },
      async ({ params, req, res }) => {
        await completeFlow(auth, params.id, req.query, req, res);
      },
    ),

    // Apple posts its answer (form_post); it continues as a GET, where this browser's cookies come along.
    defineEndpoint(
      "/callback/:id",
      {
        method: "POST",
        params: ProviderIdParams,
        status: 302,
        produces: "text/html",
        summary: "Where a provider posts its answer (Apple's form_post): on to the GET callback",
        tag: "Default",
      },
      ({ params, req, res }) => {
        const fields = { ...ProviderCallback.partial().catch({}).parse(req.body), ...ProviderCallback.partial().catch({}).parse(req.query) };
        const query = new URLSearchParams(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
        const onward = authUrl(config, `/callback/${encodeURIComponent(params.id)}?${query.toString()}`);
        // No provider posts this much: such an answer goes to the error page, not into a header nothing can read.
        res.redirect(302, onward.length <= MAX_ONWARD_URL_LENGTH ? onward : withQuery(authUrl(config, "/error"), { error: "invalid_callback_request" }));
        return Promise.resolve();
      },
    ),

    defineEndpoint(
      "/link-social",
      {
        method: "POST",
        body: SocialLink,
        response: z.union([ProviderRedirect, SocialLinked]),
        summary: "Link a social provider's account to the signed-in user",
        tag: "Default",
      },
      async ({ body, identity, req, res }) => {
        const current = await requireSession(auth, identity, req);
        const provider = providerOf(auth, body.provider);
        assertRedirects(body);
        const link = { userId: current.user.id, email: current.user.email, sessionId: current.session.id };
        if (!body.idToken) return redirectToProvider(auth, res, provider, body, link);
        const linked = await linkProviderAccount(auth, await identityFromIdToken(auth, provider, body.idToken), link);
        if (!linked.ok) {
          if (linked.error === "account_already_linked_to_different_user") throw authError(409, "SOCIAL_ACCOUNT_ALREADY_LINKED");
          throw authError(401, linked.error === "email_does_not_match" ? "LINKING_DIFFERENT_EMAILS_NOT_ALLOWED" : "LINKING_NOT_ALLOWED");
        }
        return { url: "", status: true, redirect: false };
      },
    ),

    /** Tollgate's own: which providers are on, so sign-in pages show just their buttons. */
    defineEndpoint("/social-providers", { method: "GET", response: SocialProviders, summary: "List the social providers this site offers sign-in with", tag: "Default" }, () =>
      Promise.resolve({ providers: [...auth.providers.values()].map(({ definition }) => ({ id: definition.id, name: definition.name })) }),
    ),
  ];
}
