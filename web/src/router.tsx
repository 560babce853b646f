import { createRootRoute, createRoute, createRouter, Link, Outlet } from "@tanstack/react-router";

const rootRoute = createRootRoute({
  component: () => (
    <>
      <header className="app-header">
        <Link to="/" className="brand">
          Tollgate
        </Link>
      </header>
      <main className="app-main">
        <Outlet />
      </main>
    </>
  ),
  notFoundComponent: () => (
    <section>
      <h1>Page not found</h1>
      <p>
        There is nothing at this address. <Link to="/">Go to the start page</Link>.
      </p>
    </section>
  ),
});

const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  component: () => (
    <section>
      <h1>Tollgate</h1>
      <p>Accounts, organizations and subscription billing you run yourself.</p>
    </section>
  ),
});

export const router = createRouter({ routeTree: rootRoute.addChildren([homeRoute]) });

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
