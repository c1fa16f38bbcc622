import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderAt } from "../test/render";
import { firstFrame, keepFirstFrame } from "../lib/firstFrame";
import { AppRoutes } from "./routes";

describe("AppRoutes", () => {
  it("shows the not-found page for an unknown path", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    renderAt(<AppRoutes />, "/does-not-exist");
    expect(screen.getByText("Oops! Page not found")).toBeInTheDocument();
  });

  it.each([
    ["/claim", "What is the name of your business?"],
    ["/reset-password?token=abc", "Set a new password"],
    ["/reviews", "Reviews"],
  ])("loads the screen for %s", async (path, title) => {
    renderAt(<AppRoutes />, path);
    expect(await screen.findByRole("heading", { name: title }, { timeout: 10_000 })).toBeInTheDocument();
  });

  it("shows the server's first frame of its own path while the lazy screen loads, then the screen", async () => {
    const root = document.createElement("div");
    root.innerHTML = '<div class="min-h-dvh"><h1>Store dashboard</h1><p>from the server</p></div>';
    keepFirstFrame(root, "/business", "");
    expect(firstFrame("/business", "")).toContain("from the server");
    expect(firstFrame("/claim", "")).toBeNull();
    expect(firstFrame("/business", "?other=1")).toBeNull(); // written for another query
    // A screen not loaded by an earlier test, so its chunk is still to load.
    renderAt(<AppRoutes />, "/business");
    expect(screen.getByText("from the server")).toBeInTheDocument();
    expect(screen.queryByText("Loading…")).toBeNull();
    // The screen replaces the frame: one heading, React's.
    await waitFor(() => expect(screen.queryByText("from the server")).toBeNull(), { timeout: 15_000 });
    expect(screen.getByRole("link", { name: "Claim your store" })).toBeInTheDocument();
  }, 20_000);

  it("shows Loading… for a path the frame was not written for", () => {
    const root = document.createElement("div");
    root.innerHTML = "<div><h1>Stores in New York</h1></div>";
    keepFirstFrame(root, "/", "");
    renderAt(<AppRoutes />, "/admin");
    expect(screen.getByText("Loading…")).toBeInTheDocument();
    keepFirstFrame(document.createElement("div"), "/admin", ""); // an empty #root keeps nothing
    expect(firstFrame("/admin", "")).toBeNull();
  });
});
