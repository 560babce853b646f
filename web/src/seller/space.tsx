import { createContext, useContext } from "react";

/** The organization a seller's screen works on, and whether the person may change it (owners and admins) or only look. */
export interface Seller {
  id: string;
  slug: string;
  name: string;
  mayChange: boolean;
  /** Why not, for a member who may only look. */
  readOnlyReason: string | null;
}

export const SellerContext = createContext<Seller | null>(null);

/** The seller of the screen being shown; only inside the seller's space. */
export function useSeller(): Seller {
  const seller = useContext(SellerContext);
  if (!seller) throw new Error("useSeller outside the seller's space");
  return seller;
}
