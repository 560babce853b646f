import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { createColumnHelper, getCoreRowModel, useReactTable, type SortingState } from "@tanstack/react-table";
import { FormDialog, FormDialogActions } from "../ui/form-dialog";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, FormattedMessage, useIntl } from "react-intl";
import { describeFailure } from "../api/client";
import { createUserForm } from "./form";
import { longDate } from "../i18n/format";
import { RequireSession } from "../shell";
import { useCreateUser, usersQuery, type ListUsersQuery } from "./queries";
import { roleMessages, roleNames } from "./roles";
import { Alert, Button, EmptyState, Field, Page } from "../ui/components";
import { QueryState } from "../ui/query-state";
import { DataTable, Pager } from "../ui/data-table";
import { useDebounced } from "../ui/use-debounced";

const PAGE_SIZE = 20;

export const adminMessages = defineMessages({
  name: { id: "admin.field.name", defaultMessage: "Name" },
  email: { id: "admin.field.email", defaultMessage: "E-mail" },
  password: { id: "admin.field.password", defaultMessage: "Password" },
  role: { id: "admin.field.role", defaultMessage: "Role" },
  banned: { id: "admin.status.banned", defaultMessage: "Banned" },
  active: { id: "admin.status.active", defaultMessage: "Active" },
  cancel: { id: "admin.cancel", defaultMessage: "Cancel" },
});

const messages = defineMessages({
  status: { id: "admin.users.status", defaultMessage: "Status" },
  joined: { id: "admin.users.joined", defaultMessage: "Joined" },
  createUser: { id: "admin.createUser.trigger", defaultMessage: "Create user" },
  createTitle: { id: "admin.createUser.title", defaultMessage: "Create a user" },
  createDescription: { id: "admin.createUser.description", defaultMessage: "They can sign in with this e-mail address and password at once." },
  create: { id: "admin.createUser.submit", defaultMessage: "Create" },
  usersTitle: { id: "admin.users.title", defaultMessage: "Users" },
  total: defineMessage<{ total: number }>({ id: "admin.users.total", defaultMessage: "{total, number} in all" }),
  search: { id: "admin.users.search", defaultMessage: "Search by name or e-mail" },
  all: { id: "admin.users.filter.all", defaultMessage: "All" },
  admins: { id: "admin.users.filter.admins", defaultMessage: "Admins" },
  users: { id: "admin.users.filter.users", defaultMessage: "Users" },
  loading: { id: "admin.users.loading", defaultMessage: "Loading users…" },
  noMatch: { id: "admin.users.noMatch", defaultMessage: "No user matches." },
  noMatchHint: { id: "admin.users.noMatchHint", defaultMessage: "Change the search or filters, or create a user." },
});

interface UserQuery {
  search: string;
  status: "all" | "banned" | "active";
  role: "all" | "admin" | "user";
  sorting: SortingState;
  page: number;
}

/** The admin API's list-users query for what the table shows. */
function listQuery({ search, status, role, sorting, page }: UserQuery): ListUsersQuery {
  const [sort] = sorting;
  const filter =
    status !== "all"
      ? { filterField: "banned", filterValue: status === "banned", filterOperator: "eq" as const }
      : role !== "all"
        ? { filterField: "role", filterValue: role, filterOperator: "eq" as const }
        : {};
  return {
    limit: PAGE_SIZE,
    offset: page * PAGE_SIZE,
    ...(search ? { searchValue: search, searchField: search.includes("@") ? ("email" as const) : ("name" as const), searchOperator: "contains" as const } : {}),
    ...(sort ? { sortBy: sort.id, sortDirection: sort.desc ? ("desc" as const) : ("asc" as const) } : {}),
    ...filter,
  };
}

type ListedUser = {
  id: string;
  name: string;
  email: string;
  role?: string | null;
  banned?: boolean | null;
  emailVerified: boolean;
  createdAt: Date | string;
};
const column = createColumnHelper<ListedUser>();
// Headers and cells render messages, so the table follows the language without being rebuilt.
const columns = [
  column.accessor("name", {
    header: () => <FormattedMessage {...adminMessages.name} />,
    cell: (info) => (
      <Link to="/admin/users/$userId" params={{ userId: info.row.original.id }}>
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor("email", { header: () => <FormattedMessage {...adminMessages.email} /> }),
  column.accessor("role", { header: () => <FormattedMessage {...adminMessages.role} />, cell: (info) => roleNames(info.getValue()) }),
  column.accessor("banned", {
    header: () => <FormattedMessage {...messages.status} />,
    enableSorting: false,
    cell: (info) =>
      info.getValue() ? (
        <span className="badge badge-danger">
          <FormattedMessage {...adminMessages.banned} />
        </span>
      ) : (
        <FormattedMessage {...adminMessages.active} />
      ),
  }),
  column.accessor("createdAt", { header: () => <FormattedMessage {...messages.joined} />, cell: (info) => longDate(info.getValue()) }),
];

function CreateUserDialog() {
  const { formatMessage } = useIntl();
  const create = useCreateUser();
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({ resolver: zodResolver(createUserForm), defaultValues: { name: "", email: "", password: "", role: "user" as const } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await create.mutateAsync(values);
    } catch (reason) {
      return setFailure(describeFailure(reason));
    }
    form.reset();
    setFailure(null);
    setOpen(false);
  });
  return (
    <FormDialog trigger={<Button>{formatMessage(messages.createUser)}</Button>} title={formatMessage(messages.createTitle)} description={formatMessage(messages.createDescription)} open={open} onOpenChange={setOpen}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label={formatMessage(adminMessages.name)} error={errors.name?.message}>
          {(ids) => <input {...ids} {...form.register("name")} />}
        </Field>
        <Field label={formatMessage(adminMessages.email)} error={errors.email?.message}>
          {(ids) => <input {...ids} {...form.register("email")} type="email" />}
        </Field>
        <Field label={formatMessage(adminMessages.password)} error={errors.password?.message}>
          {(ids) => <input {...ids} {...form.register("password")} type="password" autoComplete="new-password" />}
        </Field>
        <Field label={formatMessage(adminMessages.role)}>
          {(ids) => (
            <select {...ids} {...form.register("role")}>
              <option value="user">{formatMessage(roleMessages.user)}</option>
              <option value="admin">{formatMessage(roleMessages.admin)}</option>
            </select>
          )}
        </Field>
        {failure && <Alert tone="error">{failure}</Alert>}
        <FormDialogActions cancelLabel={formatMessage(adminMessages.cancel)} submitLabel={formatMessage(messages.create)} busy={isSubmitting} />
      </form>
    </FormDialog>
  );
}

export function AdminUsersScreen() {
  return <RequireSession admin>{() => <UsersTable />}</RequireSession>;
}

function UsersTable() {
  const { formatMessage } = useIntl();
  const [query, setQuery] = useState<UserQuery>({ search: "", status: "all", role: "all", sorting: [{ id: "createdAt", desc: true }], page: 0 });
  const search = useDebounced(query.search, 300);
  const effective = { ...query, search };
  const users = useQuery({ ...usersQuery(listQuery(effective)), placeholderData: (previous) => previous });
  const table = useReactTable({
    data: users.data?.users ?? [],
    columns,
    state: { sorting: query.sorting },
    manualSorting: true,
    onSortingChange: (updater) => setQuery((current) => ({ ...current, page: 0, sorting: typeof updater === "function" ? updater(current.sorting) : updater })),
    getCoreRowModel: getCoreRowModel(),
  });
  const total = users.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <Page title={formatMessage(messages.usersTitle)} description={formatMessage(messages.total, { total })} actions={<CreateUserDialog />}>
      <div className="filters" role="search">
        <Field label={formatMessage(messages.search)}>
          {(ids) => <input {...ids} type="search" value={query.search} onChange={(event) => setQuery({ ...query, search: event.target.value, page: 0 })} />}
        </Field>
        <Field label={formatMessage(messages.status)}>
          {(ids) => (
            <select {...ids} value={query.status} onChange={(event) => setQuery({ ...query, status: event.target.value as UserQuery["status"], role: "all", page: 0 })}>
              <option value="all">{formatMessage(messages.all)}</option>
              <option value="active">{formatMessage(adminMessages.active)}</option>
              <option value="banned">{formatMessage(adminMessages.banned)}</option>
            </select>
          )}
        </Field>
        <Field label={formatMessage(adminMessages.role)}>
          {(ids) => (
            <select {...ids} value={query.role} onChange={(event) => setQuery({ ...query, role: event.target.value as UserQuery["role"], status: "all", page: 0 })}>
              <option value="all">{formatMessage(messages.all)}</option>
              <option value="admin">{formatMessage(messages.admins)}</option>
              <option value="user">{formatMessage(messages.users)}</option>
            </select>
          )}
        </Field>
      </div>
      <QueryState
        query={users}
        loading={messages.loading}
        isEmpty={() => total === 0}
        empty={
          <EmptyState title={formatMessage(messages.noMatch)}>
            <p>{formatMessage(messages.noMatchHint)}</p>
          </EmptyState>
        }
      >
        {() => <DataTable table={table} busy={users.isFetching} />}
      </QueryState>
      <Pager page={query.page} pages={pages} onPage={(page) => setQuery({ ...query, page })} />
    </Page>
  );
}
