import { useQuery } from "@tanstack/react-query";
import { defineMessages, useIntl } from "react-intl";
import { longDate } from "../../i18n/format";
import { Card } from "../../ui/components";
import { Facts } from "../../ui/facts";
import type { CustomField } from "../custom-fields/custom-fields-api";
import { customFieldsBySlug } from "../custom-fields/queries";
import { useSeller } from "../space";
import type { Order } from "./api";

const messages = defineMessages({
  title: { id: "seller.order.answers", defaultMessage: "Answers at checkout" },
  yes: { id: "seller.order.answer.yes", defaultMessage: "Yes" },
  no: { id: "seller.order.answer.no", defaultMessage: "No" },
});

/**
 * What the buyer answered to the seller's questions (the order's `custom_field_data`, keyed by each
 * field's slug), under each field's name and with a choice's label, as the checkout showed them.
 */
export function OrderAnswers({ order }: { order: Order }) {
  const { formatMessage } = useIntl();
  const { id: organizationId } = useSeller();
  const answered = Object.entries(order.custom_field_data).filter(([, answer]) => answer !== null && answer !== "");
  const fields = useQuery({ ...customFieldsBySlug(organizationId), enabled: answered.length > 0 });
  if (answered.length === 0) return null;
  const bySlug = new Map((fields.data?.items ?? []).map((field) => [field.slug, field]));
  const shown = (field: CustomField | undefined, answer: string | number | boolean) => {
    if (typeof answer === "boolean") return formatMessage(answer ? messages.yes : messages.no);
    if (field?.type === "select") return field.properties.options?.find((option) => option.value === answer)?.label ?? String(answer);
    if (field?.type === "date") return longDate(String(answer));
    return String(answer);
  };
  return (
    <Card title={formatMessage(messages.title)}>
      <Facts rows={answered.map(([slug, answer]) => [bySlug.get(slug)?.name ?? slug, shown(bySlug.get(slug), answer as string | number | boolean)])} />
    </Card>
  );
}
