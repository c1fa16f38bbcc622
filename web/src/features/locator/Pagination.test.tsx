import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { clampPage, pageBounds, pageCount, Pagination } from "./Pagination";

describe("pagination bounds", () => {
  it("shows 20 per page", () => {
    expect(pageBounds(1, 45)).toEqual({ first: 1, last: 20 });
    expect(pageBounds(2, 45)).toEqual({ first: 21, last: 40 });
    expect(pageBounds(3, 45)).toEqual({ first: 41, last: 45 });
    expect(pageBounds(1, 20)).toEqual({ first: 1, last: 20 });
    expect(pageBounds(1, 0)).toEqual({ first: 0, last: 0 });
  });

  it("clamps the page to the pages there are", () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(20)).toBe(1);
    expect(pageCount(21)).toBe(2);
    expect(pageCount(200)).toBe(10);
    expect(clampPage(0, 45)).toBe(1);
    expect(clampPage(9, 45)).toBe(3);
    expect(pageBounds(9, 45)).toEqual({ first: 41, last: 45 });
  });
});

describe("Pagination", () => {
  it("is not shown for 20 stores or fewer", () => {
    const { container } = render(<Pagination page={1} total={20} onPage={() => {}} />);
    expect(container).toBeEmptyDOMElement();
  });

  it("disables Previous on the first page and Next on the last", async () => {
    const onPage = vi.fn();
    const { rerender } = render(<Pagination page={1} total={45} onPage={onPage} />);
    expect(screen.getByRole("button", { name: "Previous page" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Page 1" })).toHaveAttribute("aria-current", "page");
    expect(screen.getAllByRole("button", { name: /^Page \d+$/ })).toHaveLength(3);
    await userEvent.click(screen.getByRole("button", { name: "Next page" }));
    expect(onPage).toHaveBeenLastCalledWith(2);

    rerender(<Pagination page={3} total={45} onPage={onPage} />);
    expect(screen.getByRole("button", { name: "Next page" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Previous page" })).toBeEnabled();
    await userEvent.click(screen.getByRole("button", { name: "Page 2" }));
    expect(onPage).toHaveBeenLastCalledWith(2);
  });
});
