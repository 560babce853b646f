import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useIntl, type MessageDescriptor } from "react-intl";
import type { ApiFailure } from "../api/client";
import { Button, EmptyState, Field, Page } from "../ui/components";
import { DeleteAction } from "../ui/delete-action";
import { Filters } from "../ui/filters";
import { QueryState } from "../ui/query-state";
import { ServerListing, type useServerListing } from "../ui/server-listing";
import { useSeller } from "./space";

/**
 * The parts the seller's list and form screens share: a list page with its filters and empty state,
 * a row's edit and delete actions, and the frames of a new and an edited thing's form.
 */

/** A list page: the seller's things in a server-paged table, or what to say when there are none (or none match). */
export function ListScreen<Row>({
  title,
  description,
  create,
  filters,
  filtered = false,
  activeFilters,
  listing,
  says,
}: {
  title: string;
  description: string;
  /** The link to make one, for those who may; none where the seller does not make them (subscriptions). */
  create?: ReactNode;
  filters?: ReactNode;
  filtered?: boolean;
  /** How many of several filters are set: given, the filters fold behind one button on a phone. */
  activeFilters?: number;
  listing: ReturnType<typeof useServerListing<Row>>;
  says: { loading: MessageDescriptor; none: MessageDescriptor; noneHint: MessageDescriptor; noMatch: MessageDescriptor; noMatchHint?: MessageDescriptor };
}) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  return (
    <Page title={title} description={description} actions={create}>
      {seller.readOnlyReason && <p className="muted">{seller.readOnlyReason}</p>}
      {filters &&
        (activeFilters === undefined ? (
          <div className="filters" role="search">
            {filters}
          </div>
        ) : (
          <Filters active={activeFilters}>{filters}</Filters>
        ))}
      <ServerListing
        listing={listing}
        loading={says.loading}
        empty={
          <EmptyState title={formatMessage(filtered ? says.noMatch : says.none)}>
            {!filtered && <p>{formatMessage(says.noneHint)}</p>}
            {filtered && says.noMatchHint && <p>{formatMessage(says.noMatchHint)}</p>}
            {!filtered && create}
          </EmptyState>
        }
      />
    </Page>
  );
}

/** A search box the server answers. */
export function SearchFilter({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  return <Field label={label}>{(ids) => <input {...ids} type="search" value={value} onChange={(event) => onChange(event.target.value)} />}</Field>;
}

/** A choice of one type, or all of them (""). */
export function TypeFilter<Type extends string>({ label, anyLabel, types, labelOf, value, onChange }: { label: string; anyLabel: string; types: readonly Type[]; labelOf: (type: Type) => string; value: Type | ""; onChange: (value: Type | "") => void }) {
  return (
    <Field label={label}>
      {(ids) => (
        <select {...ids} value={value} onChange={(event) => onChange(event.target.value as Type | "")}>
          <option value="">{anyLabel}</option>
          {types.map((type) => (
            <option key={type} value={type}>
              {labelOf(type)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A choice of one of the seller's things (a customer, a meter), or all of them (""). */
export function ChoiceFilter({ label, anyLabel, choices, value, onChange }: { label: string; anyLabel: string; choices: { value: string; label: string }[]; value: string; onChange: (value: string) => void }) {
  return (
    <Field label={label}>
      {(ids) => (
        <select {...ids} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{anyLabel}</option>
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A row's edit link and delete button, for those who may change things; `remove` is the domain's delete mutation, which refreshes its lists. */
export function RowActions({ edit, remove, says }: { edit?: ReactNode; remove: (() => Promise<unknown>) | null; says: { delete: string; deleteTitle: string; deleteText: string } }) {
  const { mayChange } = useSeller();
  if (!mayChange) return null;
  return (
    <span className="row-actions">
      {edit}
      {remove && (
        <DeleteAction
          label={says.delete} title={says.deleteTitle} description={says.deleteText} remove={remove}
        />
      )}
    </span>
  );
}

/** A form's submit and cancel buttons. */
export function FormActions({ busy, submit, cancel, onCancel }: { busy: boolean; submit: string; cancel: string; onCancel: () => void }) {
  return (
    <div className="actions">
      <Button type="submit" busy={busy}>
        {submit}
      </Button>
      <Button type="button" variant="secondary" onClick={onCancel}>
        {cancel}
      </Button>
    </div>
  );
}

/** A new thing's form, for those who may make one. */
export function NewScreen({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  const seller = useSeller();
  return (
    <Page title={title} description={intro}>
      {seller.mayChange ? children : <p className="muted">{seller.readOnlyReason}</p>}
    </Page>
  );
}

/** A loaded thing's form, for those who may change it: a placeholder while it loads, its failure in words. */
export function EditScreen<Thing>({ title, loading, loaded, nameOf, children }: { title: string; loading: MessageDescriptor; loaded: UseQueryResult<Thing, ApiFailure>; nameOf: (thing: Thing) => string; children: (thing: Thing) => ReactNode }) {
  const seller = useSeller();
  return (
    <Page title={title} description={loaded.data ? nameOf(loaded.data) : undefined}>
      <QueryState query={loaded} loading={loading}>
        {(thing) => (seller.mayChange ? children(thing) : <p className="muted">{seller.readOnlyReason}</p>)}
      </QueryState>
    </Page>
  );
}
