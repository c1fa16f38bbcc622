import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderAt } from "../../test/render";
import { NotFoundPage } from "./NotFoundPage";

describe("NotFoundPage", () => {
  it("shows 404, the message and a link home, and logs the path once", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});

    renderAt(<NotFoundPage />, "/no/such/page");

    expect(screen.getByRole("heading", { name: "404" })).toBeInTheDocument();
    expect(screen.getByText("Oops! Page not found")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");
    // The app's header, as on every screen (issue 39, m17).
    expect(screen.getByRole("banner")).toContainElement(screen.getByRole("link", { name: "Store Locator" }));
    expect(error).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledWith(
      "404 Error: User attempted to access non-existent route:",
      "/no/such/page",
    );
  });
});
