import { useNavigate, useParams } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { defineMessages, useIntl } from "react-intl";
import { EditScreen, NewScreen } from "../console-screens";
import { useSeller } from "../space";
import { CheckoutLinkEditor } from "./checkout-link-editor";
import { checkoutLinkFormOf, emptyCheckoutLinkForm } from "./form";
import { checkoutLinkQuery, useCreateCheckoutLink, useUpdateCheckoutLink } from "./queries";

const messages = defineMessages({
  title: { id: "seller.checkoutLink.title", defaultMessage: "New checkout link" },
  intro: { id: "seller.checkoutLink.intro", defaultMessage: "Each visit opens a fresh checkout. With several products, buyers choose one." },
  create: { id: "seller.checkoutLink.create", defaultMessage: "Create checkout link" },
  editTitle: { id: "seller.checkoutLink.editTitle", defaultMessage: "Edit checkout link" },
  save: { id: "seller.checkoutLink.save", defaultMessage: "Save changes" },
  loading: { id: "seller.checkoutLink.loading", defaultMessage: "Loading the checkout link…" },
});

/** Back to the list of links, once one is saved or its form left. */
function useToList() {
  const seller = useSeller();
  const navigate = useNavigate();
  return () => navigate({ to: "/$slug/checkout-links", params: { slug: seller.slug } });
}

export function NewCheckoutLinkScreen() {
  const { formatMessage } = useIntl();
  const create = useCreateCheckoutLink();
  const toList = useToList();
  return (
    <NewScreen title={formatMessage(messages.title)} intro={formatMessage(messages.intro)}>
      <CheckoutLinkEditor
        initial={emptyCheckoutLinkForm()}
        submitLabel={formatMessage(messages.create)}
        save={async (change) => {
          await create.mutateAsync(change);
          await toList();
        }}
        onCancel={() => void toList()}
      />
    </NewScreen>
  );
}

/** A link changed in place: its address stays, so where it was shared keeps working. */
export function EditCheckoutLinkScreen() {
  const { formatMessage } = useIntl();
  const { id } = useParams({ strict: false });
  const link = useQuery(checkoutLinkQuery(id ?? ""));
  const update = useUpdateCheckoutLink();
  const toList = useToList();
  return (
    <EditScreen title={formatMessage(messages.editTitle)} loading={messages.loading} loaded={link} nameOf={(loaded) => loaded.label ?? loaded.url}>
      {(loaded) => (
        <CheckoutLinkEditor
          initial={checkoutLinkFormOf(loaded)}
          submitLabel={formatMessage(messages.save)}
          save={async (change) => {
            await update.mutateAsync({ id: loaded.id, change });
            await toList();
          }}
          onCancel={() => void toList()}
        />
      )}
    </EditScreen>
  );
}
