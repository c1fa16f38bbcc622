import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { api, unwrap } from "../../api/client";
import { stubApi } from "../../test/fetch";
import { meOptions } from "./api/get-me";
import { maybeSignedIn, signedInOptions } from "./hint";

// As features/admin/api/admin-me.ts and features/business/api/business-me.ts.
const adminMeOptions = () =>
  signedInOptions(["admin", "me"], "locator_admin", async (signal) => unwrap(await api.GET("/admin/me", { credentials: "include", signal })));
const businessMeOptions = () =>
  signedInOptions(["business", "me"], "locator_business", async (signal) => unwrap(await api.GET("/business/me", { credentials: "include", signal })));

const clearHints = () => {
  for (const area of ["locator_session", "locator_business", "locator_admin"]) document.cookie = `${area}_hint=; path=/; max-age=0`;
};

describe("session hint", () => {
  it("reads its own area's hint cookie only", () => {
    const here = "http://localhost:3000";
    expect(maybeSignedIn("locator_session", "a=b; locator_session_hint=1", `${here}/api`, here)).toBe(true);
    expect(maybeSignedIn("locator_session", "locator_admin_hint=1; locator_session_hint=", `${here}/api`, here)).toBe(false);
    expect(maybeSignedIn("locator_business", "xlocator_business_hint=1", `${here}/api`, here)).toBe(false);
    // An API on another origin: its cookies are not readable here, so the app asks.
    expect(maybeSignedIn("locator_admin", "", "https://api.example/api", here)).toBe(true);
  });

  it("without the hints no /me is asked and every area is signed out", async () => {
    clearHints();
    const calls = stubApi({});
    const client = new QueryClient();
    expect(await client.fetchQuery(meOptions())).toBeNull();
    expect(await client.fetchQuery(adminMeOptions())).toBeNull();
    expect(await client.fetchQuery(businessMeOptions())).toBeNull();
    expect(calls).toEqual([]);
  });

  it("with a hint /me is asked; a 401 means signed out, another failure is an error", async () => {
    const calls = stubApi({
      "GET /api/admin/me": { status: 401, body: { message: "Sign in" } },
      "GET /api/business/me": { status: 503, body: { message: "down" } },
    });
    const client = new QueryClient();
    expect(await client.fetchQuery(adminMeOptions())).toBeNull();
    await expect(client.fetchQuery(businessMeOptions())).rejects.toThrow();
    expect(calls.map((c) => `${c.method} ${c.path} ${c.credentials}`)).toEqual(["GET /api/admin/me include", "GET /api/business/me include"]);
  });
});
