import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { MemoryRouter } from "react-router";
import { AppProviders } from "../app/providers";
import { PopupHost } from "../app/PopupHost";
import { SessionProvider, type Customer } from "../lib/session";

/**
 * Renders UI inside the app's providers, a memory router at `path` and a session (no startup
 * call; signed in when `customer` is given), with retries off.
 */
export function renderAt(ui: ReactElement, path = "/", { customer = null }: { customer?: Customer | null } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <SessionProvider loadOnStart={false} initialCustomer={customer}>
          {ui}
          <PopupHost />
        </SessionProvider>
      </MemoryRouter>
    </AppProviders>,
  );
}
