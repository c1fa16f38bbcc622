import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { MemoryRouter } from "react-router";
import { AppProviders } from "../app/providers";
import { PopupHost } from "../app/PopupHost";
import { Toaster } from "../components/Toaster";
import { customerKeys } from "../api/keys";
import { SessionProvider, type Customer } from "../lib/session";

/**
 * Renders UI inside the app's providers, a memory router at `path` and a session, with retries
 * off. The session is already known (no customers/me call): signed in when `customer` is given.
 */
export function renderAt(ui: ReactElement, path = "/", { customer = null }: { customer?: Customer | null } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(customerKeys.me, customer);
  const result = render(
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <SessionProvider>
          {ui}
          <PopupHost />
          <Toaster />
        </SessionProvider>
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...result, queryClient };
}
