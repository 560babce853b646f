import { describe, expect, it } from "vitest";
import { PROVIDERS, SOCIAL_PROVIDER_IDS, type SocialProviderId } from "../src/social/providers/index.js";
import type { ProfileSource, ProviderProfile } from "../src/social/providers/types.js";

/**
 * Each provider's profile mapping, on the shapes its API documents (trimmed real answers, with
 * example ids): what its endpoints answer, or what its ID token claims.
 */
interface Recorded {
  /** Answers by endpoint, as `endpoints(...)` names them, or by full URL for providers that add a query. */
  answers?: Record<string, unknown>;
  claims?: Record<string, unknown>;
  appleUser?: string;
  expected: ProviderProfile;
}

const RECORDED: Record<SocialProviderId, Recorded> = {
  google: {
    claims: {
      iss: "https://accounts.google.com",
      azp: "1234987819200.apps.googleusercontent.com",
      aud: "1234987819200.apps.googleusercontent.com",
      sub: "10769150350006150715113082367",
      email: "jsmith@example.com",
      email_verified: true,
      name: "Jane Smith",
      picture: "https://lh3.googleusercontent.com/a/ACg8ocK",
      given_name: "Jane",
      family_name: "Smith",
      iat: 1353601026,
      exp: 1353604926,
    },
    expected: { id: "10769150350006150715113082367", email: "jsmith@example.com", emailVerified: true, name: "Jane Smith", image: "https://lh3.googleusercontent.com/a/ACg8ocK" },
  },
  apple: {
    claims: { iss: "https://appleid.apple.com", aud: "com.example.web", sub: "001234.5c3d0a0e3c1b4f0d8a8e3f1e2d3c4b5a.1234", email: "abc123@privaterelay.appleid.com", email_verified: "true", is_private_email: "true", auth_time: 1700000000 },
    appleUser: JSON.stringify({ name: { firstName: "Jane", lastName: "Appleseed" }, email: "abc123@privaterelay.appleid.com" }),
    expected: { id: "001234.5c3d0a0e3c1b4f0d8a8e3f1e2d3c4b5a.1234", email: "abc123@privaterelay.appleid.com", emailVerified: true, name: "Jane Appleseed", image: null },
  },
  microsoft: {
    claims: {
      aud: "6cb04018-a3f5-46a7-b995-940c78f5aef3",
      iss: "https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0",
      tid: "72f988bf-86f1-41af-91ab-2d7cd011db47",
      oid: "00000000-0000-0000-66f3-3332eca7ea81",
      sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
      name: "Abe Lincoln",
      preferred_username: "AbeLi@microsoft.com",
      email: "AbeLi@microsoft.com",
      verified_primary_email: ["AbeLi@microsoft.com"],
    },
    expected: { id: "00000000-0000-0000-66f3-3332eca7ea81", email: "AbeLi@microsoft.com", emailVerified: true, name: "Abe Lincoln", image: null },
  },
  github: {
    answers: {
      userInfo: { login: "octocat", id: 1, node_id: "MDQ6VXNlcjE=", avatar_url: "https://github.com/images/error/octocat_happy.gif", type: "User", name: "monalisa octocat", email: null },
      emails: [
        { email: "octocat@users.noreply.github.com", verified: true, primary: false, visibility: null },
        { email: "octocat@github.com", verified: true, primary: true, visibility: "private" },
      ],
    },
    expected: { id: "1", email: "octocat@github.com", emailVerified: true, name: "monalisa octocat", image: "https://github.com/images/error/octocat_happy.gif" },
  },
  discord: {
    answers: {
      userInfo: { id: "80351110224678912", username: "nelly", discriminator: "0", global_name: null, avatar: null, verified: true, email: "nelly@discord.com", flags: 64, premium_type: 1 },
    },
    // No avatar: Discord's default, chosen from the id since usernames lost their discriminators.
    expected: { id: "80351110224678912", email: "nelly@discord.com", emailVerified: true, name: "nelly", image: "https://cdn.discordapp.com/embed/avatars/5.png" },
  },
  facebook: {
    answers: { userInfo: { id: "10158920303920284", name: "Jane Doe", email: "jane@example.com", picture: { data: { height: 50, is_silhouette: false, url: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=1", width: 50 } } } },
    expected: { id: "10158920303920284", email: "jane@example.com", emailVerified: false, name: "Jane Doe", image: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=1" },
  },
  spotify: {
    answers: { userInfo: { country: "SE", display_name: "JM Wizzler", email: "email@example.com", id: "wizzler", images: [{ height: 300, url: "https://i.scdn.co/image/ab67616d00001e02", width: 300 }], product: "premium", type: "user" } },
    expected: { id: "wizzler", email: "email@example.com", emailVerified: false, name: "JM Wizzler", image: "https://i.scdn.co/image/ab67616d00001e02" },
  },
  twitch: {
    claims: { aud: "hof5gwx0su6owfnys0yan9c87zr6t", exp: 1642105498, iat: 1642104598, iss: "https://id.twitch.tv/oauth2", sub: "713936733", email: "dallas@example.com", email_verified: true, picture: "https://static-cdn.jtvnw.net/user-default-pictures-uv/998f01ae.png", preferred_username: "dallas" },
    expected: { id: "713936733", email: "dallas@example.com", emailVerified: true, name: "dallas", image: "https://static-cdn.jtvnw.net/user-default-pictures-uv/998f01ae.png" },
  },
  twitter: {
    answers: {
      "https://api.x.com/2/users/me?user.fields=profile_image_url": { data: { id: "2244994945", name: "X Dev", username: "TwitterDev", profile_image_url: "https://pbs.twimg.com/profile_images/1445764922474827784/W2zEPN7U_normal.jpg" } },
      "https://api.x.com/2/users/me?user.fields=confirmed_email": { data: { id: "2244994945", name: "X Dev", username: "TwitterDev", confirmed_email: "dev@x.example" } },
    },
    expected: { id: "2244994945", email: "dev@x.example", emailVerified: true, name: "X Dev", image: "https://pbs.twimg.com/profile_images/1445764922474827784/W2zEPN7U_normal.jpg" },
  },
  dropbox: {
    answers: {
      userInfo: {
        account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
        name: { abbreviated_name: "FD", display_name: "Franz Ferdinand (Personal)", familiar_name: "Franz", given_name: "Franz", surname: "Ferdinand" },
        email: "franz@dropbox.com",
        email_verified: true,
        profile_photo_url: "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA",
        disabled: false,
      },
    },
    expected: { id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc", email: "franz@dropbox.com", emailVerified: true, name: "Franz Ferdinand (Personal)", image: "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA" },
  },
  kick: {
    answers: { userInfo: { data: [{ email: "kick@example.com", name: "kickstreamer", profile_picture: "https://files.kick.com/images/user/123/profile_image/conversion/abc-fullsize.webp", user_id: 123 }], message: "OK" } },
    expected: { id: "123", email: "kick@example.com", emailVerified: false, name: "kickstreamer", image: "https://files.kick.com/images/user/123/profile_image/conversion/abc-fullsize.webp" },
  },
  linkedin: {
    answers: { userInfo: { sub: "782bbtaQ", name: "John Doe", given_name: "John", family_name: "Doe", picture: "https://media.licdn-ei.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile-displayphoto-shrink_100_100/0/", locale: "en-US", email: "doe@email.com", email_verified: true } },
    expected: { id: "782bbtaQ", email: "doe@email.com", emailVerified: true, name: "John Doe", image: "https://media.licdn-ei.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile-displayphoto-shrink_100_100/0/" },
  },
  gitlab: {
    answers: { userInfo: { id: 1, username: "john_smith", email: "john@example.com", name: "John Smith", state: "active", locked: false, avatar_url: "http://localhost:3000/uploads/user/avatar/1/index.jpg", web_url: "http://localhost:3000/john_smith" } },
    expected: { id: "1", email: "john@example.com", emailVerified: false, name: "John Smith", image: "http://localhost:3000/uploads/user/avatar/1/index.jpg" },
  },
  tiktok: {
    answers: { userInfo: { data: { user: { open_id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4", avatar_large_url: "https://p16-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/b17f0e4b3a4f4a50993cf72cda8b88b8~c5_1080x1080.jpeg", display_name: "TikTok Dev", username: "tiktokdev" } }, error: { code: "ok", message: "" } } },
    expected: { id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4", email: "723f24d7-e717-40f8-a2b6-cb8464cd23b4@tiktok.placeholder.invalid", emailVerified: false, name: "TikTok Dev", image: "https://p16-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/b17f0e4b3a4f4a50993cf72cda8b88b8~c5_1080x1080.jpeg" },
  },
  reddit: {
    answers: { userInfo: { id: "1w72", name: "spez", icon_img: "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&height=256&crop=256:256,smart&s=abc", verified: true, has_verified_email: true } },
    expected: { id: "1w72", email: "1w72@reddit.placeholder.invalid", emailVerified: false, name: "spez", image: "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png" },
  },
  roblox: {
    answers: { userInfo: { sub: "1516563360", name: "exampleuser", nickname: "exampleuser", preferred_username: "exampleuser", created_at: 1584682495, profile: "https://www.roblox.com/users/1516563360/profile", picture: "https://tr.rbxcdn.com/03dc2a9abe7b1aacaaf93129ac5c6c1d/150/150/AvatarHeadshot/Png" } },
    expected: { id: "1516563360", email: "1516563360@roblox.placeholder.invalid", emailVerified: false, name: "exampleuser", image: "https://tr.rbxcdn.com/03dc2a9abe7b1aacaaf93129ac5c6c1d/150/150/AvatarHeadshot/Png" },
  },
  vk: {
    answers: { userInfo: { user: { user_id: "1234567890", first_name: "Ivan", last_name: "Ivanov", phone: "79991234567", avatar: "https://pp.userapi.com/60tZWMo4SmwcploUVl9XEt8ufnTTvDUmQ6Bj1g/mmv1pcj63C4.png", email: "ivan_i123@vk.ru", sex: 2, verified: false, birthday: "01.01.2000" } } },
    expected: { id: "1234567890", email: "ivan_i123@vk.ru", emailVerified: false, name: "Ivan Ivanov", image: "https://pp.userapi.com/60tZWMo4SmwcploUVl9XEt8ufnTTvDUmQ6Bj1g/mmv1pcj63C4.png" },
  },
  zoom: {
    answers: { userInfo: { id: "KDcuGIm1QgePTO8WbOqwIQ", first_name: "Jill", last_name: "Chill", display_name: "Jill Chill", email: "jchill@example.com", type: 1, pic_url: "https://example.com/photo.jpg", verified: 1, status: "active" } },
    expected: { id: "KDcuGIm1QgePTO8WbOqwIQ", email: "jchill@example.com", emailVerified: true, name: "Jill Chill", image: "https://example.com/photo.jpg" },
  },
};

/** A profile source answering from the recording, and noting which endpoints were asked for. */
function sourceFor(id: SocialProviderId, recorded: Recorded, asked: string[]): ProfileSource {
  const endpoints = PROVIDERS[id].endpoints({});
  const byUrl = new Map<string, unknown>();
  for (const [name, answer] of Object.entries(recorded.answers ?? {})) byUrl.set(endpoints[name as keyof typeof endpoints] ?? name, answer);
  return {
    endpoints,
    claims: recorded.claims ?? null,
    clientId: "client-id",
    accessToken: "access-token",
    appleUser: recorded.appleUser ?? null,
    fetchJson(url) {
      asked.push(url);
      return byUrl.has(url) ? Promise.resolve(byUrl.get(url)) : Promise.reject(new Error(`${url} was not recorded`));
    },
  };
}

describe("each provider's profile, from its recorded answer", () => {
  it("covers all eighteen providers", () => {
    expect(Object.keys(RECORDED).sort()).toEqual([...SOCIAL_PROVIDER_IDS].sort());
  });

  it.each(SOCIAL_PROVIDER_IDS)("maps %s", async (id) => {
    const recorded = RECORDED[id];
    const asked: string[] = [];
    expect(await PROVIDERS[id].profile(sourceFor(id, recorded, asked))).toEqual(recorded.expected);
    // Everything the mapping read came from the recording.
    expect(asked.length).toBe(Object.keys(recorded.answers ?? {}).length);
  });

  it("gives no profile for an answer of another shape, or a blocked GitLab user", async () => {
    expect(await PROVIDERS.google.profile(sourceFor("google", { claims: { email: "x@example.com" }, expected: RECORDED.google.expected }, []))).toBeNull();
    const blocked = { answers: { userInfo: { ...(RECORDED.gitlab.answers?.userInfo as object), state: "blocked" } }, expected: RECORDED.gitlab.expected };
    expect(await PROVIDERS.gitlab.profile(sourceFor("gitlab", blocked, []))).toBeNull();
  });

  it("marks a GitHub address unverified when GitHub does, and keeps X's placeholder when the address is withheld", async () => {
    const unverified = { ...RECORDED.github, answers: { ...RECORDED.github.answers, emails: [{ email: "octocat@github.com", verified: false, primary: true, visibility: null }] } };
    expect(await PROVIDERS.github.profile(sourceFor("github", unverified, []))).toMatchObject({ email: "octocat@github.com", emailVerified: false });
    const withheld = { ...RECORDED.twitter, answers: { "https://api.x.com/2/users/me?user.fields=profile_image_url": RECORDED.twitter.answers?.["https://api.x.com/2/users/me?user.fields=profile_image_url"] } };
    expect(await PROVIDERS.twitter.profile(sourceFor("twitter", withheld, []))).toMatchObject({ email: "2244994945@twitter.placeholder.invalid", emailVerified: false });
  });
});
