import { defineMessages } from "react-intl";
import type { CustomFieldType } from "./custom-fields-api";

/** Each type of custom field in words. */
export const customFieldTypeLabels = defineMessages({
  text: { id: "seller.customFields.type.text", defaultMessage: "Text" },
  number: { id: "seller.customFields.type.number", defaultMessage: "Number" },
  date: { id: "seller.customFields.type.date", defaultMessage: "Date" },
  checkbox: { id: "seller.customFields.type.checkbox", defaultMessage: "Checkbox" },
  select: { id: "seller.customFields.type.select", defaultMessage: "Choice from a list" },
} satisfies Record<CustomFieldType, unknown>);
