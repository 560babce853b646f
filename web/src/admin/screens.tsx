import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable, type SortingState } from "@tanstack/react-table";
import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { authClient, orThrow, viaAuth } from "../api/auth-client";
import { describeError, type ApiResult } from "../api/client";
import { deviceName } from "../account/screens";
import { banExpiresIn, banForm, createUserForm, setPasswordForm } from "../forms/schemas";
import { RequireSession } from "../shell";
import { Alert, Button, Card, ConfirmDialog, EmptyState, Field, Loading, Page } from "../ui/components";

const PAGE_SIZE = 20;

interface UserQuery {
  search: string;
  status: "all" | "banned" | "active";
  role: "all" | "admin" | "user";
  sorting: SortingState;
  page: number;
}

/** The admin API's list-users query for what the table shows. */
function listQuery({ search, status, role, sorting, page }: UserQuery) {
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

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
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
const columns = [
  column.accessor("name", { header: "Name", cell: (info) => <Link to="/admin/users/$userId" params={{ userId: info.row.original.id }}>{info.getValue()}</Link> }),
  column.accessor("email", { header: "E-mail" }),
  column.accessor("role", { header: "Role", cell: (info) => info.getValue() ?? "user" }),
  column.accessor("banned", { header: "Status", enableSorting: false, cell: (info) => (info.getValue() ? <span className="badge badge-danger">Banned</span> : "Active") }),
  column.accessor("createdAt", { header: "Joined", cell: (info) => new Date(info.getValue()).toLocaleDateString() }),
];

function CreateUserDialog() {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({ resolver: zodResolver(createUserForm), defaultValues: { name: "", email: "", password: "", role: "user" as const } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    const result = await viaAuth(() => authClient.admin.createUser(values));
    if (result.error) return setFailure(describeError(result.error));
    await queryClient.invalidateQueries({ queryKey: ["admin-users"] });
    form.reset();
    setFailure(null);
    setOpen(false);
  });
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button>Create user</Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>Create a user</Dialog.Title>
          <Dialog.Description>They can sign in with this e-mail address and password at once.</Dialog.Description>
          <form onSubmit={(event) => void submit(event)} noValidate>
            <Field label="Name" error={errors.name?.message}>
              {(ids) => <input {...ids} {...form.register("name")} />}
            </Field>
            <Field label="E-mail" error={errors.email?.message}>
              {(ids) => <input {...ids} {...form.register("email")} type="email" />}
            </Field>
            <Field label="Password" error={errors.password?.message}>
              {(ids) => <input {...ids} {...form.register("password")} type="password" autoComplete="new-password" />}
            </Field>
            <Field label="Role">
              {(ids) => (
                <select {...ids} {...form.register("role")}>
                  <option value="user">user</option>
                  <option value="admin">admin</option>
                </select>
              )}
            </Field>
            {failure && <Alert tone="error">{failure}</Alert>}
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <Button variant="secondary">Cancel</Button>
              </Dialog.Close>
              <Button type="submit" busy={isSubmitting}>
                Create
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export function AdminUsersScreen() {
  return <RequireSession admin>{() => <UsersTable />}</RequireSession>;
}

function UsersTable() {
  const [query, setQuery] = useState<UserQuery>({ search: "", status: "all", role: "all", sorting: [{ id: "createdAt", desc: true }], page: 0 });
  const search = useDebounced(query.search, 300);
  const effective = { ...query, search };
  const users = useQuery({
    queryKey: ["admin-users", effective],
    queryFn: () => orThrow(viaAuth(() => authClient.admin.listUsers({ query: listQuery(effective) }))),
    placeholderData: (previous) => previous,
  });
  const table = useReactTable({
    data: (users.data?.users ?? []),
    columns,
    state: { sorting: query.sorting },
    manualSorting: true,
    onSortingChange: (updater) => setQuery((current) => ({ ...current, page: 0, sorting: typeof updater === "function" ? updater(current.sorting) : updater })),
    getCoreRowModel: getCoreRowModel(),
  });
  const total = users.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <Page title="Users" description={`${total} in all`} actions={<CreateUserDialog />}>
      <div className="filters" role="search">
        <Field label="Search by name or e-mail">
          {(ids) => <input {...ids} type="search" value={query.search} onChange={(event) => setQuery({ ...query, search: event.target.value, page: 0 })} />}
        </Field>
        <Field label="Status">
          {(ids) => (
            <select {...ids} value={query.status} onChange={(event) => setQuery({ ...query, status: event.target.value as UserQuery["status"], role: "all", page: 0 })}>
              <option value="all">All</option>
              <option value="active">Active</option>
              <option value="banned">Banned</option>
            </select>
          )}
        </Field>
        <Field label="Role">
          {(ids) => (
            <select {...ids} value={query.role} onChange={(event) => setQuery({ ...query, role: event.target.value as UserQuery["role"], status: "all", page: 0 })}>
              <option value="all">All</option>
              <option value="admin">Admins</option>
              <option value="user">Users</option>
            </select>
          )}
        </Field>
      </div>
      {users.error && <Alert tone="error">{users.error.message}</Alert>}
      {users.isPending ? (
        <Loading what="users" />
      ) : total === 0 ? (
        <EmptyState title="No user matches.">
          <p>Change the search or filters, or create a user.</p>
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table aria-busy={users.isFetching || undefined}>
            <thead>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => {
                    const sorted = header.column.getIsSorted();
                    return (
                      <th key={header.id} aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}>
                        {header.column.getCanSort() ? (
                          <button type="button" className="sort" onClick={header.column.getToggleSortingHandler()}>
                            {flexRender(header.column.columnDef.header, header.getContext())}
                            <span aria-hidden="true">{sorted === "asc" ? " ▲" : sorted === "desc" ? " ▼" : ""}</span>
                          </button>
                        ) : (
                          flexRender(header.column.columnDef.header, header.getContext())
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody>
              {table.getRowModel().rows.map((row) => (
                <tr key={row.id}>
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="pager" aria-label="Pages">
        <Button variant="secondary" disabled={query.page === 0} onClick={() => setQuery({ ...query, page: query.page - 1 })}>
          Previous
        </Button>
        <span>
          Page {query.page + 1} of {pages}
        </span>
        <Button variant="secondary" disabled={query.page + 1 >= pages} onClick={() => setQuery({ ...query, page: query.page + 1 })}>
          Next
        </Button>
      </nav>
    </Page>
  );
}

export function AdminUserScreen() {
  const { userId } = useParams({ strict: false });
  return <RequireSession admin>{() => <UserDetail userId={userId ?? ""} />}</RequireSession>;
}

function UserDetail({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const user = useQuery({ queryKey: ["admin-user", userId], queryFn: () => orThrow(viaAuth(() => authClient.admin.getUser({ query: { id: userId } }))) });
  const sessions = useQuery({ queryKey: ["admin-user-sessions", userId], queryFn: () => orThrow(viaAuth(() => authClient.admin.listUserSessions({ userId }))) });
  const [outcome, setOutcome] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const ban = useForm({ resolver: zodResolver(banForm), defaultValues: { reason: "", days: "" } });
  const password = useForm({ resolver: zodResolver(setPasswordForm), defaultValues: { password: "" } });
  const act = async (call: () => Promise<ApiResult<unknown>>, success: string) => {
    const result = await call();
    setOutcome(result.error ? { tone: "error", text: describeError(result.error) } : { tone: "success", text: success });
    await queryClient.invalidateQueries({ queryKey: ["admin-user", userId] });
    await queryClient.invalidateQueries({ queryKey: ["admin-user-sessions", userId] });
    await queryClient.invalidateQueries({ queryKey: ["admin-users"] });
    return !result.error;
  };
  if (user.isPending) return <Loading what="the user" />;
  if (user.error || !user.data) return <Alert tone="error">{user.error?.message ?? "No such user."}</Alert>;
  const data = user.data;
  const isAdmin = data.role?.split(",").includes("admin") ?? false;
  const impersonate = async () => {
    const result = await viaAuth(() => authClient.admin.impersonateUser({ userId }));
    if (result.error) return setOutcome({ tone: "error", text: describeError(result.error) });
    await queryClient.invalidateQueries();
    await navigate({ to: "/" });
  };
  return (
    <Page title={data.name} description={`${data.email} · ${data.role ?? "user"}${data.banned ? " · banned" : ""}`} actions={<Link to="/admin/users">All users</Link>}>
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      <div className="stack">
        <Card title="Role">
          <Button variant="secondary" onClick={() => void act(() => viaAuth(() => authClient.admin.setRole({ userId, role: isAdmin ? "user" : "admin" })), `${data.name} is now ${isAdmin ? "a user" : "an admin"}.`)}>
            {isAdmin ? "Make a regular user" : "Make an admin"}
          </Button>
        </Card>
        <Card title={data.banned ? "Banned" : "Ban"} description={data.banned ? `Reason: ${data.banReason ?? "none given"}${data.banExpires ? ` · until ${new Date(data.banExpires).toLocaleString()}` : " · for good"}` : "A banned user cannot sign in, and is signed out everywhere at once."}>
          {data.banned ? (
            <Button onClick={() => void act(() => viaAuth(() => authClient.admin.unbanUser({ userId })), `${data.name} can sign in again.`)}>Unban</Button>
          ) : (
            <form
              noValidate
              onSubmit={(event) =>
                void ban.handleSubmit(async ({ reason, days }) => {
                  if (await act(() => viaAuth(() => authClient.admin.banUser({ userId, banReason: reason || undefined, banExpiresIn: banExpiresIn(days) })), `${data.name} is banned.`)) ban.reset();
                })(event)
              }
            >
              <Field label="Reason" error={ban.formState.errors.reason?.message}>
                {(ids) => <input {...ids} {...ban.register("reason")} />}
              </Field>
              <Field label="Days (empty for good)" error={ban.formState.errors.days?.message}>
                {(ids) => <input {...ids} {...ban.register("days")} inputMode="numeric" />}
              </Field>
              <Button type="submit" variant="danger" busy={ban.formState.isSubmitting}>
                Ban user
              </Button>
            </form>
          )}
        </Card>
        <Card title="Password">
          <form
            noValidate
            onSubmit={(event) =>
              void password.handleSubmit(async (values) => {
                if (await act(() => viaAuth(() => authClient.admin.setUserPassword({ userId, newPassword: values.password })), "The password is set.")) password.reset();
              })(event)
            }
          >
            <Field label="New password" error={password.formState.errors.password?.message}>
              {(ids) => <input {...ids} {...password.register("password")} type="password" autoComplete="new-password" />}
            </Field>
            <Button type="submit" variant="secondary" busy={password.formState.isSubmitting}>
              Set password
            </Button>
          </form>
        </Card>
        <Card title="Sessions">
          {sessions.isPending && <Loading what="sessions" />}
          {sessions.data?.sessions.length === 0 && <p className="muted">Not signed in anywhere.</p>}
          <ul className="list">
            {sessions.data?.sessions.map((session) => (
              <li key={session.id} className="list-row">
                <div>
                  <strong>{deviceName(session.userAgent)}</strong>
                  {session.impersonatedBy && <span className="badge">Impersonation</span>}
                  <p className="muted">
                    {session.ipAddress ?? "Unknown address"} · until {new Date(session.expiresAt).toLocaleString()}
                  </p>
                </div>
                <Button variant="secondary" onClick={() => void act(() => viaAuth(() => authClient.admin.revokeUserSession({ sessionToken: session.token })), "That session is signed out.")}>
                  Sign out
                </Button>
              </li>
            ))}
          </ul>
          <Button variant="secondary" onClick={() => void act(() => viaAuth(() => authClient.admin.revokeUserSessions({ userId })), "Every session of this user is signed out.")}>
            Sign out everywhere
          </Button>
        </Card>
        <Card title="Act as this user" description="You see Tollgate as they do for up to an hour; a banner shows the way back.">
          <Button variant="secondary" onClick={() => void impersonate()}>
            Impersonate {data.name}
          </Button>
        </Card>
        <Card title="Remove">
          <ConfirmDialog
            trigger={<Button variant="danger">Remove user…</Button>}
            title={`Remove ${data.name}?`}
            description="Their account, sessions and sign-in methods are deleted. This cannot be undone."
            confirmLabel="Remove user"
            onConfirm={async () => {
              const done = await act(() => viaAuth(() => authClient.admin.removeUser({ userId })), "The user is removed.");
              if (done) await navigate({ to: "/admin/users" });
              return done;
            }}
          />
        </Card>
      </div>
    </Page>
  );
}
