import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import type { Product } from "../api/wire";
import { t } from "../i18n/translate";

type Metadata = Product["metadata"];

/** Metadata as forms take it: a JSON object typed in a text field (organizations, products, customers). */

const messages = defineMessages({
  metadata: { id: "forms.metadata.invalid", defaultMessage: "Enter a JSON object such as {example}, or nothing" },
});

/** Metadata typed as JSON: empty, or one object. */
export const metadataText = z.string().check(
  z.refine(
  (text) => {
    if (!text.trim()) return true;
    try {
      const value: unknown = JSON.parse(text);
      return typeof value === "object" && value !== null && !Array.isArray(value);
    } catch {
      return false;
    }
  },
  { error: () => t(messages.metadata, { example: '{"plan": "pro"}' }) },
  ),
);
/** Typed as the API's metadata (scalar values): the API, not this form, refuses a nested value, on the field. */
export const parseMetadata = (text: string): Metadata | undefined => (text.trim() ? (JSON.parse(text) as Metadata) : undefined);
