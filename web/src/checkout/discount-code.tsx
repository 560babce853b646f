import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { defineMessage, defineMessages, useIntl, type MessageDescriptor } from "react-intl";
import { describeError, request, type ApiError } from "../api/client";
import type { RequestBody } from "../api/wire";
import { t } from "../i18n/translate";
import { Button, Field } from "../ui/components";
import { checkoutPath, type PublicCheckout } from "./api";
import { checkoutQuery } from "./queries";

const messages = defineMessages({
  code: { id: "checkout.discountCode", defaultMessage: "Discount code" },
  apply: { id: "checkout.discountCode.apply", defaultMessage: "Apply" },
  remove: { id: "checkout.discountCode.remove", defaultMessage: "Remove" },
  enterCode: { id: "checkout.discountCode.missing", defaultMessage: "Enter the code you were given" },
});

const applied = defineMessage<{ code: string }>({ id: "checkout.discountCode.applied", defaultMessage: "Code {code} applied" });

/** Why the server refused a code, by its fixed English text (it gives no code), in the reader's language. */
const REFUSALS: Record<string, MessageDescriptor> = {
  "This discount code does not exist.": defineMessage({ id: "checkout.discountCode.unknown", defaultMessage: "There is no such code." }),
  "This discount code is not valid yet.": defineMessage({ id: "checkout.discountCode.notYet", defaultMessage: "This code is not valid yet." }),
  "This discount code has expired.": defineMessage({ id: "checkout.discountCode.expired", defaultMessage: "This code has expired." }),
  "This discount code has been used up.": defineMessage({ id: "checkout.discountCode.usedUp", defaultMessage: "This code has been used up." }),
  "This discount code is not valid for this currency.": defineMessage({ id: "checkout.discountCode.currency", defaultMessage: "This code is not valid for this currency." }),
  "This discount code is not valid for this product.": defineMessage({ id: "checkout.discountCode.product", defaultMessage: "This code is not valid for this product." }),
};

/**
 * The code a buyer was given, sent to the checkout (Polar's client update with `discount_code`),
 * whose new amounts the page shows at once; a code the seller's discount does not allow here is
 * refused in words next to the field. Only where the seller accepts codes.
 */
export function DiscountCode({ checkout, clientSecret }: { checkout: PublicCheckout; clientSecret: string }) {
  const { formatMessage } = useIntl();
  const queryClient = useQueryClient();
  const [code, setCode] = useState("");
  const [refusal, setRefusal] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: (discountCode: string | null) => request<PublicCheckout>(checkoutPath(clientSecret), { method: "PATCH", body: { discount_code: discountCode } satisfies RequestBody<"/v1/checkouts/client/{client_secret}", "patch"> }),
    onSuccess: (changed) => {
      queryClient.setQueryData(checkoutQuery(clientSecret).queryKey, changed);
      setCode("");
    },
    onError: ({ failure }) => setRefusal(refusalOf(failure)),
  });
  if (!checkout.allow_discount_codes) return null;

  if (checkout.discount?.code) {
    return (
      <p className="checkout-discount">
        <span>{formatMessage(applied, { code: checkout.discount.code })}</span>
        <Button variant="secondary" busy={change.isPending} onClick={() => change.mutate(null)}>
          {formatMessage(messages.remove)}
        </Button>
      </p>
    );
  }
  if (!checkout.is_discount_applicable) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    if (!code.trim()) return setRefusal(formatMessage(messages.enterCode));
    change.mutate(code.trim());
  };
  return (
    <form className="checkout-discount" onSubmit={submit} noValidate>
      <Field label={formatMessage(messages.code)} error={refusal ?? undefined}>
        {(ids) => <input {...ids} value={code} onChange={(event) => setCode(event.target.value)} autoComplete="off" />}
      </Field>
      <Button type="submit" variant="secondary" busy={change.isPending}>
        {formatMessage(messages.apply)}
      </Button>
    </form>
  );
}

/** Why a code was refused, in the reader's language where the page knows the server's words. */
function refusalOf(failure: ApiError): string {
  const detail = (failure.body as { detail?: unknown } | null)?.detail;
  const issues = failure.status === 422 && Array.isArray(detail) ? (detail as { loc: unknown[]; msg: string }[]) : [];
  const issue = issues.find((candidate) => candidate.loc.at(-1) === "discount_code");
  if (!issue) return describeError(failure);
  const known = REFUSALS[issue.msg];
  return known ? t(known) : issue.msg;
}
