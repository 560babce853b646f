import { apple } from "./apple.js";
import { discord } from "./discord.js";
import { dropbox } from "./dropbox.js";
import { facebook } from "./facebook.js";
import { github } from "./github.js";
import { gitlab } from "./gitlab.js";
import { google } from "./google.js";
import { kick } from "./kick.js";
import { linkedin } from "./linkedin.js";
import { microsoft } from "./microsoft.js";
import { reddit } from "./reddit.js";
import { roblox } from "./roblox.js";
import { spotify } from "./spotify.js";
import { tiktok } from "./tiktok.js";
import { twitch } from "./twitch.js";
import type { ProviderDefinition } from "./types.js";
import { twitter } from "./twitter.js";
import { vk } from "./vk.js";
import { zoom } from "./zoom.js";

export const SOCIAL_PROVIDER_IDS = [
  "apple",
  "discord",
  "facebook",
  "github",
  "microsoft",
  "google",
  "spotify",
  "twitch",
  "twitter",
  "dropbox",
  "kick",
  "linkedin",
  "gitlab",
  "tiktok",
  "reddit",
  "roblox",
  "vk",
  "zoom",
] as const;

export type SocialProviderId = (typeof SOCIAL_PROVIDER_IDS)[number];

/** Every provider Tollgate can sign people in with; a provider is on when its client id and secret are configured. */
export const PROVIDERS: Record<SocialProviderId, ProviderDefinition> = {
  apple,
  discord,
  facebook,
  github,
  microsoft,
  google,
  spotify,
  twitch,
  twitter,
  dropbox,
  kick,
  linkedin,
  gitlab,
  tiktok,
  reddit,
  roblox,
  vk,
  zoom,
};
