import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";
import { clearToasts } from "../lib/toast";

// Lazy chunks (the auth popup with its forms, the screens) take a while to transform on a cold,
// busy machine; findBy* waits up to 5 s instead of 1 s.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  clearToasts();
});

// The app tells outcomes in its own toasts (lib/toast), never with the browser's alert box.
window.alert = () => {
  throw new Error("window.alert is not used: raise a toast (lib/toast)");
};
