import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { stubApi } from "../../../test/fetch";
import { makePartner } from "../../../test/fixtures";
import { renderAt } from "../../../test/render";
import { fieldOfPartnerMessage } from "./PartnerForm";
import { PartnersPanel } from "./PartnersPanel";

const acme = makePartner();

describe("PartnersPanel", () => {
  it("adds a partner with its lists one per line, shows a refused field under it, then disables it", async () => {
    let partners: Record<string, unknown>[] = [];
    const sent: unknown[] = [];
    stubApi({
      "GET /api/admin/partners": () => ({ body: { partners } }),
      "POST /api/admin/partners": (call) => {
        const body = call.body as { allowed_origins: string[] };
        sent.push(body);
        if (body.allowed_origins.includes("http://shop.example")) return { status: 400, body: { message: 'allowed_origins: "http://shop.example" is not a site\'s origin' } };
        partners = [{ ...acme, ...body }];
        return { status: 201, body: { partner: partners[0] } };
      },
      "POST /api/admin/partners/pt_0123456789abcdef/disable": () => {
        partners = [{ ...partners[0], disabled: true }];
        return { body: { partner: partners[0] } };
      },
    });
    const user = userEvent.setup();
    renderAt(<PartnersPanel onUnauthorized={() => {}} />);
    expect(await screen.findByText("No partners yet.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Add a partner" }));
    const form = screen.getByRole("form", { name: "New partner" });
    await user.type(within(form).getByRole("textbox", { name: "Name" }), "Acme Vapes");
    const origins = within(form).getByRole("textbox", { name: "Sites that may show the widget" });
    await user.type(origins, "http://shop.example");
    await user.type(within(form).getByRole("textbox", { name: "Brand names" }), "Acme{Enter}{Enter} Zeta ");
    await user.click(within(form).getByRole("button", { name: "Add the partner" }));
    expect(await within(form).findByRole("alert")).toHaveTextContent("allowed_origins");
    expect(origins).toHaveAttribute("aria-invalid", "true");
    expect(sent[0]).toEqual({ name: "Acme Vapes", kind: "brand", allowed_origins: ["http://shop.example"], brands: ["Acme", "Zeta"], product_ids: [] });

    await user.clear(origins);
    await user.type(origins, "https://shop.example");
    await user.click(within(form).getByRole("button", { name: "Add the partner" }));
    expect(await screen.findByText("Added Acme Vapes.")).toBeInTheDocument();
    expect(await screen.findByText("Brand · acme-vapes · 1 site")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Disable Acme Vapes" }));
    expect(await screen.findByText("Brand · acme-vapes · disabled")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Disable Acme Vapes" })).toBeNull();
  });

  it("reads the field of a server message", () => {
    expect(fieldOfPartnerMessage("kind: one of brand, pos, chain.")).toBe("kind");
    expect(fieldOfPartnerMessage("product_ids: at most 1000 products.")).toBe("products");
    expect(fieldOfPartnerMessage("No such partner.")).toBeUndefined();
  });
});
