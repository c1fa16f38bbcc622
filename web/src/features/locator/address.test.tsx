import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeStore } from "../../test/fixtures";
import { addressLine, truncateAddress } from "../../lib/address";
import { AddressLine } from "./AddressLine";

describe("address line", () => {
  it("joins country display name, state and address with commas", () => {
    expect(addressLine(makeStore({ state: "NY", address: "1 Main St" }))).toBe("United States, NY, 1 Main St");
  });

  it("leaves out empty parts", () => {
    expect(addressLine(makeStore({ state: "", address: "1 Main St" }))).toBe("United States, 1 Main St");
  });

  it("keeps 80 characters as they are and cuts 81 to 80 plus ...", () => {
    const eighty = "a".repeat(80);
    expect(truncateAddress(eighty)).toEqual({ text: eighty, cut: false });
    expect(truncateAddress(`${eighty}b`)).toEqual({ text: `${eighty}...`, cut: true });
  });

  it("shows the cut text with an expand toggle", async () => {
    const address = "12345 A Very Long Street Name That Goes On And On, Building 7, Suite 1200";
    const store = makeStore({ address });
    const full = `United States, NY, ${address}`;
    expect(full.length).toBeGreaterThan(80);
    render(<AddressLine store={store} />);

    expect(screen.getByText(`${full.slice(0, 80)}...`)).toBeInTheDocument();
    const toggle = screen.getByRole("button", { name: "Show more" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    await userEvent.click(toggle);
    expect(screen.getByText(full)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Show less" })).toHaveAttribute("aria-expanded", "true");
  });

  it("has no toggle for a short address", () => {
    render(<AddressLine store={makeStore()} />);
    expect(screen.getByText("United States, NY, 1 Main St")).toBeInTheDocument();
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });
});
