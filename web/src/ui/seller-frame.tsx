import type { ReactNode } from "react";
import { LanguageSwitcher } from "../i18n/switcher";

/** Who a buyer's page belongs to, as Polar's public organization shows it. */
export interface SellerIdentity {
  name: string;
  avatar_url: string | null;
}

/**
 * A page a seller's buyers see (hosted checkout, customer portal): the seller's avatar and name at
 * the top, where the platform's own header would be, and the page as the main content. Before the
 * seller is known only the language picker shows.
 */
export function SellerFrame({ seller, children }: { seller?: SellerIdentity; children: ReactNode }) {
  return (
    <>
      <header className="seller-header">
        {seller && (
          // A seller's name is theirs, not the app's to translate.
          <span className="seller-identity" translate="no">
            {seller.avatar_url ? (
              <img className="seller-avatar" src={seller.avatar_url} alt="" />
            ) : (
              <span className="seller-avatar seller-initial" aria-hidden="true">
                {seller.name.trim().charAt(0).toUpperCase()}
              </span>
            )}
            <span className="seller-name">{seller.name}</span>
          </span>
        )}
        <LanguageSwitcher />
      </header>
      <main className="buyer-main" id="content">
        {children}
      </main>
    </>
  );
}
