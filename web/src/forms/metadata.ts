import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import { t } from "../i18n/translate";

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
export const parseMetadata = (text: string): Record<string, unknown> | undefined => (text.trim() ? (JSON.parse(text) as Record<string, unknown>) : undefined);
