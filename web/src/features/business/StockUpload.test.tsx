import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { BusinessPage } from "./BusinessPage";
import { businessAccount, makeBusinessStore } from "./testing";

describe("The stock feed upload in the store dashboard", { timeout: 20_000 }, () => {
  it("sends the file as it is, a full feed when asked, and lists the refused rows", async () => {
    const feed = "store_code,id,availability\n5,nx-mango-5,in_stock\n9,nx-mango-5,in_stock\n";
    const calls = stubApi({
      "GET /api/business/me": { body: { account: businessAccount } },
      "GET /api/business/stores": { body: { stores: [makeBusinessStore()] } },
      "POST /api/business/stock/import": {
        body: { replace: true, rows: 1, stores: 1, removed: 2, failed: 1, errors: [{ line: 3, message: 'store_code "9" is not one of your stores' }], ignored: [] },
      },
    });
    const user = userEvent.setup();
    renderAt(<BusinessPage now={new Date("2026-12-03T12:00:00Z")} />, "/business");
    const section = await screen.findByRole("region", { name: "Upload a stock feed" });
    const import_ = within(section).getByRole("button", { name: "Import" });
    expect(import_).toBeDisabled();
    await user.upload(within(section).getByLabelText("Feed file"), new File([feed], "feed.csv", { type: "text/csv" }));
    await user.click(within(section).getByRole("checkbox", { name: /Full feed/ }));
    await user.click(import_);
    expect(await within(section).findByText("1 rows written, 2 removed, 1 refused.")).toBeInTheDocument();
    expect(within(section).getByRole("list", { name: "Refused rows" })).toHaveTextContent('Line 3: store_code "9" is not one of your stores');
    const post = calls.find((c) => c.method === "POST");
    expect(post?.query.get("replace")).toBe("true");
    expect(post?.query.get("file_name")).toBe("feed.csv");
    expect(post?.body).toBe(feed);
  });
});
