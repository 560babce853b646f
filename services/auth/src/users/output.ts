import type { UserRow } from "./users.sql.js";

/** A user as better-auth (with the username and admin plugins) returns it. */
export function userJson(user: UserRow) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: user.email_verified,
    image: user.image,
    createdAt: user.created_at,
    updatedAt: user.updated_at,
    username: user.username,
    displayUsername: user.display_username,
    role: user.role,
    banned: user.banned,
    banReason: user.ban_reason,
    banExpires: user.ban_expires,
    locale: user.locale,
    twoFactorEnabled: user.two_factor_enabled,
  };
}

/** The fields user.created / user.updated events carry. */
export function userEventData(user: UserRow) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    email_verified: user.email_verified,
    username: user.username,
    role: user.role,
  };
}
