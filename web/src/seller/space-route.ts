import { createRoute } from "@tanstack/react-router";
import type { MessageDescriptor } from "react-intl";
import { rootRoute } from "../root-route";

/**
 * The seller's space at /{slug}: the parent of every console route, which each folder's routes.ts
 * hangs its screens from. Its layout (space-layout.tsx) is given in router.tsx: the layout shows the
 * folders' navigation entries, so naming it here would close an import circle.
 */
export const sellerSpaceRoute = createRoute({ getParentRoute: () => rootRoute, path: "/$slug" });

/** A console section's entry in the seller's navigation: where it leads and what it is called (`exact`: only its own address marks it current). */
export interface SellerNavigation {
  to: `/$slug${string}`;
  label: MessageDescriptor;
  exact?: true;
}
