import { useFieldArray, type UseFormReturn } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { Button, Field } from "../../ui/components";
import { emptyClause, type MeterForm } from "./form";
import { filterSummary, operatorLabels } from "./labels";
import { OPERATORS } from "./meters-api";

const messages = defineMessages({
  filter: { id: "seller.meter.filter", defaultMessage: "Which events count" },
  filterHint: {
    id: "seller.meter.filterHint",
    defaultMessage: "A property is name, source, timestamp or a key of the event's metadata. Whole numbers and true or false are compared as such; put them in quotes to compare them as text.",
  },
  match: { id: "seller.meter.match", defaultMessage: "Events must match" },
  matchAll: { id: "seller.meter.matchAll", defaultMessage: "every condition (and)" },
  matchAny: { id: "seller.meter.matchAny", defaultMessage: "any condition (or)" },
  clause: defineMessage<{ number: number }>({ id: "seller.meter.clause", defaultMessage: "Condition {number}" }),
  group: defineMessage<{ number: number }>({ id: "seller.meter.group", defaultMessage: "Group {number}" }),
  property: { id: "seller.meter.property", defaultMessage: "Property" },
  operator: { id: "seller.meter.operator", defaultMessage: "Comparison" },
  value: { id: "seller.meter.value", defaultMessage: "Value" },
  removeClause: defineMessage<{ number: number }>({ id: "seller.meter.removeClause", defaultMessage: "Remove condition {number}" }),
  addClause: { id: "seller.meter.addClause", defaultMessage: "Add a condition" },
  addGroup: { id: "seller.meter.addGroup", defaultMessage: "Add a group" },
  removeGroup: defineMessage<{ number: number }>({ id: "seller.meter.removeGroup", defaultMessage: "Remove group {number}" }),
  kept: defineMessage<{ filter: string }>({ id: "seller.meter.keptFilter", defaultMessage: "This filter nests groups deeper than the console edits, so it is kept as it is: {filter}" }),
});

type Form = UseFormReturn<MeterForm>;
type ClausesPath = "clauses" | `groups.${number}.clauses`;

/** All or any: how a group's conditions combine. */
function ConjunctionField({ form, name }: { form: Form; name: "conjunction" | `groups.${number}.conjunction` }) {
  const { formatMessage } = useIntl();
  return (
    <Field label={formatMessage(messages.match)}>
      {(ids) => (
        <select {...ids} {...form.register(name)}>
          <option value="and">{formatMessage(messages.matchAll)}</option>
          <option value="or">{formatMessage(messages.matchAny)}</option>
        </select>
      )}
    </Field>
  );
}

/** A group's conditions, each a property, a comparison and a value, with a button to add one. */
function Clauses({ form, name, removable }: { form: Form; name: ClausesPath; removable: boolean }) {
  const { formatMessage } = useIntl();
  const clauses = useFieldArray({ control: form.control, name });
  const errorOf = (index: number, part: "property" | "operator" | "value") => form.getFieldState(`${name}.${index}.${part}`, form.formState).error?.message;
  return (
    <>
      {clauses.fields.map((clause, index) => (
        <fieldset className="plain" key={clause.id}>
          <legend className="sr-only">{formatMessage(messages.clause, { number: index + 1 })}</legend>
          <div className="clause-row">
            <Field label={formatMessage(messages.property)} error={errorOf(index, "property")}>
              {(ids) => <input {...ids} {...form.register(`${name}.${index}.property`)} autoComplete="off" spellCheck={false} />}
            </Field>
            <Field label={formatMessage(messages.operator)} error={errorOf(index, "operator")}>
              {(ids) => (
                <select {...ids} {...form.register(`${name}.${index}.operator`)}>
                  {OPERATORS.map((operator) => (
                    <option key={operator} value={operator}>
                      {formatMessage(operatorLabels[operator])}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={formatMessage(messages.value)} error={errorOf(index, "value")}>
              {(ids) => <input {...ids} {...form.register(`${name}.${index}.value`)} autoComplete="off" spellCheck={false} />}
            </Field>
            {(removable || clauses.fields.length > 1) && (
              <Button variant="ghost" className="clause-remove" aria-label={formatMessage(messages.removeClause, { number: index + 1 })} title={formatMessage(messages.removeClause, { number: index + 1 })} onClick={() => clauses.remove(index)}>
                <span aria-hidden="true">✕</span>
              </Button>
            )}
          </div>
        </fieldset>
      ))}
      <div className="actions">
        <Button variant="secondary" onClick={() => clauses.append(emptyClause())}>
          {formatMessage(messages.addClause)}
        </Button>
      </div>
    </>
  );
}

/**
 * Polar's meter filter as a form: conditions combined with and or or, and groups of conditions
 * combined their own way (one level deep, as Polar's dashboard offers). An event no condition
 * excludes counts: a meter with no conditions counts every event.
 */
export function FilterBuilder({ form }: { form: Form }) {
  const intl = useIntl();
  const groups = useFieldArray({ control: form.control, name: "groups" });
  const kept = form.watch("keptFilter");
  if (kept) {
    return (
      <fieldset className="fieldset">
        <legend>{intl.formatMessage(messages.filter)}</legend>
        <p className="muted">{intl.formatMessage(messages.kept, { filter: filterSummary(intl, kept) })}</p>
      </fieldset>
    );
  }
  return (
    <fieldset className="fieldset">
      <legend>{intl.formatMessage(messages.filter)}</legend>
      <p className="hint">{intl.formatMessage(messages.filterHint)}</p>
      <ConjunctionField form={form} name="conjunction" />
      <Clauses form={form} name="clauses" removable />
      {groups.fields.map((group, index) => (
        <fieldset className="fieldset filter-group" key={group.id}>
          <legend>{intl.formatMessage(messages.group, { number: index + 1 })}</legend>
          <ConjunctionField form={form} name={`groups.${index}.conjunction`} />
          <Clauses form={form} name={`groups.${index}.clauses`} removable={false} />
          <div className="actions">
            <Button variant="ghost" onClick={() => groups.remove(index)}>
              {intl.formatMessage(messages.removeGroup, { number: index + 1 })}
            </Button>
          </div>
        </fieldset>
      ))}
      <Button variant="secondary" onClick={() => groups.append({ conjunction: "or", clauses: [emptyClause()] })}>
        {intl.formatMessage(messages.addGroup)}
      </Button>
    </fieldset>
  );
}
