import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { BusinessPage } from "./BusinessPage";
import { photoProblem } from "./PhotoUpload";
import { makeBusinessStore } from "./testing";

const account = { email: "owner@example.com", store_name: "Lone Star Vapes", email_verified: true };
const now = new Date("2026-11-23T12:00:00Z");
const jpeg = (size: number, name = "shop.jpg") => new File([new Uint8Array(size)], name, { type: "image/jpeg" });

describe("photoProblem", () => {
  it("checks type and size with the server's words", () => {
    expect(photoProblem(null)).toBe("Choose a photo to upload");
    expect(photoProblem({ type: "image/gif", size: 10 })).toBe("The photo must be a JPEG, PNG or WebP image");
    expect(photoProblem({ type: "image/webp", size: 8 * 1024 * 1024 + 1 })).toBe("The photo must be at most 8 MB");
    expect(photoProblem({ type: "image/png", size: 8 * 1024 * 1024 })).toBeNull();
  });
});

describe("Store photo", { timeout: 20_000 }, () => {
  it("refuses a wrong file in the browser, previews a good one, shows the server's refusal, then the new photo", async () => {
    let fail = true;
    const calls = stubApi({
      "GET /api/business/me": { body: { account } },
      "GET /api/business/stores": { body: { stores: [makeBusinessStore()] } },
      "POST /api/business/stores/5/photo": () => {
        if (fail) {
          fail = false;
          return { status: 400, body: { message: "The photo could not be read: the file is damaged or incomplete" } };
        }
        return { body: { image: "/photos/7/640.jpg", srcset: "/photos/7/320.jpg 320w, /photos/7/640.jpg 640w" } };
      },
    });
    const user = userEvent.setup({ applyAccept: false });
    renderAt(<BusinessPage now={now} />, "/business");
    const form = await screen.findByRole("form", { name: "Store photo" });
    expect(within(form).getByText("No photo yet.")).toBeInTheDocument();
    await user.click(within(form).getByRole("button", { name: "Upload photo" }));
    expect(within(form).getByText("Choose a photo to upload")).toBeInTheDocument();

    const input = within(form).getByLabelText("Choose a photo");
    await user.upload(input, new File(["GIF89a"], "shop.gif", { type: "image/gif" }));
    expect(within(form).getByText("The photo must be a JPEG, PNG or WebP image")).toBeInTheDocument();
    await user.upload(input, jpeg(8 * 1024 * 1024 + 1));
    expect(within(form).getByText("The photo must be at most 8 MB")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await user.upload(input, jpeg(2048));
    expect(await within(form).findByAltText("Preview of the chosen photo")).toHaveAttribute("src", expect.stringMatching(/^data:image\/jpeg;base64,/));
    await user.click(within(form).getByRole("button", { name: "Upload photo" }));
    expect(await within(form).findByText("The photo could not be read: the file is damaged or incomplete")).toBeInTheDocument();
    await user.click(within(form).getByRole("button", { name: "Upload photo" }));
    expect(await within(form).findByText("Photo uploaded. It is shown in the locator now.")).toBeInTheDocument();
    const current = within(form).getByAltText("Current store photo");
    expect(current).toHaveAttribute("src", "/photos/7/640.jpg");
    expect(current).toHaveAttribute("srcset", "/photos/7/320.jpg 320w, /photos/7/640.jpg 640w");
    const posts = calls.filter((c) => c.method === "POST");
    expect(posts.map((c) => c.body)).toEqual([
      { type: "image/jpeg", size: 2048 },
      { type: "image/jpeg", size: 2048 },
    ]);
    expect(posts.every((c) => c.credentials === "include")).toBe(true);
  });
});
