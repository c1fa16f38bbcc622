import { act, fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toast } from "../lib/toast";
import { Toaster } from "./Toaster";

describe("Toaster", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows a confirmation in the polite live region and a failure as an alert", () => {
    render(<Toaster />);
    act(() => {
      toast.success("Password updated");
      toast.error("Something went wrong", "Failed to submit your store claim. Please try again. boom");
    });
    const confirmation = screen.getByText("Password updated");
    expect(confirmation.closest("[aria-live=polite]")).not.toBeNull();
    expect(confirmation.closest("[role=alert]")).toBeNull();
    expect(screen.getByRole("alert")).toHaveTextContent("Something went wrong");
    expect(screen.getByRole("alert")).toHaveTextContent("Failed to submit your store claim. Please try again. boom");
  });

  it("takes the failure toasts away when a confirmation follows them (issue 39, m22)", () => {
    render(<Toaster />);
    act(() => void toast.error("Reset password has been failed. Make sure you use existing user email."));
    expect(screen.getByRole("alert")).toBeInTheDocument();
    act(() => void toast.success("Password updated"));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.getByText("Password updated")).toBeInTheDocument();
    // A failure after a confirmation shows beside it: it is news.
    act(() => void toast.error("Something went wrong"));
    expect(screen.getByRole("alert")).toHaveTextContent("Something went wrong");
    expect(screen.getByText("Password updated")).toBeInTheDocument();
  });

  it("closes with its button", async () => {
    const user = userEvent.setup();
    render(<Toaster />);
    act(() => void toast.error("Reset password has been failed. Make sure you use existing user email."));
    await user.click(screen.getByRole("button", { name: "Close notification" }));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("goes after a while, but not while the pointer is on it", () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => void toast.success("Password updated"));
    const item = screen.getByText("Password updated").closest("[data-tone]")!;
    fireEvent.pointerEnter(item);
    act(() => void vi.advanceTimersByTime(60_000));
    expect(screen.getByText("Password updated")).toBeInTheDocument();
    fireEvent.pointerLeave(item);
    act(() => void vi.advanceTimersByTime(6_000));
    expect(screen.queryByText("Password updated")).not.toBeInTheDocument();
  });

  it("keeps the three newest", () => {
    render(<Toaster />);
    act(() => {
      for (const n of [1, 2, 3, 4]) toast.success(`Toast ${n}`);
    });
    expect(screen.queryByText("Toast 1")).not.toBeInTheDocument();
    expect(screen.getByText("Toast 4")).toBeInTheDocument();
  });
});
