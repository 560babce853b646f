import { useChange } from "../../api/mutations";
import { createAccessToken, revokeAccessToken } from "./access-tokens-api";

export const accessTokenKeys = {
  all: ["access-tokens"] as const,
  list: (organizationId: string) => [...accessTokenKeys.all, "list", organizationId] as const,
};

export const useCreateAccessToken = () => useChange(createAccessToken, () => [accessTokenKeys.all]);
export const useRevokeAccessToken = () => useChange(revokeAccessToken, () => [accessTokenKeys.all]);
