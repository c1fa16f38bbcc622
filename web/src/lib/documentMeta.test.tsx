import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useTitle } from "./documentMeta";

function Screen({ name }: { name: string }) {
  useTitle(name);
  return null;
}

describe("useTitle", () => {
  it("titles the document while the screen shows and puts the previous title back", () => {
    document.title = "Before";
    const { rerender, unmount } = render(<Screen name="Your profile" />);
    expect(document.title).toBe("Your profile · Store Locator");
    rerender(<Screen name="Page not found" />);
    expect(document.title).toBe("Page not found · Store Locator");
    unmount();
    expect(document.title).toBe("Before");
  });
});
