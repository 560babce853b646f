import { queryOptions } from "@tanstack/react-query";
import { authClient, viaAuth } from "../api/auth-client";
import { useChange } from "../api/mutations";

/** The admin API's list-users query. */
export type ListUsersQuery = NonNullable<Parameters<typeof authClient.admin.listUsers>[0]>["query"];

export const adminKeys = {
  all: ["admin"] as const,
  users: () => [...adminKeys.all, "users"] as const,
  userList: (query: ListUsersQuery) => [...adminKeys.users(), query] as const,
  user: (id: string) => [...adminKeys.all, "user", id] as const,
  userSessions: (id: string) => [...adminKeys.all, "user-sessions", id] as const,
};

export const usersQuery = (query: ListUsersQuery) => queryOptions({ queryKey: adminKeys.userList(query), queryFn: () => viaAuth(() => authClient.admin.listUsers({ query })) });
const readUser = (id: string) => viaAuth(() => authClient.admin.getUser({ query: { id } }));
export const userQuery = (id: string) => queryOptions({ queryKey: adminKeys.user(id), queryFn: () => readUser(id) });
/** A user as the admin's screen shows them. */
export type AdminUser = NonNullable<Awaited<ReturnType<typeof readUser>>>;
export const userSessionsQuery = (id: string) => queryOptions({ queryKey: adminKeys.userSessions(id), queryFn: () => viaAuth(() => authClient.admin.listUserSessions({ userId: id })) });

export const useCreateUser = () => useChange((user: Parameters<typeof authClient.admin.createUser>[0]) => viaAuth(() => authClient.admin.createUser(user)), () => [adminKeys.users()]);

/** Any change to one user (role, ban, password, sessions, removal): refused or not, their page and the list show them as the server has them. */
export const useUserChange = (id: string) => useChange((call: () => Promise<unknown>) => call(), () => [adminKeys.user(id), adminKeys.userSessions(id), adminKeys.users()], { evenIfRefused: true });
