import type { SellerRow } from "../organizations/organizations.sql.js";

/** A purchase as a user who bought from many sellers sees it: with the seller's name and slug. */
export const purchaseJson = <Shown extends object>(shown: Shown, seller: Pick<SellerRow, "id" | "name" | "slug"> | undefined) => ({ ...shown, organization: seller ?? null });
