import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { LicenceNumberForm } from "./LicenceNumberForm";

describe("LicenceNumberForm", () => {
  it("sends the number and says whether the registry lists it at the store's address", async () => {
    const calls = stubApi({
      "POST /api/business/stores/7/licence": (call) => ({
        body:
          (call.body as { number: string }).number === "2091234"
            ? { verified: true, message: "Licence verified: the registry lists this number at the store's address" }
            : { verified: false, message: "No active licence with this number is listed at the store's address in the registries we read" },
      }),
    });
    const user = userEvent.setup();
    renderAt(<LicenceNumberForm storeId={7} />);
    const field = screen.getByRole("textbox", { name: "Licence number" });
    await user.type(field, "999");
    await user.click(screen.getByRole("button", { name: "Check licence" }));
    expect(await screen.findByRole("status")).toHaveTextContent("No active licence with this number");
    await user.clear(field);
    await user.type(field, "2091234");
    await user.click(screen.getByRole("button", { name: "Check licence" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Licence verified");
    expect(calls.map((c) => c.body)).toEqual([{ number: "999" }, { number: "2091234" }]);
  }, 30_000);
});
