import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { stubApi } from "../../../test/fetch";
import { renderAt } from "../../../test/render";
import { PartnerReport } from "./PartnerReport";

const month = (m: string, n: number) => ({ month: m, views: n * 100, searches: n * 10, stores_shown: n * 150, panels: n * 4, directions: n * 2, buy: n });

describe("PartnerReport", () => {
  it("asks for the partner's last 12 months and shows each month's counts", async () => {
    const calls = stubApi({
      "GET /api/admin/partners/pt_0123456789abcdef/report": { body: { partner: "acme", months: [month("2026-12", 12), month("2026-11", 0)] } },
    });
    renderAt(<PartnerReport partnerId="pt_0123456789abcdef" />, "/admin");
    const december = await screen.findByRole("row", { name: /December 2026/ });
    expect(within(december).getAllByRole("cell").map((c) => c.textContent)).toEqual(["1,200", "120", "1,800", "48", "24", "12"]);
    expect(within(screen.getByRole("row", { name: /November 2026/ })).getAllByRole("cell").map((c) => c.textContent)).toEqual(["0", "0", "0", "0", "0", "0"]);
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Month", "Views", "Searches", "Stores shown", "Stores opened", "Directions", "Buy clicks"]);
    expect(calls[0]?.query.get("months")).toBe("12");
    expect(calls[0]?.credentials).toBe("include");
  });

  it("says why when the report cannot be read", async () => {
    stubApi({ "GET /api/admin/partners/pt_0123456789abcdef/report": { status: 404, body: { message: "No such partner." } } });
    renderAt(<PartnerReport partnerId="pt_0123456789abcdef" />, "/admin");
    expect(await screen.findByText(/Could not load the report: No such partner\./)).toBeInTheDocument();
  });
});
