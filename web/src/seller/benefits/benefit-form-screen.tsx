import { useQuery } from "@tanstack/react-query";
import { useNavigate, useParams } from "@tanstack/react-router";
import { defineMessages, useIntl } from "react-intl";
import { Alert } from "../../ui/components";
import { EditScreen, NewScreen } from "../console-screens";
import { useSeller } from "../space";
import { isCreatable } from "./benefits-api";
import { benefitQuery } from "./queries";
import { BenefitEditor } from "./benefit-editor";

const messages = defineMessages({
  newTitle: { id: "seller.benefit.newTitle", defaultMessage: "New benefit" },
  editTitle: { id: "seller.benefit.editTitle", defaultMessage: "Edit benefit" },
  intro: { id: "seller.benefit.intro", defaultMessage: "Customers get it when they buy a product that grants it." },
  connectionNeeded: { id: "seller.benefit.connectionNeeded", defaultMessage: "Discord and GitHub benefits need your Discord server or GitHub account connected, which this console cannot do yet: make them through the API." },
  loading: { id: "seller.benefit.loading", defaultMessage: "Loading the benefit…" },
});

/** Back to the benefits list, once a benefit is saved or its form left. */
function useToList() {
  const seller = useSeller();
  const navigate = useNavigate();
  return () => navigate({ to: "/$slug/benefits", params: { slug: seller.slug } });
}

export function NewBenefitScreen() {
  const { formatMessage } = useIntl();
  const toList = useToList();
  return (
    <NewScreen title={formatMessage(messages.newTitle)} intro={formatMessage(messages.intro)}>
      <BenefitEditor onSaved={toList} onCancel={() => void toList()} />
    </NewScreen>
  );
}

/** An existing benefit to change; Discord and GitHub ones are only described (they need a connection). */
export function EditBenefitScreen() {
  const { formatMessage } = useIntl();
  const { id } = useParams({ strict: false });
  const benefit = useQuery(benefitQuery(id ?? ""));
  const toList = useToList();
  return (
    <EditScreen title={formatMessage(messages.editTitle)} loading={messages.loading} loaded={benefit} nameOf={(loaded) => loaded.description}>
      {(loaded) => (isCreatable(loaded.type) ? <BenefitEditor benefit={loaded} onSaved={toList} onCancel={() => void toList()} /> : <Alert tone="info">{formatMessage(messages.connectionNeeded)}</Alert>)}
    </EditScreen>
  );
}
