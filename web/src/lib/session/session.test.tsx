import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { MemoryRouter, Route, Routes } from "react-router";
import { makeCustomer } from "../../test/fixtures";
import { stubApi } from "../../test/fetch";
import { SessionProvider, useCustomer, useFavorites, useLogout } from ".";

const ADA = makeCustomer();

function Account() {
  const { loginState, customer } = useCustomer();
  const { favorites } = useFavorites();
  const logout = useLogout();
  return (
    <div>
      <p>state: {loginState}</p>
      <p>name: {customer?.first_name ?? "-"}</p>
      <p>favourites: {favorites.map((s) => s.name).join(", ") || "none"}</p>
      <button type="button" onClick={() => void logout()}>
        Log out
      </button>
    </div>
  );
}

/** The session as the app starts it: nothing known, customers/me asked. */
function start() {
  const queryClient = new QueryClient();
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={["/account"]}>
        <SessionProvider>
          <Routes>
            <Route path="/account" element={<Account />} />
            <Route path="/" element={<h1>Locator home</h1>} />
          </Routes>
        </SessionProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("the session", () => {
  it("asks customers/me once at start; a customer means signed in with their favourites", async () => {
    const calls = stubApi({ "GET /api/store/customers/me": { body: { customer: ADA } } });
    start();
    expect(screen.getByText("state: unknown")).toBeInTheDocument();
    expect(await screen.findByText("state: logged-in")).toBeInTheDocument();
    expect(screen.getByText("name: Ada")).toBeInTheDocument();
    expect(screen.getByText("favourites: Cloud Nine")).toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.path} ${c.credentials}`)).toEqual(["GET /api/store/customers/me include"]);
  });

  it.each([
    ["a 401", { status: 401, body: { message: "Unauthenticated." } }],
    ["a 500", { status: 500, body: {} }],
    ["a network error", new Error("offline")],
  ])("takes %s from customers/me as signed out, without retrying", async (_, answer) => {
    const calls = stubApi({ "GET /api/store/customers/me": answer });
    start();
    expect(await screen.findByText("state: logged-out")).toBeInTheDocument();
    expect(screen.getByText("favourites: none")).toBeInTheDocument();
    expect(calls).toHaveLength(1);
  });

  it("logs out locally and goes to / even when the server call fails", async () => {
    const calls = stubApi({
      "GET /api/store/customers/me": { body: { customer: ADA } },
      "DELETE /api/store/auth": { status: 500, body: { message: "down" } },
    });
    start();
    await userEvent.click(await screen.findByRole("button", { name: "Log out" }));
    expect(await screen.findByRole("heading", { name: "Locator home" })).toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(["GET /api/store/customers/me", "DELETE /api/store/auth"]);
  });

  it("empties the favourites on logout", async () => {
    stubApi({ "GET /api/store/customers/me": { body: { customer: ADA } }, "DELETE /api/store/auth": { body: { message: "bye" } } });
    const queryClient = new QueryClient();
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <SessionProvider>
            <Account />
          </SessionProvider>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(await screen.findByText("favourites: Cloud Nine")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Log out" }));
    await waitFor(() => expect(screen.getByText("state: logged-out")).toBeInTheDocument());
    expect(screen.getByText("favourites: none")).toBeInTheDocument();
  });
});
