import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { stubApi } from "../../../test/fetch";
import { renderAt } from "../../../test/render";
import { ReportProblem } from "./ReportProblem";

const path = "/api/store/physical-store/7/reports";

describe("ReportProblem", () => {
  it("asks for a reason, sends the report and confirms it", async () => {
    const calls = stubApi({ [`POST ${path}`]: { status: 201, body: { message: "Thanks! We'll check this store.", report: { id: 1, status: "open" } } } });
    const user = userEvent.setup();
    renderAt(<ReportProblem storeId={7} storeName="Cloud Nine" />);
    await user.click(screen.getByRole("button", { name: "Report a problem" }));
    const dialog = await screen.findByRole("dialog", { name: "Report a problem" });
    expect(dialog).toHaveTextContent("What is wrong with Cloud Nine?");
    await user.click(screen.getByRole("button", { name: "Send report" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Choose what is wrong");
    expect(calls).toHaveLength(0);
    await user.click(screen.getByRole("radio", { name: "Wrong hours" }));
    await user.type(screen.getByRole("textbox", { name: /Note/ }), "  Closes at 8 now ");
    await user.click(screen.getByRole("button", { name: "Send report" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.getByRole("status")).toHaveTextContent("Thanks! We'll check this store.");
    expect(calls.map((c) => [c.method, c.path, c.body])).toEqual([["POST", path, { reason: "wrong_hours", note: "Closes at 8 now" }]]);
  });

  it("refuses a note over 500 characters before sending", async () => {
    const calls = stubApi({});
    const user = userEvent.setup();
    renderAt(<ReportProblem storeId={7} storeName="Cloud Nine" />);
    await user.click(screen.getByRole("button", { name: "Report a problem" }));
    await user.click(await screen.findByRole("radio", { name: "Other" }));
    const note = screen.getByRole("textbox", { name: /Note/ });
    await user.click(note);
    await user.paste("x".repeat(501));
    await user.click(screen.getByRole("button", { name: "Send report" }));
    expect(screen.getByRole("alert")).toHaveTextContent("The note should be at most 500 characters");
    expect(calls).toHaveLength(0);
  });

  it("shows the server's message when the report is refused", async () => {
    stubApi({ [`POST ${path}`]: { status: 429, body: { message: "Too many reports. Please try again later." } } });
    const user = userEvent.setup();
    renderAt(<ReportProblem storeId={7} storeName="Cloud Nine" />);
    await user.click(screen.getByRole("button", { name: "Report a problem" }));
    await user.click(await screen.findByRole("radio", { name: "Permanently closed" }));
    await user.click(screen.getByRole("button", { name: "Send report" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Too many reports. Please try again later.");
    expect(screen.getByRole("dialog")).toBeInTheDocument();
  });
});
