import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeEach } from "vitest";
import { clearToasts } from "../lib/toast";

// Lazy chunks (the auth popup with its forms, the screens) take a while to transform on a cold,
// busy machine (make test runs vitest beside the Go tests); findBy* waits up to 10 s instead of 1 s.
configure({ asyncUtilTimeout: 10_000 });

// As after a sign-in: the session hint cookies (lib/session/hint.ts) are set, so the screens ask
// /me and each test's stubbed answer says who is signed in; hint.test.ts covers their absence.
beforeEach(() => {
  for (const area of ["locator_session", "locator_business", "locator_admin"]) document.cookie = `${area}_hint=1; path=/`;
});

afterEach(() => {
  cleanup();
  clearToasts();
});

// The app tells outcomes in its own toasts (lib/toast), never with the browser's alert box.
window.alert = () => {
  throw new Error("window.alert is not used: raise a toast (lib/toast)");
};
