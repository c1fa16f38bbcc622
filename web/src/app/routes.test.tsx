import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderAt } from "../test/render";
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
});
