import { authClient, viaAuth } from "../api/auth-client";

/** The signed-in person's organizations, as the header's switcher and the start page list them. */
export const organizationsQuery = {
  queryKey: ["organizations"],
  queryFn: () => viaAuth(() => authClient.organization.list()),
};
