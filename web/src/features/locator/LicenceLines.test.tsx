import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { makeLicence, makeStore } from "../../test/fixtures";
import { LicenceLines } from "./LicenceLines";

const now = new Date("2026-11-24T12:00:00Z");

describe("LicenceLines", () => {
  it("shows the licence with a link to the registry's record", () => {
    const store = makeStore({
      licence: makeLicence({ record_url: "https://data.cityofnewyork.us/resource/w7w3-xahh.json?license_nbr=2091234" }),
      enforcement: [],
    });
    render(<LicenceLines store={store} now={now} />);
    expect(screen.getByText(/Licence verified · NYC Electronic Cigarette Retail Dealer #2091234 · expires Dec 31, 2026/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "registry record" })).toHaveAttribute("href", expect.stringContaining("license_nbr=2091234"));
  });

  it("warns of a No-Tobacco-Sale Order in force", () => {
    const store = makeStore({ licence: null, enforcement: [{ kind: "no_tobacco_sale_order", decided_on: "2026-11-01", until: "2026-11-30" }] });
    render(<LicenceLines store={store} now={now} />);
    expect(screen.getByRole("note")).toHaveTextContent("FDA No-Tobacco-Sale Order from Nov 1, 2026 until Nov 30, 2026");
  });

  it("shows nothing for a store no registry lists (nor for documents without the fields)", () => {
    const { container } = render(<LicenceLines store={makeStore({ licence: null, enforcement: [] })} now={now} />);
    expect(container).toBeEmptyDOMElement();
    const { container: old } = render(<LicenceLines store={makeStore()} now={now} />);
    expect(old).toBeEmptyDOMElement();
  });
});
