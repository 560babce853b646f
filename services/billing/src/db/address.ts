/** A postal address as stored (a jsonb column): every line null when not given but the two-letter country. */
export interface Address {
  line1: string | null;
  line2: string | null;
  postal_code: string | null;
  city: string | null;
  state: string | null;
  country: string;
}
